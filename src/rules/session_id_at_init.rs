//! `session-id-at-init`: a session id assigned outside the initialize response, or changed.

use crate::diagnostic::Severity;
use crate::protocol::headers::Header;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "session-id-at-init",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a response other than the initialize response carries an Mcp-Session-Id the request did not (a session id assigned late, or changed mid-session)",
    quote: "A server using the Streamable HTTP transport MAY assign a session ID at initialization time, by including it in an Mcp-Session-Id header on the HTTP response containing the InitializeResult.",
    spec: Some(TRANSPORTS),
    help: "assign the session id once, on the response that carries the InitializeResult, and keep it for the whole session",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some(assigned) = http.response_header(Header::McpSessionId) else {
        return;
    };
    if http.initialize || http.request_header(Header::McpSessionId) == Some(assigned) {
        return;
    }
    let what = match &http.session_header {
        Some(sent) => words!("the server answers a request of session {} with another Mcp-Session-Id, {}", crate::words::Arg::quoted(sent.as_str()), crate::words::Arg::quoted(assigned)),
        None => words!("the server assigns the session id {} on a response that is not the initialize response", crate::words::Arg::quoted(assigned)),
    };
    out.push(ctx.diagnostic(&META, what).with_label("the response"));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, har, initialize_assigning, ping_with};

    /// `ping` answered with the session id `returned`.
    fn ping_returning(headers: &[(&str, &str)], returned: &str) -> serde_json::Value {
        let mut e = ping_with(headers, 200);
        e["response"]["headers"] = json!([{"name": "mcp-session-id", "value": returned}]);
        e
    }

    #[test]
    fn warns_on_a_late_id_and_on_a_changed_one() {
        let trace = har(&[
            ping_returning(&[], "s1"),
            ping_returning(&[("Mcp-Session-Id", "s1")], "s2"),
        ]);
        assert_eq!(
            findings("session-id-at-init", &trace),
            [(2, Warning), (3, Warning)]
        );
    }

    #[test]
    fn silent_on_the_initialize_response_and_an_echo() {
        let trace = har(&[
            initialize_assigning("s1"),
            ping_returning(&[("Mcp-Session-Id", "s1")], "s1"),
        ]);
        assert_eq!(findings("session-id-at-init", &trace), []);
    }
}
