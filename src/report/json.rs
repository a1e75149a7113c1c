//! JSON output: `{"diagnostics":[...],"summary":{...},"version":1}`, and JSON
//! lines: one diagnostic object per line, then `{"summary":{...},"version":1}`.
//!
//! Both are written as the diagnostics are rendered, one at a time, so the
//! report takes no memory beyond the diagnostics themselves. The document is
//! laid out as `serde_json`'s pretty printer would lay out the whole.

use serde_json::{json, Value};

use super::{Report, Sink};
use crate::diagnostic::{Diagnostic, Severity};

pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    out.write_all(b"{\n  \"diagnostics\": ")?;
    let mut diagnostics = PrettyArray::open(out, 2)?;
    let render = |d: &Diagnostic| element(&diagnostic(report, d), 2);
    report.render_each(render, |text| diagnostics.push_text(text))?;
    diagnostics.close()?;
    let summary = pretty(&summary(report), 2)?;
    writeln!(out, ",\n  \"summary\": {summary},\n  \"version\": 1\n}}")
}

pub(super) fn write_lines(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    let render =
        |d: &Diagnostic| Ok(format!("{}\n", compact(&diagnostic(report, d))?).into_bytes());
    report.render_each(render, |line| out.write_all(line))?;
    let last = json!({"summary": summary(report), "version": 1});
    writeln!(out, "{}", compact(&last)?)
}

/// One diagnostic as JSON (its keys sorted, as `serde_json` keeps them).
fn diagnostic(report: &Report, d: &Diagnostic) -> Value {
    let path = |source: u32| report.sources[source as usize].name.clone();
    let mut object = json!({
        "rule": d.rule.id,
        "severity": d.severity.as_str(),
        "message": d.message.to_string(),
        "path": path(d.location.source),
        "line": d.location.line,
        "session": d.session.as_deref(),
        "from": d.from.map(|s| s.as_str()),
        "related": d.related.iter().map(|r| json!({
            "path": path(r.location.source),
            "line": r.location.line,
            "message": r.message.to_string(),
        })).collect::<Vec<_>>(),
        "spec": d.spec_url(),
        "docs": d.rule.doc_path(),
    });
    let fields = object.as_object_mut().expect("an object");
    if let Some(id) = &d.request_id {
        fields.insert("request_id".into(), id.0.to_json());
    }
    if let Some(token) = d.progress_token() {
        fields.insert("progress_token".into(), token.0.to_json());
    }
    if let Some(pointer) = d.pointer() {
        fields.insert("pointer".into(), pointer.into());
    }
    if let Some(index) = d.batch_index() {
        fields.insert("batch_index".into(), index.into());
    }
    // A finding the client's log reported.
    if d.reported_by_client {
        fields.insert("reported_by_client".into(), true.into());
    }
    if let Some(note) = &d.note {
        fields.insert("note".into(), note.to_string().into());
    }
    if let Some(url) = d.rule.help_url() {
        fields.insert("help_url".into(), url.into());
    }
    object
}

fn summary(report: &Report) -> Value {
    json!({
        "files": report.files,
        "events": report.stats.events,
        "sessions": report.stats.sessions,
        "errors": report.count(Severity::Error),
        "warnings": report.count(Severity::Warning),
        "infos": report.count(Severity::Info),
    })
}

/// `value` laid out as an element of a [`PrettyArray`] whose key is
/// indented by `indent`.
pub(super) fn element(value: &Value, indent: usize) -> std::io::Result<Vec<u8>> {
    pretty(value, indent + 2).map(String::into_bytes)
}

/// A JSON array written one element at a time, laid out as `serde_json`'s
/// pretty printer lays out an array whose key is indented by `indent`.
pub(super) struct PrettyArray<'a> {
    out: &'a mut dyn Sink,
    indent: usize,
    empty: bool,
}

impl<'a> PrettyArray<'a> {
    pub fn open(out: &'a mut dyn Sink, indent: usize) -> std::io::Result<Self> {
        out.write_all(b"[")?;
        Ok(PrettyArray {
            out,
            indent,
            empty: true,
        })
    }

    /// Appends an element already laid out for this array ([`element`]).
    pub fn push_text(&mut self, value: &[u8]) -> std::io::Result<()> {
        let separator = if self.empty { "" } else { "," };
        self.empty = false;
        let inner = self.indent + 2;
        write!(self.out, "{separator}\n{:inner$}", "")?;
        self.out.write_all(value)
    }

    pub fn close(self) -> std::io::Result<()> {
        if self.empty {
            return self.out.write_all(b"]");
        }
        write!(self.out, "\n{:indent$}]", "", indent = self.indent)
    }
}

/// `value` pretty-printed as it would be at `indent` inside a larger
/// document. Strings hold no raw line feed, so every one is a layout break.
pub(super) fn pretty(value: &Value, indent: usize) -> std::io::Result<String> {
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    let text = escape_invisible(&text);
    Ok(text.replace('\n', &format!("\n{:indent$}", "")))
}

fn compact(value: &Value) -> std::io::Result<String> {
    let text = serde_json::to_string(value).map_err(std::io::Error::other)?;
    Ok(escape_invisible(&text).into_owned())
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
