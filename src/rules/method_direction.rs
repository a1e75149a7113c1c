//! `method-direction`: a side sends a method that only the other side may send.

use super::{judged_version, sent_method};
use crate::diagnostic::Severity;
use crate::engine::Facts;
use crate::protocol::{methods, SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "method-direction",
    family: Family::Method,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "a side sends a method that only the other side may send (a server calling tools/call, a client sending sampling/createMessage)",
    quote: "Used by the client to invoke a tool provided by the server.",
    spec: Some(SpecPage {
        legacy: "schema",
        modern: Some("schema"),
        modern_quote: None,
    }),
    help: "each method has a direction in the schema (ClientRequest, ServerRequest, ClientNotification, ServerNotification); send it only from the side that owns it",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((method, from)) = sent_method(ctx) else {
        return;
    };
    // Cancellations and progress have their own direction rules, and so
    // have the requests of a 2026-07-28 server.
    if matches!(ctx.facts, Facts::Cancel(_) | Facts::Progress(_))
        || super::stateless_server_request(ctx)
    {
        return;
    }
    let version = judged_version(ctx);
    let allowed = match version.and_then(|v| methods::method(method, v)) {
        Some(row) => row.senders.allows(from),
        // Unknown, or not of this revision (method-version's): wrong only
        // when no revision lets this side send it.
        None => !methods::is_known(method) || !methods::versions_sent_by(method, from).is_empty(),
    };
    if allowed {
        return;
    }
    let during = version.map_or(words!(""), |v| words!(" in {}", v));
    out.push(ctx.diagnostic(
        &META,
        words!(
            "{} sends {}, which only the {} may send{}",
            from,
            method,
            from.peer(),
            during
        ),
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "method-direction",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_a_server_calling_a_tool_and_a_client_sampling() {
        let lines = [
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"tools/call","params":{"name":"x"}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error), (6, Error)]);
    }

    #[test]
    fn fires_without_a_known_version_when_no_revision_allows_it() {
        let trace = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"tools/list"}}"#;
        assert_eq!(findings("method-direction", trace), [(1, Error)]);
    }

    #[test]
    fn silent_on_the_right_directions_and_on_cancellations() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s2","method":"ping"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"ping"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"com.example/custom"}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn leaves_a_method_of_another_revision_to_method_version() {
        // elicitation/create is a server request of 2025-06-18 on; in
        // 2025-03-26 it is method-version's, not a direction problem.
        let trace = HANDSHAKE.replace("2025-11-25", "2025-03-26")
            + r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{}}}"#;
        assert_eq!(findings("method-direction", &trace), []);
    }
}
