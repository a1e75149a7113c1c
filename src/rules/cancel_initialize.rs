//! `cancel-initialize`: a client cancels its own initialize request.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{CancelTarget, Facts};

pub struct CancelInitialize;

pub static META: RuleMeta = RuleMeta {
    id: "cancel-initialize",
    default_severity: Severity::Error,
    summary: "a client cancels its initialize request",
    quote: "The initialize request MUST NOT be cancelled by clients",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: None,
        modern_quote: None,
    }),
    help: "to give up on a server that does not answer initialize, close the connection instead",
};

impl Rule for CancelInitialize {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        if let Facts::Cancel(CancelTarget::Initialize(request)) = &ctx.facts {
            out.push(
                ctx.diagnostic(
                    &META,
                    format!("client cancels its initialize request {}", request.id),
                )
                .with_request_id(request.id)
                .with_related(request.location, "initialize was sent here"),
            );
        }
    }
}
