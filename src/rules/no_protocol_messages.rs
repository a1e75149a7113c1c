//! `no-protocol-messages`: the log of a known client holds no protocol
//! message and no failure the client reported, so nothing could be checked.
//! ADDED for issue 13: one finding for the file, rather than silence (which
//! reads as "all is well") or an error per line (which it is not).

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity};
use crate::event::{Payload, Transport};

pub struct NoProtocolMessages;

pub static META: RuleMeta = RuleMeta {
    id: "no-protocol-messages",
    default_severity: Severity::Info,
    summary: "a client's log holds no protocol messages, so nothing could be checked",
    quote: "",
    spec: None,
    help: "this client logs only its own actions; to check the protocol, record the traffic with a client or tool that logs messages (Claude Desktop, VS Code at Debug level, mcpsnoop, MCP Inspector)",
};

impl Rule for NoProtocolMessages {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        if let Payload::Transport(Transport::NoMessages(client)) = &ctx.event.payload {
            out.push(ctx.diagnostic(
                &META,
                format!("this {client} log holds no protocol messages and no failure the client reported; nothing could be checked"),
            ));
        }
    }
}
