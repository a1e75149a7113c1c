//! The HTTP headers and media types the transports define, and what the
//! decoder keeps of an exchange for the rules: a header is kept when it is a
//! row here, so a rule about a new header is a new row.

use super::version::{Version, Versions};

/// A header a rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Header {
    Accept,
    ContentType,
    Origin,
    LastEventId,
    McpSessionId,
    McpProtocolVersion,
    /// 2026-07-28: the request's method.
    McpMethod,
    /// 2026-07-28: the request's `params.name` or `params.uri`.
    McpName,
    /// 2026-07-28: `Mcp-Param-{Name}`, a tool argument mirrored into a header.
    McpParam,
    /// 2026-07-28: `X-Accel-Buffering: no` on an SSE response keeps reverse
    /// proxies from buffering its events.
    XAccelBuffering,
}

/// One header: its name as the spec writes it, whether the name is a
/// prefix (`Mcp-Param-` and what follows), and where it exists.
#[derive(Debug, Clone, Copy)]
pub struct HeaderRow {
    pub header: Header,
    pub name: &'static str,
    pub prefix: bool,
    pub versions: Versions,
}

const fn row(header: Header, name: &'static str, versions: Versions) -> HeaderRow {
    HeaderRow {
        header,
        name,
        prefix: false,
        versions,
    }
}

const STREAMABLE: Versions = Versions::from(Version::V2025_03_26);
const STATELESS: Versions = Versions::only(Version::V2026_07_28);

pub static HEADERS: &[HeaderRow] = &[
    row(Header::Accept, "Accept", Versions::ALL),
    row(Header::ContentType, "Content-Type", Versions::ALL),
    row(Header::Origin, "Origin", Versions::ALL),
    row(Header::LastEventId, "Last-Event-ID", STREAMABLE),
    row(
        Header::McpSessionId,
        "Mcp-Session-Id",
        Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    ),
    row(
        Header::McpProtocolVersion,
        "MCP-Protocol-Version",
        Versions::from(Version::V2025_06_18),
    ),
    row(Header::McpMethod, "Mcp-Method", STATELESS),
    row(Header::McpName, "Mcp-Name", STATELESS),
    HeaderRow {
        header: Header::McpParam,
        name: "Mcp-Param-",
        prefix: true,
        versions: STATELESS,
    },
    row(Header::XAccelBuffering, "X-Accel-Buffering", STATELESS),
];

impl Header {
    /// The header a name on the wire is (names are case-insensitive).
    pub fn of(name: &str) -> Option<Header> {
        HEADERS.iter().find_map(|row| {
            let matches = match row.prefix {
                true => name
                    .get(..row.name.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(row.name)),
                false => name.eq_ignore_ascii_case(row.name),
            };
            matches.then_some(row.header)
        })
    }

    pub fn row(self) -> &'static HeaderRow {
        HEADERS
            .iter()
            .find(|row| row.header == self)
            .expect("every header has a row")
    }

    pub fn name(self) -> &'static str {
        self.row().name
    }
}

/// The media type of a JSON body.
pub const JSON: &str = "application/json";
/// The media type of a server-sent events stream.
pub const EVENT_STREAM: &str = "text/event-stream";

/// Whether a `Content-Type` (or a MIME type a capture recorded) is `media`,
/// parameters (`; charset=utf-8`) aside.
pub fn is_media(content_type: &str, media: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(media))
}

/// Whether an `Accept` header lists `media` (by name; `*/*` and `text/*`
/// are wildcards, not a listing).
pub fn accept_lists(accept: &str, media: &str) -> bool {
    accept.split(',').any(|item| is_media(item, media))
}

/// Whether an `Accept` header admits `media` through a wildcard only.
pub fn accept_wildcard(accept: &str, media: &str) -> bool {
    let kind = media.split('/').next().unwrap_or(media);
    accept.split(',').any(|item| {
        let item = item.split(';').next().unwrap_or("").trim();
        item == "*/*" || item.eq_ignore_ascii_case(&format!("{kind}/*"))
    })
}

