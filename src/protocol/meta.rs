//! `_meta` keys: their grammar, the prefixes reserved for MCP, and the
//! reserved keys each revision defines (basic/index, section `_meta`).

use super::version::{Version, Versions};

/// The reserved keys the specification defines, and where.
pub static KNOWN_RESERVED_KEYS: &[(&str, Versions)] = &[
    (
        "io.modelcontextprotocol/related-task",
        Versions::from(Version::V2025_11_25),
    ),
    (
        "io.modelcontextprotocol/protocolVersion",
        Versions::only(Version::V2026_07_28),
    ),
    (
        "io.modelcontextprotocol/clientCapabilities",
        Versions::only(Version::V2026_07_28),
    ),
    (
        "io.modelcontextprotocol/clientInfo",
        Versions::only(Version::V2026_07_28),
    ),
    (
        "io.modelcontextprotocol/serverInfo",
        Versions::only(Version::V2026_07_28),
    ),
    (
        "io.modelcontextprotocol/logLevel",
        Versions::only(Version::V2026_07_28),
    ),
    (
        "io.modelcontextprotocol/subscriptionId",
        Versions::only(Version::V2026_07_28),
    ),
];

/// `_meta` keys of a 2026-07-28 request.
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";

/// The log levels (RFC 5424 severities), least severe first.
pub const LOG_LEVELS: &[&str] = &[
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// Whether a log message at `level` passes the threshold `requested` (at or
/// above it); a level that is no defined one is not judged.
pub fn log_level_passes(level: &str, requested: &str) -> bool {
    let rank = |l: &str| LOG_LEVELS.iter().position(|known| *known == l);
    match (rank(level), rank(requested)) {
        (Some(level), Some(requested)) => level >= requested,
        _ => true,
    }
}
/// `_meta` key of a notification on a listen stream: the listen request's id.
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// The keys every 2026-07-28 request must carry in `_meta`, with the JSON
/// type each value must have ("fields marked as required MUST be included on
/// every request").
pub const REQUIRED_REQUEST_KEYS: &[(&str, ValueType)] = &[
    (PROTOCOL_VERSION, ValueType::String),
    (CLIENT_CAPABILITIES, ValueType::Object),
];

/// The JSON type a reserved key's value must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    String,
    Object,
}

impl ValueType {
    pub fn holds(self, value: &serde_json::Value) -> bool {
        match self {
            ValueType::String => value.is_string(),
            ValueType::Object => value.is_object(),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ValueType::String => "a string",
            ValueType::Object => "an object",
        }
    }
}

/// The labels that make a prefix MCP's own.
const MCP_LABELS: [&str; 2] = ["modelcontextprotocol", "mcp"];

/// Why `key` breaks the key grammar, if it does: an optional prefix of
/// dot-separated labels followed by `/`, then a name.
pub fn key_problem(key: &str) -> Option<&'static str> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        if !prefix.split('.').all(valid_label) {
            return Some("its prefix is not labels separated by dots, each starting with a letter, ending with a letter or digit, with only letters, digits and hyphens");
        }
    }
    if !valid_name(name) {
        return Some("its name does not begin and end with a letter or digit, or holds other characters than letters, digits, '-', '_' and '.'");
    }
    None
}

fn valid_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphabetic()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

fn valid_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, _) | (_, None) => true, // an empty name is allowed
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
    }
}

/// Whether a well-formed `key` lies under a prefix reserved for MCP: from
/// 2025-11-25 one whose second label is `modelcontextprotocol` or `mcp`;
/// in 2025-06-18 one holding such a label before its last.
pub fn is_reserved(key: &str, version: Version) -> bool {
    let Some((prefix, _)) = key.rsplit_once('/') else {
        return false;
    };
    let labels: Vec<&str> = prefix.split('.').collect();
    let is_mcp = |label: &&str| MCP_LABELS.contains(label);
    match version {
        Version::V2024_11_05 | Version::V2025_03_26 => false,
        Version::V2025_06_18 => labels[..labels.len() - 1].iter().any(is_mcp),
        _ => labels.get(1).is_some_and(is_mcp),
    }
}

/// Whether the specification defines `key` in `version`.
pub fn is_known_reserved(key: &str, version: Version) -> bool {
    KNOWN_RESERVED_KEYS
        .iter()
        .any(|(known, versions)| *known == key && versions.contains(version))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Version::*;

    #[test]
    fn keys_follow_the_grammar() {
        for good in [
            "progressToken",
            "com.example/trace-id",
            "io.modelcontextprotocol/related-task",
            "x/",
            "a1/b.c_d-e",
            "traceparent",
        ] {
            assert_eq!(key_problem(good), None, "{good}");
        }
        for bad in [
            "_private",
            "trace id",
            "1example.com/x",
            "com.example-/x",
            "/name",
            "com..example/x",
            "a/b/c",
            "name-",
        ] {
            assert!(key_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn reserved_prefixes_changed_in_2025_11_25() {
        assert!(is_reserved("io.modelcontextprotocol/x", V2025_11_25));
        assert!(is_reserved("dev.mcp/x", V2026_07_28));
        assert!(!is_reserved("com.example.mcp/x", V2025_11_25));
        assert!(is_reserved("modelcontextprotocol.io/x", V2025_06_18));
        assert!(is_reserved("com.example.mcp.tools/x", V2025_06_18));
        assert!(is_reserved("com.mcp.tools/x", V2025_11_25));
        assert!(!is_reserved("progressToken", V2025_11_25));
    }
}
