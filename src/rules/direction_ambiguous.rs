//! `direction-ambiguous`: a bare JSON-RPC line whose sender cannot be inferred.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity};
use crate::engine::Facts;

pub struct DirectionAmbiguous;

pub static META: RuleMeta = RuleMeta {
    id: "direction-ambiguous",
    default_severity: Severity::Info,
    summary: "the sender of a bare JSON-RPC line cannot be inferred, so the line is not checked",
    quote: "",
    spec: None,
    help: "record the direction of each message (the canonical trace format's \"from\"), or make sure the trace holds the requests this message refers to",
};

impl Rule for DirectionAmbiguous {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        if let Facts::Ambiguous(reason) = &ctx.facts {
            out.push(ctx.diagnostic(
                &META,
                format!("cannot tell which side sent this message ({reason}); it is not checked"),
            ));
        }
    }
}
