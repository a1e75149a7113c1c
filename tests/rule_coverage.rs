//! Every rule fires the same way in every format that can show its case:
//! each ```jsonl example of a rule page (bad and good) and each trace of
//! `testdata/races/` is rewritten, line for line, as a Claude Desktop log, a
//! VS Code output channel, an mcpsnoop capture, supergateway logs (JSON and
//! text), Go SDK, Python SDK and MCPSpy logs (where they can say it) and an
//! Inspector export, and must give the same findings (rule, severity, line)
//! as the canonical trace;
//! as a HAR capture it must give the same rules on the same messages
//! (severities may be lower there: every message travels on a stream of its
//! own).
//!
//! Left out, because the other formats cannot express them: the examples of
//! rules about the canonical envelope or bare lines themselves
//! (`invalid-json`, `invalid-envelope`, `direction-ambiguous`), traces that
//! name streams (no log format records one), and for VS Code, which logs one
//! server per channel, traces with several sessions. The cases each rule's
//! unit tests pin are not rewritten: the page examples stand for the rule.

use std::path::Path;

use mcp_lint::decode::Format;
use serde_json::Value;

mod common;

/// The rules whose cases are about the canonical envelope or bare lines
/// themselves, which no other format can say.
const CANONICAL_ONLY: &[&str] = &["invalid-json", "invalid-envelope", "direction-ambiguous"];

/// The ```jsonl examples, bad and good, of every rule page other formats can
/// express, as (name, trace).
fn page_examples() -> Vec<(String, String)> {
    let mut cases = Vec::new();
    for rule in mcp_lint::rules::ALL {
        let id = rule.meta().id;
        if CANONICAL_ONLY.contains(&id) {
            continue;
        }
        let page = std::fs::read_to_string(common::pages_dir().join(format!("{id}.md"))).unwrap();
        let jsonl = common::examples(&page)
            .into_iter()
            .filter(|e| e.extension == "jsonl");
        for (i, example) in jsonl.enumerate() {
            cases.push((
                format!("rules/{id}.md (jsonl example {}, {})", i + 1, example.kind),
                example.body,
            ));
        }
    }
    cases
}

/// The canonical traces of `testdata/races/`, as (name, trace).
fn races() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/races");
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let name = format!(
                "testdata/races/{}",
                path.file_name().unwrap().to_string_lossy()
            );
            cases.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    cases.sort();
    cases
}

/// One canonical line, when every other format can say it too.
enum Line {
    Message {
        from: String,
        session: Option<String>,
        msg: String,
    },
    Closed {
        from: String,
        session: Option<String>,
    },
    NotProtocol {
        session: Option<String>,
        text: String,
    },
}

fn parse(text: &str) -> Option<Vec<Line>> {
    let mut lines = Vec::new();
    for raw in text.lines() {
        let value: Value = serde_json::from_str(raw).ok()?;
        let object = value.as_object()?;
        // The message exactly as written (a Value would round large integers).
        #[derive(serde::Deserialize)]
        struct Exact<'a> {
            #[serde(borrow)]
            msg: Option<&'a serde_json::value::RawValue>,
        }
        let exact: Exact = serde_json::from_str(raw).ok()?;
        // Streams, and times that rules read (the rewritten formats make up their own).
        if object.contains_key("stream") || object.contains_key("ts") {
            return None;
        }
        let from = object.get("from")?.as_str()?.to_string();
        let session = object
            .get("session")
            .and_then(Value::as_str)
            .map(String::from);
        lines.push(
            match (
                object.get("msg"),
                object.get("event").and_then(Value::as_str),
            ) {
                (Some(_), None) => Line::Message {
                    from,
                    session,
                    msg: exact.msg?.get().to_string(),
                },
                (None, Some("closed")) => Line::Closed { from, session },
                (None, Some("not-protocol")) if from == "server" => Line::NotProtocol {
                    session,
                    text: object.get("text")?.as_str()?.to_string(),
                },
                _ => return None,
            },
        );
    }
    Some(lines)
}

