//! `tool-unknown`: a `tools/call` names a tool the server's list does not hold.

use crate::diagnostic::Severity;
use crate::engine::ListState;
use crate::event::Side;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Needs, Out, Rule, RuleMeta, Wants};
use crate::words::{Arg, Words};

pub static META: RuleMeta = RuleMeta {
    id: "tool-unknown",
    family: Family::Schema,
    default_severity: Severity::Warning,
    versions: Versions::ALL,
    wants: Wants::REQUEST,
    order_dependent: true,
    summary: "a tools/call names a tool that the server's complete tool list does not hold (info when the list may be stale or has pages the trace does not show)",
    quote: "To discover available tools, clients send a `tools/list` request.",
    spec: Some(SpecPage::everywhere("server/tools")),
    help: "call only tools the server listed; list the tools again after notifications/tools/list_changed",
};

pub static RULE: Rule = Rule::on_events(&META, check).needing(Needs::TOOLS);

fn check(ctx: &Ctx, out: &mut Out) {
    if ctx.from != Some(Side::Client) {
        return;
    }
    let tools = &ctx.session.tools;
    let severity = match tools.state {
        ListState::Unseen => return,
        ListState::Complete => Severity::Warning,
        ListState::Partial | ListState::Stale => Severity::Info,
    };
    let Some(name) = ctx.called_tool else {
        return;
    };
    if tools.find(name).is_some() {
        return;
    }
    let why = match tools.state {
        ListState::Partial => "in the pages of its list the trace shows (more pages may hold it)",
        ListState::Stale => "in its last list, which it has since announced changed",
        _ => "in its tool list",
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the client calls tool {}, which the server does not list {}",
                Arg::quoted(name),
                Words::fixed(why)
            ),
        )
        .with_severity(severity),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const LIST: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;

    fn listed(next_cursor: &str) -> String {
        format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"search","inputSchema":{{"type":"object"}}}}]{next_cursor}}}}}}}"#
        )
    }

    fn call(name: &str) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{name}","arguments":{{}}}}}}}}"#
        )
    }

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tool-unknown", &format!("{HANDSHAKE}{}", lines.join("\n")))
    }

    #[test]
    fn fires_on_a_call_of_a_tool_never_listed() {
        assert_eq!(check(&[LIST, &listed(""), &call("delete")]), [(6, Warning)]);
    }

    #[test]
    fn is_info_when_the_list_is_partial_or_stale() {
        let partial = listed(r#","nextCursor":"p2""#);
        assert_eq!(check(&[LIST, &partial, &call("delete")]), [(6, Info)]);
        let changed = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}}"#;
        assert_eq!(
            check(&[LIST, &listed(""), changed, &call("delete")]),
            [(7, Info)]
        );
    }

    #[test]
    fn silent_on_listed_tools_and_without_a_list() {
        assert_eq!(check(&[LIST, &listed(""), &call("search")]), []);
        assert_eq!(check(&[&call("delete")]), []);
    }
}
