//! JSON, JSON lines, SARIF and `rule --all --format json` link each rule's
//! page when the package declares its repository, and invent none when it
//! does not (the tests are built from the same Cargo.toml as the binary).

use std::process::Command;

use serde_json::Value;

const FIXTURE: &str = "testdata/session-with-violations.jsonl";

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The page Cargo.toml's `repository` gives a rule, if it declares one.
fn expected(id: &str) -> Option<String> {
    let repository = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/');
    let repository = repository.strip_suffix(".git").unwrap_or(repository);
    (!repository.is_empty()).then(|| format!("{repository}/blob/HEAD/rules/{id}.md"))
}

fn help_url(object: &Value) -> Option<String> {
    object
        .get("help_url")
        .map(|url| url.as_str().unwrap().to_string())
}

#[test]
fn json_findings_carry_the_rule_page_only_when_a_repository_is_declared() {
    let json: Value = serde_json::from_str(&run(&["--format", "json", FIXTURE])).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    assert!(!diagnostics.is_empty());
    for d in diagnostics {
        assert_eq!(help_url(d), expected(d["rule"].as_str().unwrap()), "{d}");
    }
    let lines = run(&["--format", "json-lines", FIXTURE]);
    for line in lines.lines().filter(|l| l.contains("\"rule\"")) {
        let d: Value = serde_json::from_str(line).unwrap();
        assert_eq!(help_url(&d), expected(d["rule"].as_str().unwrap()), "{d}");
    }
}

#[test]
fn sarif_rules_link_their_page_or_else_their_spec_page() {
    let sarif: Value = serde_json::from_str(&run(&["--format", "sarif", FIXTURE])).unwrap();
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for rule in rules {
        let uri = rule.get("helpUri").and_then(Value::as_str);
        match expected(rule["id"].as_str().unwrap()) {
            Some(page) => assert_eq!(uri, Some(page.as_str())),
            None => assert!(
                uri.is_none_or(|u| u.starts_with("https://modelcontextprotocol.io/")),
                "{rule}"
            ),
        }
    }
}

#[test]
fn the_rule_list_carries_the_page_only_when_a_repository_is_declared() {
    let json: Value = serde_json::from_str(&run(&["rule", "--all", "--format", "json"])).unwrap();
    for rule in json["rules"].as_array().unwrap() {
        assert_eq!(
            help_url(rule),
            expected(rule["id"].as_str().unwrap()),
            "{rule}"
        );
    }
}
