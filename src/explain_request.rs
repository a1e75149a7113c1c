//! `mcp-lint explain FILE --request ID`: one request's story, in trace order
//! (the request, its progress, cancellation, response, and what came after),
//! with the time of each step and since the one before, then the findings
//! about it. It reads the events the decoder makes and the findings the
//! engine makes; it judges nothing itself.

use std::io::Write;
use std::path::PathBuf;

use crate::cli::{self, EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE};
use crate::decode::{self, timestamp};
use crate::diagnostic::{Diagnostic, Severity};
use crate::event::{Body, Event, Key, KeyField, Outcome, Payload, RequestId, Side, Transport};
use crate::sanitize::escape_controls;

/// What `mcp-lint explain` was asked about.
#[derive(Debug, clap::Args)]
pub struct Options {
    /// The trace (any input format mcp-lint reads).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The request's id: a number, or a string (quote it as JSON, '"7"', for
    /// a string of digits).
    #[arg(long, value_name = "ID", value_parser = parse_id)]
    pub request: RequestId,
    /// The session the request belongs to (the file's default session when absent).
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// Who sent the request, when both sides used the id.
    #[arg(long, value_enum)]
    pub from: Option<Sender>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Sender {
    Client,
    Server,
}

impl Sender {
    fn side(self) -> Side {
        match self {
            Sender::Client => Side::Client,
            Sender::Server => Side::Server,
        }
    }
}

/// An id as typed: an integer is a number id, JSON text a string id, and
/// anything else the string itself.
fn parse_id(text: &str) -> Result<RequestId, String> {
    let key = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Number(n)) => match n.as_i64() {
            Some(n) => Key::Int(n),
            None => Key::BigInt(text.into()),
        },
        Ok(serde_json::Value::String(s)) => Key::Str(s.into()),
        _ => Key::Str(text.into()),
    };
    Ok(RequestId(key))
}

/// The request as found: where it is in the events, who sent it, its method
/// and its progress token.
struct Found<'a> {
    index: usize,
    request: &'a Event,
    method: &'a str,
    token: Option<&'a KeyField<crate::event::ProgressToken>>,
}

pub fn run(options: &Options) -> u8 {
    match explain(options, &mut std::io::stdout().lock()) {
        Ok(code) => code,
        Err(message) => {
            cli::error(message);
            EXIT_TROUBLE
        }
    }
}

fn explain(options: &Options, out: &mut dyn Write) -> Result<u8, String> {
    let name = escape_controls(&options.file.to_string_lossy()).into_owned();
    let text = crate::input::read_whole(&options.file).map_err(|e| format!("{name}: {e}"))?;
    let format = decode::detect(&text);
    let events = decode::decode_document(&text, 0, format);
    let found = find(&events, options).ok_or_else(|| {
        format!(
            "{name}: no request with id {} {}",
            escape_controls(&options.request.to_string()),
            where_(options)
        )
    })?;
    let story: Vec<&Event> = story(&events, &found, &options.request);
    let findings = findings_about(&text, format, &found, &story, &options.request);
    let written = write_story(out, &name, &found, &story, &findings);
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            return Err(format!("cannot write: {e}"))
        }
        _ => {}
    }
    Ok(
        match findings.iter().any(|d| d.severity == Severity::Error) {
            true => EXIT_FINDINGS,
            false => EXIT_CLEAN,
        },
    )
}

fn where_(options: &Options) -> String {
    let session = match &options.session {
        Some(s) => format!("in session {}", escape_controls(s)),
        None => "in the file's default session".into(),
    };
    match options.from {
        Some(from) => format!("{session} from the {}", from.side()),
        None => session,
    }
}

