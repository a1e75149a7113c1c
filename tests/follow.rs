//! `mcp-lint --follow FILE` from the real binary: findings appear as lines
//! are appended, and again after the file is truncated or rotated. Each step
//! waits for the output it expects; a watchdog only turns a hang into a failure.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;

fn fixture(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn append(path: &Path, lines: &[String]) {
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .unwrap();
    for line in lines {
        writeln!(file, "{line}").unwrap();
    }
}

/// The follower, and its output lines as they come.
fn follow(path: &Path) -> (Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .arg("--follow")
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            let _ = send.send(line.unwrap());
        }
    });
    (child, receive)
}

/// Waits for a line containing `wanted`, returning the lines before it.
fn wait_for(lines: &mpsc::Receiver<String>, wanted: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let line = lines
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no {wanted:?} after {seen:?}"));
        if line.contains(wanted) {
            return seen;
        }
        seen.push(line);
    }
}

#[test]
fn findings_follow_appends_truncation_and_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trace.jsonl");
    std::fs::write(&path, "").unwrap();
    let (mut child, lines) = follow(&path);
    let violations = fixture("session-with-violations.jsonl");
    append(&path, &violations[..6]);
    wait_for(&lines, "trace.jsonl:6:1: error[progress-not-increasing]");
    append(&path, &violations[6..8]);
    wait_for(&lines, "trace.jsonl:8:1: error[progress-after-terminal]");

    // Rotated: a new file under the name, read from its start.
    std::fs::rename(&path, dir.path().join("trace.jsonl.1")).unwrap();
    let race = fixture("races/cancel-crossing-final-result.jsonl");
    append(&path, &race);
    wait_for(&lines, "trace.jsonl:8:1: info[response-after-cancel]");

    // Truncated and written again with a longer, different trace.
    std::fs::write(&path, "").unwrap();
    append(&path, &violations);
    let before = wait_for(&lines, "trace.jsonl:12:1: error[duplicate-response]");
    assert!(
        before
            .iter()
            .any(|l| l.contains("trace.jsonl:6:1: error[progress-not-increasing]")),
        "{before:?}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}
