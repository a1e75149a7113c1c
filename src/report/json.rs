//! JSON output: `{"diagnostics":[...],"summary":{...},"version":1}`, and JSON
//! lines: one diagnostic object per line, then `{"summary":{...},"version":1}`.
//!
//! Both are written as the diagnostics are rendered, one at a time, so the
//! report takes no memory beyond the diagnostics themselves. The document is
//! laid out as `serde_json`'s pretty printer would lay out the whole.

use serde::{Serialize, Serializer};
use serde_json::{json, Value};

use super::{Report, Sink};
use crate::diagnostic::{Diagnostic, Related, Severity};
use crate::event::Key;

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

/// One diagnostic as JSON. Its members are declared in sorted order, the
/// order `serde_json` gives the members of a map.
#[derive(Serialize)]
struct DiagnosticJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    batch_index: Option<u32>,
    docs: String,
    from: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help_url: Option<String>,
    line: u64,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    progress_token: Option<KeyJson<'a>>,
    related: Vec<RelatedJson<'a>>,
    /// A finding the client's log reported.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    reported_by_client: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    request_id: Option<KeyJson<'a>>,
    rule: &'static str,
    session: Option<&'a str>,
    severity: &'static str,
    spec: Option<String>,
}

/// A request id or progress token as the trace wrote it.
struct KeyJson<'a>(&'a Key);

impl Serialize for KeyJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Key::Int(n) => serializer.serialize_i64(*n),
            Key::Str(s) => serializer.serialize_str(s),
            Key::BigInt(_) => self.0.to_json().serialize(serializer),
        }
    }
}

#[derive(Serialize)]
struct RelatedJson<'a> {
    line: u64,
    message: String,
    path: &'a str,
}

fn diagnostic<'a>(report: &'a Report, d: &'a Diagnostic) -> DiagnosticJson<'a> {
    let path = |source: u32| report.sources[source as usize].name.as_str();
    let related = |r: &'a Related| RelatedJson {
        line: r.location.line,
        message: r.message.to_string(),
        path: path(r.location.source),
    };
    DiagnosticJson {
        batch_index: d.batch_index(),
        docs: d.rule.doc_path(),
        from: d.from.map(|s| s.as_str()),
        help_url: d.rule.help_url(),
        line: d.location.line,
        message: d.message.to_string(),
        note: d.note.as_ref().map(ToString::to_string),
        path: path(d.location.source),
        pointer: d.pointer(),
        progress_token: d.progress_token().map(|token| KeyJson(&token.0)),
        related: d.related.iter().map(related).collect(),
        reported_by_client: d.reported_by_client,
        request_id: d.request_id.as_ref().map(|id| KeyJson(&id.0)),
        rule: d.rule.id,
        session: d.session.as_deref(),
        severity: d.severity.as_str(),
        spec: d.spec_url(),
    }
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
pub(super) fn element(value: &impl Serialize, indent: usize) -> std::io::Result<Vec<u8>> {
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
pub(super) fn pretty(value: &impl Serialize, indent: usize) -> std::io::Result<String> {
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    Ok(indented(&escape_invisible(&text), indent))
}

/// `text` with `indent` spaces after each line feed, found in one pass (a
/// `str::replace` of the line feeds searched for each one anew).
fn indented(text: &str, indent: usize) -> String {
    let mut out = String::with_capacity(text.len() + 32 * indent);
    let mut line = 0;
    for feed in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push_str(&text[line..=feed]);
        out.extend(std::iter::repeat_n(' ', indent));
        line = feed + 1;
    }
    out.push_str(&text[line..]);
    out
}

fn compact(value: &impl Serialize) -> std::io::Result<String> {
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
    // Most reports are ASCII below DEL: checked a word at a time, no char decoding.
    let below_del = json.is_ascii() && memchr::memchr(0x7f, json.as_bytes()).is_none();
    if below_del || !json.chars().any(unsafe_char) {
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