fn claude_log(lines: &[Line]) -> String {
    let name = |session: &Option<String>| session.clone().unwrap_or_else(|| "server".into());
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let ts = format!("2025-07-12T05:51:{:02}.{:03}Z", (i / 1000) % 60, i % 1000);
        let body = match line {
            Line::Message { from, session, msg } => {
                format!("[{}] [info] Message from {from}: {msg}", name(session))
            }
            Line::Closed { from, session } => {
                let side = if from == "client" { "Client" } else { "Server" };
                format!("[{}] [info] {side} transport closed", name(session))
            }
            Line::NotProtocol { session, text } => {
                let head: String = text.chars().take(10).collect();
                format!(
                    "[{}] [error] Unexpected token '{}', {head:?}... is not valid JSON",
                    name(session),
                    text.chars().next().unwrap_or('x')
                )
            }
        };
        out.push_str(&format!("{ts} {body} {{ metadata: undefined }}\n"));
    }
    out
}

fn vscode_log(lines: &[Line]) -> Option<String> {
    let mut sessions: Vec<&Option<String>> = lines
        .iter()
        .map(|l| match l {
            Line::Message { session, .. }
            | Line::Closed { session, .. }
            | Line::NotProtocol { session, .. } => session,
        })
        .collect();
    sessions.dedup();
    if sessions.len() > 1 {
        return None;
    }
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let ts = format!("2026-07-24 02:03:{:02}.{:03}", (i / 1000) % 60, i % 1000);
        match line {
            Line::Message { from, msg, .. } => {
                let arrow = if from == "client" {
                    "editor -> server"
                } else {
                    "server -> editor"
                };
                out.push_str(&format!("{ts} [debug] [{arrow}] {msg}\n"));
            }
            // The channel has no line for these: a neutral line keeps the numbering.
            Line::Closed { .. } => {
                out.push_str(&format!("{ts} [info] Connection state: Stopped\n"))
            }
            Line::NotProtocol { .. } => return None,
        }
    }
    Some(out)
}

fn mcpsnoop(lines: &[Line]) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let session = |s: &Option<String>| s.clone().unwrap_or_else(|| "stdio-1".into());
        let frame = match line {
            Line::Message {
                from,
                session: s,
                msg,
            } => format!(
                r#"{{"session_id":{:?},"seq":{},"direction":"{}","transport":"stdio","raw":{msg}}}"#,
                session(s),
                i + 1,
                if from == "client" { "c2s" } else { "s2c" }
            ),
            Line::Closed { session: s, .. } => format!(
                r#"{{"session_id":{:?},"seq":{},"direction":"meta","transport":"stdio","raw":{{"event":"exit"}}}}"#,
                session(s),
                i + 1
            ),
            Line::NotProtocol { session: s, text } => format!(
                r#"{{"session_id":{:?},"seq":{},"direction":"s2c","transport":"stdio","text":{}}}"#,
                session(s),
                i + 1,
                Value::from(text.as_str())
            ),
        };
        out.push_str(&frame);
        out.push('\n');
    }
    out
}

/// supergateway's JSON log: what the client sends in the sentence (as the
/// gateway writes it, `JSON.stringify`), what the server sends in `data`.
fn supergateway(lines: &[Line]) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let time = format!("2026-03-02T10:00:{:02}.{:03}Z", (i / 1000) % 60, i % 1000);
        let session = |s: &Option<String>| {
            s.as_ref()
                .map_or(String::new(), |s| format!(" (session {s})"))
        };
        let (level, msg, data) = match line {
            Line::Message {
                from,
                session: s,
                msg,
            } if from == "client" => ("info", format!("SSE → Child{}: {msg}", session(s)), None),
            Line::Message {
                session: s, msg, ..
            } => (
                "info",
                format!("Child → SSE{}:", session(s)),
                Some(msg.as_str()),
            ),
            Line::Closed { from, session: s } if from == "client" => {
                ("info", format!("Client disconnected{}", session(s)), None)
            }
            Line::Closed { session: s, .. } => (
                "error",
                format!("Child exited{}: code=1, signal=null", session(s)),
                None,
            ),
            Line::NotProtocol { session: s, text } => (
                "error",
                format!("Child non-JSON{}: {text}", session(s)),
                None,
            ),
        };
        let head = format!(
            r#"{{"time":"{time}","level":"{level}","msg":{}"#,
            Value::from(msg)
        );
        match data {
            Some(data) => out.push_str(&format!("{head},\"data\":{data}}}\n")),
            None => out.push_str(&format!("{head}}}\n")),
        }
    }
    out
}

