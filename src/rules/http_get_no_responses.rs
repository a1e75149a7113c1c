//! `http-get-no-responses`: a response on the GET stream, which carries none unless resuming.

use super::{describe_request, StreamKind};
use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-get-no-responses",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "the server sends the response to a POSTed request on the GET stream (one opened without Last-Event-ID)",
    quote: "The server MUST NOT send a JSON-RPC response on the stream unless resuming a stream associated with a previous client request.",
    spec: Some(TRANSPORTS),
    help: "send the response to a POSTed request on that POST's own response (its SSE stream or JSON body); the GET stream is for requests and notifications",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, home, StreamKind::FreshGet)) = super::misrouted_response(ctx) else {
        return;
    };
    let request_name = describe_request(Side::Client, &request);
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "server sends the response to {} on the GET stream",
                request_name
            ),
        )
        .with_label("the response")
        .with_request_id(request.id)
        .with_related(request.location, words!("the request, on {}", home)),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, initialize_exchange, sse};

    /// A tools/call POST (id `id`) whose SSE stream carries `events` (field lines).
    fn call(id: u32, events: &[&str]) -> serde_json::Value {
        let request =
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "t"}});
        entry(
            "POST",
            &[],
            Some(&request),
            (200, "text/event-stream", &sse(events)),
        )
    }

    /// A GET stream, resuming after `last` if given, that carries `events`.
    fn get(last: Option<&str>, events: &[&str]) -> serde_json::Value {
        let headers: Vec<(&str, &str)> = last.map(|l| ("Last-Event-ID", l)).into_iter().collect();
        entry(
            "GET",
            &headers,
            None,
            (200, "text/event-stream", &sse(events)),
        )
    }

    fn result(id: u32) -> String {
        format!("data: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}")
    }

    #[test]
    fn fires_on_a_response_on_the_get_stream() {
        let trace = har(&[
            initialize_exchange(),
            call(1, &[]),
            get(None, &[&result(1)]),
        ]);
        assert_eq!(findings("http-get-no-responses", &trace), [(4, Error)]);
    }

    #[test]
    fn silent_on_the_request_stream_and_on_a_resumption() {
        let trace = har(&[
            initialize_exchange(),
            call(1, &["id: a1\ndata:", &result(1)]),
            call(2, &["id: b1\ndata:"]),
            get(Some("b1"), &[&result(2)]),
        ]);
        assert_eq!(findings("http-get-no-responses", &trace), []);
    }
}
