//! `invalid-envelope`: a JSON line that is not a valid trace envelope.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity};
use crate::event::{Payload, Unreadable};

pub struct InvalidEnvelope;

pub static META: RuleMeta = RuleMeta {
    id: "invalid-envelope",
    default_severity: Severity::Error,
    summary: "a record is JSON but not valid for its format: a canonical envelope, a HAR or Inspector entry, an mcpsnoop frame",
    quote: "",
    spec: None,
    help: "each line needs \"from\" (\"client\" or \"server\") and either \"msg\" (the JSON-RPC message) or \"event\"; see docs/trace-format.md",
};

impl Rule for InvalidEnvelope {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        if let Payload::Unreadable(Unreadable::Envelope(why)) = &ctx.event.payload {
            out.push(ctx.diagnostic(&META, why.clone()));
        }
    }
}
