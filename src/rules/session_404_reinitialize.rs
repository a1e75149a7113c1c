//! `session-404-reinitialize`: a client that keeps a session id the server answered 404 for.

use crate::diagnostic::Severity;
use crate::engine::SessionEnd;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "session-404-reinitialize",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "after a 404 for its session id, the client sends another request with that id instead of a new initialize without one",
    quote: "When a client receives HTTP 404 in response to a request containing an Mcp-Session-Id, it MUST start a new session by sending a new InitializeRequest without a session ID attached.",
    spec: Some(TRANSPORTS),
    help: "on 404, drop the session id and start over with an initialize request that carries no Mcp-Session-Id",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some((SessionEnd::NotFound, at)) = ctx.session.http.ended else {
        return;
    };
    let Some(id) = &http.session_header else {
        return;
    };
    // One finding: the first request after the 404.
    let streams = &ctx.session.http.streams;
    if streams.values().any(|s| s.location > at) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!("the client sends {} with session id {} after the server answered 404 for it, instead of a new initialize", http.method, crate::words::Arg::quoted(id.as_str())),
        )
        .with_label("the request")
        .with_related(at, "the server answered 404 here"),
    );
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, har, initialize_assigning, ping_with};

    #[test]
    fn fires_once_when_the_client_keeps_the_dead_id() {
        let session = [("Mcp-Session-Id", "s1")];
        let trace = har(&[
            initialize_assigning("s1"),
            ping_with(&session, 404),
            ping_with(&session, 404),
            ping_with(&session, 404),
        ]);
        assert_eq!(findings("session-404-reinitialize", &trace), [(4, Error)]);
    }

    #[test]
    fn silent_when_the_client_initializes_again() {
        let session = [("Mcp-Session-Id", "s1")];
        let fresh = [("Mcp-Session-Id", "s2")];
        let trace = har(&[
            initialize_assigning("s1"),
            ping_with(&session, 404),
            initialize_assigning("s2"),
            ping_with(&fresh, 200),
        ]);
        assert_eq!(findings("session-404-reinitialize", &trace), []);
    }
}
