//! `mcp-lint record` from the real binary: a small replaying server (a Python
//! script written by the test) answers the test's client lines with the
//! server lines of a fixture, so the relay sees a real session. Every step
//! waits for the lines it expects, never for time.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

use serde_json::Value;

#[path = "support/findings.rs"]
mod support;
use support::findings;

/// Replays its script: the server lines before the first client line, then
/// after each client line it receives, the server lines that followed it.
/// Every received byte goes to a file; a line holding `die_on` kills it.
const SERVER: &str = r#"
import json, os, signal, sys
script = json.load(open(sys.argv[1]))
received = open(sys.argv[2], "wb")
out = sys.stdout.buffer
def emit(lines):
    for line in lines:
        out.write(line.encode() + b"\n")
    out.flush()
emit(script["before"])
index = 0
while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    received.write(line)
    received.flush()
    if script["die_on"] and script["die_on"].encode() in line:
        os.kill(os.getpid(), signal.SIGKILL)
    if index < len(script["after"]):
        emit(script["after"][index])
    index += 1
"#;

/// A fixture split by direction: the messages exactly as written in it.
struct Session {
    before: Vec<String>,
    /// Each client line, with the server lines that follow it.
    turns: Vec<(String, Vec<String>)>,
    name: Option<String>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture's turns, or `None` when a line is not a message envelope
/// (the recorder could not know who sent an unreadable line).
fn session_of(trace: &str) -> Option<Session> {
    let mut session = Session {
        before: Vec::new(),
        turns: Vec::new(),
        name: None,
    };
    for line in trace.lines().filter(|l| !l.trim().is_empty()) {
        let envelope: std::collections::HashMap<String, Box<serde_json::value::RawValue>> =
            serde_json::from_str(line).ok()?;
        let msg = envelope.get("msg")?.get().to_string();
        session.name = envelope
            .get("session")
            .and_then(|s| serde_json::from_str(s.get()).ok());
        match (envelope.get("from")?.get(), session.turns.last_mut()) {
            ("\"client\"", _) => session.turns.push((msg, Vec::new())),
            ("\"server\"", Some((_, replies))) => replies.push(msg),
            ("\"server\"", None) => session.before.push(msg),
            _ => return None,
        }
    }
    Some(session)
}

struct Run {
    dir: tempfile::TempDir,
    child: Child,
    stdout: BufReader<ChildStdout>,
}

impl Run {
    fn trace(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("trace.jsonl")).unwrap()
    }

    fn received(&self) -> Vec<u8> {
        std::fs::read(self.dir.path().join("received")).unwrap()
    }