/// What an `Accept` header (absent: `None`) fails to list of `media`: each
/// missing type, and whether a wildcard (`*/*`) admits it nonetheless.
pub fn accept_missing<'m>(accept: Option<&str>, media: &[&'m str]) -> Vec<(&'m str, bool)> {
    let accept = accept.unwrap_or("");
    media
        .iter()
        .filter(|m| !accept_lists(accept, m))
        .map(|m| (*m, accept_wildcard(accept, m)))
        .collect()
}

/// The request parameter whose value a 2026-07-28 request mirrors into
/// `Mcp-Name`, by method.
pub static NAME_HEADER_PARAMS: &[(&str, &str)] = &[
    ("tools/call", "name"),
    ("resources/read", "uri"),
    ("prompts/get", "name"),
];

/// The value a header carries, decoded: 2026-07-28 clients send a value that
/// is not plain ASCII as `=?base64?<base64>?=`.
pub fn decoded_value(value: &str) -> Option<String> {
    use base64::Engine as _;
    let Some(encoded) = value
        .trim()
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    else {
        return Some(value.trim().to_string());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// The `inputSchema` annotation that asks a 2026-07-28 client to mirror a
/// tool argument into an `Mcp-Param-{Name}` header.
pub const PARAM_ANNOTATION: &str = "x-mcp-header";

/// The method whose arguments `Mcp-Param-{Name}` headers mirror.
pub const PARAM_HEADERS_METHOD: &str = "tools/call";

/// The JSON Schema types an annotated parameter may have.
const MIRRORED_TYPES: &[&str] = &["string", "integer", "boolean"];

/// A tool parameter mirrored into `Mcp-Param-{name}`: the header's name
/// part and the chain of `properties` keys that leads to the parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirroredParam {
    pub name: Box<str>,
    pub path: Vec<Box<str>>,
}

/// The parameters a tool's `inputSchema` mirrors into headers. An invalid
/// annotation (off a chain of `properties` keys, on a type other than
/// string, integer or boolean, not a token, or named twice) makes the tool
/// invalid, which clients must drop: then none is expected.
pub fn mirrored_params(schema: &serde_json::Value) -> Vec<MirroredParam> {
    let mut found = Vec::new();
    collect_mirrored(schema, &mut Vec::new(), &mut found);
    let valid = found.iter().enumerate().all(|(i, (param, valid))| {
        *valid
            && !found[..i]
                .iter()
                .any(|(other, _)| other.name.eq_ignore_ascii_case(&param.name))
    });
    match valid && found.len() == annotations_anywhere(schema) {
        true => found.into_iter().map(|(param, _)| param).collect(),
        false => Vec::new(),
    }
}

/// The annotations reachable through `properties` keys, each with whether
/// it is valid on its own.
fn collect_mirrored(
    schema: &serde_json::Value,
    path: &mut Vec<Box<str>>,
    found: &mut Vec<(MirroredParam, bool)>,
) {
    if let Some(name) = schema.get(PARAM_ANNOTATION) {
        let kind = schema.get("type").and_then(|t| t.as_str());
        let name = name.as_str().unwrap_or_default();
        let token = !name.is_empty() && name.bytes().all(is_tchar);
        let valid = token && kind.is_some_and(|k| MIRRORED_TYPES.contains(&k));
        let param = MirroredParam {
            name: name.into(),
            path: path.clone(),
        };
        found.push((param, valid));
    }
    let Some(properties) = schema.get("properties").and_then(|p| p.as_object()) else {
        return;
    };
    for (key, property) in properties {
        path.push(key.as_str().into());
        collect_mirrored(property, path, found);
        path.pop();
    }
}

/// How many annotations a schema holds, wherever they are.
fn annotations_anywhere(schema: &serde_json::Value) -> usize {
    match schema {
        serde_json::Value::Object(members) => members
            .iter()
            .map(|(key, value)| usize::from(key == PARAM_ANNOTATION) + annotations_anywhere(value))
            .sum(),
        serde_json::Value::Array(items) => items.iter().map(annotations_anywhere).sum(),
        _ => 0,
    }
}

/// A character of an HTTP field-name token (RFC 9110 `tchar`).
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The value a mirrored argument gives its header, before encoding: a
/// string as it is, an integer in decimal, a boolean as `true` or `false`;
/// `None` for `null` (the header is omitted) or a value of another type.
pub fn mirrored_value(argument: &serde_json::Value) -> Option<String> {
    match argument {
        serde_json::Value::String(text) => Some(text.clone()),
        serde_json::Value::Bool(flag) => Some(flag.to_string()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Whether a decoded header value says the same as the argument: integers
/// compare numerically (`42.0` and `42` agree).
pub fn mirrors(header: &str, argument: &serde_json::Value) -> bool {
    match argument {
        serde_json::Value::Number(n) => header.trim().parse::<f64>().ok() == n.as_f64(),
        _ => mirrored_value(argument).as_deref() == Some(header),
    }
}

/// Whether a session id uses only the characters the spec allows: visible
/// ASCII, 0x21 to 0x7E.
pub fn session_id_is_visible_ascii(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| (0x21..=0x7e).contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_prefixes_match() {
        assert_eq!(Header::of("mcp-session-id"), Some(Header::McpSessionId));
        assert_eq!(
            Header::of("MCP-Protocol-Version"),
            Some(Header::McpProtocolVersion)
        );
        assert_eq!(Header::of("mcp-param-region"), Some(Header::McpParam));
        assert_eq!(Header::of("X-Forwarded-For"), None);
        assert_eq!(Header::LastEventId.name(), "Last-Event-ID");
    }

    #[test]
    fn media_types_and_accept_lists() {
        assert!(is_media("text/event-stream; charset=utf-8", EVENT_STREAM));
        assert!(!is_media("application/json-seq", JSON));
        assert!(accept_lists(
            "application/json, text/event-stream",
            EVENT_STREAM
        ));
        assert!(!accept_lists("*/*", JSON));
        assert!(accept_wildcard("*/*", JSON));
        assert!(accept_wildcard("text/*;q=0.5", EVENT_STREAM));
    }

    #[test]
    fn mirrored_params_follow_properties_and_drop_invalid_tools() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "options": {"type": "object", "properties": {
                "limit": {"type": "integer", "x-mcp-header": "Limit"}}}}});
        let names: Vec<(String, usize)> = mirrored_params(&schema)
            .iter()
            .map(|p| (p.name.to_string(), p.path.len()))
            .collect();
        assert_eq!(names, [("Limit".into(), 2), ("Region".into(), 1)]);
        let under_items = serde_json::json!({"type": "object", "properties": {
            "ids": {"type": "array", "items": {"type": "string", "x-mcp-header": "Id"}},
            "region": {"type": "string", "x-mcp-header": "Region"}}});
        assert_eq!(mirrored_params(&under_items), []);
        let number =
            serde_json::json!({"properties": {"x": {"type": "number", "x-mcp-header": "X"}}});
        assert_eq!(mirrored_params(&number), []);
        assert!(mirrors("42.0", &serde_json::json!(42)));
        assert!(mirrors("us-west1", &serde_json::json!("us-west1")));
        assert!(
            !mirrors("7", &serde_json::json!("007")) && !mirrors("true", &serde_json::json!(false))
        );
        assert_eq!(mirrored_value(&serde_json::json!(null)), None);
        assert_eq!(
            mirrored_value(&serde_json::json!(true)).as_deref(),
            Some("true")
        );
    }

    #[test]
    fn values_decode_and_session_ids_are_checked() {
        assert_eq!(decoded_value("=?base64?w6lt?=").as_deref(), Some("ém"));
        assert_eq!(
            decoded_value(" get_weather ").as_deref(),
            Some("get_weather")
        );
        assert!(session_id_is_visible_ascii("c0ffee-1"));
        assert!(!session_id_is_visible_ascii("a b"));
        assert!(!session_id_is_visible_ascii(""));
    }
}
