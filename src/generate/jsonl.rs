//! The canonical JSON-lines form: one message per line, with its sender and
//! session. Every operation of a session is written whole before the next
//! one of that session starts, so what an injection causes stays in it.

use std::io::{self, Write};

use super::{text, timestamp, GeneratedStats, GeneratorConfig, LabelKind, Sink, TOOLS};

use LabelKind::{Race, Violation};

/// The violations a canonical trace carries, one kind per operation.
#[derive(Debug, Clone, Copy)]
enum Injection {
    ProgressNotIncreasing,
    ProgressAfterResponse,
    ProgressAfterReadCancel,
    ProgressUnknownToken,
    ProgressWrongDirection,
    ProgressTokenReused,
    ProgressMalformed,
    ProgressTokenInvalidType,
    CancelUnknownRequest,
    CancelWrongDirection,
    CancelInitialize,
    CancelMalformed,
    CancelDuplicate,
    ResponseAfterReadCancel,
    DuplicateResponse,
    ResponseUnknownId,
    RequestIdReused,
    RequestIdReusedWhileOpen,
    RequestIdInvalid,
    UnansweredRequest,
    NotificationWithId,
}

impl Injection {
    const ALL: [Injection; 21] = [
        Injection::ProgressNotIncreasing,
        Injection::ProgressAfterResponse,
        Injection::ProgressAfterReadCancel,
        Injection::ProgressUnknownToken,
        Injection::ProgressWrongDirection,
        Injection::ProgressTokenReused,
        Injection::ProgressMalformed,
        Injection::ProgressTokenInvalidType,
        Injection::CancelUnknownRequest,
        Injection::CancelWrongDirection,
        Injection::CancelInitialize,
        Injection::CancelMalformed,
        Injection::CancelDuplicate,
        Injection::ResponseAfterReadCancel,
        Injection::DuplicateResponse,
        Injection::ResponseUnknownId,
        Injection::RequestIdReused,
        Injection::RequestIdReusedWhileOpen,
        Injection::RequestIdInvalid,
        Injection::UnansweredRequest,
        Injection::NotificationWithId,
    ];

    fn rule(self) -> &'static str {
        match self {
            Injection::ProgressNotIncreasing => "progress-not-increasing",
            Injection::ProgressAfterResponse | Injection::ProgressAfterReadCancel => {
                "progress-after-terminal"
            }
            Injection::ProgressUnknownToken => "progress-unknown-token",
            Injection::ProgressWrongDirection => "progress-wrong-direction",
            Injection::ProgressTokenReused => "progress-token-reused",
            Injection::ProgressMalformed => "progress-malformed",
            Injection::ProgressTokenInvalidType => "progress-token-invalid-type",
            Injection::CancelUnknownRequest => "cancel-unknown-request",
            Injection::CancelWrongDirection => "cancel-wrong-direction",
            Injection::CancelInitialize => "cancel-initialize",
            Injection::CancelMalformed => "cancel-malformed",
            Injection::CancelDuplicate => "cancel-duplicate",
            Injection::ResponseAfterReadCancel => "response-after-cancel",
            Injection::DuplicateResponse => "duplicate-response",
            Injection::ResponseUnknownId => "response-unknown-id",
            Injection::RequestIdReused | Injection::RequestIdReusedWhileOpen => "request-id-reused",
            Injection::RequestIdInvalid => "request-id-invalid",
            Injection::UnansweredRequest => "unanswered-request",
            Injection::NotificationWithId => "notification-with-id",
        }
    }
}

/// How an ordinary tool call ends; the last three are races the spec allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    Answered,
    /// Cancelled, and the server stops without answering.
    Cancelled,
    /// The response crosses the cancellation.
    AnsweredAfterCancel,
    /// The cancellation crosses the response.
    CancelledAfterAnswer,
    /// Progress, then the response, cross the cancellation.
    ProgressAfterCancel,
}

struct SessionState {
    name: String,
    next_id: u64,
    next_server_id: u64,
    started: bool,
}

impl SessionState {
    fn take_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id - 1
    }
}

/// Who sends a line.
const CLIENT: &str = "client";
const SERVER: &str = "server";

struct Generator<'a, W: Write> {
    sink: Sink<'a, W>,
}

/// Writes a trace as configured.
pub fn generate<W: Write>(config: &GeneratorConfig, out: &mut W) -> io::Result<GeneratedStats> {
    generate_with_truth(config, out, &mut io::sink())
}