/// supergateway's text log, with the server's messages printed as JSON (as
/// its Streamable HTTP gateway does; JSON is also what `util.inspect` reads as).
fn supergateway_text(lines: &[Line]) -> String {
    let mut out = String::new();
    for line in lines {
        let session = |s: &Option<String>| {
            s.as_ref()
                .map_or(String::new(), |s| format!(" (session {s})"))
        };
        let text = match line {
            Line::Message {
                from,
                session: s,
                msg,
            } if from == "client" => {
                format!("SSE → Child{}: {msg}", session(s))
            }
            Line::Message {
                session: s, msg, ..
            } => format!("Child → SSE{}: {msg}", session(s)),
            Line::Closed { from, session: s } if from == "client" => {
                format!("Client disconnected{}", session(s))
            }
            Line::Closed { session: s, .. } => {
                format!("Child exited{}: code=1, signal=null", session(s))
            }
            Line::NotProtocol { session: s, text } => {
                format!("Child non-JSON{}: {text}", session(s))
            }
        };
        out.push_str(&format!("[supergateway] {text}\n"));
    }
    out
}

/// The Python SDK's DEBUG log of an SSE server: the JSON it receives, the SSE
/// chunks it sends, as Python bytes literals. It names no session and logs
/// neither closes nor stray output, so only fixtures of one session of
/// messages can be said.
fn python_sdk_log(lines: &[Line]) -> Option<String> {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let Line::Message {
            from,
            session: None,
            msg,
        } = line
        else {
            return None;
        };
        let literal = msg.replace('\\', "\\\\").replace('\'', "\\'");
        let time = format!("2025-04-16 06:13:{:02},{:03}", (i / 1000) % 60, i % 1000);
        out.push_str(&if from == "client" {
            format!("{time} - mcp.server.sse - DEBUG - Received JSON: b'{literal}'\n")
        } else {
            format!("{time} - sse_starlette.sse - DEBUG - chunk: b'event: message\\r\\ndata: {literal}\\r\\n\\r\\n'\n")
        });
    }
    Some(out)
}

/// The Go SDK's LoggingTransport around the client: what it writes is the
/// client's, what it reads the server's. The log names no side, so only
/// fixtures of one session whose first message is the client's initialize
/// (which tells the sides apart) and that hold only messages can be said.
fn go_sdk_log(lines: &[Line]) -> Option<String> {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let Line::Message { from, session, msg } = line else {
            return None;
        };
        let starts_with_initialize = from == "client" && msg.contains("\"initialize\"");
        if session.is_some() || (i == 0 && !starts_with_initialize) {
            return None;
        }
        let verb = if from == "client" { "write" } else { "read" };
        out.push_str(&format!("{verb}: {msg}\n"));
    }
    Some(out)
}

/// MCPSpy's JSON lines over stdio: one pair of processes per session, the
/// client's the one that sends initialize. Only fixtures whose every session
/// opens with the client's initialize, and that hold only messages, can be said.
fn mcpspy(lines: &[Line]) -> Option<String> {
    let mut pids: Vec<&Option<String>> = Vec::new();
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let Line::Message { from, session, msg } = line else {
            return None;
        };
        let n = match pids.iter().position(|s| *s == session) {
            Some(n) => n,
            None if from == "client" && msg.contains("\"initialize\"") => {
                pids.push(session);
                pids.len() - 1
            }
            None => return None,
        };
        let (client, server) = (100 + 2 * n, 101 + 2 * n);
        let (from_pid, to_pid) = if from == "client" {
            (client, server)
        } else {
            (server, client)
        };
        out.push_str(&format!(
            r#"{{"timestamp":"2025-08-01T09:03:{:02}.{:03}Z","transport_type":"stdio","stdio_transport":{{"from_pid":{from_pid},"from_comm":"a","to_pid":{to_pid},"to_comm":"b"}},"type":"request","error":{{}},"raw":{}}}"#,
            (i / 1000) % 60,
            i % 1000,
            Value::from(msg.as_str())
        ));
        out.push('\n');
    }
    Some(out)
}

