//! `cancel-wrong-direction`: a side cancels a request the other side issued.

use super::{describe_request, Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{CancelTarget, Facts};

pub struct CancelWrongDirection;

pub static META: RuleMeta = RuleMeta {
    id: "cancel-wrong-direction",
    default_severity: Severity::Error,
    summary: "a side cancels a request that the other side issued",
    quote: "Cancellation notifications MUST only reference requests that: Were previously issued in the same direction",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "a side may cancel only its own requests; to refuse a request it received, it answers with an error",
};

impl Rule for CancelWrongDirection {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Cancel(CancelTarget::WrongDirection(request)), Some(from)) =
            (&ctx.facts, ctx.from)
        else {
            return;
        };
        let mut diagnostic = ctx
            .diagnostic(
                &META,
                format!(
                    "{from} cancels request {}, which the {} issued, not the {from}",
                    request.id,
                    from.peer()
                ),
            )
            .with_request_id(request.id)
            .with_related(
                request.location,
                format!("{} was sent here", describe_request(from.peer(), request)),
            );
        diagnostic = diagnostic.lowered_unless_proven(ctx, Severity::Warning);
        out.push(diagnostic);
    }
}
