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
    run_piped(&mut command(args, root()), input)
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

/// A directory with the fixture at `sub/a.jsonl` and `sub/legacy/b.jsonl`,
/// and `config` at `name` in the top directory.
fn configured(name: &str, config: &str) -> tempfile::TempDir {
    let trace = fixture_text();
    scratch(&[
        (name, config),
        ("sub/a.jsonl", &trace),
        ("sub/legacy/b.jsonl", &trace),
    ])
}

const CONFIG: &str = r#"select = ["cancel", "progress"]
ignore = ["progress-not-increasing"]
severity = { cancel = "warning" }
exclude = ["legacy"]
fail-on = "warning"

[[per-file-ignores]]
glob = "sub/a.jsonl"
rules = ["progress-after-terminal"]
reason = "recorded before the server stopped sending progress late"
"#;

#[test]
fn configuration_is_found_by_walking_up_from_each_input() {
    for name in ["mcp-lint.toml", ".mcp-lint.toml"] {
        let dir = configured(name, CONFIG);
        let out = run_in(&["--format", "concise", "sub"], dir.path());
        assert_eq!(
            stdout(&out).lines().next(),
            Some(
                "sub/a.jsonl:9:1: warning[cancel-unknown-request]: client cancels request \"1\", which it never sent in this session"
            ),
            "{name}: {}",
            stdout(&out)
        );
        assert_eq!(rules_of(&out), ["cancel-unknown-request"], "{name}");
        assert_eq!(out.status.code(), Some(1), "fail-on = warning");
    }
}

#[test]
fn pyproject_is_read_only_for_its_tool_table() {
    let table = CONFIG.replace("[[per-file-ignores]]", "[[tool.mcp-lint.per-file-ignores]]");
    let pyproject = format!("[project]\nname = \"x\"\n\n[tool.mcp-lint]\n{table}");
    let dir = configured("pyproject.toml", &pyproject);
    let out = run_in(&["--format", "concise", "sub/a.jsonl"], dir.path());
    assert_eq!(rules_of(&out), ["cancel-unknown-request"]);
    let other = configured("pyproject.toml", "[tool.other]\nselect = 1\n");
    let out = run_in(&["--format", "concise", "sub/a.jsonl"], other.path());
    assert_eq!(rules_of(&out).len(), 5, "no [tool.mcp-lint]: every rule");
}

#[test]
fn named_files_are_linted_even_when_excluded_unless_force_exclude() {
    let dir = configured("mcp-lint.toml", CONFIG);
    let named = run_in(&["--format", "concise", "sub/legacy/b.jsonl"], dir.path());
    assert_eq!(
        rules_of(&named),
        ["progress-after-terminal", "cancel-unknown-request"]
    );
    let forced = run_in(
        &[
            "--format",
            "concise",
            "--force-exclude",
            "sub/legacy/b.jsonl",
        ],
        dir.path(),
    );
    assert!(rules_of(&forced).is_empty());
}

#[test]
fn command_line_flags_lie_on_top_of_the_configuration() {
    let dir = configured("mcp-lint.toml", CONFIG);
    let out = run_in(
        &[
            "--format",
            "concise",
            "--select",
            "duplicate-response",
            "sub",
        ],
        dir.path(),
    );
    assert_eq!(rules_of(&out), ["duplicate-response"]);
    let out = run_in(&["--fail-on", "error", "sub"], dir.path());
    assert_eq!(out.status.code(), Some(0), "only a warning is left");
}

#[test]
fn config_names_one_file_and_isolated_reads_none() {
    let dir = configured(
        "elsewhere/settings.toml",
        "select = [\"duplicate-response\"]\n",
    );
    std::fs::write(dir.path().join("mcp-lint.toml"), CONFIG).unwrap();
    let out = run_in(
        &[
            "--format",
            "concise",
            "--config",
            "elsewhere/settings.toml",
            "sub",
        ],
        dir.path(),
    );
    assert_eq!(rules_of(&out), ["duplicate-response", "duplicate-response"]);
    let out = run_in(&["--format", "concise", "--isolated", "sub"], dir.path());
    assert_eq!(rules_of(&out).len(), 10);
    let missing = run_in(&["--config", "nope.toml", "sub"], dir.path());
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("nope.toml"));
}

