//! `http-no-broadcast`: one server message sent on two streams.

use super::describe_request;
use crate::diagnostic::{Diagnostic, Severity};
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
    wants: Wants::RESPONSE.and(Wants::REQUEST).and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "the server sends one message (a response, a request, or a progress notification) on two streams (other than a stream and its resumption)",
    quote: "The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams.",
    spec: Some(TRANSPORTS),
    help: "send each message on one stream: a response on its request's stream, anything else on one stream of your choice",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let diagnostic = match &ctx.facts {
        Facts::Response(ResponseTarget::Duplicate(request)) => {
            let Some(first) = super::broadcast_from(ctx, request) else {
                return;
            };
            let what = words!(
                "server sends the response to {} again, on another stream than {}",
                describe_request(Side::Client, request),
                first
            );
            let diagnostic = copy(ctx, what).with_request_id(request.id);
            match request.response {
                Some(response) => {
                    diagnostic.with_related(response, words!("first sent on {}", first))
                }
                None => diagnostic,
            }
        }
        Facts::Request(_) => {
            let Some((earlier, first)) = super::broadcast_request(ctx) else {
                return;
            };
            let what = words!(
                "server sends {} again, on another stream than {}",
                describe_request(Side::Server, &earlier),
                first
            );
            copy(ctx, what)
                .with_request_id(earlier.id)
                .with_related(earlier.location, words!("first sent on {}", first))
        }
        Facts::Progress(_) => {
            let Some((request, first)) = super::broadcast_progress(ctx) else {
                return;
            };
            let what = words!(
                "server sends the same progress for {} again, on another stream than {}",
                describe_request(Side::Client, &request),
                first
            );
            let diagnostic = copy(ctx, what).with_request_id(request.id);
            match (request.last_progress, request.token) {
                (Some((_, at)), Some(token)) => diagnostic
                    .with_progress_token(token)
                    .with_related(at, words!("first sent on {}", first)),
                _ => diagnostic,
            }
        }
        _ => return,
    };
    out.push(diagnostic);
}

fn copy(ctx: &Ctx, what: crate::words::Words) -> Diagnostic {
    ctx.diagnostic(&META, what).with_label("the second copy")
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

    const PING: &str = r#"data: {"jsonrpc":"2.0","id":"s1","method":"ping"}"#;

    #[test]
    fn fires_once_on_a_server_request_on_two_streams() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[PING]),
            get_stream(None, &[PING]),
        ]);
        assert_eq!(findings("http-no-broadcast", &trace), [(4, Error)]);
        assert_eq!(findings("request-id-reused", &trace), []);
    }

    #[test]
    fn fires_once_on_the_same_progress_on_two_streams() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[&sse_progress(1)]),
            get_stream(None, &[&sse_progress(1)]),
        ]);
        assert_eq!(findings("http-no-broadcast", &trace), [(4, Error)]);
        for other in ["progress-not-increasing", "http-get-unrelated"] {
            assert_eq!(findings(other, &trace), [], "{other}");
        }
    }

    #[test]
    fn silent_on_repeated_notifications_and_on_a_stream_and_its_resumption() {
        let log = r#"data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"tick"}}"#;
        let first = format!("id: e1\n{}", sse_progress(1));
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &[&first, PING, log]),
            get_stream(Some("e1"), &[&sse_progress(1), PING]),
            get_stream(None, &[log]),
        ]);
        assert_eq!(findings("http-no-broadcast", &trace), []);
    }
}
