//! `progress-token-invalid-type`: a progress token that is not a string or integer.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::event::{Body, KeyField};

pub struct ProgressTokenInvalidType;

pub static META: RuleMeta = RuleMeta {
    id: "progress-token-invalid-type",
    default_severity: Severity::Error,
    summary: "a progressToken is not a string or an integer",
    quote: "Progress tokens MUST be a string or integer value",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "use a string or an integer as the progress token (integer 0 is valid)",
};

impl Rule for ProgressTokenInvalidType {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let Some(message) = ctx.message else { return };
        let (field, place) = match &message.body {
            Body::Request { params, .. } => {
                (&params.meta_progress_token, "params._meta.progressToken")
            }
            Body::Notification { method, params } if method == "notifications/progress" => {
                (&params.progress_token, "params.progressToken")
            }
            _ => return,
        };
        if let Some(KeyField::Invalid(kind)) = field {
            out.push(ctx.diagnostic(
                &META,
                format!("{place} is {}, not a string or integer", kind.describe()),
            ));
        }
    }
}
