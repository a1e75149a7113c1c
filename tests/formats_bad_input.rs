//! Broken inputs of every capture and log format, through the real binary:
//! a file cut off while being written, bytes that are not UTF-8, a malformed
//! record, and an empty file each give a clear finding (or, for the empty
//! file, a warning) and never a crash.

use std::path::Path;
use std::process::{Command, Output};

/// Every format of a client log or capture tool.
const FORMATS: &[&str] = &[
    "claude-log",
    "vscode-log",
    "mcpsnoop",
    "inspector",
    "inspector-network",
    "claude-code",
    "cursor-log",
    "supergateway",
    "go-sdk-log",
    "python-sdk-log",
    "mcpspy",
    "librechat-log",
    "mcp-remote-log",
];

fn mcp_lint(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn fixture(relative: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata")
            .join(relative),
    )
    .unwrap()
}

/// Writes `files` into a temporary directory and lints them all, with the
/// concise output; returns the report and the exit code.
fn lint_files(format: &str, files: &[(&str, Vec<u8>)]) -> (String, Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let mut args = vec!["--format", "concise", "--input-format", format];
    args.extend(files.iter().map(|(name, _)| *name));
    let out = mcp_lint(&args, dir.path());
    (text(&out.stdout), out.status.code(), text(&out.stderr))
}

/// The bytes of `good` cut in the middle of its `n`th line (1-based).
fn cut_in_line(good: &[u8], n: usize) -> Vec<u8> {
    let start: usize = good
        .split_inclusive(|b| *b == b'\n')
        .take(n - 1)
        .map(<[u8]>::len)
        .sum();
    let line_len = good[start..].iter().position(|b| *b == b'\n').unwrap();
    good[..start + line_len / 2].to_vec()
}

/// Replaces the first occurrence of `from` in `bytes` by `to`.
fn replace(bytes: &[u8], from: &str, to: &[u8]) -> Vec<u8> {
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .unwrap_or_else(|| panic!("{from} not found"));
    [&bytes[..at], to, &bytes[at + from.len()..]].concat()
}

#[test]
fn empty_inputs_are_said_and_clean() {
    for format in FORMATS {
        let (stdout, code, stderr) = lint_files(format, &[("empty", Vec::new())]);
        assert_eq!(code, Some(0), "{format}: {stdout}");
        assert!(
            stderr.contains("empty: the input is empty"),
            "{format}: {stderr}"
        );
        assert!(
            stdout.starts_with("No problems found"),
            "{format}: {stdout}"
        );
    }
}

