//! A tool's own JSON schema (`inputSchema`, `outputSchema`), compiled once
//! per session with the `jsonschema` crate: no resolver, so a remote `$ref`
//! is never fetched (it makes the schema unsupported); patterns run with a
//! backtracking limit; and a schema whose validation could blow up (more
//! subschemas, once references are followed, than a bound) is refused
//! before it is compiled. An unusable schema is a reason, never a crash.

use foldhash::{HashMap, HashMapExt};
use jsonschema::{Draft, PatternOptions, Validator};
use serde_json::Value;

use crate::protocol::Version;

/// The most subschemas a validation may visit per instance value, with
/// every local `$ref` followed (a reference cycle counts once).
const MAX_EXPANDED: u64 = 100_000;
/// The longest schema text compiled.
const MAX_TEXT: usize = 1 << 20;
/// The backtracking a `pattern` may do per match.
const BACKTRACK_LIMIT: usize = 100_000;
/// The size of a compiled `pattern`.
const PATTERN_SIZE: usize = 1 << 20;

/// A compiled schema, or why it cannot be used.
pub type ToolSchema = Result<Validator, Unusable>;

/// Why a tool's schema cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unusable {
    pub why: String,
    /// The schema may be valid, but mcp-lint does not validate with it (a
    /// remote reference, an unknown dialect, a bound exceeded).
    pub unsupported: bool,
}

fn invalid(why: String) -> Unusable {
    Unusable {
        why,
        unsupported: false,
    }
}

fn unsupported(why: String) -> Unusable {
    Unusable {
        why,
        unsupported: true,
    }
}

/// One violation of a tool schema: the pointer in the instance, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolViolation {
    pub pointer: String,
    pub message: String,
}

/// Compiles the schema written as `text`, in the draft `$schema` names, or
/// by default the one the session's revision names (2020-12 from
/// 2025-11-25 on; draft-07 before, as the schema of those revisions is).
pub fn compile(text: &str, version: Option<Version>) -> ToolSchema {
    if text.len() > MAX_TEXT {
        let why = format!(
            "it is {} bytes long, over the {MAX_TEXT} mcp-lint compiles",
            text.len()
        );
        return Err(unsupported(why));
    }
    // Parsing stops at a nesting depth of 128, so no schema nests deeper.
    let schema: Value =
        serde_json::from_str(text).map_err(|e| unsupported(format!("it cannot be read: {e}")))?;
    if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
        return Err(invalid("it is neither an object nor a boolean".into()));
    }
    let expanded = expanded_size(&schema);
    if expanded > MAX_EXPANDED {
        return Err(unsupported(format!(
            "its references expand to more than {MAX_EXPANDED} subschemas, too many to validate in bounded time"
        )));
    }
    let patterns = PatternOptions::fancy_regex()
        .backtrack_limit(BACKTRACK_LIMIT)
        .size_limit(PATTERN_SIZE);
    let mut options = jsonschema::options().with_pattern_options(patterns);
    if schema.get("$schema").is_none() {
        let draft = match version {
            Some(version) if version < Version::V2025_11_25 => Draft::Draft7,
            _ => Draft::Draft202012,
        };
        options = options.with_draft(draft);
    }
    options.build(&schema).map_err(|error| match error.kind() {
        jsonschema::error::ValidationErrorKind::Referencing(_) => unsupported(error.to_string()),
        _ => invalid(error.to_string()),
    })
}

/// The violations of `instance` (at `pointer` in the message), in the
/// order the validator finds them.
pub fn violations(validator: &Validator, instance: &Value, pointer: &str) -> Vec<ToolViolation> {
    // Most instances are valid, and `is_valid` builds no error to find it.
    if validator.is_valid(instance) {
        return Vec::new();
    }
    validator
        .iter_errors(instance)
        .map(|error| ToolViolation {
            pointer: format!("{pointer}{}", error.instance_path()),
            message: error.to_string(),
        })
        .collect()
}

/// How many subschemas a validation may visit for one instance value,
/// following local references (memoized; a cycle counts once), capped
/// just above the bound.
fn expanded_size(root: &Value) -> u64 {
    let mut sizes: HashMap<String, u64> = HashMap::new();
    size_of(root, root, &mut sizes)
}

fn size_of(root: &Value, schema: &Value, sizes: &mut HashMap<String, u64>) -> u64 {
    let mut total: u64 = 1;
    match schema {
        Value::Object(members) => {
            for (name, value) in members {
                let part = match (name.as_str(), value) {
                    ("$ref" | "$dynamicRef", Value::String(reference)) => {
                        reference_size(root, reference, sizes)
                    }
                    // Values, not subschemas.
                    ("const" | "enum" | "examples" | "default", _) => 0,
                    (_, Value::Object(_) | Value::Array(_)) => size_of(root, value, sizes),
                    _ => 0,
                };
                total = total.saturating_add(part);
            }
        }
        Value::Array(items) => {
            for item in items {
                total = total.saturating_add(size_of(root, item, sizes));
            }
        }
        _ => {}
    }
    total.min(MAX_EXPANDED + 1)
}

