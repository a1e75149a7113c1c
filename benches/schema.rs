//! Protocol schema validation alone: mcp-lint's compiled validator (a
//! borrowed value per member, violations located) against the `jsonschema`
//! crate (a `serde_json::Value` per member, `is_valid` only), on the members
//! of the generated benchmark trace (2025-06-18). `cargo bench --bench schema`.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::Bencher;
use mcp_lint::generate::{generate, GeneratorConfig};
use mcp_lint::protocol::schema;
use mcp_lint::protocol::Version;
use serde_json::Value;

fn main() {
    divan::main();
}

/// What is validated: params of a method, or the result of one.
struct Member {
    result: bool,
    method: String,
    text: String,
}

/// The params and results of the generated trace (MCP_LINT_BENCH_MB, default 32).
fn members() -> &'static [Member] {
    static MEMBERS: OnceLock<Vec<Member>> = OnceLock::new();
    MEMBERS.get_or_init(|| {
        let config = GeneratorConfig::for_bench();
        let mut bytes = Vec::new();
        generate(&config, &mut bytes).expect("writing to memory");
        let text = String::from_utf8(bytes).expect("UTF-8");
        text.lines().filter_map(member).collect()
    })
}

fn member(line: &str) -> Option<Member> {
    let record: Value = serde_json::from_str(line).ok()?;
    let msg = record.get("msg")?;
    if let (Some(method), Some(params)) = (msg.get("method"), msg.get("params")) {
        let method = method.as_str()?.to_owned();
        let text = params.to_string();
        return Some(Member {
            result: false,
            method,
            text,
        });
    }
    let result = msg.get("result")?;
    // The generator's results: tool calls, tool lists, and empty ones.
    let method = match (result.get("content"), result.get("tools")) {
        (Some(_), _) => "tools/call",
        (_, Some(_)) => "tools/list",
        _ => "ping",
    };
    Some(Member {
        result: true,
        method: method.into(),
        text: result.to_string(),
    })
}

fn bytes() -> usize {
    members().iter().map(|m| m.text.len()).sum()
}

#[divan::bench(sample_count = 5)]
fn mcp_lint_validator(bencher: Bencher) {
    let schema = schema::of(Version::V2025_06_18);
    bencher.counter(BytesCount::new(bytes())).bench(|| {
        members()
            .iter()
            .map(|m| match m.result {
                true => schema.check_result(&m.method, &m.text).len(),
                false => schema.check_params(&m.method, Some(&m.text)).len(),
            })
            .sum::<usize>()
    });
}

/// A `jsonschema` validator per entry point, each a `$ref` into the whole
/// official document.
fn jsonschema_validators() -> Vec<(bool, String, jsonschema::Validator)> {
    let text = include_str!("../src/protocol/schema/json/2025-06-18.json");
    let document: Value = serde_json::from_str(text).unwrap();
    let definitions = document["definitions"].as_object().unwrap();
    let mut validators = Vec::new();
    for (name, definition) in definitions {
        let Some(method) = definition["properties"]["method"]["const"].as_str() else {
            continue;
        };
        if name.starts_with("Client") || name.starts_with("Server") || name.starts_with("JSONRPC") {
            continue;
        }
        let entries = [
            (false, format!("#/definitions/{name}/properties/params")),
            (
                true,
                format!("#/definitions/{}Result", name.trim_end_matches("Request")),
            ),
        ];
        for (result, pointer) in entries {
            let mut root = document.clone();
            root["$ref"] = Value::String(pointer);
            if let Ok(validator) = jsonschema::draft7::new(&root) {
                validators.push((result, method.to_owned(), validator));
            }
        }
    }
    validators
}

#[divan::bench(sample_count = 5)]
fn jsonschema_crate(bencher: Bencher) {
    let validators = jsonschema_validators();
    let find = |result: bool, method: &str| {
        validators
            .iter()
            .find(|(r, m, _)| *r == result && m == method)
            .map(|(_, _, v)| v)
    };
    // Resolved once, as mcp-lint resolves its entry points once.
    let work: Vec<_> = members()
        .iter()
        .map(|m| (find(m.result, &m.method), m.text.as_str()))
        .collect();
    bencher.counter(BytesCount::new(bytes())).bench(|| {
        work.iter()
            .filter(|(validator, text)| {
                let value: Value = serde_json::from_str(text).unwrap();
                validator.is_some_and(|v| !v.is_valid(&value))
            })
            .count()
    });
}
