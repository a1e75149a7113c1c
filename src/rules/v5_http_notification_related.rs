//! `v5-http-notification-related`: 2026-07-28 progress for one request sent on the SSE stream of another.

use crate::diagnostic::Severity;
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-http-notification-related",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a 2026-07-28 server sends progress for a request on the SSE stream of another request: notifications on a request's stream must relate to that request",
    quote: "These notifications MUST relate to the originating client request.",
    spec: Some(STREAMABLE_HTTP),
    help: "send a request's progress only on that request's own SSE response stream",
};

pub static RULE: Rule = Rule::on_events(&META, check);

/// The check of `http-sse-related`, which 2026-07-28 makes a MUST.
fn check(ctx: &Ctx, out: &mut Out) {
    super::http_sse_related::report(&META, ctx, out);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, har, modern_sse_post, sse_progress};

    /// A 2026-07-28 tools/call `id` (its progress token is `id` too) whose stream carries `events`.
    fn call(id: u32, events: &[&str]) -> serde_json::Value {
        let params = json!({"name": "t", "_meta": {"progressToken": id}});
        modern_sse_post(id, "tools/call", params, &[], events)
    }

    #[test]
    fn fires_on_progress_on_another_requests_stream() {
        let trace = har(&[call(1, &[]), call(2, &[&sse_progress(1)])]);
        assert_eq!(
            findings("v5-http-notification-related", &trace),
            [(3, Error)]
        );
    }

    #[test]
    fn silent_on_progress_on_its_own_stream() {
        let trace = har(&[call(1, &[&sse_progress(1)]), call(2, &[&sse_progress(2)])]);
        assert_eq!(findings("v5-http-notification-related", &trace), []);
    }
}
