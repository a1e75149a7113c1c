//! Text from the trace is escaped once, by the report: as visible `\u{..}`
//! escapes on a terminal, as JSON escapes in JSON, never both.

use std::process::Command;

const TRACE: &str = concat!(
    r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#,
    "\n",
    r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}"#,
    "\n",
    r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}"#,
    "\n",
    r#"{"from":"client","session":"s\u200b1","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a\u001b[2Jb\u2067"}}}"#,
    "\n",
);

fn lint(format: &str) -> String {
    lint_file("t.jsonl", TRACE, format)
}

fn lint_file(name: &str, trace: &str, format: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), trace).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", format, "--color", "never", name])
        .current_dir(dir.path())
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn json_carries_the_trace_text_escaped_once() {
    let output = lint("json");
    assert!(!output.contains("\\\\u{1b}"), "escaped twice: {output}");
    assert!(
        output.contains("\\u001b") && output.contains("\\u2067"),
        "{output}"
    );
    let document: serde_json::Value = serde_json::from_str(&output).unwrap();
    let finding = &document["diagnostics"][0];
    assert_eq!(finding["rule"], "cancel-unknown-request");
    assert!(finding["message"]
        .as_str()
        .unwrap()
        .contains("\"a\u{1b}[2Jb\u{2067}\""));
    assert_eq!(finding["session"], "s\u{200b}1");
    assert_eq!(finding["request_id"], "a\u{1b}[2Jb\u{2067}");
}

#[test]
fn every_format_neutralizes_the_same_characters() {
    for format in ["human", "concise", "json", "github", "sarif"] {
        let output = lint(format);
        let raw = output
            .chars()
            .find(|c| *c != '\n' && mcp_lint::sanitize::is_unsafe(*c));
        assert_eq!(raw, None, "{format}: {output:?}");
        assert!(output.contains("cancel-unknown-request"), "{format}");
    }
    let human = lint("concise");
    assert!(human.contains("\"a\\u{1b}[2Jb\\u{2067}\""), "{human}");
}

#[test]
fn text_a_client_reports_is_escaped_once() {
    // A Cursor log line quoting the server's output, control characters and all.
    let log = "2025-07-10 10:49:36.646 [error] user-w: Client error for command Unexpected token '\u{1b}', \"\u{1b}[2JStart\" is not valid JSON\n";
    let concise = lint_file("c.log", log, "concise");
    assert!(
        concise.contains("Unexpected token '\\u{1b}', \"\\u{1b}[2JStart\""),
        "{concise}"
    );
    let json = lint_file("c.log", log, "json");
    assert!(!json.contains("\\\\u{1b}"), "escaped twice: {json}");
    let document: serde_json::Value = serde_json::from_str(&json).unwrap();
    let finding = &document["diagnostics"][0];
    assert_eq!(finding["rule"], "stdout-pollution");
    assert_eq!(finding["reported_by_client"], true);
    assert!(finding["message"]
        .as_str()
        .unwrap()
        .contains("\"\u{1b}[2JStart\""));
}

#[test]
fn output_a_trace_records_on_stdout_is_escaped_once() {
    let trace = "{\"from\":\"server\",\"event\":\"not-protocol\",\"text\":\"\\u001b[2JBanner\"}\n";
    let json = lint_file("t.jsonl", trace, "json");
    let document: serde_json::Value = serde_json::from_str(&json).unwrap();
    let finding = &document["diagnostics"][0];
    assert_eq!(finding["rule"], "stdout-pollution");
    assert!(
        finding["message"]
            .as_str()
            .unwrap()
            .ends_with(": \u{1b}[2JBanner"),
        "{json}"
    );
}
