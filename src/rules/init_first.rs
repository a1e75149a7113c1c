//! `init-first`: the client's `initialize` comes after other interaction.

use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "init-first",
    family: Family::Lifecycle,
    default_severity: Severity::Error,
    versions: Versions::HANDSHAKE,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "the client's initialize request comes after other requests or server messages",
    quote: "The initialization phase MUST be the first interaction between client and server.",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "send initialize first and wait for its result before any other request (pings excepted)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let lifecycle = &ctx.session.lifecycle;
    let is_initialize = ctx.message.and_then(|m| m.method()) == Some("initialize");
    // Only the session's first initialize; and not in a trace that starts
    // mid-session (an answer to an unseen request, or a version the user
    // named because the handshake is not recorded).
    if !is_initialize
        || ctx.from != Some(Side::Client)
        || lifecycle.initialize.is_some()
        || !ctx.session.self_contained
        || lifecycle.version.is_some()
    {
        return;
    }
    let Some((earlier, side, method)) = &lifecycle.before_initialize else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "initialize is not the first interaction of the session: the {} sent {} before it",
                side,
                method
            ),
        )
        .with_related(*earlier, words!("the {} sent {} here", side, method)),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(before: &[&str]) -> Vec<(u64, Severity)> {
        findings("init-first", &format!("{}\n{HANDSHAKE}", before.join("\n")))
    }

    const PING: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"p","method":"ping"}}"#;
    const PONG: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"p","result":{}}}"#;

    #[test]
    fn fires_once_when_client_requests_come_first() {
        // A raw client against the Python SDK: ping, tools/list, then initialize.
        let tools = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"t","method":"tools/list"}}"#;
        let error = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"t","error":{"code":-32602,"message":"Invalid request parameters"}}}"#;
        let tools_call =
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"c","method":"tools/call"}}"#;
        assert_eq!(check(&[PING, PONG, tools, error, tools_call]), [(6, Error)]);
    }

    #[test]
    fn fires_when_the_server_speaks_first() {
        let log = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"ready"}}}"#;
        assert_eq!(check(&[log]), [(2, Error)]);
    }

    #[test]
    fn silent_on_pings_first_and_on_a_second_initialize() {
        assert_eq!(check(&[PING, PONG]), []);
        let again = HANDSHAKE
            .lines()
            .next()
            .unwrap()
            .replace("\"id\":0", "\"id\":9");
        assert_eq!(findings("init-first", &format!("{HANDSHAKE}{again}")), []);
    }

    #[test]
    fn silent_when_the_trace_starts_mid_session() {
        let answer = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":41,"result":{"content":[]}}}"#;
        let log = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}}"#;
        assert_eq!(check(&[answer, log]), []);
    }
}
