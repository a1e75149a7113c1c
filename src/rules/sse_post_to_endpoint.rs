//! `sse-post-to-endpoint`: a 2024-11-05 client POSTing elsewhere than the endpoint it was given.

use crate::diagnostic::Severity;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "sse-post-to-endpoint",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2024_11_05),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a client of the 2024-11-05 HTTP+SSE transport POSTs a message to another URI than the one the server's endpoint event named",
    quote: "All subsequent client messages MUST be sent as HTTP POST requests to this endpoint.",
    spec: Some(TRANSPORTS),
    help: "POST every message to the URI of the endpoint event, query (the server's session id) included",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::http_exchange(ctx) else {
        return;
    };
    let Some((endpoint, at)) = &ctx.session.http.legacy_endpoint else {
        return;
    };
    let carries_messages = http.requests + http.notifications + http.responses > 0;
    if http.method != "POST" || !carries_messages || same_endpoint(&http.target, endpoint) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the client POSTs to {}, but the server's endpoint event named {}",
                crate::words::Arg::quoted(http.target.as_str()),
                crate::words::Arg::quoted(endpoint.as_str())
            ),
        )
        .with_label("the request")
        .with_related(*at, "the endpoint event"),
    );
}

/// Whether a request target is the endpoint: the same path and the same
/// query parameters. Their values are compared only by name: a redacted
/// capture (`mcp-lint redact`) replaces the session id in URLs, not in the
/// endpoint event's data.
fn same_endpoint(target: &str, endpoint: &str) -> bool {
    let split = |uri: &str| -> (String, Vec<String>) {
        let (path, query) = uri.split_once('?').unwrap_or((uri, ""));
        let mut names: Vec<String> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| p.split('=').next().unwrap_or(p).to_string())
            .collect();
        names.sort();
        (path.to_string(), names)
    };
    split(target) == split(endpoint)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, sse};

    fn stream() -> serde_json::Value {
        let events = sse(&["event: endpoint\ndata: /messages/?session_id=ab12"]);
        entry("GET", &[], None, (200, "text/event-stream", &events))
    }

    fn post(url: &str) -> serde_json::Value {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let mut e = entry("POST", &[], Some(&ping), (202, "text/plain", "Accepted"));
        e["request"]["url"] = json!(url);
        e
    }

    #[test]
    fn fires_on_a_post_to_another_uri() {
        let trace = har(&[
            stream(),
            post("http://localhost/messages/"),
            post("http://localhost/mcp?session_id=ab12"),
        ]);
        assert_eq!(
            findings("sse-post-to-endpoint", &trace),
            [(3, Error), (4, Error)]
        );
    }

    #[test]
    fn silent_on_posts_to_the_endpoint() {
        let trace = har(&[
            stream(),
            post("http://localhost/messages/?session_id=ab12"),
            post("http://localhost/messages/?session_id=redacted"),
        ]);
        assert_eq!(findings("sse-post-to-endpoint", &trace), []);
    }
}
