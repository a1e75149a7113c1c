//! `invalid-json`: a line that is not JSON, or not UTF-8.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::event::{Payload, Unreadable};

pub struct InvalidJson;

pub static META: RuleMeta = RuleMeta {
    id: "invalid-json",
    default_severity: Severity::Error,
    summary: "a line of the trace is not valid JSON or not valid UTF-8",
    quote: "JSON-RPC messages MUST be UTF-8 encoded.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/index"),
        modern_quote: None,
    }),
    help: "every line must hold one complete JSON value; a recorder that mixes other output into the trace, or a peer that writes non-JSON to stdout, breaks the stream",
};

impl Rule for InvalidJson {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        if let Payload::Unreadable(Unreadable::Json(why)) = &ctx.event.payload {
            out.push(ctx.diagnostic(&META, why.clone()));
        }
    }
}
