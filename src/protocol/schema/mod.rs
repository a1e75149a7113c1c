//! The official JSON schema of each released revision (embedded from
//! `json/`, under the licence in `json/LICENSE`), compiled once per process
//! on first use, and what each method's params and result must match.
//!
//! The draft schema serves no released revision and is not embedded: an
//! unknown version is read as the nearest released one (`Version::nearest`).

mod compiled;
mod instance;
mod validate;

use std::sync::OnceLock;

use foldhash::{HashMap, HashMapExt};

pub use compiled::{Compiled, Definition, NodeId, Types};
pub use instance::{with_parsed, Doc, Value};
pub use validate::{validate, Expected, Violation};

use super::Version;

/// A value that a rule of its own checks, so a schema violation there
/// would report the same cause twice.
struct Owned {
    /// The method of the message (of the request, for a result).
    method: &'static str,
    pointer: &'static str,
    /// Only a missing member is the other rule's; a wrong value is the schema's.
    missing_only: bool,
}

const fn owned(method: &'static str, pointer: &'static str, missing_only: bool) -> Owned {
    Owned {
        method,
        pointer,
        missing_only,
    }
}

/// The values other rules check: `progress-malformed`, `cancel-malformed`,
/// `progress-token-invalid-type` (any request), `init-by-client`, `init-result-shape`,
/// and of 2026-07-28 `result-type-required`, `v5-request-meta-required`,
/// `v5-mrtr-input-request-types` and `v5-mrtr-nonempty`, and the tasks
/// of 2025-11-25, which the `task-*` and `tasks-*` rules check.
const OWNED: [Owned; 25] = [
    owned("notifications/progress", "/params", true),
    owned("notifications/progress", "/params/progressToken", false),
    owned("notifications/progress", "/params/progress", false),
    owned("notifications/progress", "/params/total", false),
    owned("notifications/progress", "/params/message", false),
    owned("notifications/cancelled", "/params/requestId", false),
    owned("notifications/cancelled", "/params/reason", false),
    owned("*", "/params/_meta/progressToken", false),
    owned("initialize", "/params", true),
    owned("initialize", "/params/protocolVersion", true),
    owned("initialize", "/params/capabilities", true),
    owned("initialize", "/params/clientInfo", true),
    owned("initialize", "/result/protocolVersion", true),
    owned("initialize", "/result/capabilities", true),
    owned("initialize", "/result/serverInfo", true),
    owned("*", "/result/resultType", false),
    owned("*", "/params/_meta", true),
    owned(
        "*",
        "/params/_meta/io.modelcontextprotocol~1protocolVersion",
        false,
    ),
    owned(
        "*",
        "/params/_meta/io.modelcontextprotocol~1clientCapabilities",
        false,
    ),
    owned("*", "/result/inputRequests", false),
    owned("*", "/result/task", false),
    owned("tasks/get", "/result", false),
    owned("tasks/cancel", "/result", false),
    owned("tasks/list", "/result", false),
    owned("notifications/tasks/status", "/params", false),
];

/// Whether another rule reports `violation` of a message of `method`.
pub fn reported_elsewhere(method: &str, violation: &Violation) -> bool {
    OWNED.iter().any(|owned| {
        let at = violation.pointer.strip_prefix(owned.pointer);
        let within = match owned.missing_only {
            // The member itself, missing.
            true => at == Some("") && violation.expected == Expected::Member,
            // The member or anything in it.
            false => at.is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
        };
        (owned.method == "*" || owned.method == method) && within
    })
}

/// The schema document of each revision.
fn document(version: Version) -> &'static str {
    match version {
        Version::V2024_11_05 => include_str!("json/2024-11-05.json"),
        Version::V2025_03_26 => include_str!("json/2025-03-26.json"),
        Version::V2025_06_18 => include_str!("json/2025-06-18.json"),
        Version::V2025_11_25 => include_str!("json/2025-11-25.json"),
        Version::V2026_07_28 => include_str!("json/2026-07-28.json"),
    }
}

/// One revision's schema with its entry points by method.
pub struct ProtocolSchema {
    pub compiled: Compiled,
    /// A request's or notification's `params`, and whether it is required.
    params: HashMap<Box<str>, (NodeId, bool)>,
    /// The `result` of a response to the method.
    results: HashMap<Box<str>, NodeId>,
    /// What any other result must be (`Result`).
    any_result: Option<NodeId>,
    /// The answer to a task-augmented request (`CreateTaskResult`), where tasks exist.
    task_result: Option<NodeId>,
    /// A result that asks for more input (`InputRequiredResult`, 2026-07-28).
    input_required: Option<NodeId>,
    /// A response's `error` member.
    error: Option<NodeId>,
}

/// The compiled schema of `version`, compiled on first use.
pub fn of(version: Version) -> &'static ProtocolSchema {
    static SCHEMAS: [OnceLock<ProtocolSchema>; 5] = [const { OnceLock::new() }; 5];
    SCHEMAS[version as usize].get_or_init(|| {
        let document = serde_json::from_str(document(version)).expect("an embedded schema");
        ProtocolSchema::new(Compiled::new(&document))
    })
}

