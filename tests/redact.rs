//! `mcp-lint redact`: every fixture of every format lints the same after
//! redaction (rule, line, severity) and is detected as the same format, and
//! the free text is gone.

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

/// The fixtures: every file below testdata/ in a format mcp-lint reads
/// (the recording scripts beside the HAR files are in none).
fn fixtures() -> Vec<(PathBuf, Vec<u8>, Format)> {
    let mut paths = Vec::new();
    files(&root().join("testdata"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            let format = detect(&bytes);
            (format != Format::Unknown).then_some((path, bytes, format))
        })
        .collect()
}

#[test]
fn every_fixture_of_every_format_lints_the_same_after_redaction() {
    let fixtures = fixtures();
    let mut failures = Vec::new();
    let mut formats = Vec::new();
    for (path, bytes, format) in &fixtures {
        let redacted = mcp_lint::redact::redact(bytes, *format).unwrap();
        let name = path.strip_prefix(root()).unwrap().display();
        if detect(&redacted) != *format {
            failures.push(format!("{name}: detected as {:?}", detect(&redacted)));
        } else if findings(&redacted) != findings(bytes) {
            failures.push(format!(
                "{name}: {:?}\n  became {:?}\n{}",
                findings(bytes),
                findings(&redacted),
                String::from_utf8_lossy(&redacted)
            ));
        }
        assert_eq!(
            redacted.iter().filter(|b| **b == b'\n').count(),
            bytes.iter().filter(|b| **b == b'\n').count(),
            "{name}: lines"
        );
        formats.push(*format);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    for format in Format::SELECTABLE {
        assert!(formats.contains(format), "no fixture of {}", format.name());
    }
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

/// Private text of fixtures of every kind of format, and where it sits.
const PRIVATE: &[(&str, &[&str])] = &[
    // tool argument, result text, clientInfo name
    ("claude-log/mcp.log", &["Lisbon", "Sunny", "claude-ai"]),
    // server stderr (a line of its own), clientInfo name
    (
        "claude-log/mcp-server-desktopCommander.log",
        &["npm warn", "claude-ai"],
    ),
    (
        "vscode-log/weather-vscode-1.99.log",
        &["deifieded", "is_valid", "Started server process"],
    ),
    (
        "vscode-log/mcp-taskfile-server.log",
        &["Taskfile.yml", "go vet"],
    ),
    (
        "go-sdk/logging-transport-client.log",
        &["go-client", "Hi you", "\"you\""],
    ),
    ("python-sdk/sse-server-debug.log", &["claude-ai", "pg-mcp"]),
    // the server's stdout, quoted by pydantic
    (
        "python-sdk/client-parse-failure.log",
        &["Weather server starting"],
    ),
    (
        "librechat/mcp-debug.log",
        &["\"duration\":90", "librechat..."],
    ),
    (
        "supergateway/sse-info-level.log",
        &[
            "Loading 12 notes",
            "read 2 resources",
            "mcp-inspector",
            "\"q\":\"mcp\"",
        ],
    ),
    (
        "supergateway/streamable-json-format.jsonl",
        &["Lyon", "Sunny", "fetching forecast"],
    ),
    (
        "mcpsnoop/stdio-notes-server.jsonl",
        &[
            "claude-code",
            "user pressed Esc",
            "reindexed 240",
            "2019-scan.pdf",
            "Notes server v0.4",
        ],
    ),
    (
        "mcpspy/stdio-langflow-time.jsonl",
        &["09:03 UTC", "\\\"UTC\\\""],
    ),
    (
        "claude-code/mcp-logs-progress-after-result.jsonl",
        &["loaded 214 receipts", "ledger", "Request cancelled"],
    ),
    (
        "claude-code/debug-meterian.log",
        &["booting", "[MCP SERVER] ready"],
    ),
    (
        "inspector/inspector-protocol-everything-2026-03-17T10-01-22.json",
        &["inspector-client"],
    ),
    (
        "inspector-network/inspector-network-everything-2026-03-17T11-20-30.json",
        &["inspector-client", "Cannot GET"],
    ),
    (
        "har/python-sdk-streamable-http.har",
        &["python-httpx", "har-demo"],
    ),
];

#[test]
fn private_text_of_every_kind_of_format_is_gone() {
    for (fixture, secrets) in PRIVATE {
        let original = std::fs::read(root().join("testdata").join(fixture)).unwrap();
        let redacted = mcp_lint::redact::redact(&original, detect(&original)).unwrap();
        let (original, redacted) = (
            String::from_utf8_lossy(&original),
            String::from_utf8_lossy(&redacted),
        );
        for secret in *secrets {
            assert!(original.contains(secret), "{fixture}: {secret}");
            assert!(
                !redacted.contains(secret),
                "{fixture}: {secret} survived:\n{redacted}"
            );
        }
    }
}

/// Secrets planted in fixtures: (fixture, text replaced, its replacement).
const PLANTED: &[(&str, &str, &str)] = &[
    // An Authorization header and a cookie in a HAR capture.
    (
        "har/devtools-streamable-http.har",
        "\"name\": \"Accept\",",
        "\"name\": \"Authorization\", \"value\": \"Bearer planted-1\"}, {\"name\": \"Cookie\", \"value\": \"sid=planted-1\"}, {\"name\": \"Accept\",",
    ),
    // A tool argument in a body, a JSON string in a JSON document.
    (
        "har/devtools-streamable-http.har",
        "\\\"arguments\\\":{",
        "\\\"arguments\\\":{\\\"card\\\":\\\"planted-2\\\",",
    ),
    // Credentials and a key in a request's URL.
    (
        "har/devtools-streamable-http.har",
        "\"url\": \"http://127.0.0.1:8000/mcp\"",
        "\"url\": \"http://me:planted-7@127.0.0.1:8000/mcp?api_key=planted-7\"",
    ),
    // The server's address and a browser's initiator in a HAR entry.
    (
        "har/python-sdk-streamable-http.har",
        "\"serverIPAddress\": \"127.0.0.1\"",
        "\"serverIPAddress\": \"planted-9.example\", \"_initiator\": {\"url\": \"https://planted-9.example/app.js\"}",
    ),
    // An Authorization header in Inspector's network export.
    (
        "inspector-network/inspector-network-everything-2026-03-17T11-20-30.json",
        "\"accept\": \"",
        "\"authorization\": \"Bearer planted-3\", \"accept\": \"",
    ),
    // Result texts printed in the sentences of client logs.
    (
        "cursor-log/mcp-logs-2025-tagged.log",
        "\"content\":[]",
        "\"content\":[{\"type\":\"text\",\"text\":\"planted-4\"}]",
    ),
    (
        "mcp-remote/stderr.log",
        "\"content\":[]",
        "\"content\":[{\"type\":\"text\",\"text\":\"planted-5\"}]",
    ),
    // A server's stderr that looks like a log line of its own.
    (
        "claude-log/mcp-server-desktopCommander.log",
        "npx: installed",
        "2025-06-09 21:38:09,942 - planted-8 - INFO - up\nnpx: installed",
    ),
    // A clientInfo name in a canonical trace.
    (
        "sessions/clean-2025-11-25.jsonl",
        "\"clientInfo\":{\"name\":\"",
        "\"clientInfo\":{\"name\":\"planted-6 ",
    ),
];

#[test]
fn planted_secrets_are_gone_and_the_findings_stay() {
    for (fixture, from, to) in PLANTED {
        let original = std::fs::read_to_string(root().join("testdata").join(fixture)).unwrap();
        let planted = original.replacen(from, to, 1);
        assert_ne!(planted, original, "{fixture}: nothing planted");
        let format = detect(planted.as_bytes());
        let redacted = mcp_lint::redact::redact(planted.as_bytes(), format)
            .unwrap_or_else(|e| panic!("{fixture}: {e}"));
        let redacted = String::from_utf8(redacted).unwrap();
        assert!(!redacted.contains("planted-"), "{fixture}:\n{redacted}");
        assert_eq!(detect(redacted.as_bytes()), format, "{fixture}");
        assert_eq!(
            findings(redacted.as_bytes()),
            findings(planted.as_bytes()),
            "{fixture}"
        );
    }
}

#[test]
fn the_protocol_s_headers_stay_and_other_headers_keep_their_names() {
    let har = std::fs::read(root().join("testdata/har/devtools-streamable-http.har")).unwrap();
    let redacted = String::from_utf8(mcp_lint::redact::redact(&har, Format::Har).unwrap()).unwrap();
    for kept in [
        "\"value\": \"application/json, text/event-stream\"",
        "\"name\": \"MCP-Protocol-Version\"",
        "\"value\": \"2025-06-18\"",
    ] {
        assert!(redacted.contains(kept), "{kept} was lost:\n{redacted}");
    }
}

/// Every fixture cut anywhere (a recording still being written, a capture
/// cut short) is redacted without a panic, line for line.
#[test]
fn cut_inputs_are_redacted_line_for_line() {
    for (path, bytes, format) in fixtures() {
        for cut in (1..8).map(|eighth| bytes.len() * eighth / 8) {
            let cut = &bytes[..cut];
            let redacted = mcp_lint::redact::redact(cut, format).unwrap();
            let lines = |b: &[u8]| b.iter().filter(|b| **b == b'\n').count();
            assert_eq!(lines(&redacted), lines(cut), "{}", path.display());
        }
    }
}

/// Any input read as any format, whole or with bytes knocked out, is
/// redacted without a panic, line for line.
#[test]
fn any_input_read_as_any_format_keeps_its_lines() {
    let lines = |b: &[u8]| b.iter().filter(|b| **b == b'\n').count();
    for (path, bytes, _) in fixtures() {
        let mut broken = bytes.clone();
        for at in (0..broken.len()).step_by(37) {
            broken[at] = [b'"', b'{', b']', b'\\', 0xff][at % 5];
        }
        for format in Format::SELECTABLE {
            for input in [&bytes, &broken] {
                let redacted = mcp_lint::redact::redact(input, *format).unwrap();
                assert_eq!(
                    lines(&redacted),
                    lines(input),
                    "{} as {}",
                    path.display(),
                    format.name()
                );
            }
        }
    }
}

fn run_redact(input: &Path, output: &Path, options: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .current_dir(root())
        .arg("redact")
        .arg(input)
        .arg("-o")
        .arg(output)
        .args(options)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn every_format_is_written_in_its_own_format_by_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    for fixture in [
        "vscode-log/mcp-taskfile-server.log",
        "har/legacy-http-sse-2024-11-05.har",
    ] {
        let out = dir.path().join("copy");
        let run = run_redact(&root().join("testdata").join(fixture), &out, &[]);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let original = std::fs::read(root().join("testdata").join(fixture)).unwrap();
        let copy = std::fs::read(&out).unwrap();
        assert_eq!(detect(&copy), detect(&original), "{fixture}");
        assert_eq!(findings(&copy), findings(&original), "{fixture}");
    }
}

#[test]
fn the_input_format_can_be_named() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("app.log");
    std::fs::write(
        &log,
        "2025-07-12T05:51:44.601Z [info] Starting app\nsecret stderr\n",
    )
    .unwrap();
    let out = dir.path().join("copy");
    assert_eq!(run_redact(&log, &out, &[]).status.code(), Some(2));
    let run = run_redact(&log, &out, &["--input-format", "claude-log"]);
    assert_eq!(run.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "2025-07-12T05:51:44.601Z [info] redacted\nredacted\n"
    );
}

#[test]
fn a_file_that_is_no_trace_or_not_there_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_trace = dir.path().join("notes.md");
    std::fs::write(&not_a_trace, "# Notes\n\nNothing here.\n").unwrap();
    for input in [not_a_trace, dir.path().join("missing.jsonl")] {
        let out = dir.path().join("copy");
        let run = run_redact(&input, &out, &[]);
        assert_eq!(run.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&run.stderr);
        let name = input.file_name().unwrap().to_string_lossy();
        assert!(stderr.contains(&*name), "{stderr}");
        assert!(!out.exists());
    }
}

