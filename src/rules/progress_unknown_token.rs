//! `progress-unknown-token`: progress for a token no request of the peer carried.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{Facts, ProgressTarget};

pub struct ProgressUnknownToken;

pub static META: RuleMeta = RuleMeta {
    id: "progress-unknown-token",
    default_severity: Severity::Error,
    summary: "progress for a token that no active request of the other side carried",
    quote: "Progress notifications MUST only reference tokens that: Were provided in an active request; Are associated with an in-progress operation",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "send progress only with the exact progressToken from the _meta of the request being worked on (1 and \"1\" are different tokens)",
};

impl Rule for ProgressUnknownToken {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Progress(ProgressTarget::Unknown(token)), Some(from)) = (&ctx.facts, ctx.from)
        else {
            return;
        };
        let mut diagnostic = ctx
            .diagnostic(
                &META,
                format!(
                    "{from} sends progress for token {token}, which no request of the {} carried",
                    from.peer()
                ),
            )
            .with_progress_token(token);
        diagnostic = diagnostic.lowered_unless_proven(ctx, Severity::Info);
        out.push(diagnostic);
    }
}
