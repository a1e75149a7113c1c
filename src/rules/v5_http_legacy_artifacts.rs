//! `v5-http-legacy-artifacts`: a 2026-07-28 exchange where the server mints or echoes `Mcp-Session-Id`, or answers a GET with an SSE stream.

use crate::diagnostic::Severity;
use crate::protocol::headers::{is_media, Header, EVENT_STREAM};
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-http-legacy-artifacts",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "in a 2026-07-28 exchange the server mints or echoes an Mcp-Session-Id header, or answers a GET with an SSE stream instead of 405",
    quote: "An `Mcp-Session-Id` header on a request: ignore it, and do not mint or echo session IDs.",
    spec: Some(STREAMABLE_HTTP),
    help: "2026-07-28 has no sessions and no GET streams: send no Mcp-Session-Id header, and answer GET (or DELETE) to the MCP endpoint with 405 Method Not Allowed",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let words = if let Some(session) = http.response_header(Header::McpSessionId) {
        words!(
            "the server sends Mcp-Session-Id {} in a 2026-07-28 exchange, which has no sessions",
            crate::words::Arg::quoted(session)
        )
    } else if http.method == "GET" && http.succeeded() && answers_with_stream(http) {
        words!(
            "the server answers the GET with {} and an SSE stream instead of 405 Method Not Allowed",
            http.status.unwrap_or_default()
        )
    } else {
        return;
    };
    out.push(ctx.diagnostic(&META, words).with_label("the response"));
}

fn answers_with_stream(http: &crate::event::HttpExchange) -> bool {
    let content_type = http.response_content_type.as_deref();
    content_type.is_some_and(|t| is_media(t, EVENT_STREAM))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{entry, findings, har, sse};

    const V5: (&str, &str) = ("MCP-Protocol-Version", "2026-07-28");

    /// A 2026-07-28 `tools/list` POST answered with `response_headers`.
    fn post(response_headers: serde_json::Value) -> serde_json::Value {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
        let request =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}});
        let body = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        let mut e = entry(
            "POST",
            &[V5],
            Some(&request),
            (200, "application/json", body),
        );
        e["response"]["headers"] = response_headers;
        e
    }

    #[test]
    fn warns_on_a_session_id_and_on_a_get_stream() {
        let minted = post(json!([{"name": "Mcp-Session-Id", "value": "s1"}]));
        let stream = entry(
            "GET",
            &[V5],
            None,
            (200, "text/event-stream", &sse(&[": open"])),
        );
        let trace = har(&[minted, stream]);
        assert_eq!(
            findings("v5-http-legacy-artifacts", &trace),
            [(2, Warning), (3, Warning)]
        );
    }

    #[test]
    fn silent_without_session_id_on_405_and_before_2026_07_28() {
        let plain = post(json!([{"name": "Content-Type", "value": "application/json"}]));
        let refused = entry(
            "GET",
            &[V5],
            None,
            (405, "text/plain", "Method Not Allowed"),
        );
        let old_stream = entry(
            "GET",
            &[("MCP-Protocol-Version", "2025-11-25")],
            None,
            (200, "text/event-stream", &sse(&[": open"])),
        );
        let trace = har(&[plain, refused, old_stream]);
        assert_eq!(findings("v5-http-legacy-artifacts", &trace), []);
    }
}
