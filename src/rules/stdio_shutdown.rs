//! `stdio-shutdown`: a stdio session whose server ended before the client closed its input.

use crate::diagnostic::Severity;
use crate::engine::Session;
use crate::event::Side;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::Versions;
use crate::rule::{Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "stdio-shutdown",
    family: Family::Stdio,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::NOTHING,
    order_dependent: false,
    summary: "the trace shows the server's end closing before the client closed the server's input: the client did not begin the shutdown",
    quote: "the client SHOULD initiate shutdown by: First, closing the input stream to the child process (the server)",
    spec: Some(TRANSPORTS),
    help: "end a stdio session by closing the server's stdin first, then wait for it to exit before sending SIGTERM (and SIGKILL only after that)",
};

pub static RULE: Rule = Rule::on_session_end(&META, session_end);

fn session_end(session: &Session, out: &mut Out) {
    // HTTP sessions end with their connections; this is about a child process.
    if !session.http.streams.is_empty() {
        return;
    }
    let (Some(server), Some(client)) = (
        session.side(Side::Server).closed,
        session.side(Side::Client).closed,
    ) else {
        return;
    };
    if client <= server {
        return;
    }
    let mut diagnostic = super::new_diagnostic(
        &META,
        session,
        server,
        words!("the server's end closed before the client closed the server's input"),
    )
    .with_label("the server ended")
    .with_related(client, "the client closed the server's input only here");
    diagnostic.from = Some(Side::Server);
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{findings, HANDSHAKE};

    const CLIENT_CLOSED: &str = r#"{"from":"client","event":"closed"}"#;
    const SERVER_CLOSED: &str = r#"{"from":"server","event":"closed"}"#;

    #[test]
    fn info_when_the_server_ends_first() {
        let trace = format!("{HANDSHAKE}{SERVER_CLOSED}\n{CLIENT_CLOSED}\n");
        assert_eq!(findings("stdio-shutdown", &trace), [(4, Info)]);
    }

    #[test]
    fn silent_when_the_client_closes_first_or_the_trace_shows_one_end() {
        let ordered = format!("{HANDSHAKE}{CLIENT_CLOSED}\n{SERVER_CLOSED}\n");
        assert_eq!(findings("stdio-shutdown", &ordered), []);
        let one_end = format!("{HANDSHAKE}{SERVER_CLOSED}\n");
        assert_eq!(findings("stdio-shutdown", &one_end), []);
    }
}
