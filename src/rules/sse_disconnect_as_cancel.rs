//! `sse-disconnect-as-cancel`: a server treats a dropped SSE stream as a cancellation.

use super::{describe_request, Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{Era, Facts, ResponseTarget};
use crate::event::{Body, Outcome};

pub struct SseDisconnectAsCancel;

pub static META: RuleMeta = RuleMeta {
    id: "sse-disconnect-as-cancel",
    default_severity: Severity::Warning,
    summary: "up to 2025-11-25, a server answers a request whose SSE stream dropped with a cancellation error although it was never cancelled; in 2026-07-28, a server still answers a request whose stream closed (that was its cancellation)",
    quote: "Disconnection SHOULD NOT be interpreted as the client cancelling its request.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/streamable-http"),
        modern_quote: Some("Servers SHOULD stop work on a cancelled request as soon as practical and MUST NOT send any further messages for it."),
    }),
    help: "up to 2025-11-25 keep working on a request whose stream dropped (the client may resume with Last-Event-ID) and cancel only on notifications/cancelled; in 2026-07-28 stop when the stream closes and send nothing more for that request",
};

/// The JSON-RPC error code SDKs use for "Request cancelled".
const REQUEST_CANCELLED: i64 = -32800;

impl Rule for SseDisconnectAsCancel {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (
            Facts::Response(ResponseTarget::Pending(request)),
            Some(from),
            Some(Body::Response { outcome, .. }),
        ) = (&ctx.facts, ctx.from, ctx.message.map(|m| &m.body))
        else {
            return;
        };
        let Some(aborted) = request
            .stream
            .and_then(|s| ctx.session.aborted_streams.get(s))
        else {
            return;
        };
        let request_name = describe_request(from.peer(), request);
        let message = if ctx.session.era == Era::Modern {
            format!("{from} answers {request_name} after its stream closed, which cancelled it")
        } else if matches!(
            outcome,
            Outcome::Error {
                code: Some(REQUEST_CANCELLED)
            }
        ) {
            format!("{from} answers {request_name} with a cancellation error, but the client only dropped the stream and never sent notifications/cancelled")
        } else {
            return;
        };
        out.push(
            ctx.diagnostic(&META, message)
                .with_label("the answer")
                .with_request_id(request.id)
                .with_related(request.location, "the request")
                .with_related(*aborted, "its stream ended here"),
        );
    }
}
