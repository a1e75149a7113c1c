//! A HAR 1.2 capture of Streamable HTTP traffic of the same shape:
//! interleaved sessions, each an initialize exchange, then tool calls whose
//! SSE responses carry progress and the result. An entry takes three
//! lines (its times, its request, its response), so a label's line says
//! which of its messages is meant: the request, or the response events.
//!
//! Entries overlap in time (a call lasts longer than the gap to the next
//! entry), as in a real capture: a cancellation posted during a call
//! crosses its response, and a call started during another can share its
//! progress token.

use std::io::{self, Write};

use serde_json::Value;

use super::{text, timestamp, GeneratedStats, GeneratorConfig, LabelKind, Sink, TOOLS};

use LabelKind::{Race, Violation};

/// The violations a HAR capture carries, one kind per operation.
#[derive(Debug, Clone, Copy)]
enum Injection {
    ProgressNotIncreasing,
    ProgressAfterResponse,
    ProgressUnknownToken,
    ProgressTokenReused,
    DuplicateResponse,
    CancelUnknownRequest,
    RequestIdReused,
    ProgressMalformed,
    ProgressWrongDirection,
    ResponseUnknownId,
    CancelMalformed,
    CancelInitialize,
    CancelDuplicate,
}

impl Injection {
    const ALL: [Injection; 13] = [
        Injection::ProgressNotIncreasing,
        Injection::ProgressAfterResponse,
        Injection::ProgressUnknownToken,
        Injection::ProgressTokenReused,
        Injection::DuplicateResponse,
        Injection::CancelUnknownRequest,
        Injection::RequestIdReused,
        Injection::ProgressMalformed,
        Injection::ProgressWrongDirection,
        Injection::ResponseUnknownId,
        Injection::CancelMalformed,
        Injection::CancelInitialize,
        Injection::CancelDuplicate,
    ];

    fn rule(self) -> &'static str {
        match self {
            Injection::ProgressNotIncreasing => "progress-not-increasing",
            Injection::ProgressAfterResponse => "progress-after-terminal",
            Injection::ProgressUnknownToken => "progress-unknown-token",
            Injection::ProgressTokenReused => "progress-token-reused",
            Injection::DuplicateResponse => "duplicate-response",
            Injection::CancelUnknownRequest => "cancel-unknown-request",
            Injection::RequestIdReused => "request-id-reused",
            Injection::ProgressMalformed => "progress-malformed",
            Injection::ProgressWrongDirection => "progress-wrong-direction",
            Injection::ResponseUnknownId => "response-unknown-id",
            Injection::CancelMalformed => "cancel-malformed",
            Injection::CancelInitialize => "cancel-initialize",
            Injection::CancelDuplicate => "cancel-duplicate",
        }
    }
}

/// The lines of an entry's request and response.
struct Lines {
    request: u64,
    response: u64,
}

/// How long a call's exchange lasts, and the gap between entries (ms).
const CALL_MS: u64 = 25;
const GAP_MS: u64 = 7;

struct Generator<'a, W: Write> {
    sink: Sink<'a, W>,
    /// Part of every session id, so captures of two seeds never mix.
    seed: u64,
}

/// Writes a HAR capture as configured.
pub fn generate_har<W: Write>(config: &GeneratorConfig, out: &mut W) -> io::Result<GeneratedStats> {
    generate_har_with_truth(config, out, &mut io::sink())
}

/// Writes a HAR capture as configured, and its truth to `truth`.
pub fn generate_har_with_truth<W: Write>(
    config: &GeneratorConfig,
    out: &mut W,
    truth: &mut dyn Write,
) -> io::Result<GeneratedStats> {
    let mut g = Generator {
        sink: Sink::new(config, out, truth),
        seed: config.seed,
    };
    // The next request id of each session; 0 before its handshake.
    let mut next_id = vec![0u64; config.sessions.max(1)];
    let head = b"{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"mcp-lint generate\",\"version\":\"1\"},\"entries\":[";
    g.sink.write(head)?;
    g.sink.stats.lines = 1;
    while config.wants_more(&g.sink.stats) {
        let session = g.sink.rng.below(next_id.len() as u64) as usize;
        let id = &mut next_id[session];
        if *id == 0 {
            g.handshake(session)?;
            *id = 1;
        } else if g.sink.rng.chance(config.violation_rate) {
            let injection = g.sink.rng.pick(&Injection::ALL);
            g.inject(session, id, injection)?;
        } else {
            g.operation(session, id)?;
        }
    }
    g.sink.write(b"\n]}}\n")?;
    g.sink.stats.lines += 1;
    g.sink.finish()
}

// Messages are written with format! rather than built as JSON values:
// generating is then cheap enough for a debug build's tests.

/// `text` as a JSON string.
fn quoted(text: &str) -> String {
    Value::from(text).to_string()
}