#[test]
fn broken_claude_desktop_logs() {
    let good = fixture("claude-log/mcp-server-golang-mcp-testing.log");
    let (stdout, code, stderr) = lint_files(
        "claude-log",
        &[
            // Cut in the last message, as a log still being written.
            ("truncated.log", cut_in_line(&good, 16)),
            // A byte that is not UTF-8 inside a message (reported), and one
            // in the server's stderr (skipped, like all of its stderr).
            (
                "latin1.log",
                replace(
                    &replace(&good, "\"./...\"", b"\"./caf\xe9\""),
                    "running go test",
                    b"running go t\xe9st",
                ),
            ),
            // A message with text after it that is not Claude's metadata.
            (
                "malformed.log",
                replace(
                    &good,
                    r#""result":{"resources":[]}}"#,
                    br#""result":{"resources":[]}} (truncated)"#,
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_payload_free_claude_desktop_lines() {
    let good = fixture("claude-log/mcp-payload-free-2026.log");
    let (stdout, code, stderr) = lint_files(
        "claude-log",
        &[
            // A method without its closing quote, and a word no summary has.
            (
                "summary.log",
                replace(
                    &replace(&good, "method=\"tools/list\"", b"method=\"tools/list"),
                    "id=1 result",
                    b"id=1 payload",
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_claude_code_logs() {
    let good = fixture("claude-code/mcp-logs-progress-after-result.jsonl");
    let debug = fixture("claude-code/debug-meterian.log");
    let array = fixture("claude-code/mcp-logs-array-2025.json");
    let (stdout, code, stderr) = lint_files(
        "claude-code",
        &[
            // Cut in a record, as a file still being written; then NUL
            // padding, as a crash leaves it.
            (
                "cut.jsonl",
                [cut_in_line(&good, 7), b"\n\0\0\0\0".to_vec()].concat(),
            ),
            // A record that is not JSON, and bytes that are not UTF-8.
            (
                "malformed.jsonl",
                replace(&good, "{\"debug\":\"Closing", b"{debug:\"Clos\xe9ing"),
            ),
            // The debug log and the pretty-printed array, cut.
            ("debug.log", cut_in_line(&debug, 10)),
            ("array.json", cut_in_line(&array, 15)),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_cursor_logs() {
    let good = fixture("cursor-log/mcp-logs-2025-tagged.log");
    let (stdout, code, stderr) = lint_files(
        "cursor-log",
        &[
            // Cut in the last line, as a log still being written: a sentence
            // cut short is not a report, and is skipped.
            ("cut.log", cut_in_line(&good, 10)),
            // Bytes that are not UTF-8 in a reported line and in stderr.
            (
                "latin1.log",
                replace(
                    &replace(&good, "Aggregator", b"Aggr\xe9gator"),
                    "Processing",
                    b"Proc\xe9ssing",
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_supergateway_logs() {
    let text = fixture("supergateway/sse-info-level.log");
    let json = fixture("supergateway/streamable-json-format.jsonl");
    let (stdout, code, stderr) = lint_files(
        "supergateway",
        &[
            // Cut inside a printout that spans lines.
            ("cut.log", cut_in_line(&text, 15)),
            // A printout with text no logger writes, and a byte that is not UTF-8.
            (
                "garbled.log",
                replace(
                    &replace(&text, "id: 41,", b"id: 41 oops,"),
                    "notes from",
                    b"not\xe9s from",
                ),
            ),
            // A JSON record cut short, and one that names a message but holds none.
            ("cut.jsonl", cut_in_line(&json, 9)),
            (
                "empty-data.jsonl",
                replace(
                    &json,
                    r#"","data":{"jsonrpc":"2.0","id":0,"#,
                    br#"","nodata":{"jsonrpc":"2.0","id":0,"#,
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_go_sdk_logs() {
    let good = fixture("go-sdk/logging-transport-client.log");
    let (stdout, code, stderr) = lint_files(
        "go-sdk-log",
        &[
            ("cut.log", cut_in_line(&good, 9)),
            (
                "read-error.log",
                [
                    &good[..],
                    b"read error: invalid character 'S' looking for beginning of value\n",
                ]
                .concat(),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_python_sdk_logs() {
    let good = fixture("python-sdk/sse-server-debug.log");
    let (stdout, code, stderr) = lint_files(
        "python-sdk-log",
        &[
            // Cut in a bytes literal, as a log still being written.
            ("cut.log", cut_in_line(&good, 12)),
            // A literal whose JSON is broken.
            (
                "broken.log",
                replace(
                    &good,
                    r#"b'{"jsonrpc":"2.0","id":7,"#,
                    br#"b'{"jsonrpc":"2.0","id":7"#,
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_mcpspy_captures() {
    let good = fixture("mcpspy/stdio-langflow-time.jsonl");
    let (stdout, code, stderr) = lint_files(
        "mcpspy",
        &[
            ("cut.jsonl", cut_in_line(&good, 8)),
            // An event whose raw text is not JSON.
            (
                "raw.jsonl",
                replace(
                    &good,
                    r#""raw":"{\"jsonrpc\":\"2.0\",\"id\":1,"#,
                    br#""raw":"{\"jsonrpc\":\"2.0\",\"id\":1"#,
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_librechat_and_mcp_remote_logs() {
    for (format, relative) in [
        ("librechat-log", "librechat/mcp-debug.log"),
        ("mcp-remote-log", "mcp-remote/stderr.log"),
    ] {
        let good = fixture(relative);
        let (stdout, code, stderr) = lint_files(
            format,
            &[
                // The last line, a report, cut inside its message: the
                // failure, without the id or token.
                ("cut.log", good[..good.len() - 25].to_vec()),
                ("latin1.log", [&good[..], b"[1] caf\xe9\n"].concat()),
            ],
        );
        // A reported unknown id is a warning: the exit code says nothing here.
        assert!(code.is_some(), "{format}");
        assert!(stderr.is_empty(), "{stderr}");
        insta::assert_snapshot!(format, stdout);
    }
}

#[test]
fn broken_vscode_logs() {
    let good = fixture("vscode-log/weather-vscode-1.99.log");
    let (stdout, code, stderr) = lint_files(
        "vscode-log",
        &[
            ("truncated.log", cut_in_line(&good, 16)),
            (
                "latin1.log",
                replace(&good, "\"deifieded\"", b"\"d\xe9ifi\xe9d\xe9d\""),
            ),
            (
                "malformed.log",
                replace(
                    &good,
                    r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
                    b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}",
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_mcpsnoop_logs() {
    let good = fixture("mcpsnoop/stdio-notes-server.jsonl");
    let (stdout, code, stderr) = lint_files(
        "mcpsnoop",
        &[
            ("truncated.jsonl", cut_in_line(&good, 16)),
            (
                "latin1.jsonl",
                replace(&good, "user pressed Esc", b"user pressed \xc9chap"),
            ),
            // A frame without its direction, and a frame mcpsnoop cut at its
            // size cap (the message was sent whole, but cannot be read here).
            (
                "malformed.jsonl",
                replace(
                    &replace(&good, r#""direction":"c2s","transport":"stdio","raw":{"jsonrpc":"2.0","id":1,"#, br#""transport":"stdio","raw":{"jsonrpc":"2.0","id":1,"#),
                    r#""direction":"s2c","transport":"stdio","raw":{"jsonrpc":"2.0","id":3,"result":{}}"#,
                    br#""direction":"s2c","transport":"stdio","truncated":true,"text":"{\"jsonrpc\":\"2.0\",\"id\":3,\"res""#,
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_inspector_exports() {
    let good = fixture("inspector/inspector-protocol-everything-2026-03-17T10-01-22.json");
    let (stdout, code, stderr) = lint_files(
        "inspector",
        &[
            // Cut in the middle, as a download that did not finish.
            ("truncated.json", good[..good.len() / 2].to_vec()),
            (
                "latin1.json",
                replace(&good, "release notes", b"r\xe9lease notes"),
            ),
            // An entry without its message, one from an unknown origin, and
            // a document that is not an array of entries.
            (
                "malformed.json",
                replace(
                    &replace(&good, r#""origin": "server""#, br#""origin": "proxy""#),
                    r#""message": {
      "method": "notifications/initialized""#,
                    br#""note": {
      "method": "notifications/initialized""#,
                ),
            ),
            ("object.json", br#"{"entries": []}"#.to_vec()),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn broken_inspector_network_exports() {
    let good = fixture("inspector-network/inspector-network-everything-2026-03-17T11-20-30.json");
    let (stdout, code, stderr) = lint_files(
        "inspector-network",
        &[
            ("truncated.json", good[..good.len() * 2 / 3].to_vec()),
            (
                "latin1.json",
                replace(&good, "cancelled by user", b"cancel\xe9 by user"),
            ),
            // A request body that is not JSON, and an entry without its URL.
            (
                "malformed.json",
                replace(
                    &replace(&good, r#"\"id\":1}"#, br#"\"id\":1"#),
                    r#""url": "http://localhost:3001/mcp",
    "requestHeaders": {
      "accept": "text/event-stream","#,
                    br#""requestHeaders": {
      "accept": "text/event-stream","#,
                ),
            ),
        ],
    );
    assert_eq!(code, Some(1));
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}