/// Secrets planted in the text of every client log format, outside the
/// messages: server names in line prefixes, command lines, paths, URLs,
/// hosts, user names, tokens, the server's output and quoted stdout.
/// (fixture, text replaced everywhere, its replacement)
const PLANTED_IN_LOGS: &[(&str, &str, &str)] = &[
    // Claude Desktop: a server's name, its command line, its stderr, the
    // stdout fragment a parse error quotes.
    ("claude-log/mcp.log", "[weather]", "[alice-planted.example]"),
    (
        "claude-log/mcp.log",
        "command: /usr/local/bin/chatlog",
        "command: /home/alice-planted/bin/chatlog --token tok-planted",
    ),
    (
        "claude-log/mcp.log",
        "MCP server: weather",
        "MCP server: alice-planted.example",
    ),
    (
        "claude-log/mcp-server-golang-mcp-testing.log",
        "\"time=2025-0\"",
        "\"db.planted.example\"",
    ),
    (
        "claude-log/mcp-server-golang-mcp-testing.log",
        "Server transport closed (intentional shutdown)",
        "Server transport closed (by alice-planted at /home/alice-planted)",
    ),
    (
        "claude-log/mcp-server-desktopCommander.log",
        "npx: installed",
        "  at /home/alice-planted/server.js:12 token=tok-planted\nnpx: installed",
    ),
    // Claude Code: a server's name, a tool's, a quoted fragment, a record's
    // member of its own.
    (
        "claude-code/debug-meterian.log",
        "meterian-mcp",
        "alice-planted.example",
    ),
    (
        "claude-code/debug-meterian.log",
        "scan_dependencies",
        "planted_tool_of_alice",
    ),
    (
        "claude-code/debug-meterian.log",
        "\"MCP server\"...",
        "\"/home/alice-planted\"...",
    ),
    (
        "claude-code/mcp-logs-calls-only.jsonl",
        "a2a_send",
        "planted_tool_of_alice",
    ),
    (
        "claude-code/mcp-logs-calls-only.jsonl",
        "\"cwd\":",
        "\"user\":\"alice-planted\",\"cwd\":",
    ),
    (
        "claude-code/vscode-from-claude.log",
        "starting search index",
        "loading /home/alice-planted/.env with tok-planted",
    ),
    // Cursor: a server tag, its command line, its stderr at error level.
    ("cursor-log/mcp-logs-2025-tagged.log", "wirewiki", "alice-planted"),
    (
        "cursor-log/mcp-logs-2025-tagged.log",
        "npx @agentdeskai/browser-tools-server",
        "node /home/alice-planted/server.js --token tok-planted",
    ),
    (
        "cursor-log/mcp-logs-2025-tagged.log",
        "ListToolsRequest",
        "ListToolsRequest for alice-planted@db.planted.example",
    ),
    (
        "cursor-log/mcp-logs-actions-only.log",
        "getConsoleLogs",
        "planted_tool_of_alice",
    ),
    // VS Code: the server's name, its command line, its stderr.
    (
        "vscode-log/mcp-taskfile-server.log",
        "server mcp-taskfile-server",
        "server alice-planted.example",
    ),
    (
        "vscode-log/mcp-taskfile-server.log",
        "/home/user/go/bin/mcp-taskfile-server",
        "/home/alice-planted/bin/server --token tok-planted",
    ),
    (
        "vscode-log/mcp-taskfile-server.log",
        "Discovered 2 tools",
        "Discovered 2 tools\n    at /home/alice-planted/x.go:12",
    ),
    // The Python SDK: a traceback's paths and code, the quoted stdout line,
    // a program's logger and sentence.
    (
        "python-sdk/client-parse-failure.log",
        "/app/.venv",
        "/home/alice-planted/.venv",
    ),
    (
        "python-sdk/client-parse-failure.log",
        "Weather server starting on stdio",
        "tok-planted db.planted.example",
    ),
    (
        "python-sdk/client-parse-failure.log",
        "mcp_agent.mcp.mcp_server_registry - INFO - weather",
        "alice_planted.app - INFO - alice-planted",
    ),
    (
        "python-sdk/sse-server-debug.log",
        "Handling POST message",
        "Handling POST message from alice-planted",
    ),
    // The Go SDK: an error that is not a parse error.
    (
        "go-sdk/logging-transport-client.log",
        "\nread: {\"jsonrpc\":\"2.0\",\"id\":3,",
        "\nread error: open /home/alice-planted/x: tok-planted\nread: {\"jsonrpc\":\"2.0\",\"id\":3,",
    ),
    // LibreChat: the server, the user, a tool, the command line.
    ("librechat/mcp-debug.log", "everything]", "alice-planted.example]"),
    ("librechat/mcp-debug.log", "User: 6650a1", "User: alice-planted"),
    (
        "librechat/mcp-debug.log",
        "longRunningOperation]",
        "planted_tool_of_alice]",
    ),
    (
        "librechat/mcp-info-only.log",
        "npx -y @modelcontextprotocol/server-everything",
        "node /home/alice-planted/server.js --token tok-planted",
    ),
    // mcp-remote: the remote server's URL, an error's text.
    (
        "mcp-remote/stderr.log",
        "https://mcp.example.com/sse",
        "https://alice:tok-planted@db.planted.example/sse?key=tok-planted",
    ),
    (
        "mcp-remote/stderr.log",
        "Error: Received",
        "Error: alice-planted at /home/alice-planted: Received",
    ),
    // supergateway: the server's command line, the client's address, the
    // server's output.
    (
        "supergateway/sse-info-level.log",
        "node build/index.js",
        "node /home/alice-planted/index.js --token tok-planted",
    ),
    (
        "supergateway/sse-info-level.log",
        "from ::1",
        "from db.planted.example",
    ),
    (
        "supergateway/streamable-json-format.jsonl",
        "fetching forecast for Lyon",
        "GET https://db.planted.example/?token=tok-planted",
    ),
];