/// Writes a trace as configured, and its truth to `truth` (see [`super::Label`]).
pub fn generate_with_truth<W: Write>(
    config: &GeneratorConfig,
    out: &mut W,
    truth: &mut dyn Write,
) -> io::Result<GeneratedStats> {
    let mut sessions: Vec<SessionState> = (0..config.sessions.max(1))
        .map(|i| SessionState {
            name: format!("session-{i}"),
            next_id: 1,
            next_server_id: 1,
            started: false,
        })
        .collect();
    let mut g = Generator {
        sink: Sink::new(config, out, truth),
    };
    while config.wants_more(&g.sink.stats) {
        let index = g.sink.rng.below(sessions.len() as u64) as usize;
        let s = &mut sessions[index];
        if !s.started {
            s.started = true;
            g.handshake(s)?;
        } else if g.sink.rng.chance(config.violation_rate) {
            let injection = g.sink.rng.pick(&Injection::ALL);
            g.inject(s, injection)?;
        } else {
            g.operation(s)?;
        }
    }
    g.sink.finish()
}

fn call(id: u64, tool: &str, query: &str, token: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{"query":"{query}"}},"_meta":{{"progressToken":{token}}}}}}}"#
    )
}

fn progress(token: &str, value: &str, total: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{token},"progress":{value},"total":{total},"message":"working"}}}}"#
    )
}

fn cancel(id: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"user pressed stop"}}}}"#
    )
}

fn result(id: &str, text: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{text}"}}],"isError":false}}}}"#
    )
}

fn request(id: &str, method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
}

fn empty_result(id: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)
}

/// Every tool the generated calls name, each taking a string `query`, so
/// that the calls are of listed tools with valid arguments.
fn tool_list() -> String {
    let tools: Vec<String> = TOOLS
        .iter()
        .map(|name| {
            format!(
                r#"{{"name":"{name}","description":"Run {name}","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string"}}}}}}}}"#
            )
        })
        .collect();
    tools.join(",")
}

fn token_of(id: u64) -> String {
    format!("\"tok-{id}\"")
}

