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

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{
        findings, get_stream, har, initialize_exchange, sse_call, sse_result,
    };

    #[test]
    fn fires_on_a_response_on_the_get_stream() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[]),
            get_stream(None, &[&sse_result(1)]),
        ]);
        assert_eq!(findings("http-get-no-responses", &trace), [(4, Error)]);
    }

    #[test]
    fn silent_on_the_request_stream_and_on_a_resumption() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &["id: a1\ndata:", &sse_result(1)]),
            sse_call(2, &["id: b1\ndata:"]),
            get_stream(Some("b1"), &[&sse_result(2)]),
        ]);
        assert_eq!(findings("http-get-no-responses", &trace), []);
    }
}
