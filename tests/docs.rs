//! The rule pages are tests: every rule has a page, every page a rule, and
//! every example in a page is run through the real `mcp-lint` binary. A bad
//! example must produce its rule, a good one nothing at all, and the output
//! block after a bad example must be exactly what the binary prints.
//! `MCP_LINT_BLESS=1 cargo test --test docs` rewrites the output blocks.

use std::path::Path;
use std::process::Command;

use mcp_lint::rules;

mod common;
use common::{examples, pages_dir};

fn run_binary(trace: &str, extension: &str, args: &[String]) -> (String, i32) {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("example.{extension}");
    std::fs::write(dir.path().join(&name), trace).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", "concise", "--fail-on", "info"])
        .args(args)
        .arg(&name)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        String::from_utf8(output.stdout).unwrap(),
        output.status.code().unwrap(),
    )
}

/// The value of a `| Name | value |` row of the page's table.
fn table_row<'p>(page: &'p str, name: &str) -> Option<&'p str> {
    page.lines()
        .find_map(|l| l.strip_prefix(&format!("| {name} | ")))
        .map(|rest| rest.trim_end().trim_end_matches('|').trim())
}

/// The page's Severity row starts with the default severity, and its
/// "Applies to" row with the versions of the metadata (qualifiers may follow
/// after a semicolon).
fn table_matches_meta(page: &str, meta: &mcp_lint::rule::RuleMeta) -> Result<(), String> {
    let severity = table_row(page, "Severity").ok_or("the table has no Severity row")?;
    let default = meta.default_severity.as_str();
    if severity.split([' ', ';', ',']).next() != Some(default) {
        return Err(format!(
            "the Severity row {severity:?} does not start with the default severity {default:?}"
        ));
    }
    let applies = table_row(page, "Applies to").ok_or("the table has no \"Applies to\" row")?;
    let versions = meta.versions.describe();
    if applies != versions && !applies.starts_with(&format!("{versions};")) {
        return Err(format!(
            "the \"Applies to\" row {applies:?} is not {versions:?} (qualifiers may follow after \";\")"
        ));
    }
    Ok(())
}

#[test]
fn every_rule_has_a_page_and_every_page_a_rule() {
    let mut missing = Vec::new();
    for rule in rules::ALL {
        if !pages_dir().join(format!("{}.md", rule.meta().id)).is_file() {
            missing.push(rule.meta().id);
        }
    }
    assert!(
        missing.is_empty(),
        "rules without a page in rules/: {missing:?}"
    );
    for entry in std::fs::read_dir(pages_dir()).unwrap() {
        let path = entry.unwrap().path();
        let id = path.file_stem().unwrap().to_str().unwrap();
        assert!(
            rules::find(id).is_some(),
            "{} documents no rule",
            path.display()
        );
    }
}

#[test]
fn rule_pages_examples_hold() {
    let bless = std::env::var_os("MCP_LINT_BLESS").is_some();
    let mut failures = Vec::new();
    for rule in rules::ALL {
        let meta = rule.meta();
        let path = pages_dir().join(format!("{}.md", meta.id));
        let Ok(mut page) = std::fs::read_to_string(&path) else {
            continue; // reported by the other test
        };
        let mut fail = |why: String| failures.push(format!("{}: {why}", path.display()));
        if !page.starts_with(&format!("# {}\n", meta.id)) {
            fail("the page must start with a `# <rule-id>` heading".into());
        }
        for section in ["## What it does", "## Why"] {
            if !page.contains(section) {
                fail(format!("missing section {section:?}"));
            }
        }
        if let Err(why) = table_matches_meta(&page, meta) {
            fail(why);
        }
        if !meta.quote.is_empty() && !page.contains(meta.quote) {
            fail(format!(
                "the page does not quote the spec sentence {:?}",
                meta.quote
            ));
        }
        if let Some(modern) = meta.spec.and_then(|s| s.modern_quote) {
            if !page.contains(modern) {
                fail(format!(
                    "the page does not quote the 2026-07-28 sentence {modern:?}"
                ));
            }
        }
        if let Some(url) = meta.spec_url(None) {
            if !page.contains(&url) {
                fail(format!("the page does not link {url}"));
            }
        }
        let examples = examples(&page);
        if !examples.iter().any(|e| e.kind == "bad") || !examples.iter().any(|e| e.kind == "good") {
            fail("the page needs a bad and a good example (```jsonl bad / ```har bad, ...)".into());
        }
        let mut rewrites = Vec::new();
        for example in &examples {
            let (output, code) = run_binary(&example.body, &example.extension, &example.args);
            if example.kind == "good" {
                if code != 0 || output.lines().count() != 1 {
                    fail(format!("the good example is not clean:\n{output}"));
                }
                continue;
            }
            if !output.contains(&format!("[{}]: ", meta.id)) {
                fail(format!(
                    "the bad example does not produce {}:\n{output}",
                    meta.id
                ));
            }
            match &example.output {
                None => fail("a bad example needs a ```text output block after it".into()),
                Some((range, documented)) if documented != &output => {
                    if bless {
                        rewrites.push((range.clone(), output));
                    } else {
                        fail(format!(
                            "the documented output is stale (MCP_LINT_BLESS=1 rewrites it)\n--- documented\n{documented}--- actual\n{output}"
                        ));
                    }
                }
                Some(_) => {}
            }
        }
        if !rewrites.is_empty() {
            for (range, output) in rewrites.into_iter().rev() {
                page.replace_range(range, &output);
            }
            std::fs::write(&path, page).unwrap();
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn readme_lists_every_rule_and_its_quick_start_works() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for rule in rules::ALL {
        let id = rule.meta().id;
        assert!(
            readme.contains(&format!("[`{id}`](rules/{id}.md)")),
            "README.md does not list {id}"
        );
    }
    // The first command of the README lints a trace that ships in testdata/.
    let example = readme
        .lines()
        .find_map(|l| l.strip_prefix("cargo run -- "))
        .and_then(|rest| rest.split_whitespace().next())
        .expect("README starts with `cargo run -- <trace>`");
    assert!(
        root.join(example).is_file(),
        "{example} is not in the repository"
    );
    assert!(
        readme.contains("\ncargo test "),
        "README shows the test command"
    );
}

/// docs/coverage.md maps the specification's rules to mcp-lint's: it must
/// name every rule, and every rule it names must exist.
#[test]
fn coverage_names_every_rule_and_only_rules_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let coverage = std::fs::read_to_string(root.join("docs/coverage.md")).unwrap();
    for rule in rules::ALL {
        let id = rule.meta().id;
        assert!(
            coverage.contains(&format!("`{id}`")),
            "docs/coverage.md does not name {id}"
        );
    }
    for row in coverage.lines().filter(|l| l.starts_with("| ")) {
        let Some(checked_by) = row.trim_end_matches('|').rsplit(" | ").next() else {
            continue;
        };
        for id in checked_by.split('`').skip(1).step_by(2) {
            assert!(
                rules::find(id).is_some(),
                "docs/coverage.md names {id}, which is no rule: {row}"
            );
        }
    }
}