impl<W: Write> Generator<'_, W> {
    /// Writes one line; returns its number.
    fn line(&mut self, from: &str, s: &SessionState, msg: &str) -> io::Result<u64> {
        self.sink.clock_ms += 3;
        let line = format!(
            "{{\"ts\":\"{}\",\"from\":\"{from}\",\"session\":\"{}\",\"msg\":{msg}}}\n",
            timestamp(self.sink.clock_ms),
            s.name
        );
        self.sink.out.write_all(line.as_bytes())?;
        self.sink.stats.bytes += line.len() as u64;
        self.sink.stats.lines += 1;
        Ok(self.sink.stats.lines)
    }

    fn label(
        &mut self,
        line: u64,
        s: &SessionState,
        kind: LabelKind,
        rule: &str,
    ) -> io::Result<()> {
        self.sink.label(line, &s.name, kind, rule)
    }

    fn ghost(&mut self, prefix: &str) -> String {
        format!("\"{prefix}-{}\"", self.sink.ghost())
    }

    fn handshake(&mut self, s: &SessionState) -> io::Result<()> {
        self.line(CLIENT, s, r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{},"roots":{"listChanged":true}},"clientInfo":{"name":"bench-client","version":"1.4.2"}}}"#)?;
        self.line(SERVER, s, r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"logging":{}},"serverInfo":{"name":"bench-server","version":"0.9.0"}}}"#)?;
        self.line(
            CLIENT,
            s,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        )?;
        Ok(())
    }

    /// One ordinary operation: a tool listing, a ping from the server, a log
    /// message, or (most often) a tool call.
    fn operation(&mut self, s: &mut SessionState) -> io::Result<()> {
        match self.sink.rng.below(10) {
            0 => self.tools_list(s).map(drop),
            1 => self.server_ping(s, |_, _| Ok(())),
            2 => {
                let level = self.sink.rng.pick(&["info", "debug", "warning"]);
                let data = text(&mut self.sink.rng, 8, 1);
                self.line(SERVER, s, &format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"{level}","logger":"bench","data":"{data}"}}}}"#))
                    .map(drop)
            }
            _ => {
                let ending = match self.sink.rng.below(32) {
                    0..=3 => Ending::Cancelled,
                    4 => Ending::AnsweredAfterCancel,
                    5 => Ending::CancelledAfterAnswer,
                    6 => Ending::ProgressAfterCancel,
                    7 => return self.token_after_cancel(s),
                    8..=11 => return self.overlapping_calls(s),
                    _ => Ending::Answered,
                };
                self.tool_call(s, ending)
            }
        }
    }

    /// `tools/list` and its answer; returns the id and the answer's line.
    fn tools_list(&mut self, s: &mut SessionState) -> io::Result<(u64, u64)> {
        let id = s.take_id();
        self.line(CLIENT, s, &request(&id.to_string(), "tools/list"))?;
        let line = self.line(
            SERVER,
            s,
            &format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{}]}}}}"#,
                tool_list()
            ),
        )?;
        Ok((id, line))
    }

    /// A ping from the server; `meanwhile` writes between it and the answer.
    fn server_ping(
        &mut self,
        s: &mut SessionState,
        meanwhile: impl FnOnce(&mut Self, &SessionState) -> io::Result<()>,
    ) -> io::Result<()> {
        let id = format!("\"srv-{}\"", s.next_server_id);
        s.next_server_id += 1;
        self.line(SERVER, s, &request(&id, "ping"))?;
        meanwhile(self, s)?;
        self.line(CLIENT, s, &empty_result(&id)).map(drop)
    }

    /// A ping from the client, answered: proof the server read what came before.
    fn client_ping(&mut self, s: &mut SessionState) -> io::Result<()> {
        let id = s.take_id().to_string();
        self.line(CLIENT, s, &request(&id, "ping"))?;
        self.line(SERVER, s, &empty_result(&id)).map(drop)
    }

    /// Sends a tool call with progress token `token`; returns its id.
    fn start_call(&mut self, s: &mut SessionState, id: u64, token: &str) -> io::Result<u64> {
        let tool = self.sink.rng.pick(TOOLS);
        let query = text(&mut self.sink.rng, 6, 20);
        self.line(CLIENT, s, &call(id, tool, &query, token))
    }

    fn answer(&mut self, s: &SessionState, id: u64) -> io::Result<u64> {
        let text = text(&mut self.sink.rng, 12, 30);
        self.line(SERVER, s, &result(&id.to_string(), &text))
    }

    /// Progress `from..=to` of `total` on `token`.
    fn progress_run(
        &mut self,
        s: &SessionState,
        token: &str,
        from: u64,
        to: u64,
        total: u64,
    ) -> io::Result<()> {
        for step in from..=to {
            self.line(SERVER, s, &progress(token, &step.to_string(), total))?;
        }
        Ok(())
    }

    fn tool_call(&mut self, s: &mut SessionState, ending: Ending) -> io::Result<()> {
        let id = s.take_id();
        let token = token_of(id);
        self.start_call(s, id, &token)?;
        let updates = self.sink.rng.below(4);
        self.progress_run(s, &token, 1, updates, updates + 1)?;
        let cancel_id = id.to_string();
        match ending {
            Ending::Answered => self.answer(s, id).map(drop),
            Ending::Cancelled => self.line(CLIENT, s, &cancel(&cancel_id)).map(drop),
            Ending::AnsweredAfterCancel => {
                self.line(CLIENT, s, &cancel(&cancel_id))?;
                let line = self.answer(s, id)?;
                self.label(line, s, Race, "response-after-cancel")
            }
            Ending::CancelledAfterAnswer => {
                self.answer(s, id)?;
                let line = self.line(CLIENT, s, &cancel(&cancel_id))?;
                self.label(line, s, Race, "cancel-after-response")
            }
            Ending::ProgressAfterCancel => {
                self.line(CLIENT, s, &cancel(&cancel_id))?;
                let step = (updates + 1).to_string();
                let line = self.line(SERVER, s, &progress(&token, &step, updates + 1))?;
                self.label(line, s, Race, "progress-after-terminal")?;
                let line = self.answer(s, id)?;
                self.label(line, s, Race, "response-after-cancel")
            }
        }
    }

    /// Two calls in flight at once, their progress interleaved; the first
    /// may be cancelled, and its answer then crosses the cancellation even
    /// after the second's (sent before the cancellation, it proves nothing).
    fn overlapping_calls(&mut self, s: &mut SessionState) -> io::Result<()> {
        let (first, second) = (s.take_id(), s.take_id());
        let (a, b) = (token_of(first), token_of(second));
        self.start_call(s, first, &a)?;
        self.start_call(s, second, &b)?;
        for step in 1..=2 {
            self.progress_run(s, &a, step, step, 2)?;
            self.progress_run(s, &b, step, step, 2)?;
        }
        let cancelled = self.sink.rng.below(4) == 0;
        if cancelled {
            self.line(CLIENT, s, &cancel(&first.to_string()))?;
        }
        self.answer(s, second)?;
        let line = self.answer(s, first)?;
        if cancelled {
            self.label(line, s, Race, "response-after-cancel")?;
        }
        Ok(())
    }

    /// A call is cancelled and the next one reuses its token, as it may;
    /// the cancelled call's progress crosses the cancellation, then the
    /// new call's own starts lower.
    fn token_after_cancel(&mut self, s: &mut SessionState) -> io::Result<()> {
        let (first, second) = (s.take_id(), s.take_id());
        let token = token_of(first);
        self.start_call(s, first, &token)?;
        self.progress_run(s, &token, 1, 3, 9)?;
        self.line(CLIENT, s, &cancel(&first.to_string()))?;
        self.start_call(s, second, &token)?;
        let line = self.line(SERVER, s, &progress(&token, "4", 9))?;
        self.label(line, s, Race, "progress-after-terminal")?;
        self.progress_run(s, &token, 1, 2, 2)?;
        self.answer(s, second).map(drop)
    }

    /// Writes an operation carrying `injection`, and labels it.
    fn inject(&mut self, s: &mut SessionState, injection: Injection) -> io::Result<()> {
        let line = match injection {
            Injection::ProgressNotIncreasing => self.progress_not_increasing(s)?,
            Injection::ProgressAfterResponse => self.progress_after_response(s)?,
            Injection::ProgressAfterReadCancel => self.after_read_cancel(s, true)?,
            Injection::ResponseAfterReadCancel => self.after_read_cancel(s, false)?,
            Injection::ProgressUnknownToken => {
                let token = self.ghost("ghost-token");
                self.line(SERVER, s, &progress(&token, "1", 2))?
            }
            // The client sends progress for its own request.
            Injection::ProgressWrongDirection => {
                self.call_with(s, CLIENT, |token| progress(token, "1", 2))?
            }
            Injection::ProgressTokenReused => self.token_reused(s)?,
            Injection::ProgressMalformed => {
                self.call_with(s, SERVER, |token| progress(token, "\"half\"", 2))?
            }
            Injection::ProgressTokenInvalidType => self.token_invalid_type(s)?,
            Injection::CancelUnknownRequest => {
                let id = self.ghost("ghost");
                self.line(CLIENT, s, &cancel(&id))?
            }
            Injection::CancelWrongDirection => self.cancel_wrong_direction(s)?,
            Injection::CancelInitialize => self.line(CLIENT, s, &cancel("0"))?,
            Injection::CancelMalformed => self.line(CLIENT, s, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"user pressed stop"}}"#)?,
            Injection::CancelDuplicate => self.cancel_duplicate(s)?,
            Injection::DuplicateResponse => {
                let (id, _) = self.tools_list(s)?;
                self.line(SERVER, s, &format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{}]}}}}"#, tool_list()))?
            }
            Injection::ResponseUnknownId => {
                let id = self.ghost("ghost");
                self.line(SERVER, s, &empty_result(&id))?
            }
            Injection::RequestIdReused => self.id_reused(s)?,
            Injection::RequestIdReusedWhileOpen => self.id_reused_while_open(s)?,
            Injection::RequestIdInvalid => self.id_invalid(s)?,
            Injection::UnansweredRequest => {
                let id = s.take_id().to_string();
                self.line(CLIENT, s, &request(&id, "tools/list"))?
            }
            Injection::NotificationWithId => self.notification_with_id(s)?,
        };
        self.label(line, s, Violation, injection.rule())
    }

    /// A notification sent with an id; the server rejects it, says
    /// nothing, or answers it with a result (a violation of its own).
    fn notification_with_id(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let id = s.take_id().to_string();
        let line = self.line(CLIENT, s, &request(&id, "notifications/roots/list_changed"))?;
        match self.sink.rng.below(3) {
            0 => {}
            1 => {
                self.line(SERVER, s, &format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32600,"message":"Invalid Request"}}}}"#))?;
            }
            _ => {
                let answer = self.line(SERVER, s, &empty_result(&id))?;
                self.label(answer, s, Violation, "response-to-notification")?;
            }
        }
        Ok(line)
    }

    /// A request with a fractional id; the server rejects it with a null
    /// id, or repeats the id it got, or says nothing.
    fn id_invalid(&mut self, s: &SessionState) -> io::Result<u64> {
        let line = self.line(CLIENT, s, &request("1.5", "tools/list"))?;
        let echo = ["", "null", "1.5"][self.sink.rng.below(3) as usize];
        if !echo.is_empty() {
            self.line(SERVER, s, &format!(r#"{{"jsonrpc":"2.0","id":{echo},"error":{{"code":-32600,"message":"Invalid Request"}}}}"#))?;
        }
        Ok(line)
    }

    fn progress_not_increasing(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let id = s.take_id();
        let token = token_of(id);
        self.start_call(s, id, &token)?;
        let updates = 2 + self.sink.rng.below(3);
        self.progress_run(s, &token, 1, updates, updates + 1)?;
        // A repeat, or a step back.
        let value = updates - self.sink.rng.below(2);
        let line = self.line(
            SERVER,
            s,
            &progress(&token, &value.to_string(), updates + 1),
        )?;
        self.answer(s, id)?;
        Ok(line)
    }

    fn progress_after_response(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let id = s.take_id();
        let token = token_of(id);
        self.start_call(s, id, &token)?;
        self.progress_run(s, &token, 1, 1, 3)?;
        self.answer(s, id)?;
        self.line(SERVER, s, &progress(&token, "2", 3))
    }

    /// The client cancels a call, then the server answers a later ping, so
    /// it had read the cancellation; then it sends progress (`progress`) or
    /// the response for the cancelled call anyway.
    fn after_read_cancel(&mut self, s: &mut SessionState, progress_too: bool) -> io::Result<u64> {
        let id = s.take_id();
        let token = token_of(id);
        self.start_call(s, id, &token)?;
        self.progress_run(s, &token, 1, 1, 3)?;
        self.line(CLIENT, s, &cancel(&id.to_string()))?;
        self.client_ping(s)?;
        if progress_too {
            self.line(SERVER, s, &progress(&token, "2", 3))
        } else {
            self.answer(s, id)
        }
    }

    /// A call during which `from` sends one message made from its token;
    /// returns that message's line.
    fn call_with(
        &mut self,
        s: &mut SessionState,
        from: &str,
        message: impl FnOnce(&str) -> String,
    ) -> io::Result<u64> {
        let id = s.take_id();
        let token = token_of(id);
        self.start_call(s, id, &token)?;
        let line = self.line(from, s, &message(&token))?;
        self.answer(s, id)?;
        Ok(line)
    }

    /// A second call carries the token of a running one; the server's
    /// progress for both interleaves on it, and either may end first.
    fn token_reused(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let (first, second) = (s.take_id(), s.take_id());
        let token = token_of(first);
        self.start_call(s, first, &token)?;
        self.progress_run(s, &token, 1, 2, 6)?;
        let line = self.start_call(s, second, &token)?;
        // First's 3, second's 1, first's 4, second's 2: neither increases.
        for value in [3, 1, 4, 2] {
            self.line(SERVER, s, &progress(&token, &value.to_string(), 6))?;
        }
        let (ends, stays) = if self.sink.rng.below(2) == 0 {
            (first, second)
        } else {
            (second, first)
        };
        self.answer(s, ends)?;
        // Certain again: the rest is the other call's own, and increases.
        self.progress_run(s, &token, 5, 6, 6)?;
        self.answer(s, stays)?;
        Ok(line)
    }

    /// A call with a fractional token; the server's progress may repeat it.
    fn token_invalid_type(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let id = s.take_id();
        let line = self.start_call(s, id, "1.5")?;
        let updates = self.sink.rng.below(3);
        self.progress_run(s, "1.5", 1, updates, updates + 1)?;
        self.answer(s, id)?;
        Ok(line)
    }

    fn cancel_wrong_direction(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let id = format!("\"srv-{}\"", s.next_server_id);
        let mut line = 0;
        self.server_ping(s, |g, s| {
            line = g.line(CLIENT, s, &cancel(&id))?;
            Ok(())
        })?;
        Ok(line)
    }

    fn cancel_duplicate(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let id = s.take_id();
        self.start_call(s, id, &token_of(id))?;
        self.line(CLIENT, s, &cancel(&id.to_string()))?;
        self.line(CLIENT, s, &cancel(&id.to_string()))
    }

    /// An answered id comes back in a later request.
    fn id_reused(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let (id, _) = self.tools_list(s)?;
        let id = id.to_string();
        let line = self.line(CLIENT, s, &request(&id, "tools/list"))?;
        self.line(
            SERVER,
            s,
            &format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{}]}}}}"#,
                tool_list()
            ),
        )?;
        Ok(line)
    }

    /// Two running calls share an id (and not a token): their progress
    /// interleaves, and the answers cannot say which call they end.
    fn id_reused_while_open(&mut self, s: &mut SessionState) -> io::Result<u64> {
        let id = s.take_id();
        let (first, second) = (token_of(id), self.ghost("tok-again"));
        self.start_call(s, id, &first)?;
        self.progress_run(s, &first, 1, 1, 3)?;
        let line = self.start_call(s, id, &second)?;
        self.progress_run(s, &second, 1, 1, 3)?;
        self.progress_run(s, &first, 2, 2, 3)?;
        self.answer(s, id)?;
        self.progress_run(s, &second, 2, 2, 3)?;
        self.answer(s, id)?;
        Ok(line)
    }
}
