//! `session-id-required`: an HTTP request without the session id the server assigned.

use crate::diagnostic::Severity;
use crate::event::{Payload, Transport};
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "session-id-required",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "an HTTP request after initialization lacks the Mcp-Session-Id the server assigned, or carries one it never assigned",
    quote: "If an Mcp-Session-Id is returned by the server during initialization, clients using the Streamable HTTP transport MUST include it in the Mcp-Session-Id header on all of their subsequent HTTP requests.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: None,
        modern_quote: None,
    }),
    help: "send the Mcp-Session-Id from the initialize response on every later request of the session (POST, GET and DELETE); start a new session with a new initialize",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Payload::Transport(Transport::Http(http)) = &ctx.event.payload else {
        return;
    };
    // A new initialize starts a session and may come without an id.
    if http.initialize {
        return;
    }
    let Some((latest, assigned_at)) = ctx.assigned_sessions.last() else {
        return;
    };
    let message = match &http.session_header {
        None => words!("the client sends {} without Mcp-Session-Id after the server assigned {}", http.method, crate::words::Arg::quoted(latest.as_str())),
        Some(id) if !ctx.assigned_sessions.iter().any(|(a, _)| a == id) => words!("the client sends {} with Mcp-Session-Id {}, which the server never assigned (it assigned {})", http.method, crate::words::Arg::quoted(id.as_str()), crate::words::Arg::quoted(latest.as_str())),
        Some(_) => return,
    };
    out.push(
        ctx.diagnostic(&META, message)
            .with_label("the request")
            .with_related(*assigned_at, "the server assigned the session id here"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, har};

    fn headers(pairs: &[(&str, &str)]) -> Value {
        pairs
            .iter()
            .map(|(name, value)| json!({"name": name, "value": value}))
            .collect()
    }

    /// An initialize POST; the server answers with `assigned` as session id.
    fn initialize(assigned: &str) -> Value {
        let message = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}"#;
        let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26"}}"#;
        json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "postData": {"text": message}},
            "response": {"status": 200, "headers": headers(&[("Mcp-Session-Id", assigned)]), "content": {"text": result}},
        })
    }

    /// A request of `method` (no body for GET and DELETE) with these headers.
    fn request(method: &str, request_headers: &[(&str, &str)]) -> Value {
        let mut entry = json!({
            "request": {"method": method, "url": "http://localhost/mcp", "headers": headers(request_headers)},
            "response": {"status": 202, "content": {}},
        });
        if method == "POST" {
            let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
            entry["request"]["postData"] = json!({"text": initialized});
        }
        entry
    }

    #[test]
    fn fires_on_a_request_without_the_assigned_id() {
        let trace = har(&[initialize("s1"), request("POST", &[])]);
        assert_eq!(findings("session-id-required", &trace), [(3, Error)]);
    }

    #[test]
    fn fires_on_an_id_the_server_never_assigned() {
        let trace = har(&[
            initialize("s1"),
            request("GET", &[("Mcp-Session-Id", "s2")]),
        ]);
        assert_eq!(findings("session-id-required", &trace), [(3, Error)]);
    }

    #[test]
    fn silent_when_each_request_carries_an_assigned_id_and_on_a_new_initialize() {
        let trace = har(&[
            initialize("s1"),
            request("POST", &[("mcp-session-id", "s1")]),
            initialize("s2"),
            request("DELETE", &[("MCP-SESSION-ID", "s1")]),
            request("POST", &[("Mcp-Session-Id", "s2")]),
        ]);
        assert_eq!(findings("session-id-required", &trace), []);
    }

    #[test]
    fn silent_on_a_2026_07_28_request_which_has_no_session() {
        let modern = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let mut entry = request("POST", &[]);
        entry["request"]["postData"] = json!({ "text": modern });
        let trace = har(&[initialize("s1"), entry]);
        assert_eq!(findings("session-id-required", &trace), []);
    }
}
