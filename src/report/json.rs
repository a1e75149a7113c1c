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
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}
