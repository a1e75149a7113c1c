//! `http-sse-related`: progress for one request, or the cancellation of a
//! server request, sent on the SSE stream of another.

use super::{describe_request, Named, StreamKind};
use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-sse-related",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "the server sends progress for a request, or cancels a request of its own, on the SSE stream of another POST: messages on a request's stream should relate to that request",
    quote: "These messages SHOULD relate to the originating client request.",
    spec: Some(TRANSPORTS),
    help: "send a request's progress on that request's own SSE stream (or on the GET stream), and the cancellation of a request of yours on the stream the request went out on",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    report(&META, ctx, out);
}

/// Progress for a request, or the cancellation of a server request, on
/// another POST's stream, as `meta` grades it: this rule up to 2025-11-25,
/// `v5-http-notification-related` in 2026-07-28 (where a listen stream is
/// `v5-progress-on-request-stream`'s).
pub(super) fn report(meta: &'static RuleMeta, ctx: &Ctx, out: &mut Out) {
    let Some((named, home, StreamKind::OtherPost)) = super::related_elsewhere(ctx) else {
        return;
    };
    let here = ctx.event.stream.as_deref().unwrap_or_default();
    if super::listen_of(ctx, here).is_some() {
        return;
    }
    let what = match named {
        Named::Progress(request) => words!(
            "server sends progress for {} on the stream of another request ({})",
            describe_request(Side::Client, &request),
            here
        ),
        Named::Cancel(request) => words!(
            "server cancels {} on the stream of another request ({})",
            describe_request(Side::Server, &request),
            here
        ),
    };
    out.push(super::named_elsewhere_diagnostic(
        ctx, meta, what, named, home,
    ));
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{
        findings, get_stream, har, initialize_exchange, sse_call, sse_progress, sse_result,
    };

    #[test]
    fn warns_on_progress_on_another_posts_stream() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[]),
            sse_call(2, &[&sse_progress(1), &sse_result(2)]),
        ]);
        assert_eq!(findings("http-sse-related", &trace), [(4, Warning)]);
    }

    #[test]
    fn silent_on_progress_on_its_own_stream_and_on_the_get_stream() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[&sse_progress(1), &sse_result(1)]),
            sse_call(2, &[&sse_result(2)]),
            get_stream(None, &[&sse_progress(2)]),
        ]);
        assert_eq!(findings("http-sse-related", &trace), []);
    }

    use crate::rules::testing::{SSE_SERVER_PING as PING, SSE_SERVER_PING_CANCEL as CANCEL};

    #[test]
    fn warns_on_a_cancellation_on_another_posts_stream() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[PING]),
            sse_call(2, &[CANCEL, &sse_result(2)]),
        ]);
        assert_eq!(findings("http-sse-related", &trace), [(4, Warning)]);
    }

    #[test]
    fn silent_on_a_cancellation_on_its_requests_stream_and_on_a_broadcast() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[PING, CANCEL, &sse_progress(1)]),
            sse_call(2, &[&sse_progress(1), &sse_result(2)]),
        ]);
        // The copy of the progress on the second stream is http-no-broadcast.
        assert_eq!(findings("http-sse-related", &trace), []);
        assert_eq!(findings("http-no-broadcast", &trace).len(), 1);
    }
}
