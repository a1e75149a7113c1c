//! Mutation test of `schema-violation`: the five clean sessions (one per
//! revision) lint without a schema finding, and breaking one field of one
//! message (a required member removed, a value of the wrong type, a value
//! outside its enum) gives exactly one `schema-violation`, at that
//! message's line and at the pointer of the broken field.

use std::path::Path;

use mcp_lint::decode::Format;
use mcp_lint::lint::Linter;
use serde_json::Value;

enum Change {
    Remove,
    /// Replace with this JSON value.
    Set(&'static str),
}

/// One field of one kind of message, and how it is broken.
struct Mutation {
    method: &'static str,
    /// The result of a request of `method`, not its params.
    result: bool,
    /// The field, inside params or result.
    path: &'static [&'static str],
    change: Change,
}

const fn mutation(
    method: &'static str,
    result: bool,
    path: &'static [&'static str],
    change: Change,
) -> Mutation {
    Mutation {
        method,
        result,
        path,
        change,
    }
}

use Change::{Remove, Set};

const MUTATIONS: &[Mutation] = &[
    mutation("initialize", false, &["clientInfo", "name"], Remove),
    mutation("initialize", true, &["serverInfo"], Set("\"example\"")),
    mutation("tools/list", true, &["tools", "0", "name"], Set("7")),
    mutation("tools/list", true, &["tools", "0", "inputSchema"], Remove),
    mutation("tools/call", false, &["name"], Remove),
    mutation(
        "tools/call",
        true,
        &["content", "0", "type"],
        Set("\"txt\""),
    ),
    mutation("tools/call", true, &["isError"], Set("\"no\"")),
    mutation("resources/list", true, &["resources", "0", "name"], Remove),
    mutation("resources/read", false, &["uri"], Set("[]")),
    mutation("resources/read", true, &["contents", "0", "uri"], Remove),
    mutation(
        "prompts/get",
        true,
        &["messages", "0", "role"],
        Set("\"robot\""),
    ),
    mutation("logging/setLevel", false, &["level"], Set("\"loud\"")),
    mutation("notifications/message", false, &["level"], Remove),
    mutation(
        "sampling/createMessage",
        false,
        &["maxTokens"],
        Set("\"ten\""),
    ),
    mutation("sampling/createMessage", true, &["model"], Remove),
    mutation("roots/list", true, &["roots", "0", "uri"], Set("1")),
    mutation("elicitation/create", true, &["action"], Set("\"maybe\"")),
];

fn sessions() -> Vec<(String, Vec<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/sessions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("clean-") && name.ends_with(".jsonl")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 5, "one clean session per revision");
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, text.lines().map(str::to_owned).collect())
        })
        .collect()
}

/// The `schema-violation` findings of a trace: (line, pointer).
fn schema_findings(lines: &[String]) -> Vec<(u64, String)> {
    let trace = lines.join("\n") + "\n";
    let mut linter = Linter::new(mcp_lint::rules::engine(), Some(Format::Canonical));
    linter.lint_bytes(0, trace.as_bytes());
    let (diagnostics, _) = linter.engine.finish();
    diagnostics
        .iter()
        .filter(|d| d.rule.id == "schema-violation")
        .map(|d| (d.location.line, d.pointer().unwrap_or("").to_owned()))
        .collect()
}

/// For each line, the method it is about: its own, or for a response the
/// method of the request it answers (ids are per sender).
fn methods(lines: &[String]) -> Vec<Option<(String, bool)>> {
    let mut open = std::collections::HashMap::new();
    lines
        .iter()
        .map(|line| {
            let record: Value = serde_json::from_str(line).ok()?;
            let (from, msg) = (record["from"].as_str()?, &record["msg"]);
            let id = msg.get("id").map(Value::to_string);
            if let Some(method) = msg["method"].as_str() {
                if let Some(id) = id {
                    open.insert((from.to_owned(), id), method.to_owned());
                }
                return Some((method.to_owned(), false));
            }
            let requester = if from == "client" { "server" } else { "client" };
            let method = open.get(&(requester.to_owned(), id?))?;
            msg.get("result").map(|_| (method.clone(), true))
        })
        .collect()
}

/// The line with `mutation` applied, and the pointer of the broken field;
/// `None` when the message lacks the field.
fn apply(line: &str, mutation: &Mutation) -> Option<(String, String)> {
    let mut record: Value = serde_json::from_str(line).unwrap();
    let member = if mutation.result { "result" } else { "params" };
    let (last, parents) = mutation.path.split_last()?;
    let mut holder = record["msg"].get_mut(member)?;
    for step in parents {
        holder = match holder {
            Value::Array(items) => items.get_mut(step.parse::<usize>().ok()?)?,
            other => other.get_mut(*step)?,
        };
    }
    let object = holder.as_object_mut()?;
    object.get(*last)?;
    match mutation.change {
        Remove => {
            object.remove(*last);
        }
        Set(json) => {
            object.insert((*last).to_owned(), serde_json::from_str(json).unwrap());
        }
    }
    let pointer = format!("/{member}/{}", mutation.path.join("/"));
    Some((record.to_string(), pointer))
}

#[test]
fn clean_sessions_have_no_schema_violation() {
    for (name, lines) in sessions() {
        assert_eq!(schema_findings(&lines), [], "{name}");
    }
}

#[test]
fn each_broken_field_gives_one_violation_at_its_line_and_pointer() {
    let mut applied = vec![0; MUTATIONS.len()];
    for (name, lines) in sessions() {
        let methods = methods(&lines);
        for (index, line) in lines.iter().enumerate() {
            let Some((method, result)) = &methods[index] else {
                continue;
            };
            for (which, mutation) in MUTATIONS.iter().enumerate() {
                if mutation.method != method || mutation.result != *result {
                    continue;
                }
                let Some((broken, pointer)) = apply(line, mutation) else {
                    continue;
                };
                let mut mutated = lines.clone();
                mutated[index] = broken;
                assert_eq!(
                    schema_findings(&mutated),
                    [(index as u64 + 1, pointer.clone())],
                    "{name}:{}: {method} {pointer}",
                    index + 1
                );
                applied[which] += 1;
            }
        }
    }
    for (mutation, count) in MUTATIONS.iter().zip(applied) {
        assert!(
            count > 0,
            "no clean session has a {} {} with {:?}",
            mutation.method,
            if mutation.result { "result" } else { "request" },
            mutation.path
        );
    }
}