/// The cases other formats can express, as (name, trace, its lines).
/// Whether the trace shows the client closing its end.
fn client_closes(lines: &[Line]) -> bool {
    lines
        .iter()
        .any(|line| matches!(line, Line::Closed { from, .. } if from == "client"))
}

fn comparable_cases() -> Vec<(String, String, Vec<Line>)> {
    let cases = page_examples().into_iter().chain(races());
    cases
        .filter_map(|(name, text)| parse(&text).map(|lines| (name, text, lines)))
        .collect()
}

/// The fewest cases each format must be compared on, a little under what the
/// pages and races give today, so that a parser or filter that silently drops
/// cases fails: for each log format ...
const FLOOR_LOG_FORMATS: usize = 55;
/// ... and for the captures of one session (Inspector export, HAR).
const FLOOR_CAPTURES: usize = 50;

/// How many cases each format was compared on; each must be at least `floor`.
fn assert_compared(compared: &[(&str, usize)], floor: usize) {
    for (format, count) in compared {
        println!("{format}: {count} cases compared");
        assert!(*count >= floor, "only {count} cases compared as {format}");
    }
}

fn findings(trace: &str, format: Format) -> Vec<String> {
    mcp_lint::lint_with(trace, Some(format), mcp_lint::rules::engine())
        .iter()
        .map(|d| format!("{}: {}[{}]", d.location.line, d.severity, d.rule.id))
        .collect()
}

#[test]
fn rules_fire_alike_in_every_line_format() {
    let mut compared = [
        ("claude-log", 0),
        ("mcpsnoop", 0),
        ("vscode-log", 0),
        ("supergateway", 0),
        ("supergateway text", 0),
        ("go-sdk-log", 0),
        ("mcpspy", 0),
        ("python-sdk-log", 0),
    ];
    for (name, canonical, lines) in comparable_cases() {
        let want = findings(&canonical, Format::Canonical);
        let rewritten = [
            (Format::ClaudeLog, Some(claude_log(&lines))),
            (Format::Mcpsnoop, Some(mcpsnoop(&lines))),
            (Format::VscodeLog, vscode_log(&lines)),
            (Format::Supergateway, Some(supergateway(&lines))),
            (Format::Supergateway, Some(supergateway_text(&lines))),
            (Format::GoSdkLog, go_sdk_log(&lines)),
            (Format::Mcpspy, mcpspy(&lines)),
            (Format::PythonSdkLog, python_sdk_log(&lines)),
        ];
        for ((format_name, count), (format, text)) in compared.iter_mut().zip(rewritten) {
            let Some(text) = text else { continue };
            // Of these formats, only Claude's log says that the client closed its end.
            if client_closes(&lines) && format != Format::ClaudeLog {
                continue;
            }
            assert_eq!(
                findings(&text, format),
                want,
                "{name} as {format_name}:\n{text}"
            );
            *count += 1;
        }
    }
    assert_compared(&compared, FLOOR_LOG_FORMATS);
}

/// The canonical cases that a capture of one session can express: only
/// messages, one session.
fn messages_of_one_session(lines: &[Line]) -> Option<Vec<(&str, &str)>> {
    let mut sessions = Vec::new();
    let mut messages = Vec::new();
    for line in lines {
        let Line::Message { from, session, msg } = line else {
            return None;
        };
        if !sessions.contains(&session) {
            sessions.push(session);
        }
        messages.push((from.as_str(), msg.as_str()));
    }
    (sessions.len() == 1).then_some(messages)
}

/// An Inspector history export with one entry per message, one per line,
/// in the canonical order (entry N is on line N + 1).
fn inspector(messages: &[(&str, &str)]) -> String {
    let entries: Vec<String> = messages
        .iter()
        .enumerate()
        .map(|(i, (from, msg))| {
            let value: Value = serde_json::from_str(msg).unwrap();
            let direction = if value.get("method").is_none() {
                "response"
            } else if value.get("id").is_some() {
                "request"
            } else {
                "notification"
            };
            format!(
                r#"{{"id":"e{i}","timestamp":"2026-03-17T10:00:{:02}.{:03}Z","direction":"{direction}","origin":"{from}","message":{msg}}}"#,
                (i / 1000) % 60,
                i % 1000
            )
        })
        .collect();
    format!("[\n{}\n]\n", entries.join(",\n"))
}