#[test]
fn the_configured_protocol_version_applies_to_traces_that_start_mid_session() {
    let mid = "{\"from\":\"client\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":1}}}\n";
    let dir = scratch(&[("t.jsonl", mid), ("mcp-lint.toml", "select = [\"ping\"]\n")]);
    let before = run_in(&["--format", "concise", "t.jsonl"], dir.path());
    assert_eq!(rules_of(&before), ["ping-no-params"]);
    std::fs::write(
        dir.path().join("mcp-lint.toml"),
        "select = [\"ping\"]\nprotocol-version = \"2026-07-28\"\n",
    )
    .unwrap();
    let after = run_in(&["--format", "concise", "t.jsonl"], dir.path());
    assert!(rules_of(&after).is_empty(), "{}", stdout(&after));
}

/// The error a configuration gives, with the temporary directory cut off.
fn config_error(config: &str) -> String {
    let dir = configured("mcp-lint.toml", config);
    let out = run_in(&["sub"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{config}");
    let text = stderr(&out);
    let at = text.find("mcp-lint.toml").expect("names the file");
    text[at..].trim_end().to_string()
}

#[test]
fn bad_configuration_names_the_file_line_and_key() {
    let cases = [
        (
            "select = [\"cancel\"]\nbogus = 1\n",
            "mcp-lint.toml:2:1: unknown field `bogus`",
        ),
        (
            "select = [\"cancl\"]\n",
            "mcp-lint.toml:1:11: select: unknown rule \"cancl\": did you mean \"cancel\"?",
        ),
        (
            "select = \"cancel\"\n",
            "mcp-lint.toml:1:10: select: invalid type",
        ),
        (
            "\n\nseverity = { ping = \"fatal\" }\n",
            "mcp-lint.toml:3:21: severity.ping: \"fatal\" is not a severity",
        ),
        (
            "severity = { pnig = \"info\" }\n",
            "mcp-lint.toml:1:21: severity: unknown rule \"pnig\": did you mean \"ping\"?",
        ),
        (
            "fail-on = \"fatal\"\n",
            "mcp-lint.toml:1:11: fail-on: \"fatal\" is not a severity",
        ),
        (
            "protocol-version = \"2020\"\n",
            "mcp-lint.toml:1:20: protocol-version: not a protocol version",
        ),
        ("exclude = [\"a[\"]\n", "mcp-lint.toml:1:12: exclude: "),
        (
            "[[per-file-ignores]]\nglob = \"x\"\nrules = [\"ping\"]\n",
            "mcp-lint.toml:1:1: per-file-ignores: reason is required",
        ),
        (
            "[[per-file-ignores]]\nglob = \"x\"\nrules = [\"ping\"]\nreason = \" \"\n",
            "mcp-lint.toml:4:10: per-file-ignores: reason is required",
        ),
        (
            "[[per-file-ignores]]\nglob = \"x\"\nrules = [\"pong\"]\nreason = \"r\"\n",
            "mcp-lint.toml:3:10: per-file-ignores.rules: unknown rule \"pong\"",
        ),
        (
            "[[per-file-ignores]]\nglob = \"x\"\nrules = [\"ping\"]\nreason = \"r\"\nwhy = 1\n",
            "mcp-lint.toml:5:1: unknown field `why`",
        ),
        (
            "[policy]\nreport-crossed-cancellations = true\nreport-crossed = false\n",
            "mcp-lint.toml:3:1: unknown field `report-crossed`",
        ),
        (
            "[policy]\nreport-crossed-cancellations = \"no\"\n",
            "mcp-lint.toml:2:32: report-crossed-cancellations: invalid type",
        ),
    ];
    for (config, expected) in cases {
        let error = config_error(config);
        assert!(
            error.starts_with(expected),
            "{config:?}\n  gave {error}\n  want {expected}"
        );
    }
}

/// A session in which the server answers two cancelled requests: request 1
/// at line 10, after it had provably read the cancellation (a warning), and
/// request 3 at line 13, in a way that may have crossed it (info).
const CANCELLED_TWICE: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}
{"from":"server","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}
{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}
{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}}
{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}
{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}
{"from":"server","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}}
{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}}
{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}}
{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}
{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}}
{"from":"client","msg":{"jsonrpc":"2.0","id":4,"method":"ping"}}
{"from":"server","msg":{"jsonrpc":"2.0","id":3,"result":{"content":[]}}}
"#;

