//! `http-response-stream`: a response on the stream of another POST.

use super::{describe_request, StreamKind};
use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-response-stream",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "the server sends the response to a POSTed request on the SSE stream of another POST, not on its request's own",
    quote: "The SSE stream SHOULD eventually include JSON-RPC response for the JSON-RPC request sent in the POST body.",
    spec: Some(TRANSPORTS),
    help: "send the response to a POSTed request on that POST's own response (its SSE stream or JSON body)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, home, StreamKind::OtherPost)) = super::misrouted_response(ctx) else {
        return;
    };
    let here = ctx.event.stream.as_deref().unwrap_or_default();
    let request_name = describe_request(Side::Client, &request);
    out.push(
        ctx.diagnostic(
            &META,
            words!("server sends the response to {} on the stream of another request ({})", request_name, here),
        )
        .with_note("the request's own SSE stream should carry its response; the spec does not forbid another POST stream outright")
        .with_label("the response")
        .with_request_id(request.id)
        .with_related(request.location, words!("the request, on {}", home)),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, har, initialize_exchange};

    /// An exchange whose response is an SSE stream of `events`.
    fn exchange(method: &str, headers: Value, body: Option<Value>, events: &[Value]) -> Value {
        let stream: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
        let mut entry = json!({
            "request": {"method": method, "url": "http://localhost/mcp", "headers": headers},
            "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": stream}},
        });
        if let Some(body) = body {
            entry["request"]["postData"] = json!({"text": body.to_string()});
        }
        entry
    }

    fn call(id: u32, events: &[Value]) -> Value {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call"});
        exchange("POST", json!([]), Some(request), events)
    }

    fn get_stream(resumes: bool, events: &[Value]) -> Value {
        let headers = if resumes {
            json!([{"name": "Last-Event-ID", "value": "1"}])
        } else {
            json!([])
        };
        exchange("GET", headers, None, events)
    }

    fn result(id: u32) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "result": {}})
    }

    #[test]
    fn silent_when_two_running_requests_share_the_id() {
        // The second starts while the first runs; the first's stream
        // carries an answer, but either answer may be either request's.
        let mut first = call(1, &[result(1)]);
        first["startedDateTime"] = json!("2026-01-01T00:00:00.000Z");
        first["time"] = json!(50);
        first["timings"] = json!({"send": 1, "wait": 40, "receive": 9});
        let mut second = call(1, &[result(1)]);
        second["startedDateTime"] = json!("2026-01-01T00:00:00.010Z");
        second["time"] = json!(50);
        second["timings"] = json!({"send": 1, "wait": 40, "receive": 9});
        let trace = har(&[initialize_exchange(), first, second]);
        assert_eq!(findings("http-response-stream", &trace), []);
    }

    #[test]
    fn warning_when_the_response_comes_on_another_posts_stream() {
        let trace = har(&[
            initialize_exchange(),
            call(1, &[]),
            call(2, &[result(1), result(2)]),
        ]);
        assert_eq!(findings("http-response-stream", &trace), [(4, Warning)]);
    }

    #[test]
    fn silent_on_its_own_stream_and_on_a_resumed_get_stream() {
        let trace = har(&[
            initialize_exchange(),
            call(1, &[result(1)]),
            call(2, &[]),
            get_stream(true, &[result(2)]),
        ]);
        assert_eq!(findings("http-response-stream", &trace), []);
    }

    #[test]
    fn silent_on_a_client_response_in_a_post_of_its_own() {
        let roots = json!({"jsonrpc": "2.0", "id": 5, "method": "roots/list"});
        let answer = json!({"jsonrpc": "2.0", "id": 5, "result": {"roots": []}});
        let mut post = exchange("POST", json!([]), Some(answer), &[]);
        post["response"] = json!({"status": 202});
        let trace = har(&[initialize_exchange(), get_stream(false, &[roots]), post]);
        assert_eq!(findings("http-response-stream", &trace), []);
    }
}
