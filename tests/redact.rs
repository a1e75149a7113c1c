//! `mcp-lint redact`: every canonical and bare fixture lints the same after
//! redaction (rule, line, severity), and the free text is gone.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mcp_lint::decode::{detect, Format};

#[path = "support/findings.rs"]
mod support;
use support::findings;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every file below testdata/, however deep.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        match path.is_dir() {
            true => files(&path, out),
            false => out.push(path),
        }
    }
}

#[test]
fn every_json_lines_trace_lints_the_same_after_redaction() {
    let mut paths = Vec::new();
    files(&root().join("testdata"), &mut paths);
    paths.sort();
    let mut redacted_files = 0;
    for path in paths {
        if !path
            .extension()
            .is_some_and(|e| e == "jsonl" || e == "ndjson")
        {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let format = detect(&bytes);
        if !matches!(format, Format::Canonical | Format::Bare) {
            continue;
        }
        let redacted = mcp_lint::redact::redact(&bytes, format).unwrap();
        let name = path.display();
        assert_eq!(detect(&redacted), format, "{name}");
        assert_eq!(
            findings(&redacted),
            findings(&bytes),
            "{name}:\n{}",
            String::from_utf8_lossy(&redacted)
        );
        redacted_files += 1;
    }
    assert!(redacted_files >= 20, "only {redacted_files} fixtures");
}

#[test]
fn the_binary_writes_a_copy_without_the_free_text() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shared.jsonl");
    let status = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .current_dir(root())
        .args(["redact", "testdata/session-with-violations.jsonl", "-o"])
        .arg(&out)
        .stdin(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let original =
        std::fs::read_to_string(root().join("testdata/session-with-violations.jsonl")).unwrap();
    let redacted = std::fs::read_to_string(&out).unwrap();
    for secret in ["demo-client", "slow_lookup", "user pressed stop"] {
        assert!(original.contains(secret), "{secret}");
        assert!(!redacted.contains(secret), "{secret} survived:\n{redacted}");
    }
    for kept in [
        "2026-11-30T07:00:01.000Z",
        "notifications/progress",
        "\"p1\"",
        "2025-11-25",
    ] {
        assert!(redacted.contains(kept), "{kept} was lost:\n{redacted}");
    }
}

#[test]
fn other_formats_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .current_dir(root())
        .args([
            "redact",
            "testdata/sessions/mixed-eras-one-endpoint.har",
            "-o",
        ])
        .arg(dir.path().join("x"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not supported yet"));
}
