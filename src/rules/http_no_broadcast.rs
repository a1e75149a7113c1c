//! `http-no-broadcast`: one server response sent on two streams.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::event::Side;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-no-broadcast",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "the server sends the response to a request on two streams (other than a stream and its resumption)",
    quote: "The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams.",
    spec: Some(TRANSPORTS),
    help: "send each message on one stream: a response on its request's stream, anything else on one stream of your choice",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Facts::Response(ResponseTarget::Duplicate(request)) = &ctx.facts else {
        return;
    };
    let Some(first) = super::broadcast_from(ctx, request) else {
        return;
    };
    let mut diagnostic = ctx
        .diagnostic(
            &META,
            words!(
                "server sends the response to {} again, on another stream than {}",
                describe_request(Side::Client, request),
                first
            ),
        )
        .with_label("the second copy")
        .with_request_id(request.id);
    if let Some(response) = request.response {
        diagnostic = diagnostic.with_related(response, words!("first sent on {}", first));
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{
        findings, get_stream, har, initialize_exchange, sse_call, sse_progress, sse_result,
    };

    #[test]
    fn fires_on_a_response_on_two_streams() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[&sse_result(1)]),
            get_stream(None, &[&sse_result(1)]),
        ]);
        assert_eq!(findings("http-no-broadcast", &trace), [(4, Error)]);
        assert_eq!(
            crate::rules::testing::findings("duplicate-response", &trace),
            []
        );
    }

    #[test]
    fn silent_on_a_second_response_on_the_same_stream() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[&sse_result(1), &sse_result(1), &sse_progress(9)]),
        ]);
        assert_eq!(findings("http-no-broadcast", &trace), []);
        assert_eq!(
            crate::rules::testing::findings("duplicate-response", &trace).len(),
            1
        );
    }
}
