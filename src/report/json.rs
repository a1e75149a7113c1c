//! JSON output: `{"version":1,"diagnostics":[...],"summary":{...}}`.

use serde_json::{json, Value};

use super::{Report, Sink};
use crate::diagnostic::Severity;

pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    let path = |source: u32| report.sources[source as usize].name.clone();
    let diagnostics: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            let mut object = json!({
                "rule": d.rule.id,
                "severity": d.severity.as_str(),
                "message": d.message,
                "path": path(d.location.source),
                "line": d.location.line,
                "session": d.session.as_deref(),
                "from": d.from.map(|s| s.as_str()),
                "related": d.related.iter().map(|r| json!({
                    "path": path(r.location.source),
                    "line": r.location.line,
                    "message": r.message,
                })).collect::<Vec<_>>(),
                "spec": d.spec_url,
                "docs": d.rule.doc_path(),
            });
            let fields = object.as_object_mut().expect("an object");
            if let Some(id) = &d.request_id {
                fields.insert("request_id".into(), id.0.to_json());
            }
            if let Some(token) = &d.progress_token {
                fields.insert("progress_token".into(), token.0.to_json());
            }
            if let Some(index) = d.batch_index {
                fields.insert("batch_index".into(), index.into());
            }
            // A finding the client's log reported.
            if d.reported_by_client {
                fields.insert("reported_by_client".into(), true.into());
            }
            if let Some(note) = &d.note {
                fields.insert("note".into(), note.as_str().into());
            }
            object
        })
        .collect();
    let document = json!({
        "version": 1,
        "diagnostics": diagnostics,
        "summary": {
            "files": report.files,
            "events": report.stats.events,
            "sessions": report.stats.sessions,
            "errors": report.count(Severity::Error),
            "warnings": report.count(Severity::Warning),
            "infos": report.count(Severity::Info),
        },
    });
    let text = serde_json::to_string_pretty(&document).map_err(std::io::Error::other)?;
    writeln!(out, "{}", escape_invisible(&text))
}

/// serde_json escapes C0 controls but writes C1 controls and bidi overrides
/// raw; escape those too, so the document is safe to print. They can only
/// occur inside strings, where `\uXXXX` keeps the value exact.
pub(super) fn escape_invisible(json: &str) -> std::borrow::Cow<'_, str> {
    // serde_json has already escaped C0 controls (and the document's own
    // line breaks are C0); the rest of the set is escaped here.
    let unsafe_char = |c: char| c >= '\u{7f}' && crate::sanitize::is_unsafe(c);
    if !json.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut escaped = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if unsafe_char(c) {
            escaped.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            escaped.push(c);
        }
    }
    std::borrow::Cow::Owned(escaped)
}
