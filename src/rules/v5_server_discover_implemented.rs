//! `v5-server-discover-implemented`: a 2026-07-28 server answers `server/discover` with "method not found".

use crate::diagnostic::Severity;
use crate::engine::Session;
use crate::event::Side;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-server-discover-implemented",
    family: Family::Lifecycle,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTHING,
    order_dependent: false,
    summary: "a server that serves 2026-07-28 requests answers server/discover with -32601 (method not found); an error when it answered one of them with a result",
    quote: "Servers MUST implement `server/discover`.",
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: Some("basic/lifecycle"),
        modern_quote: None,
    }),
    help: "answer server/discover with the supported versions and the server's capabilities; clients call it to learn what the server speaks",
};

pub static RULE: Rule = Rule::on_session_end(&META, session_end);

/// Judged when the session ends: a server that never serves 2026-07-28 (a
/// client probed, then fell back to `initialize`) may not know the method.
fn session_end(session: &Session, out: &mut Out) {
    let served = &session.served;
    let Some((id, answer)) = &served.discover_not_found else {
        return;
    };
    if !served.other_answered {
        return;
    }
    let mut diagnostic = super::new_diagnostic(
        &META,
        session,
        *answer,
        words!(
            "server answers server/discover (request {}) with -32601 (method not found), yet serves other 2026-07-28 requests",
            id
        ),
    )
    .with_request_id(id);
    diagnostic.from = Some(Side::Server);
    if served.other_succeeded {
        diagnostic = diagnostic.with_severity(Severity::Error);
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::{findings, server, trace, v5_request};

    const NOT_FOUND: &str =
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;

    fn after_discover(lines: &[String]) -> Vec<(u64, crate::diagnostic::Severity)> {
        let mut all = vec![v5_request("1", "server/discover", ""), server(NOT_FOUND)];
        all.extend(lines.iter().cloned());
        findings("v5-server-discover-implemented", &trace(&all))
    }

    #[test]
    fn fires_when_the_server_serves_other_2026_07_28_requests() {
        let list = v5_request("2", "tools/list", "");
        let tools =
            server(r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools":[]}}"#);
        assert_eq!(after_discover(&[list.clone(), tools]), [(2, Error)]);
        let busy = server(r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"busy"}}"#);
        assert_eq!(after_discover(&[list, busy]), [(2, Warning)]);
    }

    #[test]
    fn silent_when_the_client_falls_back_to_the_handshake() {
        let initialize = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#;
        let result = server(
            r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
        );
        assert_eq!(after_discover(&[initialize.to_string(), result]), []);
    }
}