fn reference_size(root: &Value, reference: &str, sizes: &mut HashMap<String, u64>) -> u64 {
    let Some(pointer) = reference.strip_prefix('#') else {
        return 1; // not local: compiling refuses it (no resolver)
    };
    if let Some(size) = sizes.get(pointer) {
        return *size;
    }
    // A cycle back to a schema being measured counts once.
    sizes.insert(pointer.to_owned(), 1);
    let size = match root.pointer(pointer) {
        Some(target) => size_of(root, target, sizes),
        None => 1,
    };
    sizes.insert(pointer.to_owned(), size);
    size
}

#[cfg(test)]
mod tests {
    use super::{compile, violations};
    use crate::protocol::Version;
    use serde_json::json;

    fn errors(schema: &str, instance: serde_json::Value) -> Vec<String> {
        let validator = compile(schema, Some(Version::V2025_11_25)).expect("a usable schema");
        violations(&validator, &instance, "/params/arguments")
            .into_iter()
            .map(|v| v.pointer)
            .collect()
    }

    #[test]
    fn validates_with_pointers_into_the_message() {
        let schema = r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["q"]}"#;
        assert_eq!(
            errors(schema, json!({"q": 1, "n": 2})),
            Vec::<String>::new()
        );
        assert_eq!(
            errors(schema, json!({"q": 1, "n": "2"})),
            ["/params/arguments/n"]
        );
        assert_eq!(errors(schema, json!({"n": 2})), ["/params/arguments"]);
    }

    #[test]
    fn the_draft_follows_dollar_schema_and_the_revision() {
        // `prefixItems` is a 2020-12 keyword: draft-07 ignores it.
        let schema = r#"{"type":"array","prefixItems":[{"type":"string"}]}"#;
        let modern = compile(schema, Some(Version::V2025_11_25)).unwrap();
        let older = compile(schema, Some(Version::V2025_06_18)).unwrap();
        assert!(!modern.is_valid(&json!([1])));
        assert!(older.is_valid(&json!([1])));
        let named = r#"{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","prefixItems":[{"type":"string"}]}"#;
        assert!(compile(named, Some(Version::V2025_11_25))
            .unwrap()
            .is_valid(&json!([1])));
    }

    #[test]
    fn unusable_schemas_are_reasons_not_crashes() {
        for schema in [
            r#"{"type":"objekt"}"#,
            r#"{"$ref":"https://example.com/schema.json"}"#,
            r#"{"$schema":"https://example.com/my-draft","type":"object"}"#,
            r#"{"type":"string","pattern":"("}"#,
            r#"[1,2]"#,
            r#"not json"#,
        ] {
            assert!(compile(schema, None).is_err(), "{schema}");
        }
    }

    /// A hostile schema costs bounded time and memory: exponential
    /// references are refused, a circular one validates, a huge or
    /// catastrophic pattern is limited, deep nesting is refused by the parser.
    #[test]
    fn hostile_schemas_are_bounded() {
        // a0 -> a1 twice -> a2 twice ... : 2^40 visits for a failing instance.
        let mut defs = serde_json::Map::new();
        for i in 0..40 {
            let next = json!({"$ref": format!("#/$defs/a{}", i + 1)});
            defs.insert(
                format!("a{i}"),
                json!({"anyOf": [next.clone(), {"allOf": [next]}]}),
            );
        }
        defs.insert("a40".into(), json!({"type": "string"}));
        let exponential = json!({"$defs": defs, "$ref": "#/$defs/a0"}).to_string();
        assert!(compile(&exponential, None).is_err());

        let circular = r##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"properties":{"x":{"$ref":"#/$defs/a"}}}},"$ref":"#/$defs/a"}"##;
        if let Ok(validator) = compile(circular, None) {
            let _ = validator.is_valid(&json!({"x": {"x": {"x": 1}}}));
        }
        let own = r##"{"properties":{"next":{"$ref":"#"}}}"##;
        let validator = compile(own, None).expect("recursion through data is fine");
        assert!(validator.is_valid(&json!({"next": {"next": {}}})));

        let catastrophic = r#"{"type":"string","pattern":"^(a+)+$"}"#;
        if let Ok(validator) = compile(catastrophic, None) {
            let _ = validator.is_valid(&json!(format!("{}!", "a".repeat(40))));
        }
        let huge = format!(
            r#"{{"type":"string","pattern":"{}"}}"#,
            "a{1000}".repeat(200)
        );
        assert!(compile(&huge, None).is_err());

        let deep = format!("{}{}", r#"{"items":"#.repeat(5000), "}".repeat(5000));
        assert!(compile(&deep, None).is_err());
    }
}
