//! Every trace in testdata/ is linted by the real binary and its diagnostics
//! are snapshotted (tests/snapshots/). Fixtures under `testdata/rules/<rule-id>/`
//! also state their expectation by name: `bad-*` must produce that rule,
//! `good-*` must produce nothing at all; the realistic sessions of
//! `testdata/sessions/` (one per protocol version, and both eras on one
//! endpoint) must produce nothing at all.

use std::path::Path;
use std::process::Command;

fn lint(dir: &Path, relative: &str) -> (String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", "concise", "--fail-on", "info", relative])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.stderr.is_empty(),
        "{relative}: stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        String::from_utf8(output.stdout).unwrap(),
        output.status.code().unwrap(),
    )
}

#[test]
fn fixtures_match_their_snapshots_and_names() {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    insta::glob!("../testdata", "**/*.{jsonl,har,log,json}", |path| {
        let relative = path
            .strip_prefix(&testdata)
            .unwrap()
            .to_str()
            .unwrap()
            .replace('\\', "/");
        let (output, code) = lint(&testdata, &relative);
        let parts: Vec<&str> = relative.split('/').collect();
        if let ["sessions", file] = parts.as_slice() {
            // Realistic sessions, one per protocol version: no finding at all.
            assert_eq!(code, 0, "{file} is not clean:\n{output}");
            assert_eq!(output.lines().count(), 1, "{file} is not clean:\n{output}");
        }
        if let ["rules", rule, file] = parts.as_slice() {
            assert!(
                mcp_lint::rules::find(rule).is_some(),
                "{relative}: no rule {rule}"
            );
            if file.starts_with("bad-") {
                assert!(
                    output.contains(&format!("[{rule}]: ")),
                    "{relative} does not produce {rule}:\n{output}"
                );
                assert_eq!(code, 1, "{relative}");
            } else if file.starts_with("good-") {
                assert_eq!(code, 0, "{relative} is not clean:\n{output}");
                assert_eq!(
                    output.lines().count(),
                    1,
                    "{relative} is not clean:\n{output}"
                );
            } else {
                panic!("{relative}: fixtures of a rule are named bad-* or good-*");
            }
        }
        insta::assert_snapshot!(output);
    });
}
