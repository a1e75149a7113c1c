//! `cancel-malformed`: a cancellation without a valid requestId.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{CancelTarget, Facts};

pub struct CancelMalformed;

pub static META: RuleMeta = RuleMeta {
    id: "cancel-malformed",
    default_severity: Severity::Warning,
    summary: "notifications/cancelled without a valid requestId (missing, null, fractional, object, ...)",
    quote: "Invalid cancellation notifications SHOULD be ignored: Unknown request IDs; Already completed requests; Malformed notifications",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "send params.requestId with the string or integer id of the request to cancel, and an optional string reason",
};

impl Rule for CancelMalformed {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        if let Facts::Cancel(CancelTarget::Malformed(why)) = &ctx.facts {
            out.push(ctx.diagnostic(
                &META,
                format!("malformed cancellation: {why}; the receiver will ignore it"),
            ));
        }
    }
}