fn progress(token: &str, value: u64, total: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"{token}","progress":{value},"total":{total}}}}}"#
    )
}

/// A cancellation of the request whose id is the JSON text `id`.
fn cancel(id: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"user pressed stop"}}}}"#
    )
}

/// Progress `1..=updates` on `token`.
fn progress_run(token: &str, updates: u64) -> Vec<String> {
    (1..=updates)
        .map(|step| progress(token, step, updates))
        .collect()
}

impl<W: Write> Generator<'_, W> {
    fn session_id(&self, session: usize) -> String {
        format!("session-{session:04}-{:08x}", self.seed)
    }

    fn label(&mut self, line: u64, session: usize, kind: LabelKind, rule: &str) -> io::Result<()> {
        let name = self.session_id(session);
        self.sink.label(line, &name, kind, rule)
    }

    /// Writes one entry, `GAP_MS` after the previous one, on three lines:
    /// its times, its request, its response; returns the last two.
    fn entry(&mut self, time: u64, request: String, response: String) -> io::Result<Lines> {
        self.sink.clock_ms += GAP_MS;
        let receive = time.saturating_sub(2);
        let text = format!(
            "{}\n{{\"startedDateTime\":\"{}\",\"time\":{time},\"timings\":{{\"send\":1,\"wait\":1,\"receive\":{receive}}},\n\"request\":{request},\n\"response\":{response}}}",
            // The first entry follows the head directly.
            if self.sink.stats.lines == 1 { "" } else { "," },
            timestamp(self.sink.clock_ms),
        );
        self.sink.write(text.as_bytes())?;
        self.sink.stats.lines += 3;
        Ok(Lines {
            request: self.sink.stats.lines - 1,
            response: self.sink.stats.lines,
        })
    }

    fn headers(&self, session: Option<usize>) -> String {
        let mut h = String::from(
            r#"[{"name":"Content-Type","value":"application/json"},{"name":"Accept","value":"application/json, text/event-stream"}"#,
        );
        if let Some(session) = session {
            h.push_str(&format!(
                r#",{{"name":"Mcp-Session-Id","value":"{}"}},{{"name":"MCP-Protocol-Version","value":"2025-06-18"}}"#,
                self.session_id(session)
            ));
        }
        h.push(']');
        h
    }

    fn request(&self, session: Option<usize>, body: &str) -> String {
        format!(
            r#"{{"method":"POST","url":"http://127.0.0.1:8000/mcp","headers":{},"postData":{{"mimeType":"application/json","text":{}}}}}"#,
            self.headers(session),
            quoted(body)
        )
    }

    fn handshake(&mut self, session: usize) -> io::Result<()> {
        let sid = self.session_id(session);
        let request = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-client","version":"1.4.2"}}}"#;
        let response = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench-server","version":"0.9.0"}}}"#;
        let response = format!(
            r#"{{"status":200,"headers":[{{"name":"Content-Type","value":"application/json"}},{{"name":"Mcp-Session-Id","value":"{sid}"}}],"content":{{"mimeType":"application/json","text":{}}}}}"#,
            quoted(response)
        );
        self.entry(4, self.request(None, request), response)?;
        self.notify(
            session,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        )
        .map(drop)
    }

    /// A notification, accepted with 202; returns its line.
    fn notify(&mut self, session: usize, note: &str) -> io::Result<u64> {
        let response = r#"{"status":202,"headers":[],"content":{"mimeType":"","size":0}}"#;
        let lines = self.entry(1, self.request(Some(session), note), response.into())?;
        Ok(lines.request)
    }

    /// A tool call whose SSE response carries `events` and lasts `time` ms.
    fn call(
        &mut self,
        session: usize,
        id: u64,
        token: &str,
        events: &[String],
        time: u64,
    ) -> io::Result<Lines> {
        let tool = self.sink.rng.pick(TOOLS);
        let query = text(&mut self.sink.rng, 3, 6);
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{"query":"{query}"}},"_meta":{{"progressToken":"{token}"}}}}}}"#
        );
        let body: String = events
            .iter()
            .map(|e| format!("event: message\r\ndata: {e}\r\n\r\n"))
            .collect();
        let response = format!(
            r#"{{"status":200,"headers":[{{"name":"Content-Type","value":"text/event-stream"}}],"content":{{"mimeType":"text/event-stream","text":{}}}}}"#,
            quoted(&body)
        );
        self.entry(time, self.request(Some(session), &request), response)
    }

    fn result(&mut self, id: u64) -> String {
        let text = text(&mut self.sink.rng, 4, 8);
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{text}"}}],"isError":false}}}}"#
        )
    }

    /// An ordinary call with `1..=updates` progress and its result.
    fn plain_call(
        &mut self,
        session: usize,
        id: u64,
        updates: u64,
        time: u64,
    ) -> io::Result<Lines> {
        let token = format!("tok-{id}");
        let mut events = progress_run(&token, updates);
        events.push(self.result(id));
        self.call(session, id, &token, &events, time)
    }

    /// A tool call; a few are cancelled while running (the response
    /// crosses the cancellation) or just after their response.
    fn operation(&mut self, session: usize, next_id: &mut u64) -> io::Result<()> {
        let id = take(next_id);
        let updates = 1 + self.sink.rng.below(4);
        match self.sink.rng.below(32) {
            0 => {
                let call = self.plain_call(session, id, updates, CALL_MS)?.response;
                self.notify(session, &cancel(&id.to_string()))?;
                self.label(call, session, Race, "response-after-cancel")?;
                self.label(call, session, Race, "progress-after-terminal")
            }
            1 => {
                self.plain_call(session, id, updates, 3)?;
                let line = self.notify(session, &cancel(&id.to_string()))?;
                self.label(line, session, Race, "cancel-after-response")
            }
            _ => self.plain_call(session, id, updates, CALL_MS).map(drop),
        }
    }

    fn inject(
        &mut self,
        session: usize,
        next_id: &mut u64,
        injection: Injection,
    ) -> io::Result<()> {
        let id = take(next_id);
        let token = format!("tok-{id}");
        let updates = 2 + self.sink.rng.below(3);
        let mut events = progress_run(&token, updates);
        let result = self.result(id);
        let line = match injection {
            Injection::ProgressNotIncreasing => {
                let value = updates - self.sink.rng.below(2);
                events.push(progress(&token, value, updates));
                events.push(result);
                self.call(session, id, &token, &events, CALL_MS)?.response
            }
            Injection::ProgressAfterResponse => {
                events.push(result);
                events.push(progress(&token, updates + 1, updates + 1));
                self.call(session, id, &token, &events, CALL_MS)?.response
            }
            Injection::ProgressUnknownToken => {
                let ghost = self.sink.ghost();
                events.push(progress(&format!("ghost-token-{ghost}"), 1, 2));
                events.push(result);
                self.call(session, id, &token, &events, CALL_MS)?.response
            }
            Injection::DuplicateResponse => {
                events.push(result.clone());
                events.push(result);
                self.call(session, id, &token, &events, CALL_MS)?.response
            }
            Injection::ProgressMalformed => {
                events.push(format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"{token}","progress":"half"}}}}"#
                ));
                events.push(result);
                self.call(session, id, &token, &events, CALL_MS)?.response
            }
            Injection::ResponseUnknownId => {
                let ghost = self.sink.ghost();
                events.push(format!(
                    r#"{{"jsonrpc":"2.0","id":"ghost-{ghost}","result":{{}}}}"#
                ));
                events.push(result);
                self.call(session, id, &token, &events, CALL_MS)?.response
            }
            Injection::ProgressWrongDirection => {
                // The client posts progress for its own running call.
                events.push(result);
                self.call(session, id, &token, &events, CALL_MS)?;
                self.notify(session, &progress(&token, 1, 2))?
            }
            Injection::CancelMalformed => self.notify(
                session,
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"user pressed stop"}}"#,
            )?,
            Injection::CancelInitialize => self.notify(session, &cancel("0"))?,
            Injection::CancelDuplicate => {
                // Cancelled twice while running; the response crosses both.
                events.push(result);
                let call = self.call(session, id, &token, &events, CALL_MS)?.response;
                self.notify(session, &cancel(&id.to_string()))?;
                self.label(call, session, Race, "response-after-cancel")?;
                self.label(call, session, Race, "progress-after-terminal")?;
                self.notify(session, &cancel(&id.to_string()))?
            }
            Injection::CancelUnknownRequest => {
                let ghost = self.sink.ghost();
                self.notify(session, &cancel(&format!("\"ghost-{ghost}\"")))?
            }
            Injection::RequestIdReused => {
                // The session's first call: answered by now, or still running.
                if id == 1 {
                    self.plain_call(session, 1, updates, CALL_MS)?;
                }
                let again = format!("tok-1-again-{id}");
                let mut events = progress_run(&again, 2);
                events.push(self.result(1));
                self.call(session, 1, &again, &events, CALL_MS)?.request
            }
            Injection::ProgressTokenReused => {
                // The next call starts while this one runs, with its token.
                events.push(result);
                self.call(session, id, &token, &events, CALL_MS)?;
                let second = take(next_id);
                let mut events = progress_run(&token, 3);
                events.push(self.result(second));
                self.call(session, second, &token, &events, CALL_MS)?
                    .request
            }
        };
        self.label(line, session, Violation, injection.rule())
    }
}

fn take(next_id: &mut u64) -> u64 {
    *next_id += 1;
    *next_id - 1
}
