//! `request-before-initialize`: requests before the handshake is complete.

use crate::diagnostic::Severity;
use crate::engine::Facts;
use crate::event::{Body, Side};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "request-before-initialize",
    family: Family::Lifecycle,
    default_severity: Severity::Warning,
    versions: Versions::HANDSHAKE,
    wants: Wants::REQUEST,
    order_dependent: true,
    summary: "a side sends a request other than ping before initialization is complete",
    quote: "The client SHOULD NOT send requests other than pings before the server has responded to the initialize request. The server SHOULD NOT send requests other than pings and logging before receiving the initialized notification.",
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: None,
        modern_quote: None,
    }),
    help: "wait for the initialize response (client) or the notifications/initialized notification (server) before sending requests",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Request(_), Some(from), Some(Body::Request { id, method, .. })) =
        (&ctx.facts, ctx.from, ctx.message.map(|m| &m.body))
    else {
        return;
    };
    let lifecycle = &ctx.session.lifecycle;
    if !ctx.session.has_handshake() || method == "ping" || method == "initialize" {
        return;
    }
    let Some((_, init_location)) = &lifecycle.initialize else {
        return;
    };
    let (message, related) = match (from, lifecycle.initialize_response, lifecycle.initialized) {
        // The client waits for the initialize response even if it sent
        // `initialized` too early.
        (Side::Client, None, _) => (
            words!(
                "client sends {} before the server has answered initialize",
                method
            ),
            (
                *init_location,
                "initialize was sent here and is not answered yet",
            ),
        ),
        (_, Some((answered, false)), _) => (
            words!(
                "{} sends {} although initialize failed, so the session was never initialized",
                from,
                method
            ),
            (answered, "initialize failed here"),
        ),
        (Side::Server, _, None) => (
            words!(
                "server sends {} before the client sent notifications/initialized",
                method
            ),
            (*init_location, "the session started here"),
        ),
        // A client request between the result and notifications/initialized
        // is initialized-required's: it knows whether the notification came late or never.
        (Side::Client, Some((_, true)), None) | (_, _, Some(_)) => return,
    };
    let mut diagnostic = ctx
        .diagnostic(&META, message)
        .with_related(related.0, related.1);
    if let crate::event::KeyField::Valid(id) = id {
        diagnostic = diagnostic.with_request_id(id);
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const TOOLS_LIST: &str =
        r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;

    /// The handshake's lines: initialize, its result, notifications/initialized.
    fn handshake() -> [&'static str; 3] {
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        [lines[0], lines[1], lines[2]]
    }

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("request-before-initialize", &lines.join("\n"))
    }

    #[test]
    fn warns_on_client_requests_before_the_result_only() {
        // After the result, initialized-required reports them.
        let [initialize, result, initialized] = handshake();
        let tools_call =
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call"}}"#;
        let lines = [initialize, TOOLS_LIST, result, tools_call, initialized];
        assert_eq!(check(&lines), [(2, Warning)]);
    }

    #[test]
    fn warns_on_a_server_request_before_initialized() {
        let [initialize, result, initialized] = handshake();
        let roots = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"roots/list"}}"#;
        assert_eq!(
            check(&[initialize, result, roots, initialized]),
            [(3, Warning)]
        );
    }

    #[test]
    fn warns_after_a_failed_initialize_even_after_initialized() {
        let [initialize, _, initialized] = handshake();
        let failed = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version"}}}"#;
        assert_eq!(
            check(&[initialize, failed, initialized, TOOLS_LIST]),
            [(4, Warning)]
        );
    }

    #[test]
    fn silent_on_pings_notifications_and_traces_without_the_handshake() {
        let [initialize, result, initialized] = handshake();
        let lines = [
            initialize,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"starting"}}}"#,
            result,
            initialized,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}"#,
        ];
        assert_eq!(check(&lines), []);
        assert_eq!(check(&[TOOLS_LIST]), []);
    }

    #[test]
    fn warns_when_initialized_was_sent_before_the_result() {
        // notifications/initialized does not end the handshake on its own.
        let [initialize, result, initialized] = handshake();
        assert_eq!(
            check(&[initialize, initialized, TOOLS_LIST, result]),
            [(3, Warning)]
        );
    }
}
