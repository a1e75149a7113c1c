//! `stdout-pollution`: a server wrote non-protocol output on its stdout.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::event::{Payload, Transport};

pub struct StdoutPollution;

pub static META: RuleMeta = RuleMeta {
    id: "stdout-pollution",
    default_severity: Severity::Error,
    summary: "a server wrote output that is not an MCP message on its stdout",
    quote: "The server MUST NOT write anything to its stdout that is not a valid MCP message.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/stdio"),
        modern_quote: None,
    }),
    help: "send logs and banners to stderr (or as notifications/message); stdout carries only newline-delimited JSON-RPC messages",
};

impl Rule for StdoutPollution {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        if let Payload::Transport(Transport::NotProtocol(seen)) = &ctx.event.payload {
            let from = ctx.from.map_or("the server", |side| side.as_str());
            out.push(
                ctx.diagnostic(
                    &META,
                    format!(
                        "{from} wrote non-protocol output on stdout: {}",
                        crate::sanitize::display_bytes(seen.as_bytes(), 120)
                    ),
                )
                .with_label("reported here"),
            );
        }
    }
}
