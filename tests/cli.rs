//! The real binary, end to end: exit codes, errors on bad input, every
//! output format, stdin, and output that does not depend on the thread count.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use mcp_lint::generate::{generate, GeneratorConfig};

fn mcp_lint(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn mcp_lint_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

const HANDSHAKE: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}
{"from":"server","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}
{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}
"#;

#[test]
fn human_output_of_the_readme_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = mcp_lint(&["testdata/session-with-violations.jsonl"], dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.is_empty());
    insta::assert_snapshot!(text(&out.stdout));
}

#[test]
fn json_output_of_the_readme_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = mcp_lint(
        &["--format", "json", "testdata/session-with-violations.jsonl"],
        dir,
    );
    assert_eq!(out.status.code(), Some(1));
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    insta::assert_json_snapshot!(document);
}

#[test]
fn json_lines_hold_the_json_report_one_finding_a_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let trace = "testdata/session-with-violations.jsonl";
    let lines = mcp_lint(&["--format", "json-lines", trace], dir);
    assert_eq!(lines.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&lines.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let document = mcp_lint(&["--format", "json", trace], dir);
    let document: serde_json::Value = serde_json::from_slice(&document.stdout).unwrap();
    let (last, findings) = lines.split_last().unwrap();
    assert_eq!(findings, document["diagnostics"].as_array().unwrap());
    assert_eq!(last["summary"], document["summary"]);
    assert_eq!(last["version"], 1);
}

#[test]
fn failures_the_client_reports_are_marked_in_every_output_format() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let log = "testdata/claude-code/mcp-logs-progress-after-result.jsonl";
    let json = mcp_lint(&["--format", "json", log], dir);
    let document: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let diagnostics = document["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 3);
    assert!(diagnostics
        .iter()
        .all(|d| d["reported_by_client"] == serde_json::Value::Bool(true)));
    let sarif = mcp_lint(&["--format", "sarif", log], dir);
    let document: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let results = document["runs"][0]["results"].as_array().unwrap();
    assert!(results
        .iter()
        .all(|r| r["properties"]["reportedByClient"] == serde_json::Value::Bool(true)));
    for format in ["human", "concise", "github"] {
        let out = text(&mcp_lint(&["--format", format, log], dir).stdout);
        assert_eq!(
            out.matches("the client reports: ").count(),
            3,
            "{format}:\n{out}"
        );
    }
    // Findings from messages carry no mark.
    let plain = mcp_lint(
        &["--format", "json", "testdata/session-with-violations.jsonl"],
        dir,
    );
    assert!(!text(&plain.stdout).contains("reported_by_client"));
}

#[test]
fn github_and_sarif_output_of_the_readme_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = mcp_lint(
        &[
            "--format",
            "github",
            "testdata/session-with-violations.jsonl",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("github", text(&out.stdout));
    let out = mcp_lint(
        &[
            "--format",
            "sarif",
            "testdata/session-with-violations.jsonl",
        ],
        dir,
    );
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &sarif["runs"][0];
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(
        run["tool"]["driver"]["rules"].as_array().unwrap().len(),
        mcp_lint::rules::ALL.len()
    );
    insta::assert_json_snapshot!("sarif_results", run["results"]);
}

#[test]
fn clean_trace_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("clean.jsonl"), HANDSHAKE).unwrap();
    let out = mcp_lint(&["clean.jsonl"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(
        text(&out.stdout),
        "No problems found in 1 file (3 events, 1 session).\n"
    );
}

#[test]
fn a_final_line_without_newline_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let trace = format!(
        "{HANDSHAKE}{}",
        r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}}"#
    );
    std::fs::write(dir.path().join("live.jsonl"), trace).unwrap();
    let out = mcp_lint(&["--format", "concise", "live.jsonl"], dir.path());
    assert_eq!(
        text(&out.stdout),
        "live.jsonl:4:1: error[cancel-unknown-request]: client cancels request 9, which it never sent in this session\nFound 1 error, 0 warnings, 0 infos in 1 file (4 events, 1 session).\n"
    );
}

