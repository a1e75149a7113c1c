//! `http-resume-same-stream`: a resumed stream replaying messages of another stream.

use super::describe_request;
use super::StreamKind;
use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-resume-same-stream",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a stream resumed with Last-Event-ID carries the response to a request of another stream than the one it resumes",
    quote: "The server MUST NOT replay messages that would have been delivered on a different stream.",
    spec: Some(TRANSPORTS),
    help: "replay after Last-Event-ID only the events of the stream that event id belongs to",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, home, StreamKind::ResumedOther)) = super::misrouted_response(ctx) else {
        return;
    };
    let here = ctx.event.stream.as_deref().unwrap_or_default();
    let resumed = ctx.session.http.origin(here);
    let request_name = describe_request(Side::Client, &request);
    out.push(
        ctx.diagnostic(
            &META,
            words!("server replays the response to {} on a resumption of {}, but the request's stream is {}", request_name, resumed, home),
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
    fn fires_on_a_response_of_another_stream_replayed() {
        let trace = har(&[
            initialize_exchange(),
            sse_call(1, &["id: a1\ndata:"]),
            sse_call(2, &["id: b1\ndata:"]),
            get_stream(Some("a1"), &[&sse_result(2)]),
        ]);
        assert_eq!(findings("http-resume-same-stream", &trace), [(5, Error)]);
    }

    #[test]
    fn silent_on_the_resumed_streams_own_response_and_an_unknown_event_id() {
        let own = har(&[
            initialize_exchange(),
            sse_call(1, &["id: a1\ndata:"]),
            get_stream(Some("a1"), &[&sse_result(1)]),
        ]);
        assert_eq!(findings("http-resume-same-stream", &own), []);
        let unknown = har(&[
            initialize_exchange(),
            sse_call(1, &[]),
            get_stream(Some("zz"), &[&sse_result(1)]),
        ]);
        assert_eq!(findings("http-resume-same-stream", &unknown), []);
    }
}
