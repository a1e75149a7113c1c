//! `v5-progress-on-request-stream`: 2026-07-28 progress on a listen stream (or a GET stream), not on its request's stream.

use super::{describe_request, StreamKind};
use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-progress-on-request-stream",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a 2026-07-28 server sends progress for a request on a subscriptions/listen stream (or a GET stream) instead of that request's own response stream",
    quote: "Request-scoped notifications like `notifications/progress` and `notifications/message` are **not** delivered on the listen stream",
    spec: Some(STREAMABLE_HTTP),
    help: "send a request's progress on that request's own SSE response stream; a listen stream carries only the change notifications the client opted in to",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((super::Named::Progress(request), home, how)) = super::related_elsewhere(ctx) else {
        return;
    };
    let here = ctx.event.stream.as_deref().unwrap_or_default();
    // Another request's POST stream is v5-http-notification-related's.
    let words = match (how, super::listen_of(ctx, here)) {
        (StreamKind::OtherPost, None) => return,
        (StreamKind::OtherPost, Some(listen)) => words!(
            "server sends progress for {} on the stream of subscription {}",
            describe_request(Side::Client, &request),
            listen
        ),
        (StreamKind::FreshGet | StreamKind::ResumedOther, _) => words!(
            "server sends progress for {} on a GET stream",
            describe_request(Side::Client, &request)
        ),
    };
    out.push(
        ctx.diagnostic(&META, words)
            .with_label("the progress")
            .with_request_id(request.id)
            .with_related(request.location, words!("the request, on {}", home)),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, har, modern_sse_post, sse_progress, sse_result};

    /// A 2026-07-28 tools/call 1 (progress token 1) whose stream carries `events`.
    fn call(events: &[&str]) -> serde_json::Value {
        let params = json!({"name": "t", "_meta": {"progressToken": 1}});
        modern_sse_post(1, "tools/call", params, &[], events)
    }

    /// A listen stream (request 7) that carries its acknowledgement and `events`.
    fn listen(events: &[&str]) -> serde_json::Value {
        let ack = r#"data: {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}"#;
        let events: Vec<&str> = [ack].into_iter().chain(events.iter().copied()).collect();
        let filter = json!({"notifications": {"toolsListChanged": true}});
        modern_sse_post(7, "subscriptions/listen", filter, &[], &events)
    }

    #[test]
    fn fires_on_progress_on_a_listen_stream() {
        let trace = har(&[call(&[]), listen(&[&sse_progress(1)])]);
        assert_eq!(
            findings("v5-progress-on-request-stream", &trace),
            [(3, Error)]
        );
        // The same progress is not v5-http-notification-related's too.
        assert_eq!(findings("v5-http-notification-related", &trace), []);
    }

    #[test]
    fn silent_on_progress_on_its_own_stream_beside_a_listen_stream() {
        let trace = har(&[listen(&[]), call(&[&sse_progress(1), &sse_result(1)])]);
        assert_eq!(findings("v5-progress-on-request-stream", &trace), []);
    }
}
