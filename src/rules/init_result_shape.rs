//! `init-result-shape`: the initialize result lacks a member it needs.

use super::{listed, missing_members};
use crate::diagnostic::Severity;
use crate::event::{Body, Outcome};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "init-result-shape",
    family: Family::Lifecycle,
    default_severity: Severity::Error,
    versions: Versions::HANDSHAKE,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "the initialize result lacks protocolVersion, capabilities or serverInfo",
    quote: "The server MUST respond with its own capabilities and information:",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "answer initialize with the negotiated protocolVersion, your capabilities (an object, possibly empty) and serverInfo with name and version",
};

/// What the schema's `InitializeResult` requires.
const REQUIRED: [&str; 3] = ["protocolVersion", "capabilities", "serverInfo"];

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(request) = ctx.facts.answered() else {
        return;
    };
    let Some(message) = ctx.message else { return };
    if ctx.from != Some(crate::event::Side::Server)
        || request.method != "initialize"
        || !matches!(
            message.body,
            Body::Response {
                outcome: Outcome::Result { .. },
                ..
            }
        )
    {
        return;
    }
    // A result that is not an object at all is invalid-jsonrpc's; a log
    // that shows the message only in part may have left members out.
    if message.incomplete || super::object_keys(message.members.result.as_ref()).is_none() {
        return;
    }
    let missing = missing_members(message.members.result.as_ref(), &REQUIRED);
    if missing.is_empty() {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!("the initialize result lacks {}", listed(&missing)),
        )
        .with_request_id(request.id)
        .with_related(request.location, "initialize was sent here"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(result: &str) -> Vec<(u64, Severity)> {
        let initialize = HANDSHAKE.lines().next().unwrap();
        findings("init-result-shape", &format!("{initialize}\n{result}"))
    }

    #[test]
    fn fires_on_a_result_without_server_info() {
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}}"#;
        assert_eq!(check(result), [(2, Error)]);
        assert_eq!(
            check(r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"result":{}}}"#),
            [(2, Error)]
        );
    }

    #[test]
    fn silent_on_a_full_result_an_error_and_other_responses() {
        assert_eq!(findings("init-result-shape", HANDSHAKE), []);
        let error = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version"}}}"#;
        assert_eq!(check(error), []);
        let tools = format!(
            "{HANDSHAKE}{}\n{}",
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#
        );
        assert_eq!(findings("init-result-shape", &tools), []);
    }
}
