//! Every trace in testdata/ is linted by the real binary and its diagnostics
//! are snapshotted (tests/snapshots/); the realistic sessions of
//! `testdata/sessions/` (one per protocol version, and both eras on one
//! endpoint) must produce nothing at all. A rule's own examples are not
//! here: they are its page (tests/docs.rs) and its unit tests.

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
        insta::assert_snapshot!(output);
    });
}