#[test]
fn the_policy_can_leave_out_responses_that_may_have_crossed_the_cancellation() {
    let lint = |policy: &str| {
        let dir = scratch(&[("mcp-lint.toml", policy), ("t.jsonl", CANCELLED_TWICE)]);
        let out = run_in(
            &[
                "--format",
                "concise",
                "--select",
                "response-after-cancel",
                "t.jsonl",
            ],
            dir.path(),
        );
        let lines: Vec<String> = stdout(&out)
            .lines()
            .map(|l| l.split(": ").take(2).collect::<Vec<_>>().join(": "))
            .collect();
        (lines, out.status.code())
    };
    let both = [
        "t.jsonl:10:1: warning[response-after-cancel]",
        "t.jsonl:13:1: info[response-after-cancel]",
    ];
    for policy in [
        "",
        "[policy]\n",
        "[policy]\nreport-crossed-cancellations = true\n",
    ] {
        let (lines, _) = lint(policy);
        assert_eq!(lines[..2], both, "{policy:?}");
    }
    let (lines, code) = lint("[policy]\nreport-crossed-cancellations = false\n");
    assert_eq!(lines[..1], both[..1]);
    assert!(
        lines[1].starts_with("Found 0 errors, 1 warning, 0 infos"),
        "{lines:?}"
    );
    assert_eq!(
        code,
        Some(0),
        "a warning does not fail at the default level"
    );
    let pyproject = "[tool.mcp-lint.policy]\nreport-crossed-cancellations = false\n";
    let dir = scratch(&[("pyproject.toml", pyproject), ("t.jsonl", CANCELLED_TWICE)]);
    let args = [
        "--format",
        "concise",
        "--select",
        "response-after-cancel",
        "t.jsonl",
    ];
    let out = run_in(&args, dir.path());
    assert_eq!(
        rules_of(&out),
        ["response-after-cancel"],
        "{}",
        stdout(&out)
    );
}

/// The fenced block of README.md that starts with `first_line`.
fn readme_block(first_line: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find(first_line).expect("the block is in the README");
    let body = &readme[start..];
    body[..body.find("```").unwrap()].to_string()
}

#[test]
fn the_readme_configuration_is_valid() {
    let config = readme_block("# mcp-lint.toml\n");
    let dir = configured("mcp-lint.toml", &config);
    let out = run_in(&["--format", "concise", "sub"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).is_empty());
}

