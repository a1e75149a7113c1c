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