/// The first request with the id, in the session and from the side asked for.
fn find<'a>(events: &'a [Event], options: &Options) -> Option<Found<'a>> {
    events.iter().enumerate().find_map(|(index, event)| {
        let Payload::Message(message) = &event.payload else {
            return None;
        };
        let Body::Request {
            id: KeyField::Valid(id),
            method,
            params,
        } = &message.body
        else {
            return None;
        };
        let from_ok = options
            .from
            .is_none_or(|f| event.from.is_none_or(|side| side == f.side()));
        let ours = *id == options.request
            && event.session.as_deref() == options.session.as_deref()
            && from_ok;
        ours.then_some(Found {
            index,
            request: event,
            method,
            token: params.meta_progress_token.as_ref(),
        })
    })
}

/// The request and every later event of its session about it: progress on
/// its token, a cancellation or a response naming its id, and the session
/// closing. A later request reusing the id ends the story (it is shown: what
/// follows may answer either).
fn story<'a>(events: &'a [Event], found: &Found<'a>, id: &RequestId) -> Vec<&'a Event> {
    let mut story = vec![found.request];
    let session = events[found.index + 1..]
        .iter()
        .filter(|event| event.session == found.request.session);
    for event in session {
        match about(event, found, id) {
            Step::Unrelated => {}
            Step::Part => story.push(event),
            Step::Reused => {
                story.push(event);
                break;
            }
        }
    }
    story
}

enum Step {
    Unrelated,
    Part,
    /// The same side sends another request with the same id.
    Reused,
}

/// How a later event of the session relates to the request.
fn about(event: &Event, found: &Found, id: &RequestId) -> Step {
    let from_peer = match (event.from, found.request.from) {
        (Some(from), Some(requester)) => from != requester,
        // A bare trace does not say who sent what; both sides are shown.
        _ => true,
    };
    let from_requester = !from_peer || event.from.is_none();
    let part = match &event.payload {
        Payload::Message(message) => match &message.body {
            Body::Request {
                id: KeyField::Valid(reused),
                ..
            } if reused == id && from_requester => return Step::Reused,
            Body::Response {
                id: Some(KeyField::Valid(answered)),
                ..
            } => answered == id && from_peer,
            Body::Notification { method, params } if method == "notifications/cancelled" => {
                params.request_id.as_ref() == Some(&KeyField::Valid(id.clone())) && from_requester
            }
            Body::Notification { method, params } if method == "notifications/progress" => {
                params.progress_token.is_some()
                    && params.progress_token.as_ref() == found.token
                    && from_peer
            }
            _ => false,
        },
        Payload::Transport(Transport::Closed) => true,
        _ => false,
    };
    match part {
        true => Step::Part,
        false => Step::Unrelated,
    }
}

/// The findings about the request: those on a line of its story, and those
/// naming its id in its session while the story lasts.
fn findings_about(
    bytes: &[u8],
    format: decode::Format,
    found: &Found,
    story: &[&Event],
    id: &RequestId,
) -> Vec<Diagnostic> {
    let mut linter = crate::lint::Linter::new(crate::rules::engine(), Some(format));
    linter.lint_bytes(0, bytes);
    let (diagnostics, _) = linter.engine.finish();
    let session = found.request.session.as_deref();
    let lines = story.first().zip(story.last());
    let (first, last) = lines.map_or((0, 0), |(a, b)| (a.location.line, b.location.line));
    diagnostics
        .into_iter()
        .filter(|d| d.session.as_deref() == session)
        .filter(|d| {
            let during = (first..=last).contains(&d.location.line);
            (d.request_id.as_ref() == Some(id) && during)
                || story.iter().any(|e| e.location.line == d.location.line)
        })
        .collect()
}

fn write_story(
    out: &mut dyn Write,
    name: &str,
    found: &Found,
    story: &[&Event],
    findings: &[Diagnostic],
) -> std::io::Result<()> {
    let request = found.request;
    let from = request.from.map_or("either side".into(), |s| s.to_string());
    writeln!(
        out,
        "Request {} ({}) from {from}{} in {name}:",
        escape_controls(&request_id_of(request)),
        escape_controls(found.method),
        request
            .session
            .as_deref()
            .map(|s| format!(", session {}", escape_controls(s)))
            .unwrap_or_default()
    )?;
    let mut previous = request.time_ms;
    for event in story {
        let time = event.time_ms.map(timestamp::format_rfc3339_ms);
        let delta = match (previous, event.time_ms) {
            (Some(before), Some(now)) if !std::ptr::eq(*event, request) => delta(now - before),
            _ => String::new(),
        };
        previous = event.time_ms.or(previous);
        writeln!(
            out,
            "  line {:<6} {:<24}  {:>10}  {:<6}  {}",
            event.location.line,
            time.as_deref().unwrap_or("-"),
            delta,
            event.from.map_or("?".into(), |s| s.to_string()),
            escape_controls(&step(event, request))
        )?;
    }
    write_findings(out, findings)
}

