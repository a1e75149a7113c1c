//! Capability paths per side and revision (from the official schemas).

use super::version::{Version, Versions};
use super::Side;

use Version::*;

/// A capability a side may advertise: a dotted path in its `capabilities`.
#[derive(Debug, Clone, Copy)]
pub struct CapabilityRow {
    pub side: Side,
    pub path: &'static str,
    pub versions: Versions,
}

const fn cap(side: Side, path: &'static str, versions: Versions) -> CapabilityRow {
    CapabilityRow {
        side,
        path,
        versions,
    }
}

const ALL: Versions = Versions::ALL;
const HANDSHAKE: Versions = Versions::HANDSHAKE;
const TASKS: Versions = Versions::only(V2025_11_25);
const FROM_V3: Versions = Versions::from(V2025_06_18);
const FROM_V4: Versions = Versions::from(V2025_11_25);
const C: Side = Side::Client;
const S: Side = Side::Server;

pub static CAPABILITIES: &[CapabilityRow] = &[
    cap(C, "experimental", ALL),
    cap(C, "roots", ALL),
    cap(C, "roots.listChanged", HANDSHAKE),
    cap(C, "sampling", ALL),
    cap(C, "sampling.context", FROM_V4),
    cap(C, "sampling.tools", FROM_V4),
    cap(C, "elicitation", FROM_V3),
    cap(C, "elicitation.form", FROM_V4),
    cap(C, "elicitation.url", FROM_V4),
    cap(C, "tasks", TASKS),
    cap(C, "tasks.list", TASKS),
    cap(C, "tasks.cancel", TASKS),
    cap(C, "tasks.requests.sampling.createMessage", TASKS),
    cap(C, "tasks.requests.elicitation.create", TASKS),
    cap(C, "extensions", Versions::only(V2026_07_28)),
    cap(S, "experimental", ALL),
    cap(S, "logging", ALL),
    cap(S, "completions", Versions::from(V2025_03_26)),
    cap(S, "prompts", ALL),
    cap(S, "prompts.listChanged", ALL),
    cap(S, "resources", ALL),
    cap(S, "resources.subscribe", ALL),
    cap(S, "resources.listChanged", ALL),
    cap(S, "tools", ALL),
    cap(S, "tools.listChanged", ALL),
    cap(S, "tasks", TASKS),
    cap(S, "tasks.list", TASKS),
    cap(S, "tasks.cancel", TASKS),
    cap(S, "tasks.requests.tools.call", TASKS),
    cap(S, "extensions", Versions::only(V2026_07_28)),
];

/// Whether `side` can advertise `path` in `version`.
pub fn exists(side: Side, path: &str, version: Version) -> bool {
    CAPABILITIES
        .iter()
        .any(|c| c.side == side && c.path == path && c.versions.contains(version))
}

/// Whether a side's `capabilities` object advertises `path`: every member
/// on the way is present and is not `false` or `null` (`{}` declares a
/// capability with no sub-options; `listChanged: true` a flag).
pub fn advertised(capabilities: &serde_json::Value, path: &str) -> bool {
    let mut value = capabilities;
    for member in path.split('.') {
        match value.get(member) {
            None | Some(serde_json::Value::Null | serde_json::Value::Bool(false)) => return false,
            Some(next) => value = next,
        }
    }
    true
}

/// Whether a side's `capabilities` object advertises the extension `id`
/// under `extensions` (ids hold dots, so they are no path).
pub fn extension_advertised(capabilities: &serde_json::Value, id: &str) -> bool {
    match capabilities.get("extensions").and_then(|e| e.get(id)) {
        None | Some(serde_json::Value::Null | serde_json::Value::Bool(false)) => false,
        Some(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn advertised_follows_the_path() {
        let caps = json!({"tools": {"listChanged": true}, "resources": {}, "prompts": {"listChanged": false}});
        assert!(advertised(&caps, "tools"));
        assert!(advertised(&caps, "tools.listChanged"));
        assert!(advertised(&caps, "resources"));
        assert!(!advertised(&caps, "resources.subscribe"));
        assert!(!advertised(&caps, "prompts.listChanged"));
        assert!(!advertised(&caps, "logging"));
    }

    #[test]
    fn extensions_are_looked_up_by_their_whole_id() {
        let caps = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
        assert!(extension_advertised(&caps, "io.modelcontextprotocol/tasks"));
        assert!(!extension_advertised(&caps, "com.example/other"));
        assert!(!extension_advertised(
            &json!({}),
            "io.modelcontextprotocol/tasks"
        ));
    }

    #[test]
    fn capabilities_follow_their_revisions() {
        assert!(!exists(C, "elicitation", V2025_03_26));
        assert!(exists(C, "elicitation", V2025_06_18));
        assert!(exists(S, "completions", V2026_07_28));
        assert!(!exists(S, "completions", V2024_11_05));
    }
}