fn planted_log(fixture: &str, from: &str, to: &str) -> String {
    let original = std::fs::read_to_string(root().join("testdata").join(fixture)).unwrap();
    let planted = original.replace(from, to);
    assert_ne!(planted, original, "{fixture}: nothing planted at {from}");
    planted
}

#[test]
fn secrets_planted_in_the_text_of_logs_are_gone_and_the_findings_stay() {
    for (fixture, from, to) in PLANTED_IN_LOGS {
        let planted = planted_log(fixture, from, to);
        let format = detect(planted.as_bytes());
        let redacted = mcp_lint::redact::redact(planted.as_bytes(), format).unwrap();
        let redacted = String::from_utf8(redacted).unwrap();
        for secret in ["planted", "alice"] {
            assert!(
                !redacted.contains(secret),
                "{fixture}: {secret} survived:\n{redacted}"
            );
        }
        assert_eq!(detect(redacted.as_bytes()), format, "{fixture}");
        assert_eq!(
            findings(redacted.as_bytes()),
            findings(planted.as_bytes()),
            "{fixture}: {from}"
        );
    }
}

/// The sessions of a log: (line, session) of each event.
fn sessions(bytes: &[u8]) -> Vec<(u64, Option<String>)> {
    let events = mcp_lint::decode::decode_document(bytes, 0, detect(bytes));
    let session = |e: &mcp_lint::event::Event| e.session.as_deref().map(str::to_owned);
    events
        .iter()
        .map(|e| (e.location.line, session(e)))
        .collect()
}

