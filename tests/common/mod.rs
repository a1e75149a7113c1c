//! What the tests that read the rule pages share: the page of a rule and its
//! fenced examples. The docs test runs the examples through the binary; the
//! coverage test rewrites them into the other formats.

use std::path::{Path, PathBuf};

#[derive(Debug)]
pub struct Example {
    /// The file extension the example is linted as: `jsonl` or `har`.
    pub extension: String,
    /// `bad` or `good`.
    pub kind: String,
    /// Command-line options the example is linted with, after the kind on
    /// its fence line (```` ```jsonl bad --max-open-requests=2 ````).
    #[allow(dead_code)] // read by the docs test only
    pub args: Vec<String>,
    pub body: String,
    /// The output block that follows a bad example: (byte range of its body in the page, body).
    pub output: Option<(std::ops::Range<usize>, String)>,
}

pub fn pages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// The fenced blocks of a page: "```jsonl bad", "```jsonl good" and the
/// "```text" block that follows a bad one.
pub fn examples(page: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut offset = 0;
    let mut lines = page.split_inclusive('\n');
    while let Some(line) = lines.next() {
        offset += line.len();
        let Some(info) = line.trim_end().strip_prefix("```") else {
            continue;
        };
        let info = info.trim().to_string();
        let start = offset;
        let mut body = String::new();
        for inner in lines.by_ref() {
            offset += inner.len();
            if inner.trim_end() == "```" {
                break;
            }
            body.push_str(inner);
        }
        let end = start + body.len();
        let mut words = info.split_whitespace();
        match (words.next(), words.next()) {
            (Some(extension @ ("jsonl" | "har")), Some(kind @ ("bad" | "good"))) => {
                examples.push(Example {
                    extension: extension.to_string(),
                    kind: kind.to_string(),
                    args: words.map(str::to_string).collect(),
                    body,
                    output: None,
                })
            }
            _ if info == "text" => {
                if let Some(last) = examples.last_mut() {
                    if last.kind == "bad" && last.output.is_none() {
                        last.output = Some((start..end, body));
                    }
                }
            }
            _ => {}
        }
    }
    examples
}