#[test]
fn fail_on_sets_the_threshold() {
    let dir = tempfile::tempdir().unwrap();
    // A request left unanswered: an info finding only.
    let trace = format!(
        "{HANDSHAKE}{}\n",
        r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#
    );
    std::fs::write(dir.path().join("t.jsonl"), trace).unwrap();
    assert_eq!(mcp_lint(&["t.jsonl"], dir.path()).status.code(), Some(0));
    assert_eq!(
        mcp_lint(&["--fail-on", "warning", "t.jsonl"], dir.path())
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        mcp_lint(&["--fail-on", "info", "t.jsonl"], dir.path())
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn missing_file_is_an_error_but_other_files_are_still_linted() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ok.jsonl"),
        "{\"from\":\"client\",\"msg\":5}\n",
    )
    .unwrap();
    let out = mcp_lint(
        &["--format", "concise", "nope.jsonl", "ok.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("nope.jsonl"), "{stderr}");
    assert!(
        text(&out.stdout).contains("ok.jsonl:1:1: error[invalid-jsonrpc]"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn directories_are_walked_and_an_empty_one_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("traces/nested")).unwrap();
    std::fs::create_dir_all(dir.path().join("empty")).unwrap();
    std::fs::write(dir.path().join("traces/a.jsonl"), HANDSHAKE).unwrap();
    std::fs::write(dir.path().join("traces/nested/b.ndjson"), "not json\n").unwrap();
    std::fs::write(dir.path().join("traces/notes.txt"), "ignored").unwrap();
    let out = mcp_lint(&["--format", "concise", "traces"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "traces/nested/b.ndjson:1:1: error[invalid-json]: the file is not an MCP trace in any known format: no line is JSON or a line of a known client's log (name the format with --input-format if it is one)\nFound 1 error, 0 warnings, 0 infos in 2 files (4 events, 1 session).\n"
    );
    let out = mcp_lint(&["empty"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("empty: directory holds no trace files"));
}

#[test]
fn empty_file_is_said_and_clean() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.jsonl"), "").unwrap();
    let out = mcp_lint(&["empty.jsonl"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("empty.jsonl: the input is empty"));
}

#[test]
fn bad_lines_are_reported_and_linting_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut trace = HANDSHAKE.as_bytes().to_vec();
    trace.extend_from_slice(
        b"{\"from\":\"client\",\"msg\":{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}}\n",
    );
    trace.extend_from_slice(b"{\"from\":\"client\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}}\r\n");
    trace.extend_from_slice(b"{\"from\":\"server\"}\n");
    trace.extend_from_slice(
        b"{\"from\":\"server\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}}\n",
    );
    trace.extend_from_slice(b"{\"from\":\"server\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"res"); // cut off
    std::fs::write(dir.path().join("bad.jsonl"), trace).unwrap();
    let out = mcp_lint(&["--format", "concise", "bad.jsonl"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(text(&out.stdout));
}

#[test]
fn stdin_is_read_and_quoted() {
    let trace = format!(
        "{HANDSHAKE}{}\n",
        r#"{"from":"server","msg":{"jsonrpc":"2.0","id":7,"result":{}}}"#
    );
    let out = mcp_lint_stdin(&["-"], trace.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("<stdin>:4:1"), "{stdout}");
    assert!(stdout.contains(r#""id":7,"result":{}"#), "{stdout}");
}

#[test]
fn control_characters_from_the_trace_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let trace = format!(
        "{HANDSHAKE}{}\n{}\n",
        r#"{"from":"client","session":"\u001b]0;owned\u0007","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\u001b[2J"}}}"#,
        r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"\u009b31m","method":"\u001b[31mtools/call\u202e"}}"#
    );
    std::fs::write(dir.path().join("evil.jsonl"), trace).unwrap();
    for format in ["human", "concise", "json", "github", "sarif"] {
        let out = mcp_lint(
            &["--format", format, "--color", "never", "evil.jsonl"],
            dir.path(),
        );
        let stdout = text(&out.stdout);
        assert!(
            !stdout
                .chars()
                .any(|c| c.is_control() && c != '\n' || c == '\u{202e}'),
            "{format}: {stdout:?}"
        );
        assert!(
            stdout.contains("cancel-unknown-request"),
            "{format}: {stdout}"
        );
    }
}

#[test]
fn rule_selection() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = mcp_lint(
        &[
            "--format",
            "concise",
            "--select",
            "duplicate-response",
            "testdata/session-with-violations.jsonl",
        ],
        dir,
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .all(|l| l.contains("[duplicate-response]") || l.starts_with("Found")),
        "{stdout}"
    );
    let out = mcp_lint(
        &[
            "--ignore",
            "no-such-rule",
            "testdata/session-with-violations.jsonl",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown rule \"no-such-rule\""));
    let out = mcp_lint(&["--list-rules"], dir);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout).lines().count(),
        mcp_lint::rules::ALL.len()
    );
}

#[test]
fn usage_errors_exit_two() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(mcp_lint(&[], dir).status.code(), Some(2));
    assert_eq!(
        mcp_lint(&["--format", "xml", "x"], dir).status.code(),
        Some(2)
    );
}

#[test]
fn output_is_the_same_on_one_thread_and_many_and_from_stdin() {
    let config = GeneratorConfig {
        target_bytes: 6 << 20,
        violation_rate: 0.05,
        ..GeneratorConfig::default()
    };
    let mut trace = Vec::new();
    generate(&config, &mut trace).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.jsonl"), &trace).unwrap();
    let run = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
            .args(["--format", "json", "big.jsonl"])
            .current_dir(dir.path())
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        out.stdout
    };
    let one = run("1");
    let many = run("4");
    assert!(one.len() > 10_000, "the trace should have many findings");
    assert!(one == many, "output differs between 1 and 4 threads");
    let from_stdin = mcp_lint_stdin(&["--format", "json", "-"], &trace);
    assert_eq!(
        text(&from_stdin.stdout),
        text(&one).replace("\"big.jsonl\"", "\"<stdin>\"")
    );
}

#[test]
fn broken_har_files_give_clear_findings() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/har/devtools-streamable-http.har"),
    )
    .unwrap();
    // Cut in the middle of an entry, as a capture still being written.
    std::fs::write(dir.path().join("truncated.har"), &good[..good.len() / 2]).unwrap();
    // Not UTF-8.
    let mut latin1 = good.clone().into_bytes();
    let at = latin1.len() / 3;
    latin1[at] = 0xe9;
    std::fs::write(dir.path().join("latin1.har"), latin1).unwrap();
    // An entry of the wrong shape, and a body that is not JSON-RPC.
    std::fs::write(
        dir.path().join("odd.har"),
        r#"{"log":{"version":"1.2","entries":[
{"startedDateTime":"2026-11-30T07:00:00Z","time":1,"request":"POST /mcp"},
{"startedDateTime":"2026-11-30T07:00:01Z","time":1,"request":{"method":"POST","url":"http://h/mcp","headers":[],"postData":{"text":"{\"jsonrpc\":\"2.0\",\"id\":1,"}},"response":{"status":400,"headers":[],"content":{"mimeType":"text/plain","text":"bad request"}}}
]}}
"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("not-har.har"), r#"{"log": {"pages": []}}"#).unwrap();
    let out = mcp_lint(
        &[
            "--format",
            "concise",
            "truncated.har",
            "latin1.har",
            "odd.har",
            "not-har.har",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout));
}

