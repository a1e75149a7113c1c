//! `sse-disconnect-as-cancel`: a server treats a dropped SSE stream as a cancellation.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::event::{Body, Outcome};
use crate::protocol::{Era, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "sse-disconnect-as-cancel",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::from(Version::V2025_03_26),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "up to 2025-11-25, a server answers a request whose SSE stream dropped with a cancellation error although it was never cancelled; in 2026-07-28, a server still answers a request whose stream closed (that was its cancellation)",
    quote: "Disconnection SHOULD NOT be interpreted as the client cancelling its request.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/streamable-http"),
        modern_quote: Some("Servers SHOULD stop work on a cancelled request as soon as practical and MUST NOT send any further messages for it."),
    }),
    help: "up to 2025-11-25 keep working on a request whose stream dropped (the client may resume with Last-Event-ID) and cancel only on notifications/cancelled; in 2026-07-28 stop when the stream closes and send nothing more for that request",
};

/// The JSON-RPC error code SDKs use for "Request cancelled".
const REQUEST_CANCELLED: i64 = -32800;

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (
        Facts::Response(ResponseTarget::Pending(request)),
        Some(from),
        Some(Body::Response { outcome, .. }),
    ) = (&ctx.facts, ctx.from, ctx.message.map(|m| &m.body))
    else {
        return;
    };
    let Some(aborted) = request.stream.and_then(|s| ctx.session.http.aborted.get(s)) else {
        return;
    };
    let request_name = describe_request(from.peer(), request);
    let message = if ctx.version.map(Version::era) == Some(Era::Stateless) {
        words!(
            "{} answers {} after its stream closed, which cancelled it",
            from,
            request_name
        )
    } else if matches!(
        outcome,
        Outcome::Error {
            code: Some(REQUEST_CANCELLED)
        }
    ) {
        words!("{} answers {} with a cancellation error, but the client only dropped the stream and never sent notifications/cancelled", from, request_name)
    } else {
        return;
    };
    out.push(
        ctx.diagnostic(&META, message)
            .with_label("the answer")
            .with_request_id(request.id)
            .with_related(request.location, "the request")
            .with_related(*aborted, "its stream ended here"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, har};

    /// A tools/call (id 2) POST whose SSE stream the client dropped.
    fn dropped_call(params: Value) -> Value {
        let request = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params});
        json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "postData": {"text": request.to_string()}},
            "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": ""}},
            "_error": "net::ERR_ABORTED",
        })
    }

    /// A GET resuming the stream, on which the server sends `answer`.
    fn resumed(answer: Value) -> Value {
        json!({
            "request": {"method": "GET", "url": "http://localhost/mcp", "headers": [{"name": "Last-Event-ID", "value": "1"}]},
            "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": format!("data: {answer}\n\n")}},
        })
    }

    fn cancelled_error() -> Value {
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32800, "message": "Request cancelled"}})
    }

    #[test]
    fn fires_on_a_cancellation_error_after_the_stream_dropped() {
        let trace = har(&[dropped_call(json!({})), resumed(cancelled_error())]);
        assert_eq!(findings("sse-disconnect-as-cancel", &trace), [(3, Warning)]);
    }

    #[test]
    fn silent_on_a_result_after_the_stream_dropped() {
        let result = json!({"jsonrpc": "2.0", "id": 2, "result": {}});
        let trace = har(&[dropped_call(json!({})), resumed(result)]);
        assert_eq!(findings("sse-disconnect-as-cancel", &trace), []);
    }

    #[test]
    fn silent_when_the_client_did_send_a_cancellation() {
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}});
        let post_cancel = json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "postData": {"text": cancel.to_string()}},
            "response": {"status": 202},
        });
        let trace = har(&[
            dropped_call(json!({})),
            post_cancel,
            resumed(cancelled_error()),
        ]);
        assert_eq!(findings("sse-disconnect-as-cancel", &trace), []);
    }

    #[test]
    fn fires_on_any_answer_in_2026_07_28() {
        // There, closing the stream is the cancellation.
        let modern = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}});
        let result = json!({"jsonrpc": "2.0", "id": 2, "result": {}});
        let trace = har(&[dropped_call(modern), resumed(result)]);
        assert_eq!(findings("sse-disconnect-as-cancel", &trace), [(3, Warning)]);
    }
}