/// Each session of `original` is one session of `redacted`, on the same
/// lines, and different sessions stay different.
fn assert_sessions_split_the_same(name: &str, original: &[u8], redacted: &[u8]) {
    let (before, after) = (sessions(original), sessions(redacted));
    assert_eq!(before.len(), after.len(), "{name}");
    let mut pseudonyms = std::collections::HashMap::new();
    for ((line, session), (same_line, pseudonym)) in before.iter().zip(&after) {
        assert_eq!(line, same_line, "{name}");
        let first = pseudonyms
            .entry(session.clone())
            .or_insert(pseudonym.clone());
        assert_eq!(first, pseudonym, "{name}: {session:?}");
    }
    let distinct: std::collections::HashSet<_> = pseudonyms.values().collect();
    assert_eq!(distinct.len(), pseudonyms.len(), "{name}: {pseudonyms:?}");
}

#[test]
fn server_and_user_names_get_one_pseudonym_each_and_sessions_split_the_same() {
    for fixture in [
        "claude-log/mcp.log",
        "claude-log/mcp-payload-free-2026.log",
        "claude-code/debug-meterian.log",
        "cursor-log/mcp-logs-2025-tagged.log",
        "librechat/mcp-debug.log",
    ] {
        let original = std::fs::read(root().join("testdata").join(fixture)).unwrap();
        let redacted = mcp_lint::redact::redact(&original, detect(&original)).unwrap();
        assert_sessions_split_the_same(fixture, &original, &redacted);
        let text = String::from_utf8_lossy(&redacted);
        assert!(text.contains("server-1"), "{fixture}:\n{text}");
    }
}

/// A canonical trace's sessions and streams (which name servers and
/// addresses when converted from a log or a capture) become pseudonyms,
/// one per label, and split the same.
#[test]
fn canonical_sessions_and_streams_get_pseudonyms() {
    let fixture = "claude-log/mcp.canonical.jsonl";
    let original = std::fs::read_to_string(root().join("testdata").join(fixture)).unwrap();
    let planted = original
        .replace("\"session\":\"weather\"", "\"session\":\"alice-planted\"")
        .replacen("\"from\":", "\"stream\":\"10.1.2.3:5555\",\"from\":", 1);
    assert!(planted.contains("alice-planted"), "{fixture}");
    let redacted = mcp_lint::redact::redact(planted.as_bytes(), Format::Canonical).unwrap();
    let redacted = String::from_utf8(redacted).unwrap();
    for secret in ["alice", "planted", "10.1.2.3", "chatlog"] {
        assert!(!redacted.contains(secret), "{secret}:\n{redacted}");
    }
    assert!(redacted.contains("\"stream\":\"stream-1\""), "{redacted}");
    assert_sessions_split_the_same(fixture, planted.as_bytes(), redacted.as_bytes());
    assert_eq!(findings(redacted.as_bytes()), findings(planted.as_bytes()));
}
