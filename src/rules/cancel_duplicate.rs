//! `cancel-duplicate`: the same request cancelled twice.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{CancelTarget, Facts};

pub struct CancelDuplicate;

pub static META: RuleMeta = RuleMeta {
    id: "cancel-duplicate",
    default_severity: Severity::Info,
    summary: "the same request is cancelled twice",
    quote: "Invalid cancellation notifications SHOULD be ignored: Unknown request IDs; Already completed requests; Malformed notifications",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "send one cancellation per request; make the cancel path idempotent (for example, a timeout racing a user's cancel)",
};

impl Rule for CancelDuplicate {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Cancel(CancelTarget::AlreadyCancelled(request)), Some(from)) =
            (&ctx.facts, ctx.from)
        else {
            return;
        };
        let mut diagnostic = ctx
            .diagnostic(
                &META,
                format!("{from} cancels request {} a second time", request.id),
            )
            .with_request_id(request.id);
        if let Some(first) = request.cancel.map(|c| c.location) {
            diagnostic = diagnostic.with_related(first, "first cancelled here");
        }
        out.push(diagnostic);
    }
}
