//! `cancel-after-response`: a cancellation of a request already answered (a legal race).

use super::{describe_request, Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{CancelTarget, Facts};

pub struct CancelAfterResponse;

pub static META: RuleMeta = RuleMeta {
    id: "cancel-after-response",
    default_severity: Severity::Info,
    summary: "a cancellation of a request whose response was already sent: a legal race",
    quote: "Due to network latency, cancellation notifications may arrive after request processing has completed, and potentially after a response has already been sent.",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "nothing to fix if the response and the cancellation crossed; the receiver ignores the cancellation",
};

impl Rule for CancelAfterResponse {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Cancel(CancelTarget::AfterResponse(request)), Some(from)) =
            (&ctx.facts, ctx.from)
        else {
            return;
        };
        let mut diagnostic = ctx
            .diagnostic(
                &META,
                format!(
                    "{from} cancels request {} after the {} answered it",
                    request.id,
                    from.peer()
                ),
            )
            .with_request_id(request.id)
            .with_related(
                request.location,
                format!("{} was sent here", describe_request(from, request)),
            );
        if let Some(response) = request.response {
            diagnostic = diagnostic.with_related(response, "answered here");
        }
        out.push(diagnostic);
    }
}
