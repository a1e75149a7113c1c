//! `http-response-stream`: a response on the GET stream or on another request's stream.

use super::{describe_request, Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{Facts, ResponseTarget};

pub struct HttpResponseStream;

pub static META: RuleMeta = RuleMeta {
    id: "http-response-stream",
    default_severity: Severity::Error,
    summary: "a response travels on the GET stream (error) or on the stream of another request (warning), not on its request's own stream",
    quote: "The server MUST NOT send a JSON-RPC response on the stream unless resuming a stream associated with a previous client request.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/streamable-http"),
        modern_quote: None,
    }),
    help: "send the response to a POSTed request on that POST's own response (its SSE stream or JSON body)",
};

impl Rule for HttpResponseStream {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (
            Facts::Response(
                ResponseTarget::Pending(request) | ResponseTarget::AfterCancel(request),
            ),
            Some(from),
        ) = (&ctx.facts, ctx.from)
        else {
            return;
        };
        // A client answers the server in a POST of its own; only the server's
        // responses are tied to the stream of the request.
        if from != crate::event::Side::Server {
            return;
        }
        let (Some(here), Some(home)) = (ctx.event.stream.as_deref(), request.stream) else {
            return;
        };
        if here == home {
            return;
        }
        let Some(stream) = ctx.session.streams.get(here) else {
            return;
        };
        let on_get = stream.method == "GET";
        // A resumed stream may replay responses; the 2024-11-05 HTTP+SSE
        // transport sends every server message on its one stream.
        if on_get && stream.resumes
            || stream.legacy_sse
            || ctx.session.version.as_deref() == Some("2024-11-05")
        {
            return;
        }
        let request_name = describe_request(from.peer(), request);
        let diagnostic = if on_get {
            ctx.diagnostic(
                &META,
                format!("{from} sends the response to {request_name} on the GET stream"),
            )
        } else {
            ctx.diagnostic(
                &META,
                format!("{from} sends the response to {request_name} on the stream of another request ({here})"),
            )
            // The spec only says the request's own stream SHOULD carry it.
            .with_severity(Severity::Warning)
            .with_note("the request's own SSE stream should carry its response; the spec does not forbid another POST stream outright")
        };
        out.push(
            diagnostic
                .with_label("the response")
                .with_request_id(request.id)
                .with_related(request.location, format!("the request, on {home}")),
        );
    }
}
