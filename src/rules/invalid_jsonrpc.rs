//! `invalid-jsonrpc`: a message that breaks the JSON-RPC 2.0 message shape.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};

pub struct InvalidJsonrpc;

pub static META: RuleMeta = RuleMeta {
    id: "invalid-jsonrpc",
    default_severity: Severity::Error,
    summary: "a message is not a well-formed JSON-RPC 2.0 request, notification or response",
    quote: "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "send \"jsonrpc\": \"2.0\" and exactly one of: a method (request or notification), a result, or an error object with an integer code and a string message",
};

impl Rule for InvalidJsonrpc {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let Some(message) = ctx.message else { return };
        if message.problems.is_empty() {
            return;
        }
        let problems: Vec<String> = message.problems.iter().map(ToString::to_string).collect();
        out.push(ctx.diagnostic(
            &META,
            format!("invalid JSON-RPC message: {}", problems.join("; ")),
        ));
    }
}
