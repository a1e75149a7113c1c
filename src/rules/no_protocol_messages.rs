//! `no-protocol-messages`: the log of a known client holds no protocol
//! message and no failure the client reported, so nothing could be checked.
//! One finding for the file, rather than silence (which reads as "all is
//! well") or an error per line (which it is not).

use crate::diagnostic::Severity;
use crate::event::{Payload, Transport};
use crate::protocol::Versions;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "no-protocol-messages",
    family: Family::Trace,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a client's log holds no protocol messages, so nothing could be checked",
    quote: "",
    spec: None,
    help: "this client logs only its own actions; to check the protocol, record the traffic with a client or tool that logs messages (Claude Desktop, VS Code at Debug level, mcpsnoop, MCP Inspector)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    if let Payload::Transport(Transport::NoMessages(client)) = &ctx.event.payload {
        out.push(ctx.diagnostic(
            &META,
            words!("this {} log holds no protocol messages and no failure the client reported; nothing could be checked", client),
        ));
    }
}
