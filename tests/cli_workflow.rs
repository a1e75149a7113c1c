//! The workflow options of the real binary: rule selection, severities, exit
//! codes, output files and color, configuration files, baselines, JUnit,
//! completions and the man page.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const FIXTURE: &str = "testdata/session-with-violations.jsonl";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The binary with NO_COLOR and FORCE_COLOR cleared, so the caller decides.
fn command(args: &[&str], cwd: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-lint"));
    command
        .args(args)
        .current_dir(cwd)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .stdin(Stdio::null());
    command
}

fn run(args: &[&str]) -> Output {
    run_in(args, root())
}

fn run_in(args: &[&str], cwd: &Path) -> Output {
    command(args, cwd).output().unwrap()
}

fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = command(args, root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// The rule ids of concise output, in order.
fn rules_of(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .filter_map(|line| Some(line.split_once('[')?.1.split_once(']')?.0.to_string()))
        .collect()
}

/// A scratch directory holding `files` (path, contents).
fn scratch(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn fixture_text() -> String {
    std::fs::read_to_string(root().join(FIXTURE)).unwrap()
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn select_takes_a_family() {
    let out = run(&["--format", "concise", "--select", "cancel", FIXTURE]);
    assert_eq!(rules_of(&out), ["cancel-unknown-request"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn ignore_takes_ids_and_families() {
    let out = run(&[
        "--format",
        "concise",
        "--ignore",
        "progress,duplicate-response",
        FIXTURE,
    ]);
    assert_eq!(
        rules_of(&out),
        ["cancel-unknown-request", "request-id-reused"]
    );
}

#[test]
fn extend_select_adds_to_select() {
    let out = run(&[
        "--format",
        "concise",
        "--select",
        "cancel",
        "--extend-select",
        "duplicate-response",
        FIXTURE,
    ]);
    assert_eq!(
        rules_of(&out),
        ["cancel-unknown-request", "duplicate-response"]
    );
}

#[test]
fn unknown_families_and_ids_are_usage_errors_that_suggest() {
    for (wrong, near) in [
        ("progres", "progress"),
        ("cancel-dupliate", "cancel-duplicate"),
    ] {
        for flag in ["--select", "--ignore", "--extend-select"] {
            let out = run(&[flag, wrong, FIXTURE]);
            assert_eq!(out.status.code(), Some(2), "{flag} {wrong}");
            assert!(stderr(&out).contains(&format!("did you mean \"{near}\"")));
        }
    }
}

#[test]
fn severity_overrides_change_the_level_and_the_exit_code() {
    let out = run(&[
        "--format",
        "concise",
        "--severity",
        "all=info",
        "--severity",
        "cancel-unknown-request=warning",
        FIXTURE,
    ]);
    let text = stdout(&out);
    assert!(text.contains("warning[cancel-unknown-request]"), "{text}");
    assert!(text.contains("info[duplicate-response]"), "{text}");
    assert_eq!(out.status.code(), Some(0));
    for bad in ["ping", "ping=fatal", "pnig=info"] {
        assert_eq!(run(&["--severity", bad, FIXTURE]).status.code(), Some(2));
    }
}

#[test]
fn exit_zero_reports_but_passes() {
    let out = run(&["--format", "concise", "--exit-zero", FIXTURE]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(rules_of(&out).len(), 5);
    let unreadable = run(&["--exit-zero", "no-such-file.jsonl"]);
    assert_eq!(unreadable.status.code(), Some(2));
}

#[test]
fn quiet_leaves_out_the_summary() {
    let out = run(&["--format", "concise", "-q", FIXTURE]);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(!text.contains("Found"));
}

#[test]
fn statistics_count_findings_per_rule() {
    let dir = scratch(&[("a.jsonl", &fixture_text()), ("b.jsonl", &fixture_text())]);
    let out = run_in(
        &["--statistics", "--select", "cancel,progress", "."],
        dir.path(),
    );
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().collect();
    assert!(
        rows[0].starts_with("2\tcancel-unknown-request\terror\t"),
        "{text}"
    );
    assert!(
        rows[1].starts_with("2\tprogress-after-terminal\t"),
        "{text}"
    );
    assert!(rows[3].starts_with("Found 6 errors"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn output_file_holds_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("report.sarif");
    let out = run(&["--format", "sarif", "-o", path_str(&file), FIXTURE]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 5);
    let nowhere = dir.path().join("missing/report.txt");
    let out = run(&["--output-file", path_str(&nowhere), FIXTURE]);
    assert_eq!(out.status.code(), Some(2));
}

fn colored(args: &[&str], env: &[(&str, &str)]) -> bool {
    let mut command = command(args, root());
    for (name, value) in env {
        command.env(name, value);
    }
    let out = command.output().unwrap();
    out.stdout.contains(&0x1b)
}

#[test]
fn color_follows_the_flag_then_no_color_then_force_color() {
    let human = [FIXTURE];
    assert!(!colored(&human, &[]), "not a terminal");
    assert!(colored(&human, &[("FORCE_COLOR", "1")]));
    assert!(!colored(&human, &[("FORCE_COLOR", "1"), ("NO_COLOR", "1")]));
    assert!(colored(
        &["--color", "always", FIXTURE],
        &[("NO_COLOR", "1")]
    ));
    assert!(!colored(
        &["--color", "never", FIXTURE],
        &[("FORCE_COLOR", "1")]
    ));
}

#[test]
fn stdin_filename_names_stdin() {
    let out = run_with_stdin(
        &[
            "--format",
            "concise",
            "--stdin-filename",
            "traces/s.jsonl",
            "-",
        ],
        fixture_text().as_bytes(),
    );
    assert!(
        stdout(&out).starts_with("traces/s.jsonl:6:"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn threads_are_bounded() {
    let out = run(&["--threads", "100000", FIXTURE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("1..=1024"));
    assert_eq!(run(&["--threads", "0", FIXTURE]).status.code(), Some(2));
    assert_eq!(run(&["--threads", "2", FIXTURE]).status.code(), Some(1));
}
