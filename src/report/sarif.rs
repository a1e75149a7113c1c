//! SARIF 2.1.0, for code-scanning dashboards: every rule as a descriptor,
//! every diagnostic as a result with its related locations.
//!
//! Results are written one at a time as they are rendered (see
//! [`super::json`]); the rest of the document is small and fixed.

use serde_json::{json, Value};

use super::json::{element, pretty, PrettyArray};
use super::{Report, Sink};
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules;

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A path as a relative URI reference: `/` separators, and every byte but
/// unreserved characters and `/` percent-encoded (spaces, `#`, `%`, non-ASCII).
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.replace('\\', "/").bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Keys in the order `serde_json` sorts them: the results come before the
/// tool, and the version last.
pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    write!(
        out,
        "{{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"runs\": [\n    {{\n      \"results\": "
    )?;
    let mut results = PrettyArray::open(out, 6)?;
    let render = |d: &Diagnostic| element(&result(report, d), 6);
    report.render_each(render, |text| results.push_text(text))?;
    results.close()?;
    let tool = pretty(&tool(), 6)?;
    writeln!(
        out,
        ",\n      \"tool\": {tool}\n    }}\n  ],\n  \"version\": \"2.1.0\"\n}}"
    )
}

fn location(report: &Report, source: u32, line: u64) -> Value {
    json!({"physicalLocation": {
        "artifactLocation": {"uri": uri(&report.sources[source as usize].name)},
        "region": {"startLine": line},
    }})
}

fn result(report: &Report, d: &Diagnostic) -> Value {
    let related: Vec<Value> = d
        .related
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut place = location(report, r.location.source, r.location.line);
            place["id"] = i.into();
            place["message"] = json!({"text": r.message.to_string()});
            place
        })
        .collect();
    let mut result = json!({
        "ruleId": d.rule.id,
        "ruleIndex": rules::ALL.iter().position(|r| r.meta().id == d.rule.id),
        "level": level(d.severity),
        "message": {"text": d.text(&|t| t.into())},
        "locations": [location(report, d.location.source, d.location.line)],
        "relatedLocations": related,
    });
    // A finding the client's log reported.
    if d.reported_by_client {
        result["properties"] = json!({"reportedByClient": true});
    }
    result
}

/// The tool and every rule as a descriptor.
fn tool() -> Value {
    let descriptors: Vec<Value> = rules::ALL
        .iter()
        .map(|rule| {
            let meta = rule.meta();
            let mut descriptor = json!({
                "id": meta.id,
                "shortDescription": {"text": meta.summary},
                "help": {"text": meta.help},
                "defaultConfiguration": {"level": level(meta.default_severity)},
            });
            // The rule's own page when the package names its repository,
            // else the spec page it enforces.
            if let Some(url) = meta.help_url().or_else(|| meta.spec_url(None)) {
                descriptor["helpUri"] = url.into();
            }
            descriptor
        })
        .collect();
    json!({"driver": {
        "name": "mcp-lint",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": descriptors,
    }})
}
