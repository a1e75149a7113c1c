//! A HAR whose response bodies are not what their content type says: each
//! gives a clear finding at its entry's line, and linting goes on.

use std::process::Command;

/// One entry per line (line 1 opens the document): a POST of `request`
/// answered with `status` and a body labelled `mime`.
fn entry(second: u32, request: &str, status: u16, mime: &str, body: &str, base64: bool) -> String {
    let encoding = if base64 {
        r#","encoding":"base64""#
    } else {
        ""
    };
    format!(
        r#"{{"startedDateTime":"2026-11-30T07:00:{second:02}Z","time":5,"request":{{"method":"POST","url":"http://h/mcp","headers":[{{"name":"Accept","value":"application/json, text/event-stream"}},{{"name":"Mcp-Session-Id","value":"s1"}},{{"name":"MCP-Protocol-Version","value":"2025-06-18"}}],"postData":{{"mimeType":"application/json","text":{}}}}},"response":{{"status":{status},"headers":[{{"name":"Content-Type","value":"{mime}"}}],"content":{{"mimeType":"{mime}","text":{}{encoding}}}}}}}"#,
        serde_json::Value::from(request),
        serde_json::Value::from(body),
    )
}

fn call(id: u32) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"t","arguments":{{}}}}}}"#
    )
}

fn result(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[]}}}}"#)
}

fn mislabelled_har() -> String {
    let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let cancel_initialize =
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#;
    let entries = [
        entry(0, initialize, 200, "application/json", answer, false),
        entry(1, initialized, 202, "", "", false),
        // Line 4: JSON labelled an event stream.
        entry(2, &call(1), 200, "text/event-stream", &result(1), false),
        // Line 5: an event stream labelled JSON.
        entry(
            3,
            &call(2),
            200,
            "application/json",
            &format!("event: message\ndata: {}\n\n", result(2)),
            false,
        ),
        // Line 6: base64 that is not.
        entry(
            4,
            &call(3),
            200,
            "application/json",
            "%%% not base64 %%%",
            true,
        ),
        // Line 7: base64 of bytes that are not text.
        entry(5, &call(4), 200, "application/json", "//4AAYA=", true),
        // Line 8: a proxy's HTML error page labelled JSON.
        entry(
            6,
            &call(5),
            502,
            "application/json",
            "<html><body><h1>502 Bad Gateway</h1></body></html>",
            false,
        ),
        // Line 9: a violation after all of them is still found.
        entry(7, cancel_initialize, 202, "", "", false),
    ];
    format!(
        "{{\"log\":{{\"version\":\"1.2\",\"entries\":[\n{}\n]}}}}\n",
        entries.join(",\n")
    )
}

#[test]
fn mislabelled_bodies_give_clear_findings_and_linting_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mislabelled.har"), mislabelled_har()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", "concise", "mislabelled.har"])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for expected in [
        "mislabelled.har:4:1: error[invalid-json]: the body is labelled text/event-stream but is not an event stream",
        "mislabelled.har:5:1: error[invalid-json]: the body is not valid JSON",
        "mislabelled.har:6:1: error[invalid-envelope]: entry 5: the base64 body cannot be decoded",
        "mislabelled.har:7:1: error[invalid-envelope]: entry 6: the body is not UTF-8",
        "mislabelled.har:8:1: error[invalid-json]: the body is not valid JSON",
        "mislabelled.har:9:1: error[cancel-initialize]: client cancels its initialize request 0",
    ] {
        assert!(stdout.contains(expected), "missing {expected:?} in:\n{stdout}");
    }
}
