//! `mcp-lint rule`: pages, the list of rules, and misspelled ids, through the real binary.

use std::process::{Command, Output};

use mcp_lint::rules;

fn mcp_lint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn a_rule_prints_its_page() {
    let output = mcp_lint(&["rule", "cancel-duplicate"]);
    assert_eq!(output.status.code(), Some(0));
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/cancel-duplicate.md"),
    )
    .unwrap();
    assert_eq!(stdout(&output), page);
}

#[test]
fn all_lists_every_rule_with_its_family_severity_and_versions() {
    let output = mcp_lint(&["rule", "--all"]);
    assert_eq!(output.status.code(), Some(0));
    let list = stdout(&output);
    assert_eq!(list.lines().count(), rules::ALL.len());
    let line = list
        .lines()
        .find(|l| l.starts_with("cancel-initialize "))
        .unwrap();
    for word in ["cancel", "error", "2024-11-05 to 2025-11-25"] {
        assert!(line.contains(word), "{line}");
    }
}

#[test]
fn all_as_json() {
    let output = mcp_lint(&["rule", "--all", "--format", "json"]);
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let list = document["rules"].as_array().unwrap();
    assert_eq!(list.len(), rules::ALL.len());
    let http = list
        .iter()
        .find(|r| r["id"] == "http-protocol-version-header")
        .unwrap();
    assert_eq!(http["family"], "http");
    assert_eq!(http["severity"], "error");
    assert_eq!(
        http["versions"],
        serde_json::json!(["2025-06-18", "2025-11-25"])
    );
    assert!(http["summary"].is_string());
    assert!(http["url"].as_str().unwrap().starts_with("https://"));
}

#[test]
fn a_misspelled_id_is_a_usage_error_that_names_the_nearest_rule() {
    for args in [
        &["rule", "cancel-dupliate"][..],
        &["--select", "cancel-dupliate", "x.jsonl"][..],
        &["--ignore", "cancel-dupliate", "x.jsonl"][..],
    ] {
        let output = mcp_lint(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains("did you mean \"cancel-duplicate\""),
            "{stderr}"
        );
    }
}
