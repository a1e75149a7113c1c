//! `initialized-required`: the client never sends `notifications/initialized`
//! after a successful initialize, or sends requests before it.

use crate::diagnostic::Severity;
use crate::engine::Session;
use crate::event::Side;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "initialized-required",
    family: Family::Lifecycle,
    default_severity: Severity::Error,
    versions: Versions::HANDSHAKE,
    wants: Wants::NOTHING,
    order_dependent: false,
    summary: "after a successful initialize the client goes on without notifications/initialized (error), sends requests before it (warning), or the trace ends first (info)",
    quote: "After successful initialization, the client MUST send an initialized notification to indicate it is ready to begin normal operations",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "send notifications/initialized right after the initialize result, before any request other than ping",
};

pub static RULE: Rule = Rule::on_session_end(&META, session_end);

/// Decided at the end of the session, when it is known whether the
/// notification came late or never: one finding per session.
fn session_end(session: &Session, out: &mut Out) {
    let lifecycle = &session.lifecycle;
    let in_scope =
        session.has_handshake() && session.version().is_none_or(|v| META.versions.contains(v));
    let (true, Some((result, true))) = (in_scope, lifecycle.initialize_response) else {
        return;
    };
    let (location, severity, message, related) =
        match (&lifecycle.request_before_initialized, lifecycle.initialized) {
            (Some((at, method)), None) => (
                *at,
                Severity::Error,
                words!(
                    "client sends {} but never sent notifications/initialized",
                    method
                ),
                (result, "the server answered initialize here"),
            ),
            (Some((at, method)), Some(initialized)) => (
                *at,
                Severity::Warning,
                words!(
                    "client sends {} before it sent notifications/initialized",
                    method
                ),
                (initialized, "notifications/initialized came only here"),
            ),
            // A client that closed its end instead disconnected: that is allowed.
            (None, None) if session.side(Side::Client).closed.is_some() => return,
            (None, None) => (
                result,
                Severity::Info,
                words!("the trace ends before the client sent notifications/initialized"),
                (result, "the server answered initialize here"),
            ),
            (None, Some(_)) => return,
        };
    // The notification may be on a line that could not be read.
    let unreadable = session
        .unreadable_line
        .filter(|line| line.line > result.line);
    let severity = match (severity, unreadable) {
        (Severity::Info, Some(_)) => return,
        (_, Some(_)) => Severity::Info,
        (severity, None) => severity,
    };
    let mut diagnostic =
        super::new_diagnostic(&META, session, location, message).with_severity(severity);
    if let Some(line) = unreadable {
        diagnostic = diagnostic
            .with_note(super::UNREADABLE_NOTE)
            .with_related(line, "this line could not be read");
    }
    if related.0 != location {
        diagnostic = diagnostic.with_related(related.0, related.1);
    }
    diagnostic.from = Some(Side::Client);
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Info, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const TOOLS: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;
    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call"}}"#;
    const PING: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"ping"}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("initialized-required", &lines.join("\n"))
    }

    fn handshake() -> Vec<&'static str> {
        HANDSHAKE.lines().collect()
    }

    #[test]
    fn error_once_when_requests_follow_but_initialized_never_does() {
        let h = handshake();
        assert_eq!(check(&[h[0], h[1], PING, TOOLS, CALL]), [(4, Error)]);
    }

    #[test]
    fn warning_when_initialized_comes_after_a_request() {
        let h = handshake();
        assert_eq!(check(&[h[0], h[1], TOOLS, h[2], CALL]), [(3, Warning)]);
    }

    #[test]
    fn info_when_the_trace_ends_first() {
        let h = handshake();
        assert_eq!(check(&[h[0], h[1], PING]), [(2, Info)]);
        let closed = r#"{"from":"client","event":"closed"}"#;
        assert_eq!(check(&[h[0], h[1], closed]), []);
    }

    #[test]
    fn lowered_or_silent_when_a_later_line_could_not_be_read() {
        let h = handshake();
        let garbled =
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/initialized""#;
        assert_eq!(check(&[h[0], h[1], garbled]), []);
        assert_eq!(check(&[h[0], h[1], garbled, TOOLS]), [(4, Info)]);
    }

    #[test]
    fn silent_after_initialized_after_a_failure_and_without_the_handshake() {
        let h = handshake();
        assert_eq!(check(&[h[0], h[1], h[2], TOOLS]), []);
        let failed = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version"}}}"#;
        assert_eq!(check(&[h[0], failed]), []);
        assert_eq!(check(&[TOOLS]), []);
    }
}
