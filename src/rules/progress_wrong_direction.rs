//! `progress-wrong-direction`: the requester sends progress for its own request's token.

use super::{describe_request, Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{Facts, ProgressTarget};

pub struct ProgressWrongDirection;

pub static META: RuleMeta = RuleMeta {
    id: "progress-wrong-direction",
    default_severity: Severity::Error,
    summary: "the requester sends progress for the token of its own request",
    quote: "When a party wants to receive progress updates for a request, it includes a progressToken in the request metadata. [...] The receiver MAY then send progress notifications containing the original progress token",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "progress flows from the side doing the work (the receiver of the request) to the side that asked for it",
};

impl Rule for ProgressWrongDirection {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Progress(ProgressTarget::OwnToken(request)), Some(from)) =
            (&ctx.facts, ctx.from)
        else {
            return;
        };
        let Some(token) = request.token else { return };
        out.push(
            ctx.diagnostic(
                &META,
                format!(
                    "{from} sends progress for token {token} of its own {}",
                    describe_request(from, request)
                ),
            )
            .with_progress_token(token)
            .with_request_id(request.id)
            .with_related(
                request.location,
                format!("the {from} asked for progress with this token here"),
            ),
        );
    }
}
