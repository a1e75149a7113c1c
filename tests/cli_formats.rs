//! The README's example trace in the formats that tests/cli.rs does not
//! snapshot (human, JSON, GitHub and SARIF are there; concise is the
//! fixtures' snapshot): JSON lines, JUnit and HTML, through the real binary.

use std::path::Path;
use std::process::Command;

fn lint_example(format: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", format, "testdata/session-with-violations.jsonl"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{format}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn json_lines_output_of_the_readme_example() {
    insta::assert_snapshot!(lint_example("json-lines"));
}

#[test]
fn junit_output_of_the_readme_example() {
    insta::assert_snapshot!(lint_example("junit"));
}

/// The page without its script nonce, which is new on every run on purpose.
fn without_nonce(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(at) = rest.find("nonce") {
        let (before, after) = rest.split_at(at + "nonce".len());
        out.push_str(before);
        // `'nonce-…'` in the policy, `nonce="…"` on the script tag.
        let skip = ["-", "=\""]
            .iter()
            .find(|opening| after.starts_with(*opening))
            .map_or(0, |opening| opening.len());
        let digits = after[skip..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .count();
        out.push_str(&after[..skip]);
        rest = &after[skip + digits..];
    }
    out.push_str(rest);
    out
}

#[test]
fn html_output_of_the_readme_example_is_the_same_on_every_run() {
    // The page is large; what matters here is that it is one stable document
    // (but for its nonce) with every finding of the run (its content is
    // tested in tests/html.rs).
    let page = without_nonce(&lint_example("html"));
    assert_eq!(
        page,
        without_nonce(&lint_example("html")),
        "the HTML report is not deterministic"
    );
    for rule in [
        "cancel-unknown-request",
        "progress-not-increasing",
        "duplicate-response",
    ] {
        assert!(page.contains(rule), "{rule}");
    }
}