/// A HAR capture with one entry per message, one per line (entry N is on
/// line N + 1): a client message is a POST, a server message an SSE event of
/// a GET stream of its own. Every message is on its own stream, so findings
/// whose severity rests on the order of one stream may be lower than in the
/// canonical trace; which rules fire, and where, must not change.
fn har(messages: &[(&str, &str)]) -> String {
    let entries: Vec<String> = messages
        .iter()
        .enumerate()
        .map(|(i, (from, msg))| {
            let started = format!("2026-11-30T07:00:{:02}.{:03}Z", (i / 1000) % 60, i % 1000);
            let headers = r#"[{"name":"Mcp-Session-Id","value":"s-1"}]"#;
            let body = Value::from(msg.to_string());
            if *from == "client" {
                format!(
                    r#"{{"startedDateTime":"{started}","time":0,"request":{{"method":"POST","url":"http://h/mcp","headers":{headers},"postData":{{"mimeType":"application/json","text":{body}}}}},"response":{{"status":202,"headers":[],"content":{{"mimeType":""}}}}}}"#
                )
            } else {
                let sse = Value::from(format!("data: {msg}\n\n"));
                format!(
                    r#"{{"startedDateTime":"{started}","time":0,"request":{{"method":"GET","url":"http://h/mcp","headers":{headers}}},"response":{{"status":200,"headers":[],"content":{{"mimeType":"text/event-stream","text":{sse}}}}}}}"#
                )
            }
        })
        .collect();
    format!(
        "{{\"log\":{{\"version\":\"1.2\",\"entries\":[\n{}\n]}}}}\n",
        entries.join(",\n")
    )
}

/// Findings as (line in the capture, rule), the canonical line N being entry N.
/// `compared` names the rule a finding is compared as, or leaves it out.
fn findings_by_entry(
    trace: &str,
    format: Format,
    compared: impl Fn(&'static str) -> Option<&'static str>,
) -> Vec<String> {
    let offset = if format == Format::Canonical { 0 } else { 1 };
    mcp_lint::lint_with(trace, Some(format), mcp_lint::rules::engine())
        .iter()
        .filter_map(|d| {
            Some(format!(
                "{}: [{}]",
                d.location.line - offset,
                compared(d.rule.id)?
            ))
        })
        .collect()
}

#[test]
fn rules_fire_alike_in_inspector_exports_and_har_captures() {
    let mut compared = 0;
    for (name, canonical, lines) in comparable_cases() {
        let Some(messages) = messages_of_one_session(&lines) else {
            continue;
        };
        // The same findings, with their severities, in an Inspector export.
        let want: Vec<String> = findings(&canonical, Format::Canonical);
        assert_eq!(
            findings(&inspector(&messages), Format::Inspector)
                .iter()
                .map(|f| {
                    let (line, rest) = f.split_once(": ").unwrap();
                    format!("{}: {rest}", line.parse::<u64>().unwrap() - 1)
                })
                .collect::<Vec<_>>(),
            want,
            "{name} as an Inspector export"
        );
        // The same rules on the same messages in a HAR capture; the HTTP
        // rules judge the synthetic exchanges themselves and are left out.
        // A response repeated on two streams (every server message of the
        // capture has its own) is the HTTP form of a duplicate response.
        let protocol_rule = |id: &'static str| {
            let family = mcp_lint::rules::find(id).map(|rule| rule.meta.family);
            match id {
                "http-no-broadcast" => Some("duplicate-response"),
                _ if family == Some(mcp_lint::rule::Family::Http) => None,
                _ => Some(id),
            }
        };
        assert_eq!(
            findings_by_entry(&har(&messages), Format::Har, protocol_rule),
            findings_by_entry(&canonical, Format::Canonical, protocol_rule),
            "{name} as a HAR capture"
        );
        compared += 1;
    }
    // Both formats are compared on the same cases.
    assert_compared(
        &[("inspector", compared), ("har", compared)],
        FLOOR_CAPTURES,
    );
}