#[test]
fn a_baseline_accepts_known_findings_even_when_lines_move() {
    let dir = scratch(&[("a.jsonl", &fixture_text())]);
    let write = run_in(
        &["--baseline", "b.json", "--update-baseline", "a.jsonl"],
        dir.path(),
    );
    assert_eq!(write.status.code(), Some(0));
    assert!(stderr(&write).contains("wrote 5 findings to b.json"));
    let file = std::fs::read_to_string(dir.path().join("b.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&file).unwrap();
    let entries = json["findings"].as_array().unwrap();
    let keys: Vec<String> = entries.iter().map(|e| e["rule"].to_string()).collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "sorted by file, then rule");
    assert!(
        file.lines().count() > entries.len() * 6,
        "one member per line"
    );

    let moved = format!("\n\n{}", fixture_text());
    std::fs::write(dir.path().join("a.jsonl"), moved).unwrap();
    let out = run_in(
        &["--format", "concise", "--baseline", "b.json", "a.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(rules_of(&out).is_empty());

    let mut added = fixture_text();
    added.push_str(
        "{\"from\":\"client\",\"session\":\"s1\",\"msg\":{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":99}}}\n",
    );
    std::fs::write(dir.path().join("a.jsonl"), added).unwrap();
    let out = run_in(
        &["--format", "concise", "--baseline", "b.json", "a.jsonl"],
        dir.path(),
    );
    assert_eq!(
        rules_of(&out),
        ["cancel-unknown-request"],
        "only the new one"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn stale_baseline_entries_are_reported_and_fail() {
    let dir = scratch(&[("a.jsonl", &fixture_text())]);
    run_in(
        &["--baseline", "b.json", "--update-baseline", "a.jsonl"],
        dir.path(),
    );
    let fixed: String = fixture_text()
        .lines()
        .take(11)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("a.jsonl"), fixed).unwrap();
    let out = run_in(&["--baseline", "b.json", "a.jsonl"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert!(
        text.contains("stale baseline entry: a.jsonl (session s1): duplicate-response"),
        "{text}"
    );
    let out = run_in(
        &["--baseline", "b.json", "--exit-zero", "a.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0));
    run_in(
        &["--baseline", "b.json", "--update-baseline", "a.jsonl"],
        dir.path(),
    );
    let out = run_in(&["--baseline", "b.json", "a.jsonl"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_missing_or_broken_baseline_is_a_usage_error() {
    let dir = scratch(&[
        ("a.jsonl", &fixture_text()),
        ("bad.json", "{\"version\":1}"),
    ]);
    for file in ["missing.json", "bad.json"] {
        let out = run_in(&["--baseline", file, "a.jsonl"], dir.path());
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(stderr(&out).contains(file));
    }
    let alone = run_in(&["--update-baseline", "a.jsonl"], dir.path());
    assert_eq!(
        alone.status.code(),
        Some(2),
        "--update-baseline needs --baseline"
    );
}

#[test]
fn junit_is_well_formed_with_a_suite_per_file_and_a_case_per_session() {
    let nasty = fixture_text().replace("\"s1\"", "\"s<1>&\\\"'\\u001b[31m\"");
    let dir = scratch(&[
        ("a.jsonl", &fixture_text()),
        ("b.jsonl", &nasty),
        ("clean.jsonl", ""),
    ]);
    let out = run_in(
        &["--format", "junit", "a.jsonl", "b.jsonl", "clean.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("failures"), Some("10"));
    let suites: Vec<_> = root.children().filter(|n| n.is_element()).collect();
    let names: Vec<_> = suites
        .iter()
        .map(|s| s.attribute("name").unwrap())
        .collect();
    assert_eq!(names, ["a.jsonl", "b.jsonl", "clean.jsonl"]);
    let cases = |suite: &roxmltree::Node| -> Vec<String> {
        suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .map(|n| n.attribute("name").unwrap().to_string())
            .collect()
    };
    assert_eq!(cases(&suites[0]), ["session s1"]);
    assert_eq!(cases(&suites[1]), ["session s<1>&\"'\\u{1b}[31m"]);
    assert_eq!(cases(&suites[2]), ["trace"]);
    assert_eq!(suites[2].attribute("failures"), Some("0"));
    let failures: Vec<_> = suites[0]
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .collect();
    assert_eq!(failures.len(), 5);
    assert_eq!(
        failures[0].attribute("type"),
        Some("progress-not-increasing")
    );
    assert!(failures[0]
        .text()
        .unwrap()
        .starts_with("a.jsonl:6: error[progress-not-increasing]: "));
    let missing = run_in(&["--format", "junit", "missing.jsonl"], dir.path());
    assert_eq!(missing.status.code(), Some(2));
    let text = stdout(&missing);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(doc.root_element().attribute("errors"), Some("1"));
    assert!(doc.descendants().any(|n| n.has_tag_name("error")), "{text}");
}

#[test]
fn completions_come_from_the_command_line_definition() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = stdout(&out);
        // fish writes `-l select`, the others `--select`.
        for flag in ["select", "baseline", "stdin-filename"] {
            assert!(script.contains(flag), "{shell} lacks {flag}");
        }
    }
    let bash = run(&["completions", "bash"]);
    let dir = scratch(&[("mcp-lint.bash", &stdout(&bash))]);
    // The script is valid bash, where bash is installed.
    if let Ok(check) = Command::new("bash")
        .arg("-n")
        .arg(dir.path().join("mcp-lint.bash"))
        .output()
    {
        assert!(check.status.success(), "{}", stderr(&check));
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn the_man_page_documents_every_option() {
    let out = run(&["manpage"]);
    assert_eq!(out.status.code(), Some(0));
    let page = stdout(&out);
    assert!(page.contains(".TH mcp-lint 1"));
    for flag in [
        "select",
        "extend\\-select",
        "severity",
        "update\\-baseline",
        "config",
    ] {
        assert!(page.contains(&format!("\\-\\-{flag}")), "lacks --{flag}");
    }
    assert!(page.contains("completions"));
}

#[test]
fn the_exit_status_survives_a_closed_stdout() {
    for format in [
        "human",
        "concise",
        "json",
        "json-lines",
        "sarif",
        "junit",
        "github",
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = command(&["--format", format, FIXTURE], root())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{format}: {}", stderr(&out));
    }
    // As a user types it, where bash is installed.
    let script = format!(
        "set -o pipefail; '{}' --format concise {FIXTURE} | head -1 >/dev/null",
        env!("CARGO_BIN_EXE_mcp-lint")
    );
    if let Ok(out) = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(root())
        .output()
    {
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    }
}

#[test]
fn the_summary_never_calls_a_run_with_an_unreadable_input_clean() {
    let dir = scratch(&[("ok.jsonl", "")]);
    let out = run_in(
        &["--format", "concise", "missing.jsonl", "ok.jsonl"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(!text.contains("No problems found"), "{text}");
    assert!(text.contains("1 input could not be read"), "{text}");
}

#[test]
fn the_same_file_named_twice_is_linted_once() {
    let dir = scratch(&[("t/a.jsonl", &fixture_text())]);
    let out = run_in(
        &["--format", "concise", "t/a.jsonl", "./t/a.jsonl", "t"],
        dir.path(),
    );
    assert_eq!(rules_of(&out).len(), 5, "{}", stdout(&out));
    assert!(stdout(&out).contains("in 1 file "));
}

#[test]
fn sarif_uris_are_percent_encoded_and_the_tool_version_is_set() {
    let dir = scratch(&[("a b#1%.jsonl", &fixture_text())]);
    let out = run_in(&["--format", "sarif", "a b#1%.jsonl"], dir.path());
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
    let uri = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    assert_eq!(uri, "a%20b%231%25.jsonl");
}

/// The `run: |` script of the action's step named `name`.
fn action_script(name: &str) -> String {
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let step = &action[action.find(&format!("- name: {name}\n")).unwrap()..];
    let body = &step[step.find("run: |\n").unwrap() + "run: |\n".len()..];
    body.lines()
        .take_while(|line| line.starts_with("        ") || line.is_empty())
        .map(|line| format!("{}\n", line.trim_start_matches("        ")))
        .collect()
}

/// Runs the action's lint step as GitHub would, with the built binary
/// where the install step puts it. `None` where bash is not installed.
fn run_action(paths: &str, args: &str, sarif: &str) -> Option<(Output, tempfile::TempDir)> {
    let dir = scratch(&[("traces/a.jsonl", &fixture_text()), ("clean/b.jsonl", "")]);
    let bin = dir.path().join("runner/mcp-lint/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_mcp-lint"), bin.join("mcp-lint")).unwrap();
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c"])
        .arg(action_script("Lint"))
        .current_dir(dir.path())
        .env("RUNNER_TEMP", dir.path().join("runner"))
        .env("MCP_LINT_PATHS", paths)
        .env("MCP_LINT_ARGS", args)
        .env("MCP_LINT_SARIF", sarif)
        .output()
        .ok()?;
    Some((out, dir))
}

#[test]
fn the_action_annotates_and_writes_sarif() {
    let Some((out, dir)) = run_action("traces\nclean", "--ignore duplicate-response", "out.sarif")
    else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(
        text.matches("::error file=traces/a.jsonl").count(),
        4,
        "{text}"
    );
    let sarif = std::fs::read_to_string(dir.path().join("out.sarif")).unwrap();
    assert!(sarif.contains("\"ruleId\": \"cancel-unknown-request\""));
    assert!(
        !sarif.contains("\"ruleId\": \"duplicate-response\""),
        "args apply to the SARIF run too"
    );
    let (clean, _dir) = run_action("clean", "", "").unwrap();
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
}

#[test]
fn the_readme_ci_commands_run_as_written() {
    let block = readme_block("mcp-lint --format github traces/");
    let dir = scratch(&[("traces/a.jsonl", &fixture_text())]);
    let baseline = [
        "--baseline",
        "mcp-lint-baseline.json",
        "--update-baseline",
        "traces/",
    ];
    assert_eq!(run_in(&baseline, dir.path()).status.code(), Some(0));
    for line in block.lines() {
        let command = line.split('#').next().unwrap().trim();
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "mcp-lint", "{line}");
        let out = run_in(&words[1..], dir.path());
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{line}: {}",
            stderr(&out)
        );
        assert!(out.stderr.is_empty(), "{line}: {}", stderr(&out));
    }
    assert!(dir.path().join("mcp-lint.sarif").is_file());
    assert!(dir.path().join("mcp-lint-junit.xml").is_file());
}

/// Runs the binary under `script`, so that its stderr is a terminal.
/// `None` where `script` (util-linux) is not installed.
fn run_on_a_terminal(args: &str, cwd: &Path, ci: bool) -> Option<String> {
    let line = format!("'{}' {args}", env!("CARGO_BIN_EXE_mcp-lint"));
    let mut script = Command::new("script");
    script
        .args(["-qec", &line, "/dev/null"])
        .current_dir(cwd)
        .env_remove("CI")
        .env("TERM", "xterm")
        .stdin(Stdio::null());
    if ci {
        script.env("CI", "true");
    }
    let out = script.output().ok()?;
    out.status.code()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_progress_line_is_drawn_on_a_terminal_only_and_never_in_ci() {
    use mcp_lint::generate::{generate, GeneratorConfig};
    let dir = tempfile::tempdir().unwrap();
    let mut file = std::fs::File::create(dir.path().join("big.jsonl")).unwrap();
    // Long enough to outlast the line's delay (300 ms) in either build: an
    // optimized build lints 12 MB in less.
    let target_bytes = match cfg!(debug_assertions) {
        true => 12_000_000,
        false => 200_000_000,
    };
    let config = GeneratorConfig {
        target_bytes,
        ..GeneratorConfig::default()
    };
    generate(&config, &mut std::io::BufWriter::new(&mut file)).unwrap();
    drop(file);
    let args = "--format concise --select cancel big.jsonl";
    let Some(shown) = run_on_a_terminal(args, dir.path(), false) else {
        return;
    };
    assert!(
        shown.contains("mcp-lint ["),
        "{}",
        &shown[..shown.len().min(500)]
    );
    assert!(shown.contains(" MB, "));
    assert!(shown.contains(" sessions, "));
    let in_ci = run_on_a_terminal(args, dir.path(), true).unwrap();
    assert!(!in_ci.contains("mcp-lint ["), "CI is set");
    let quiet = run_on_a_terminal(&format!("-q {args}"), dir.path(), false).unwrap();
    assert!(!quiet.contains("mcp-lint ["), "--quiet");
    // Not a terminal: nothing on stderr.
    let piped = run_in(
        &["--format", "concise", "--select", "cancel", "big.jsonl"],
        dir.path(),
    );
    assert!(piped.stderr.is_empty(), "{}", stderr(&piped));
}

#[test]
fn stdin_is_excluded_only_with_force_exclude() {
    let dir = configured("mcp-lint.toml", "exclude = [\"legacy\"]\n");
    let args = [
        "--format",
        "concise",
        "--stdin-filename",
        "legacy/s.jsonl",
        "-",
    ];
    let input = fixture_text();
    let linted = run_piped(&mut command(&args, dir.path()), input.as_bytes());
    assert_eq!(rules_of(&linted).len(), 5);
    let mut forced = command(&args, dir.path());
    forced.arg("--force-exclude");
    assert!(rules_of(&run_piped(&mut forced, input.as_bytes())).is_empty());
}

fn run_piped(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run that leaves stdin unread (it is excluded) may exit before the
    // input is written: that broken pipe is no failure of the test.
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

#[test]
fn directory_walks_respect_gitignore() {
    let trace = fixture_text();
    let dir = scratch(&[
        (".gitignore", "ignored/\n*.skip.jsonl\n"),
        ("traces/a.jsonl", &trace),
        ("traces/b.skip.jsonl", &trace),
        ("traces/ignored/c.jsonl", &trace),
        ("traces/.hidden.jsonl", &trace),
    ]);
    let out = run_in(&["--format", "concise", "traces"], dir.path());
    let files: std::collections::BTreeSet<String> = stdout(&out)
        .lines()
        .filter_map(|l| l.split_once(':').map(|(f, _)| f.to_string()))
        .filter(|f| f.ends_with(".jsonl"))
        .collect();
    assert_eq!(files.into_iter().collect::<Vec<_>>(), ["traces/a.jsonl"]);
    let named = run_in(&["--format", "concise", "traces/b.skip.jsonl"], dir.path());
    assert_eq!(rules_of(&named).len(), 5, "a named file is linted");
}

#[test]
fn concise_lines_are_path_line_column_for_problem_matchers() {
    let out = run(&["--format", "concise", FIXTURE]);
    let text = stdout(&out);
    let findings: Vec<&str> = text.lines().filter(|l| !l.starts_with("Found ")).collect();
    assert!(!findings.is_empty());
    for line in findings {
        let mut parts = line.splitn(4, ':');
        let (path, row, column) = (parts.next(), parts.next(), parts.next());
        assert_eq!(path, Some(FIXTURE), "{line}");
        assert!(
            row.is_some_and(|r| r.parse::<u64>().is_ok_and(|r| r > 0)),
            "{line}"
        );
        assert_eq!(column, Some("1"), "{line}");
        let rest = parts.next().unwrap_or_default();
        assert!(
            ["error[", "warning[", "info["]
                .iter()
                .any(|s| rest.starts_with(&format!(" {s}"))),
            "{line}"
        );
    }
}
