//! The SARIF the binary writes is valid against the SARIF 2.1.0 JSON schema
//! (vendored in tests/schemas/, see its README), for findings of every kind:
//! with related locations, reported by a client, none at all, and a file
//! that is not a trace.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sarif_of(path: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", "sarif"])
        .arg(path)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The language tag pattern the schema gives twice, which is not a valid
/// regular expression (a stray `]`), and the one the standard's errata give.
const BROKEN_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
const MENDED_PATTERN: &str = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$";

/// The schema, its broken pattern mended in memory so that it passes its
/// meta-schema (mcp-lint never writes a `language`).
fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("tests/schemas/sarif-2.1.0.json")).unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(mend(&mut schema), 2);
    jsonschema::draft4::new(&schema).unwrap()
}

/// Replaces every broken pattern under `value`, and says how many there were.
fn mend(value: &mut Value) -> usize {
    match value {
        Value::String(s) if s == BROKEN_PATTERN => {
            *s = MENDED_PATTERN.into();
            1
        }
        Value::Object(map) => map.values_mut().map(mend).sum(),
        Value::Array(items) => items.iter_mut().map(mend).sum(),
        _ => 0,
    }
}

fn assert_valid(validator: &jsonschema::Validator, path: &Path) {
    let sarif = sarif_of(path);
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
}

#[test]
fn sarif_output_is_valid_against_the_schema() {
    let validator = validator();
    for fixture in [
        "testdata/session-with-violations.jsonl",
        "testdata/sessions/clean-2025-06-18.jsonl",
        "testdata/claude-code/mcp-logs-progress-after-result.jsonl",
        "testdata/har/python-sdk-streamable-http.har",
    ] {
        assert_valid(&validator, &root().join(fixture));
    }
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes with space#1.log");
    std::fs::write(&text, "just some text\n").unwrap();
    assert_valid(&validator, &text);
}

#[test]
fn the_schema_rejects_what_breaks_it() {
    // The validator is not vacuous: a result without a message is invalid.
    let validator = validator();
    let mut sarif = sarif_of(&root().join("testdata/session-with-violations.jsonl"));
    sarif["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&sarif));
    sarif["version"] = "2.0.0".into();
    assert!(!validator.is_valid(&sarif));
}