#[test]
fn directory_walks_take_only_the_log_files_that_are_mcp_logs() {
    let dir = tempfile::tempdir().unwrap();
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    std::fs::create_dir_all(dir.path().join("logs/window1")).unwrap();
    std::fs::copy(
        testdata.join("claude-log/mcp-server-desktopCommander.log"),
        dir.path().join("logs/mcp-server-desktopCommander.log"),
    )
    .unwrap();
    std::fs::copy(
        testdata.join("vscode-log/mcp-taskfile-server.log"),
        dir.path().join("logs/window1/mcpServer.taskfile.log"),
    )
    .unwrap();
    // Logs of other programs, and of Claude Desktop itself, are not linted.
    std::fs::write(
        dir.path().join("logs/main.log"),
        "2025-03-23T18:30:58.413Z [info] Starting app { appVersion: '0.9.3' }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("logs/window1/Cursor MCP.log"),
        "2025-02-25 01:21:18.277 [info] db10: Handling CallTool action for tool 'getConsoleLogs'\n",
    )
    .unwrap();
    let out = mcp_lint(&["--format", "concise", "logs"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "logs/mcp-server-desktopCommander.log:7:1: error[cancel-initialize]: client cancels its initialize request 0\n\
         logs/window1/mcpServer.taskfile.log:18:1: info[progress-after-terminal]: server sends progress after the client cancelled client request 3 (tools/call)\n\
         logs/window1/mcpServer.taskfile.log:25:1: info[unanswered-request]: client request 1 (initialize) got no response before the session ended\n\
         logs/window1/mcpServer.taskfile.log:30:1: error[cancel-initialize]: client cancels its initialize request 1\n\
         Found 2 errors, 0 warnings, 2 infos in 2 files (18 events, 3 sessions).\n"
    );
}

/// The quoted lines of human output: what follows `N │ `.
fn quoted_lines(human: &str) -> Vec<&str> {
    human
        .lines()
        .filter_map(|line| line.split_once(" │ ").map(|(_, quote)| quote.trim()))
        .collect()
}

#[test]
fn har_findings_about_an_exchange_quote_its_request_line_not_a_bare_brace() {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/har");
    let out = mcp_lint(&["devtools-streamable-http.har"], &testdata);
    let human = text(&out.stdout);
    let quotes = quoted_lines(&human);
    assert!(!quotes.is_empty(), "{human}");
    assert!(quotes.iter().all(|q| *q != "{"), "{human}");
    assert!(
        quotes.contains(&r#""url": "http://127.0.0.1:8000/mcp","#),
        "{human}"
    );
    // Minified, the same findings quote a window of the one line.
    let dir = tempfile::tempdir().unwrap();
    let mut minified = std::fs::read(testdata.join("devtools-streamable-http.har")).unwrap();
    minified.retain(|b| *b != b'\n');
    std::fs::write(dir.path().join("min.har"), minified).unwrap();
    let out = mcp_lint(&["min.har"], dir.path());
    let human = text(&out.stdout);
    assert!(
        human.contains("error[http-protocol-version-header]"),
        "{human}"
    );
    assert!(human.contains("1 │ … "), "{human}");
    assert!(quoted_lines(&human).iter().all(|q| *q != "{"), "{human}");
}

/// A request answered at 09:00:03 and cancelled on the next line, stamped `cancelled_at`.
fn answered_then_cancelled(cancelled_at: &str) -> String {
    let lines = [
        r#"{"ts":"2026-11-30T09:00:00.000Z","from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#,
        r#"{"ts":"2026-11-30T09:00:00.010Z","from":"server","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}"#,
        r#"{"ts":"2026-11-30T09:00:00.020Z","from":"client","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}"#,
        r#"{"ts":"2026-11-30T09:00:01.000Z","from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
        r#"{"ts":"2026-11-30T09:00:03.000Z","from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#,
        &format!(
            r#"{{"ts":"{cancelled_at}","from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":1}}}}}}"#
        ),
    ];
    lines.join("\n") + "\n"
}

/// The notes of the `cancel-after-response` findings on `trace`.
fn cancel_after_response_notes(trace: &str) -> Vec<serde_json::Value> {
    let out = mcp_lint_stdin(&["--format", "json", "-"], trace.as_bytes());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    diagnostics
        .iter()
        .filter(|d| d["rule"] == "cancel-after-response")
        .map(|d| d["note"].clone())
        .collect()
}

#[test]
fn an_order_finding_says_when_the_timestamps_disagree_with_the_order() {
    let in_order =
        cancel_after_response_notes(&answered_then_cancelled("2026-11-30T09:00:04.000Z"));
    assert_eq!(in_order, vec![serde_json::Value::Null]);
    let swapped = cancel_after_response_notes(&answered_then_cancelled("2026-11-30T09:00:02.000Z"));
    assert_eq!(swapped.len(), 1);
    let note = swapped[0].as_str().unwrap();
    assert!(note.contains("1000 ms earlier"), "{note}");
    assert!(
        note.contains("timestamps disagree with the order"),
        "{note}"
    );
}

/// Human output fits an 80-column terminal: quoted lines are cut, labels
/// and help wrap; only a spec address, alone on its line, stays whole.
#[test]
fn human_output_fits_80_columns() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    for trace in [
        "testdata/session-with-violations.jsonl",
        "testdata/har/python-sdk-streamable-http.har",
        "testdata/claude-log/mcp.log",
        "testdata/races/reused-id-answered-twice.jsonl",
        "testdata/bare-stdio-capture.jsonl",
    ] {
        let out = mcp_lint(&[trace], dir);
        let shown = text(&out.stdout);
        assert!(shown.contains('│'), "{trace} quotes no line:\n{shown}");
        for line in shown.lines() {
            let url_alone = line.trim_start().starts_with("https://") && !line.trim().contains(' ');
            assert!(
                line.chars().count() <= 80 || url_alone,
                "{trace}: a line of {} columns:\n{line}",
                line.chars().count()
            );
        }
    }
}

/// A bare stdio capture whose server pretty-prints one result and whose
/// client writes two messages on one line: one framing finding each, no
/// `invalid-json` for the fragments, and the messages still checked (the
/// second tools/call, of a tool the list lacks, is reported).
#[test]
fn a_misframed_stdio_capture_gives_one_finding_per_fault() {
    let capture = concat!(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        "\n{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\n    \"tools\": []\n  }\n}\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: x"}}"#,
        "\n",
    );
    let out = mcp_lint_stdin(&["--format", "concise", "-"], capture.as_bytes());
    let stdout = text(&out.stdout);
    let rules: Vec<(&str, &str)> = stdout
        .lines()
        .filter(|line| line.starts_with("<stdin>"))
        .map(|line| {
            let mut parts = line.splitn(3, ": ");
            (parts.next().unwrap(), parts.next().unwrap())
        })
        .collect();
    assert_eq!(
        rules,
        [
            ("<stdin>:5:1", "error[stdio-newline-framing]"),
            ("<stdin>:12:1", "error[stdio-newline-framing]"),
            ("<stdin>:12:1", "warning[tool-unknown]"),
        ],
        "{stdout}"
    );
}