/// The definitions that only gather others (`ClientRequest`, `JSONRPCMessage`, ...).
fn is_union(name: &str) -> bool {
    ["Client", "Server", "JSONRPC"]
        .iter()
        .any(|prefix| name.starts_with(prefix))
        && !name.starts_with("ServerCapabilities")
}

impl ProtocolSchema {
    fn new(compiled: Compiled) -> ProtocolSchema {
        let mut params = HashMap::new();
        let mut results = HashMap::new();
        for (index, definition) in compiled.definitions.iter().enumerate() {
            let id = index as NodeId;
            let name = &*definition.name;
            let Some(serde_json::Value::String(method)) = compiled.property_const(id, "method")
            else {
                continue;
            };
            if is_union(name) {
                continue;
            }
            let node = compiled.node_of(id);
            if let Some((_, node_params)) = node.properties.iter().find(|(n, _)| &**n == "params") {
                let required = node.required.iter().any(|r| &**r == "params");
                params.insert(method.as_str().into(), (*node_params, required));
            }
            if let Some(result) = name
                .strip_suffix("Request")
                .and_then(|stem| result_of(&compiled, stem))
            {
                results.insert(method.as_str().into(), result);
            }
        }
        let error = ["JSONRPCErrorResponse", "JSONRPCError"]
            .iter()
            .find_map(|name| compiled.named(name))
            .and_then(|id| member_schema(&compiled, id, "error"));
        ProtocolSchema {
            params,
            results,
            any_result: compiled.named("Result"),
            task_result: compiled.named("CreateTaskResult"),
            input_required: compiled.named("InputRequiredResult"),
            error,
            compiled,
        }
    }

    /// The violations of a request's or notification's `params` (`None`
    /// when absent). A method the schema does not define has none.
    pub fn check_params(&self, method: &str, params: Option<&str>) -> Vec<Violation> {
        let Some((node, required)) = self.params.get(method) else {
            return Vec::new();
        };
        match params {
            Some(text) => self.check(*node, text, "/params"),
            None if *required => vec![Violation {
                pointer: "/params".into(),
                expected: Expected::Member,
                found: "nothing".into(),
                definition: None,
            }],
            None => Vec::new(),
        }
    }

    /// The violations of the result of a `method` request. A result that
    /// holds a `task` answers a task-augmented request, where tasks exist;
    /// one whose `resultType` is `input_required` asks for input (2026-07-28),
    /// and any other is the method's own result.
    pub fn check_result(&self, method: &str, result: &str) -> Vec<Violation> {
        with_parsed(result, |doc, value| {
            self.check_parsed_result(method, doc, value)
        })
        .unwrap_or_default()
    }

    fn check_parsed_result(&self, method: &str, doc: Doc, value: Value) -> Vec<Violation> {
        let result_type = doc.get(value, "resultType");
        let asks_input = result_type.and_then(|kind| doc.as_str(kind)) == Some("input_required");
        let node = match (doc.get(value, "task"), asks_input) {
            (Some(_), _) if self.task_result.is_some() => self.task_result,
            (_, true) if self.input_required.is_some() => self.input_required,
            // A method the revision does not define has no result to check
            // (method-version reports the method).
            _ => self.results.get(method).copied().or_else(|| {
                self.params
                    .contains_key(method)
                    .then_some(self.any_result)?
            }),
        };
        node.map_or_else(Vec::new, |node| {
            validate(&self.compiled, node, doc, value, "/result")
        })
    }

    /// The violations of a response's `error` member.
    pub fn check_error(&self, error: &str) -> Vec<Violation> {
        self.error
            .map_or_else(Vec::new, |node| self.check(node, error, "/error"))
    }

    fn check(&self, node: NodeId, text: &str, pointer: &str) -> Vec<Violation> {
        with_parsed(text, |doc, value| {
            validate(&self.compiled, node, doc, value, pointer)
        })
        .unwrap_or_default()
    }

    /// The definition a violation belongs to.
    pub fn definition(&self, violation: &Violation) -> Option<&Definition> {
        self.compiled
            .definitions
            .get(violation.definition? as usize)
    }
}

/// The schema of a request's own result: `<stem>Result`, else the
/// `result` of `<stem>ResultResponse` where responses are defined per method.
fn result_of(compiled: &Compiled, stem: &str) -> Option<NodeId> {
    compiled.named(&format!("{stem}Result")).or_else(|| {
        let response = compiled.named(&format!("{stem}ResultResponse"))?;
        member_schema(compiled, response, "result")
    })
}

/// The schema of member `name` of an object definition.
fn member_schema(compiled: &Compiled, id: NodeId, name: &str) -> Option<NodeId> {
    let node = compiled.node_of(compiled.target(id));
    node.properties
        .iter()
        .find(|(n, _)| &**n == name)
        .map(|(_, p)| *p)
}

#[cfg(test)]
mod tests;