fn write_findings(out: &mut dyn Write, findings: &[Diagnostic]) -> std::io::Result<()> {
    if findings.is_empty() {
        return writeln!(out, "No findings about it.");
    }
    writeln!(out, "Findings:")?;
    for d in findings {
        writeln!(
            out,
            "  line {}: {}[{}]: {}",
            d.location.line,
            d.severity,
            d.rule.id,
            std::borrow::Cow::<str>::Owned(d.text(&escape_controls))
        )?;
        for related in &d.related {
            writeln!(
                out,
                "    line {}: {}",
                related.location.line,
                std::borrow::Cow::<str>::Owned(related.message.render(&escape_controls))
            )?;
        }
    }
    Ok(())
}

fn request_id_of(event: &Event) -> String {
    match &event.payload {
        Payload::Message(message) => match &message.body {
            Body::Request {
                id: KeyField::Valid(id),
                ..
            } => id.to_string(),
            _ => String::new(),
        },
        _ => String::new(),
    }
}

/// The time since the step before, in the unit that reads best.
fn delta(ms: f64) -> String {
    match ms.abs() {
        ms_abs if ms_abs < 1000.0 => format!("+{ms:.0} ms"),
        _ => format!("+{:.3} s", ms / 1000.0),
    }
}

/// What one step of the story is, in words.
fn step(event: &Event, story_start: &Event) -> String {
    let Payload::Message(message) = &event.payload else {
        return "closed its end".into();
    };
    let params = message.members.params.as_ref().and_then(|p| p.value());
    let member = |name: &str| params.as_ref().and_then(|p| p.get(name)).cloned();
    match &message.body {
        Body::Request { method, .. } if !std::ptr::eq(event, story_start) => {
            format!("request {method} reuses the id (the story ends here)")
        }
        Body::Request { method, .. } => format!("request {method}"),
        Body::Notification { method, .. } if method == "notifications/progress" => {
            let shown = |v: Option<serde_json::Value>| v.map_or("?".into(), |v| v.to_string());
            let total = member("total").map(|t| format!("/{t}")).unwrap_or_default();
            let text = member("message")
                .map(|m| format!(" {m}"))
                .unwrap_or_default();
            format!("progress {}{total}{text}", shown(member("progress")))
        }
        Body::Notification { .. } => {
            let reason = member("reason")
                .map(|r| format!(": {r}"))
                .unwrap_or_default();
            format!("cancelled{reason}")
        }
        Body::Response {
            outcome: Outcome::Error { code },
            ..
        } => {
            let error = message.members.error.as_ref().and_then(|e| e.value());
            let text = error
                .as_ref()
                .and_then(|e| e.get("message"))
                .map(|m| format!(" {m}"))
                .unwrap_or_default();
            format!(
                "error response {}{text}",
                code.map_or("?".into(), |c| c.to_string())
            )
        }
        _ => "result".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_read_as_typed() {
        assert_eq!(parse_id("7").unwrap(), RequestId(Key::Int(7)));
        assert_eq!(parse_id("\"7\"").unwrap(), RequestId(Key::Str("7".into())));
        assert_eq!(parse_id("abc").unwrap(), RequestId(Key::Str("abc".into())));
    }

    #[test]
    fn deltas_read_in_milliseconds_then_seconds() {
        assert_eq!(delta(200.0), "+200 ms");
        assert_eq!(delta(1250.0), "+1.250 s");
    }
}
