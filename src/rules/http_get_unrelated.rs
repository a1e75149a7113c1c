//! `http-get-unrelated`: progress for a running request, or the cancellation
//! of a server request sent on a running request's stream, sent on the GET stream.

use super::{describe_request, Named, StreamKind};
use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-get-unrelated",
    family: Family::Http,
    default_severity: Severity::Info,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "the server sends progress for a running request, or cancels a request it sent on a running request's stream, on the GET stream, whose messages should be unrelated to running requests",
    quote: "These messages SHOULD be unrelated to any concurrently-running JSON-RPC request from the client.",
    spec: Some(TRANSPORTS),
    help: "send a request's progress, and the cancellation of a request sent on its stream, on that request's own SSE stream; keep the GET stream for messages of no request",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((named, home, StreamKind::FreshGet)) = super::related_elsewhere(ctx) else {
        return;
    };
    let what = match named {
        Named::Progress(request) => words!(
                "server sends progress for {} on the GET stream",
                describe_request(Side::Client, &request)
            ),
        // A request the server sent on the GET stream relates to no client request.
        Named::Cancel(_) if !running_request_stream(ctx, home) => return,
        Named::Cancel(request) => words!(
                "server cancels {} on the GET stream; the request went out on the stream of a running request",
                describe_request(Side::Server, &request)
            ),
    };
    out.push(super::named_elsewhere_diagnostic(
        ctx, &META, what, named, home,
    ));
}

/// Whether `stream` is a POST's stream whose requests are not all answered.
fn running_request_stream(ctx: &Ctx, stream: &str) -> bool {
    let http = &ctx.session.http;
    let info = http.streams.get(http.origin(stream));
    info.is_some_and(|info| info.method != "GET" && !info.unanswered.is_empty())
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{
        findings, get_stream, har, initialize_exchange, sse_call, sse_progress, sse_result,
    };

    #[test]
    fn info_on_progress_on_the_get_stream() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[]),
            get_stream(None, &[&sse_progress(1)]),
        ]);
        assert_eq!(findings("http-get-unrelated", &trace), [(4, Info)]);
    }

    #[test]
    fn silent_on_progress_on_the_requests_stream() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[&sse_progress(1), &sse_result(1)]),
            get_stream(None, &[]),
        ]);
        assert_eq!(findings("http-get-unrelated", &trace), []);
    }

    use crate::rules::testing::{SSE_SERVER_PING as PING, SSE_SERVER_PING_CANCEL as CANCEL};

    #[test]
    fn info_on_the_get_stream_cancelling_a_request_of_a_running_requests_stream() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[PING]),
            get_stream(None, &[CANCEL]),
        ]);
        assert_eq!(findings("http-get-unrelated", &trace), [(4, Info)]);
    }

    #[test]
    fn silent_on_cancelling_a_request_sent_on_a_get_stream_or_an_answered_requests_stream() {
        let on_get = har(&[
            initialize_exchange(),
            get_stream(None, &[PING]),
            get_stream(None, &[CANCEL]),
        ]);
        let after_answer = har(&[
            initialize_exchange(),
            sse_call(1, &[PING, &sse_result(1)]),
            get_stream(None, &[CANCEL]),
        ]);
        assert_eq!(findings("http-get-unrelated", &on_get), []);
        assert_eq!(findings("http-get-unrelated", &after_answer), []);
    }
}
