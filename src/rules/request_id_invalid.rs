//! `request-id-invalid`: a request whose id is not a string or an integer.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::event::{Body, JsonKind, KeyField};

pub struct RequestIdInvalid;

pub static META: RuleMeta = RuleMeta {
    id: "request-id-invalid",
    default_severity: Severity::Error,
    summary: "a request id is null, fractional, boolean, an array or an object",
    quote: "Requests MUST include a string or integer ID. Unlike base JSON-RPC, the ID MUST NOT be null.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "use a string or an integer as the request id (integer 0 is valid)",
};

impl Rule for RequestIdInvalid {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let Some(Body::Request {
            id: KeyField::Invalid(kind),
            method,
            ..
        }) = ctx.message.map(|m| &m.body)
        else {
            return;
        };
        if method.starts_with("notifications/") {
            return; // notification-with-id reports it
        }
        let what = match kind {
            JsonKind::Null => "null".to_string(),
            other => other.describe().to_string(),
        };
        out.push(ctx.diagnostic(
            &META,
            format!(
                "{} request {} has an id that is {what}, not a string or integer",
                ctx.from.map_or("a", |s| s.as_str()),
                crate::sanitize::escape_controls(method)
            ),
        ));
    }
}
