//! What to do with a value, by where it sits: the one policy of redaction,
//! shared by every input format. A format only says where its messages,
//! bodies, headers and sentences are (a [`Shape`]); what is kept inside a
//! JSON-RPC message is decided here.

/// What to do with a value, by where it sits.
#[derive(Debug, Clone, Copy)]
pub(super) enum Context {
    /// A JSON-RPC message, or an object of its protocol: members the rules
    /// read are kept, the rest redacted.
    Protocol,
    /// Where a message sits in an input: an object, a batch, or a string
    /// holding either as JSON text (redacted inside and encoded again).
    Message,
    /// The text of an HTTP body: JSON, or an SSE stream whose `data:` lines
    /// are JSON.
    Body,
    /// A sentence a client or bridge logged: kept (the decoders read it),
    /// but for the messages printed in it and the free text after a marker.
    Sentence(&'static super::text::TextLog),
    /// HTTP headers, as `{name: value}` or `[{"name":…,"value":…}]`: the
    /// values of the protocol's headers are kept, every other goes.
    Headers,
    /// A URL: its scheme, host and path stay (the decoders read the path);
    /// a user's credentials and the values of its query go.
    Url,
    /// `_meta`: its keys are checked by a rule; only a few of its values are.
    Meta,
    /// Content a tool, resource, prompt or person wrote: every value goes.
    Free,
    /// Kept exactly.
    Keep,
    /// A label the decoder groups events by (a session, a connection),
    /// which may name a server or an address: a pseudonym of this kind, the
    /// same for the same label within a file. Numbers stay.
    Label(&'static str),
    /// An object of an input format: its members' contexts by name.
    Shape(&'static Shape),
}

/// The members of an object of an input format that are not simply kept.
#[derive(Debug)]
pub(super) struct Shape {
    pub members: &'static [(&'static str, Context)],
    /// What the object counts as for any other member.
    pub others: Context,
}

/// Members of a protocol object kept as written, wherever they appear.
const KEPT: &[&str] = &[
    "jsonrpc",
    "id",
    "method",
    "protocolVersion",
    "version",
    "progressToken",
    "requestId",
    "progress",
    "total",
    "code",
    "mode",
    "type",
    "capabilities",
    // Tasks (2025-11-25): ids, statuses, times and a tool's task support.
    "taskId",
    "status",
    "createdAt",
    "lastUpdatedAt",
    "ttl",
    "pollInterval",
    "taskSupport",
    // 2026-07-28: what a result is, and the opaque state a retry must echo.
    "resultType",
    "requestState",
    // Values the schema allows from a fixed set.
    "level",
    "role",
    "cacheScope",
    "action",
    "status",
    // A tool schema's dialect and required member names (the names its
    // properties keep).
    "$schema",
    "required",
    // 2026-07-28: the header a tool argument is mirrored into (the header's
    // name is kept; v5-http-param-headers pairs them).
    "x-mcp-header",
];

/// Members whose whole value was written by a tool, a resource or a person.
/// (`content`, `contents` and `messages` are protocol objects: the schema
/// reads their `type` and `role`; their text goes like any other member's.)
const FREE: &[&str] = &["arguments", "structuredContent", "data"];

/// `_meta` values the rules read.
const META_KEPT: &[&str] = &[
    "progressToken",
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/related-task",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/subscriptionId",
    "io.modelcontextprotocol/logLevel",
];

/// The headers of the protocol and of HTTP framing, whose values the
/// decoders read; any other (Authorization, Cookie, ...) may hold a secret.
const HEADERS_KEPT: &[&str] = &[
    "mcp-session-id",
    "mcp-protocol-version",
    "content-type",
    "accept",
    "last-event-id",
    // 2026-07-28: the request's method, mirrored (the body keeps it too).
    "mcp-method",
    // 2026-07-28: the SSE response's proxy buffering (v5-x-accel-buffering).
    "x-accel-buffering",
];

pub(super) fn is_kept_header(name: &str) -> bool {
    HEADERS_KEPT
        .iter()
        .any(|kept| kept.eq_ignore_ascii_case(name))
}

/// The context of the member `key` of an object in `context`.
pub(super) fn child(context: Context, key: &str) -> Context {
    match context {
        Context::Shape(shape) => shape
            .members
            .iter()
            .find(|(name, _)| *name == key)
            .map_or_else(|| child(shape.others, key), |(_, context)| *context),
        Context::Protocol | Context::Message | Context::Body => match key {
            _ if KEPT.contains(&key) => Context::Keep,
            "_meta" => Context::Meta,
            _ if FREE.contains(&key) => Context::Free,
            _ => Context::Protocol,
        },
        Context::Meta if META_KEPT.contains(&key) => Context::Keep,
        Context::Meta | Context::Sentence(_) => Context::Free,
        Context::Headers if is_kept_header(key) => Context::Keep,
        Context::Headers => Context::Free,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_members_by_name_and_formats_by_shape() {
        assert!(matches!(child(Context::Protocol, "id"), Context::Keep));
        assert!(matches!(child(Context::Message, "_meta"), Context::Meta));
        assert!(matches!(
            child(Context::Meta, "progressToken"),
            Context::Keep
        ));
        assert!(matches!(child(Context::Meta, "x/y"), Context::Free));
        assert!(matches!(
            child(Context::Protocol, "name"),
            Context::Protocol
        ));
        assert!(matches!(child(Context::Free, "id"), Context::Free));
        // A tool schema's mirrored header name: v5-http-param-headers pairs it
        // with the header, whose name stays.
        assert!(matches!(
            child(Context::Protocol, "x-mcp-header"),
            Context::Keep
        ));
        assert!(matches!(
            child(Context::Headers, "Mcp-Session-Id"),
            Context::Keep
        ));
        assert!(matches!(
            child(Context::Headers, "authorization"),
            Context::Free
        ));
        static SHAPE: Shape = Shape {
            members: &[("msg", Context::Message)],
            others: Context::Keep,
        };
        assert!(matches!(
            child(Context::Shape(&SHAPE), "msg"),
            Context::Message
        ));
        assert!(matches!(child(Context::Shape(&SHAPE), "ts"), Context::Keep));
    }
}
