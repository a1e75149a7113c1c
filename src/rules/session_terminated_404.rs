//! `session-terminated-404`: a request of a deleted or expired session answered with success.

use crate::diagnostic::Severity;
use crate::engine::SessionEnd;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "session-terminated-404",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "after a session was deleted (DELETE answered 2xx) or reported gone (404), a request carrying its id is answered 2xx",
    quote: "The server MAY terminate the session at any time, after which it MUST respond to requests containing that session ID with HTTP 404 Not Found.",
    spec: Some(TRANSPORTS),
    help: "once a session is terminated, answer every request carrying its id with 404 Not Found",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some((how, at)) = ctx.session.http.ended else {
        return;
    };
    let Some(id) = &http.session_header else {
        return;
    };
    if !http.succeeded() {
        return;
    }
    let (ended, related) = match how {
        SessionEnd::Deleted => ("was deleted", "the client deleted the session here"),
        SessionEnd::NotFound => ("was reported gone", "the server answered 404 here"),
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the server answers {} with {} for session {}, which {}",
                http.method,
                http.status.unwrap_or_default(),
                crate::words::Arg::quoted(id.as_str()),
                ended
            ),
        )
        .with_label("the exchange")
        .with_related(at, related),
    );
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, initialize_assigning, ping_with};

    fn delete(status: u16) -> serde_json::Value {
        entry(
            "DELETE",
            &[("Mcp-Session-Id", "s1")],
            None,
            (status, "", ""),
        )
    }

    #[test]
    fn fires_on_success_after_delete_and_after_404() {
        let session = [("Mcp-Session-Id", "s1")];
        let deleted = har(&[
            initialize_assigning("s1"),
            delete(200),
            ping_with(&session, 200),
        ]);
        assert_eq!(findings("session-terminated-404", &deleted), [(4, Error)]);
        let gone = har(&[
            initialize_assigning("s1"),
            ping_with(&session, 404),
            ping_with(&session, 200),
        ]);
        assert_eq!(findings("session-terminated-404", &gone), [(4, Error)]);
    }

    #[test]
    fn silent_on_404_after_delete_and_after_a_refused_delete() {
        let session = [("Mcp-Session-Id", "s1")];
        let trace = har(&[
            initialize_assigning("s1"),
            delete(405),
            ping_with(&session, 200),
            delete(200),
            ping_with(&session, 404),
        ]);
        assert_eq!(findings("session-terminated-404", &trace), []);
    }
}
