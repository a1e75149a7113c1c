//! `http-post-accept`: a POST whose Accept header does not list both JSON and SSE.

use crate::diagnostic::Severity;
use crate::protocol::headers::{EVENT_STREAM, JSON};
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-post-accept",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::from(Version::V2025_03_26),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a POST carrying JSON-RPC lacks an Accept header listing both application/json and text/event-stream (a wildcard alone: warning)",
    quote: "The client MUST include an Accept header, listing both application/json and text/event-stream as supported content types.",
    spec: Some(STREAMABLE_HTTP),
    help: "send Accept: application/json, text/event-stream on every POST to the MCP endpoint",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let carries_messages = http.requests + http.notifications + http.responses > 0;
    if http.method != "POST" || !carries_messages {
        return;
    }
    out.extend(super::accept_diagnostic(
        ctx,
        &META,
        http,
        &[JSON, EVENT_STREAM],
    ));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::{entry, findings, har, sse};

    fn post(accept: Option<&str>) -> serde_json::Value {
        let headers: Vec<(&str, &str)> = accept.map(|a| ("Accept", a)).into_iter().collect();
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let pong = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        entry(
            "POST",
            &headers,
            Some(&ping),
            (200, "application/json", pong),
        )
    }

    #[test]
    fn fires_without_accept_or_with_one_type_and_warns_on_a_wildcard() {
        let trace = har(&[
            post(None),
            post(Some("application/json")),
            post(Some("*/*")),
        ]);
        assert_eq!(
            findings("http-post-accept", &trace),
            [(2, Error), (3, Error), (4, Warning)]
        );
    }

    #[test]
    fn silent_when_both_types_are_listed_and_on_a_get() {
        let both = post(Some("application/json, text/event-stream;q=0.9"));
        let get = entry("GET", &[], None, (405, "text/plain", ""));
        assert_eq!(findings("http-post-accept", &har(&[both, get])), []);
    }

    #[test]
    fn silent_on_a_later_revision_over_the_2024_11_05_transport() {
        let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}"#;
        let events = [
            "event: endpoint\ndata: /messages/?session_id=1".to_string(),
            format!("event: message\ndata: {result}"),
        ];
        let events: Vec<&str> = events.iter().map(String::as_str).collect();
        let stream = entry("GET", &[], None, (200, "text/event-stream", &sse(&events)));
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}});
        let accepted = (202, "text/plain", "Accepted");
        let init = entry("POST", &[("Accept", "*/*")], Some(&initialize), accepted);
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let trace = har(&[stream, init, entry("POST", &[], Some(&ping), accepted)]);
        assert_eq!(findings("http-post-accept", &trace), []);
    }
}
