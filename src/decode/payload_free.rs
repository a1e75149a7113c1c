//! Message summaries without a payload, as Claude Desktop logs them since
//! mid-2026 (its "payload-free" lines):
//!
//! ```text
//! method="initialize" id=0 params
//! method="notifications/initialized"
//! id=0 result
//! ```
//!
//! The method, the id and whether the message is a request, notification or
//! response are known; the members named at the end (`params`, `result`,
//! `error`) are not shown. The message is marked incomplete, so that no rule
//! concludes anything from a member it cannot see.

use serde_json::value::RawValue;

use super::json::{key_of, method_name};
use crate::event::{Body, KeyField, Members, Message, Outcome, Params, RequestId, Unreadable};

/// What a summary says: its method, its id, and the members it names.
#[derive(Debug, Default)]
struct Summary<'a> {
    method: Option<String>,
    id: Option<&'a RawValue>,
    error: bool,
}

/// Whether the text after `Message from client: ` is a summary rather than JSON.
/// Whether `text` is a summary this module reads (for `mcp-lint redact`,
/// which keeps it: it holds only a method, an id and keywords).
pub(crate) fn is_readable_summary(text: &str) -> bool {
    is_summary(text) && summary(text).is_ok()
}

pub(super) fn is_summary(text: &str) -> bool {
    text.starts_with("method=\"") || text.starts_with("id=")
}

/// Reads a summary that starts at byte `column` of its line.
pub(super) fn message(text: &str, column: usize) -> Result<Message, Unreadable> {
    let summary = summary(text).map_err(|at| {
        Unreadable::Json(format!(
            "the message summary cannot be read (column {})",
            column + at + 1
        ))
    })?;
    let id = match summary.id.map(key_of) {
        None => None,
        Some(Ok(key)) => Some(KeyField::Valid(RequestId(key))),
        Some(Err(kind)) => Some(KeyField::Invalid(kind)),
    };
    let body = match (summary.method, id) {
        (Some(method), Some(id)) => Body::Request {
            id,
            method: method_name(method.into()),
            params: Params::default(),
        },
        (Some(method), None) => Body::Notification {
            method: method_name(method.into()),
            params: Params::default(),
        },
        (None, id) => Body::Response {
            id,
            outcome: if summary.error {
                Outcome::Error { code: None }
            } else {
                Outcome::Result {
                    protocol_version: None,
                }
            },
        },
    };
    Ok(Message {
        body,
        problems: Vec::new(),
        batch: None,
        members: Members::default(),
        incomplete: true,
    })
}

/// The parts of a summary, or the byte offset where it stops making sense.
fn summary(text: &str) -> Result<Summary<'_>, usize> {
    let mut summary = Summary::default();
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        let word_len = if let Some(value) = rest.strip_prefix("method=") {
            let (method, len) = json_value::<String>(value).ok_or(at + "method=".len())?;
            summary.method = Some(method);
            "method=".len() + len
        } else if let Some(value) = rest.strip_prefix("id=") {
            let (raw, len) = json_value::<&RawValue>(value).ok_or(at + "id=".len())?;
            summary.id = Some(raw);
            "id=".len() + len
        } else {
            let len = rest.find(' ').unwrap_or(rest.len());
            match &rest[..len] {
                "params" | "result" => {}
                "error" => summary.error = true,
                _ => return Err(at),
            }
            len
        };
        at += word_len;
        // Words are separated by one space; a trailing space ends the line.
        match text[at..].strip_prefix(' ') {
            Some(_) => at += 1,
            None if at == text.len() => {}
            None => return Err(at),
        }
    }
    if summary.method.is_none() && summary.id.is_none() {
        return Err(0);
    }
    Ok(summary)
}

/// The JSON value at the start of `text` and its length in bytes.
fn json_value<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Option<(T, usize)> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<T>();
    let value = stream.next()?.ok()?;
    Some((value, stream.byte_offset()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{JsonKind, Key};

    fn body(text: &str) -> Body {
        let message = message(text, 0).expect(text);
        assert!(message.incomplete);
        message.body
    }

    #[test]
    fn requests_notifications_and_responses() {
        assert!(matches!(
            body(r#"method="initialize" id=0 params"#),
            Body::Request { id: KeyField::Valid(RequestId(Key::Int(0))), method, .. } if method == "initialize"
        ));
        assert!(matches!(
            body(r#"method="tools/call" id="a b" params"#),
            Body::Request { id: KeyField::Valid(RequestId(Key::Str(id))), .. } if id == "a b"
        ));
        assert!(matches!(
            body(r#"method="notifications/initialized""#),
            Body::Notification { method, .. } if method == "notifications/initialized"
        ));
        assert!(matches!(
            body("id=3 result"),
            Body::Response {
                id: Some(KeyField::Valid(RequestId(Key::Int(3)))),
                outcome: Outcome::Result { .. }
            }
        ));
        assert!(matches!(
            body("id=3 error"),
            Body::Response {
                outcome: Outcome::Error { code: None },
                ..
            }
        ));
        assert!(matches!(
            body("id=null error"),
            Body::Response {
                id: Some(KeyField::Invalid(JsonKind::Null)),
                ..
            }
        ));
    }

    #[test]
    fn unreadable_summaries_say_where() {
        for (text, column) in [
            (r#"method="initialize id=0"#, 8),
            ("id=zero result", 4),
            (r#"method="x" id=1 payload"#, 17),
            (r#"method="x"  id=1"#, 12),
            ("result", 1),
        ] {
            assert_eq!(
                message(text, 0).unwrap_err(),
                Unreadable::Json(format!(
                    "the message summary cannot be read (column {column})"
                )),
                "{text}"
            );
        }
        assert!(is_summary("id=0 result"));
        assert!(!is_summary("{\"id\":0}"));
    }
}
