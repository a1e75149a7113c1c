//! `mcp-lint explain FILE --request ID` from the real binary.

use std::process::{Command, Output, Stdio};

fn explain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("explain")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn a_cancelled_request_is_told_in_order_with_times_and_findings() {
    let out = explain(&[
        "testdata/races/cancel-crossing-final-result.jsonl",
        "--request",
        "1",
    ]);
    let text = stdout(&out);
    let steps: Vec<&str> = text
        .lines()
        .skip(1)
        .take_while(|l| *l != "Findings:")
        .collect();
    let expected = [
        ("line 4 ", "", "request tools/call"),
        ("line 5 ", "+1.000 s", "progress 1/2 \"started\""),
        ("line 6 ", "+2.000 s", "progress 2/2 \"completed\""),
        ("line 7 ", "+1 ms", "cancelled: \"user pressed stop\""),
        ("line 8 ", "+1 ms", "result"),
    ];
    assert_eq!(steps.len(), expected.len(), "{text}");
    for (step, (line, delta, what)) in steps.iter().zip(expected) {
        assert!(
            step.contains(line) && step.contains(delta) && step.ends_with(what),
            "{step}"
        );
    }
    assert!(steps[0].contains("2026-11-30T15:00:01.000Z"), "{text}");
    assert!(
        text.contains("line 8: info[response-after-cancel]"),
        "{text}"
    );
    // An info finding is no failure.
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_reused_id_ends_the_story_and_errors_exit_1() {
    let args = [
        "testdata/session-with-violations.jsonl",
        "--request",
        "1",
        "--session",
        "s1",
    ];
    let out = explain(&args);
    let text = stdout(&out);
    assert!(
        text.contains("reuses the id (the story ends here)"),
        "{text}"
    );
    assert!(
        !text.contains("line 11 "),
        "the answer to the second request is not this story's: {text}"
    );
    assert!(text.contains("error[progress-after-terminal]"), "{text}");
    assert!(!text.contains("duplicate-response"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn ids_are_typed_and_a_missing_request_is_a_usage_error() {
    // The cancellation in the fixture names "1", a string: no request has that id.
    let args = [
        "testdata/session-with-violations.jsonl",
        "--request",
        "\"1\"",
        "--session",
        "s1",
    ];
    let out = explain(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no request with id \"1\" in session s1"));
    let wrong_side = explain(&[
        "testdata/races/cancel-crossing-final-result.jsonl",
        "--request",
        "1",
        "--from",
        "server",
    ]);
    assert_eq!(wrong_side.status.code(), Some(2));
}