    fn read_lines(&mut self, count: usize, relayed: &mut Vec<u8>) {
        for _ in 0..count {
            let before = relayed.len();
            self.stdout.read_until(b'\n', relayed).unwrap();
            assert!(relayed.len() > before, "the relay ended early");
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }
}

/// Starts `mcp-lint record` in front of the replaying server.
fn start(session: &Session, die_on: Option<&str>, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let after: Vec<&Vec<String>> = session.turns.iter().map(|(_, replies)| replies).collect();
    let script = serde_json::json!({"before": session.before, "after": after, "die_on": die_on});
    std::fs::write(dir.path().join("script.json"), script.to_string()).unwrap();
    std::fs::write(dir.path().join("server.py"), SERVER).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-lint"));
    // mcp-lint's stderr and the server's pass through to the test's.
    command
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .args(["record", "-o", "trace.jsonl"]);
    if let Some(name) = &session.name {
        command.args(["--session", name]);
    }
    command.args(extra);
    command.args(["--", "python3", "server.py", "script.json", "received"]);
    let mut child = command.spawn().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    Run { dir, child, stdout }
}

/// Plays the client's side of a whole session, then closes it; returns the
/// bytes relayed to the client and the exit status.
fn replay(session: &Session, extra: &[&str]) -> (Run, Vec<u8>, std::process::ExitStatus) {
    let mut run = start(session, None, extra);
    let mut relayed = Vec::new();
    run.read_lines(session.before.len(), &mut relayed);
    for (line, replies) in &session.turns {
        run.send(line);
        run.read_lines(replies.len(), &mut relayed);
    }
    drop(run.child.stdin.take());
    run.stdout.read_to_end(&mut relayed).unwrap();
    let status = run.child.wait().unwrap();
    (run, relayed, status)
}

fn joined(lines: impl IntoIterator<Item = impl AsRef<str>>) -> Vec<u8> {
    lines
        .into_iter()
        .flat_map(|l| format!("{}\n", l.as_ref()).into_bytes())
        .collect()
}

fn fixtures() -> Vec<PathBuf> {
    let mut paths = vec![root().join("testdata/session-with-violations.jsonl")];
    for dir in ["testdata/sessions", "testdata/races"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "jsonl") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
}

#[test]
fn replayed_sessions_are_relayed_unchanged_and_lint_like_the_original() {
    let mut replayed = 0;
    for path in fixtures() {
        let original = std::fs::read_to_string(&path).unwrap();
        let Some(session) = session_of(&original) else {
            continue;
        };
        let (run, relayed, status) = replay(&session, &[]);
        let name = path.display();
        assert!(status.success(), "{name}: {status}");
        let server_lines = session
            .before
            .iter()
            .chain(session.turns.iter().flat_map(|t| &t.1));
        assert_eq!(relayed, joined(server_lines), "{name}: server to client");
        let client_lines = session.turns.iter().map(|t| &t.0);
        assert_eq!(
            run.received(),
            joined(client_lines),
            "{name}: client to server"
        );
        let trace = run.trace();
        let tail: Vec<Value> = trace
            .lines()
            .rev()
            .take(2)
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(tail[0]["event"], "closed", "{name}: {trace}");
        assert_eq!(tail[0]["status"], 0, "{name}: {trace}");
        assert_eq!(tail[1]["event"], "closed", "{name}: {trace}");
        assert_eq!(
            findings(trace.as_bytes()),
            findings(original.as_bytes()),
            "{name}:\n{trace}"
        );
        replayed += 1;
    }
    assert!(replayed >= 10, "only {replayed} fixtures could be replayed");
}

#[test]
fn a_server_killed_mid_request_leaves_a_valid_trace_that_says_so() {
    let original =
        std::fs::read_to_string(root().join("testdata/sessions/clean-2025-06-18.jsonl")).unwrap();
    let session = session_of(&original).unwrap();
    let mut run = start(&session, Some("tools/call"), &[]);
    let mut relayed = Vec::new();
    run.read_lines(session.before.len(), &mut relayed);
    for (line, replies) in &session.turns {
        run.send(line);
        if line.contains("tools/call") {
            break;
        }
        run.read_lines(replies.len(), &mut relayed);
    }
    run.stdout.read_to_end(&mut relayed).unwrap();
    let status = run.child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 9));
    let trace = run.trace();
    let last: Value = serde_json::from_str(trace.lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["from"].as_str(), last["event"].as_str()),
        (Some("server"), Some("closed"))
    );
    assert_eq!(last["signal"], 9);
    let found = findings(trace.as_bytes());
    assert!(
        found
            .iter()
            .all(|(rule, ..)| rule != "invalid-json" && rule != "invalid-envelope"),
        "{found:?}"
    );
    let call = trace
        .lines()
        .position(|l| l.contains("tools/call"))
        .unwrap() as u64
        + 1;
    assert!(
        found
            .iter()
            .any(|(rule, line, _)| rule == "unanswered-request" && *line == call),
        "{found:?}\n{trace}"
    );
}

#[test]
fn live_lint_reports_findings_and_the_summary() {
    let original =
        std::fs::read_to_string(root().join("testdata/session-with-violations.jsonl")).unwrap();
    let session = session_of(&original).unwrap();
    let (run, _, status) = replay(&session, &["--lint", "--lint-output", "findings.txt"]);
    assert!(status.success());
    let live = std::fs::read_to_string(run.dir.path().join("findings.txt")).unwrap();
    let expected = findings(original.as_bytes());
    assert!(!expected.is_empty());
    for (rule, line, severity) in &expected {
        let shown = format!("trace.jsonl:{line}:1: {severity}[{rule}]");
        assert!(live.contains(&shown), "{shown} missing from:\n{live}");
    }
    assert!(live.lines().last().unwrap().starts_with("Found "), "{live}");
}

#[test]
fn non_protocol_output_is_relayed_and_recorded_as_such() {
    let session = Session {
        before: vec!["Starting server...".into()],
        turns: vec![(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".into(),
            vec!["{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".into()],
        )],
        name: None,
    };
    let (run, relayed, _) = replay(&session, &[]);
    assert_eq!(
        relayed,
        joined([
            "Starting server...",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"
        ])
    );
    let first: Value = serde_json::from_str(run.trace().lines().next().unwrap()).unwrap();
    assert_eq!(first["event"], "not-protocol");
    assert_eq!(first["text"], "Starting server...");
}

