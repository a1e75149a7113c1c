//! `http-get-unrelated`: progress for a running request sent on the GET stream.

use super::{describe_request, StreamKind};
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
    summary: "the server sends progress for a running request on the GET stream, whose messages should be unrelated to running requests",
    quote: "These messages SHOULD be unrelated to any concurrently-running JSON-RPC request from the client.",
    spec: Some(TRANSPORTS),
    help: "send a request's progress on that request's own SSE stream; keep the GET stream for messages of no request",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, home, StreamKind::FreshGet)) = super::progress_elsewhere(ctx) else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "server sends progress for {} on the GET stream",
                describe_request(Side::Client, &request)
            ),
        )
        .with_label("the progress")
        .with_request_id(request.id)
        .with_related(request.location, words!("the request, on {}", home)),
    );
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
}
