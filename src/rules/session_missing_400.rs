//! `session-missing-400`: a request without the session id rejected with a status other than 400.

use crate::diagnostic::Severity;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "session-missing-400",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a server that assigned session ids rejects a request without Mcp-Session-Id (other than initialize) with a status other than 400 Bad Request",
    quote: "Servers that require a session ID SHOULD respond to requests without an Mcp-Session-Id header (other than initialization) with HTTP 400 Bad Request.",
    spec: Some(TRANSPORTS),
    help: "answer a request that lacks the session id with 400 Bad Request; 404 tells the client its session expired, which is not the case",
};

pub static RULE: Rule = Rule::on_events(&META, check);

/// Rejections that say something else than "no session": authentication,
/// authorization, a method the endpoint does not serve.
const OTHER_CAUSES: [i64; 3] = [401, 403, 405];

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some((assigned, at)) = ctx.assigned_sessions.last() else {
        return;
    };
    let Some(status) = http.status else {
        return;
    };
    let rejected = (400..600).contains(&status) && status != 400 && !OTHER_CAUSES.contains(&status);
    if http.initialize || http.session_header.is_some() || !rejected {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the server answers a {} without Mcp-Session-Id with {}, not 400 Bad Request",
                http.method,
                status
            ),
        )
        .with_label("the exchange")
        .with_related(
            *at,
            words!(
                "the server assigned session {} here",
                crate::words::Arg::quoted(assigned.as_str())
            ),
        ),
    );
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, har, initialize_assigning, ping_with};

    #[test]
    fn warns_on_404_for_a_request_without_the_id() {
        let trace = har(&[initialize_assigning("s1"), ping_with(&[], 404)]);
        assert_eq!(findings("session-missing-400", &trace), [(3, Warning)]);
    }

    #[test]
    fn silent_on_400_401_and_without_sessions() {
        let with_sessions = har(&[
            initialize_assigning("s1"),
            ping_with(&[], 400),
            ping_with(&[], 401),
        ]);
        assert_eq!(findings("session-missing-400", &with_sessions), []);
        assert_eq!(
            findings("session-missing-400", &har(&[ping_with(&[], 404)])),
            []
        );
    }
}
