//! `init-by-client`: the initialize request lacks a member its params need.

use super::{listed, missing_members};
use crate::diagnostic::Severity;
use crate::event::{Body, Side};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "init-by-client",
    family: Family::Lifecycle,
    default_severity: Severity::Error,
    versions: Versions::HANDSHAKE,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "the client's initialize request lacks protocolVersion, capabilities or clientInfo",
    quote: "The client MUST initiate this phase by sending an initialize request containing:",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "send the protocol version you support (the latest), your capabilities (an object, possibly empty) and clientInfo with name and version",
};

/// What the list after the quote names, as the schema spells it.
const REQUIRED: [&str; 3] = ["protocolVersion", "capabilities", "clientInfo"];

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    // An initialize sent by the server is a matter of direction, not of shape.
    let (Some(message), Some(Side::Client)) = (ctx.message, ctx.from) else {
        return;
    };
    let Body::Request { method, .. } = &message.body else {
        return;
    };
    // A log that shows the message only in part may have left members out.
    if method != "initialize" || message.incomplete {
        return;
    }
    let missing = missing_members(message.members.params.as_ref(), &REQUIRED);
    if missing.is_empty() {
        return;
    }
    out.push(
        ctx.diagnostic(&META, words!("initialize params lack {}", listed(&missing)))
            .with_request_id_of(message),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(initialize: &str) -> Vec<(u64, Severity)> {
        findings("init-by-client", initialize)
    }

    #[test]
    fn fires_once_for_all_missing_members() {
        let bare = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"}}"#;
        assert_eq!(check(bare), [(1, Error)]);
        let no_info = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}}"#;
        assert_eq!(check(no_info), [(1, Error)]);
    }

    #[test]
    fn silent_on_a_complete_initialize_and_on_one_the_server_sends() {
        assert_eq!(check(HANDSHAKE), []);
        let server = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"}}"#;
        assert_eq!(check(server), []);
    }
}
