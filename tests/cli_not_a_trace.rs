//! Inputs that are not traces, through the real binary: one finding says
//! so, and a trace full of text lines gets a count, not a line each.

use std::path::Path;
use std::process::{Command, Output};

fn concise(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", "concise"])
        .arg(path)
        .output()
        .unwrap()
}

/// The findings of concise output (the summary line left out).
fn findings(out: &Output) -> Vec<String> {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    text.lines()
        .filter(|l| !l.starts_with("Found "))
        .map(str::to_string)
        .collect()
}

/// The findings of one file holding `bytes`.
fn findings_of(name: &str, bytes: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let out = concise(&path);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    findings(&out)
}

fn assert_one_not_a_trace(findings: &[String], why: &str) {
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert!(
        findings[0].contains(
            ":1:1: error[invalid-json]: the file is not an MCP trace in any known format: "
        ) && findings[0].contains(why),
        "{findings:#?}"
    );
}

#[test]
fn a_five_megabyte_text_log_gives_one_finding() {
    let mut log = String::new();
    for i in 0.. {
        if log.len() > 5 << 20 {
            break;
        }
        log.push_str(&format!(
            "2026-01-01 12:00:00 INFO worker {i} done {{\"job\": {i}}}\n"
        ));
    }
    assert_one_not_a_trace(&findings_of("app.log", log.as_bytes()), "no line is JSON");
}

#[test]
fn a_readme_a_toml_file_and_pretty_printed_json_give_one_finding() {
    let readme = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert_one_not_a_trace(&findings_of("README.md", &readme), "no line is JSON");
    let lock = "[[package]]\nname = \"a\"\nversion = \"1.0.0\"\n\n[[package]]\nname = \"b\"\n";
    assert_one_not_a_trace(
        &findings_of("Cargo.lock", lock.as_bytes()),
        "no line is JSON",
    );
    let json = "{\n  \"name\": \"x\",\n  \"tools\": [\n    1\n  ]\n}\n";
    assert_one_not_a_trace(
        &findings_of("package.json", json.as_bytes()),
        "no line is JSON",
    );
}

#[test]
fn a_binary_gives_one_finding_that_says_it_is_binary() {
    let binary: Vec<u8> = (0..200_000u32).map(|i| (i * 7919 % 251) as u8).collect();
    assert_one_not_a_trace(&findings_of("a.out", &binary), "it is binary");
    let utf16: Vec<u8> = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_one_not_a_trace(&findings_of("utf16.jsonl", &utf16), "UTF-16");
}

#[test]
fn lines_that_are_not_json_are_counted_after_twenty() {
    let mut trace = String::from(
        "{\"from\":\"client\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}\n",
    );
    for i in 0..200_000 {
        trace.push_str(&format!("plain text line {i}\n"));
    }
    let json: Vec<String> = findings_of("mixed.jsonl", trace.as_bytes())
        .into_iter()
        .filter(|f| f.contains("[invalid-json]"))
        .collect();
    assert_eq!(json.len(), 21, "{json:#?}");
    assert!(json[19].starts_with(&format!(
        "{}:21:1: error[invalid-json]: the line is not valid JSON",
        json[19].split(':').next().unwrap()
    )));
    assert!(
        json[20].ends_with(":22:1: error[invalid-json]: and 199980 more lines that are not JSON (only the first 20 are listed)"),
        "{json:#?}"
    );
}

#[test]
fn records_that_are_not_valid_are_counted_after_twenty() {
    let line = "{\"level\":30,\"time\":1,\"msg\":\"hello\"}\n";
    let findings = findings_of("app.jsonl", line.repeat(1000).as_bytes());
    assert_eq!(findings.len(), 21, "{findings:#?}");
    assert!(
        findings[20].ends_with(":21:1: error[invalid-envelope]: and 980 more records that are not valid (only the first 20 are listed)"),
        "{findings:#?}"
    );
}

#[test]
fn one_line_over_the_cap_is_counted_in_the_singular() {
    let trace = "not json\n".repeat(21);
    let trace = format!("{{\"from\":\"client\",\"msg\":{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}}}\n{trace}");
    let findings = findings_of("t.jsonl", trace.as_bytes());
    assert!(
        findings
            .iter()
            .any(|f| f
                .ends_with(": and 1 more line that is not JSON (only the first 20 are listed)")),
        "{findings:#?}"
    );
}
