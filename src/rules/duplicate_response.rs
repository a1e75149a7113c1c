//! `duplicate-response`: a second response for one request.

use super::{describe_request, Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{Facts, ResponseTarget};

pub struct DuplicateResponse;

pub static META: RuleMeta = RuleMeta {
    id: "duplicate-response",
    default_severity: Severity::Error,
    summary: "a request is answered twice",
    quote: "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications. (JSON-RPC 2.0, which MCP requires: \"All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.\")",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "answer each request exactly once; look for a handler that both returns a result and sends an error",
};

impl Rule for DuplicateResponse {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Response(ResponseTarget::Duplicate(request)), Some(from)) =
            (&ctx.facts, ctx.from)
        else {
            return;
        };
        let mut diagnostic = ctx
            .diagnostic(
                &META,
                format!(
                    "{from} answers {} a second time",
                    describe_request(from.peer(), request)
                ),
            )
            .with_request_id(request.id)
            .with_related(request.location, "the request");
        if let Some(first) = request.response {
            diagnostic = diagnostic.with_related(first, "first answered here");
        }
        out.push(diagnostic);
    }
}
