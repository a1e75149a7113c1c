//! `response-after-cancel`: a response to a request its sender had cancelled.

use super::progress_after_terminal::{CANCEL_REACHED, MAY_HAVE_CROSSED};
use super::{describe_request, Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{Facts, ResponseTarget};

pub struct ResponseAfterCancel;

pub static META: RuleMeta = RuleMeta {
    id: "response-after-cancel",
    default_severity: Severity::Warning,
    summary: "the receiver answers a request after the cancellation reached it (info when the response may have crossed the cancellation)",
    quote: "Receivers of cancellation notifications SHOULD: Stop processing the cancelled request; Free associated resources; Not send a response for the cancelled request",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "once a cancellation is read, stop the work and send no response; the requester ignores it anyway",
};

impl Rule for ResponseAfterCancel {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Response(ResponseTarget::AfterCancel(request)), Some(from)) =
            (&ctx.facts, ctx.from)
        else {
            return;
        };
        let Some(cancel) = request.cancel else {
            return;
        };
        let reached = ctx.session.cancel_reached(from, cancel);
        out.push(
            ctx.diagnostic(
                &META,
                format!(
                    "{from} answers {} after the {} cancelled it",
                    describe_request(from.peer(), request),
                    from.peer()
                ),
            )
            .with_severity(if reached {
                Severity::Warning
            } else {
                Severity::Info
            })
            .with_note(if reached {
                CANCEL_REACHED
            } else {
                MAY_HAVE_CROSSED
            })
            .with_label("response after the cancellation")
            .with_request_id(request.id)
            .with_related(request.location, "the request")
            .with_related(cancel.location, "cancelled here"),
        );
    }
}