#[test]
fn a_server_that_cannot_start_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .current_dir(dir.path())
        .args(["record", "--", "/nonexistent/server"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot run"));
}

#[test]
fn sigterm_reaches_the_server_and_the_trace_ends_with_its_exit() {
    let original =
        std::fs::read_to_string(root().join("testdata/sessions/clean-2025-06-18.jsonl")).unwrap();
    let session = session_of(&original).unwrap();
    let mut run = start(&session, None, &[]);
    let mut relayed = Vec::new();
    run.read_lines(session.before.len(), &mut relayed);
    let (line, replies) = &session.turns[0];
    run.send(line);
    run.read_lines(replies.len(), &mut relayed);
    // The relay is up and the server answering: mcp-lint gets SIGTERM.
    let pid = run.child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    run.stdout.read_to_end(&mut relayed).unwrap();
    let status = run.child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(128 + 15),
        "mcp-lint exits with the server's status"
    );
    let trace = run.trace();
    let last: Value = serde_json::from_str(trace.lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["event"].as_str(), last["signal"].as_i64()),
        (Some("closed"), Some(15)),
        "{trace}"
    );
}

/// The server's stderr is its log: each line is recorded as a `stderr`
/// event (before its exit) and passed through to mcp-lint's stderr, and the
/// trace still lints as protocol only.
#[test]
fn the_servers_stderr_is_recorded_and_passed_through() {
    let dir = tempfile::tempdir().unwrap();
    let server = r#"echo 'starting: ready' >&2; read request; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; echo 'bye' >&2"#;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .current_dir(dir.path())
        .args(["record", "-o", "trace.jsonl", "--", "sh", "-c", server])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "starting: ready\nbye\n"
    );
    let trace = std::fs::read_to_string(dir.path().join("trace.jsonl")).unwrap();
    let events: Vec<Value> = trace
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let stderr: Vec<&str> = events
        .iter()
        .filter(|e| e["event"] == "stderr")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(stderr, ["starting: ready", "bye"]);
    let server_closed = events
        .iter()
        .position(|e| e["event"] == "closed" && e["from"] == "server")
        .unwrap();
    let last_log = events.iter().rposition(|e| e["event"] == "stderr").unwrap();
    assert!(last_log < server_closed, "{trace}");
    assert!(events
        .iter()
        .all(|e| e["from"] != "server" || e["event"] != "not-protocol"));
    // Linted, the log is neither protocol nor pollution.
    let lint = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .current_dir(dir.path())
        .args(["--format", "json", "trace.jsonl"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&lint.stdout).unwrap();
    let rules: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(!rules.contains(&"stdout-pollution"), "{rules:?}");
    assert!(!rules.contains(&"invalid-envelope"), "{rules:?}");
}

/// `record --lint` runs the rules the command line and the configuration
/// (found from the trace's place) select, at their severities.
#[test]
fn live_lint_obeys_the_selection_and_the_configuration() {
    // The server answers a request it was never sent: response-unknown-id.
    let server = r#"read request; echo '{"jsonrpc":"2.0","id":7,"result":{}}'"#;
    let run = |dir: &Path, extra: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
            .current_dir(dir)
            .args([
                "record",
                "-o",
                "trace.jsonl",
                "--lint",
                "--lint-output",
                "lint.txt",
            ])
            .args(extra)
            .args(["--", "sh", "-c", server])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n")
            .unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success());
        std::fs::read_to_string(dir.join("lint.txt")).unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    // Info: without a handshake, the trace may have begun mid-session.
    assert!(run(dir.path(), &[]).contains("info[response-unknown-id]"));
    assert!(!run(dir.path(), &["--ignore", "response-unknown-id"]).contains("response-unknown-id"));
    std::fs::write(
        dir.path().join("mcp-lint.toml"),
        "severity = { \"response-unknown-id\" = \"warning\" }\n",
    )
    .unwrap();
    assert!(run(dir.path(), &[]).contains("warning[response-unknown-id]"));
    assert!(run(dir.path(), &["--isolated"]).contains("info[response-unknown-id]"));
}
