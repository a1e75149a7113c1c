//! `request-id-reused`: a side issues a request id it already used in the session.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::Facts;
use crate::protocol::{Era, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "request-id-reused",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a side reuses a request id it already used in this session",
    quote: "The request ID MUST NOT have been previously used by the requestor within the same session.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: Some("The request ID MUST NOT match the ID of any other request the sender has issued and not yet received a response for."),
    }),
    help: "give every request of a session a fresh id, for example from a counter that never goes back",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Request(facts), Some(from)) = (&ctx.facts, ctx.from) else {
        return;
    };
    let Some(earlier) = facts.earlier else { return };
    // The same request on another HTTP stream is a broadcast: `http-no-broadcast`.
    if super::reported_as_broadcast(ctx, super::broadcast_request(ctx)) {
        return;
    }
    let (message, label) = if ctx.version.map(Version::era) == Some(Era::Stateless) {
        (
            words!(
                "{} reuses request id {} while its earlier request with that id is unanswered",
                from,
                earlier.id
            ),
            "the id of a request still waiting for its response",
        )
    } else {
        (
            words!(
                "{} reuses request id {}, already used in this session",
                from,
                earlier.id
            ),
            "an id already used in this session",
        )
    };
    out.push(
        ctx.diagnostic(&META, message)
            .with_label(label)
            .with_request_id(earlier.id)
            .with_related(
                earlier.location,
                words!(
                    "{} first used the id here",
                    describe_request(from, &earlier)
                ),
            ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "request-id-reused",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_an_answered_id_and_on_the_initialize_id() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"ping"}}"#,
        ];
        assert_eq!(check(&lines), [(6, Error), (7, Error)]);
    }

    #[test]
    fn fires_even_when_the_trace_starts_mid_session() {
        let trace = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":5,"method":"tools/list"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":5,"method":"tools/list"}}"#,
        ]
        .join("\n");
        assert_eq!(findings("request-id-reused", &trace), [(2, Error)]);
    }

    #[test]
    fn silent_across_sides_types_and_sessions() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"1","method":"tools/call"}}"#,
            r#"{"from":"client","session":"other","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn in_2026_07_28_only_an_unanswered_id_counts() {
        let call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}"#;
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#;
        let trace = [call, result, call, call].join("\n");
        assert_eq!(findings("request-id-reused", &trace), [(4, Error)]);
    }
}
