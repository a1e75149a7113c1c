//! `http-single-endpoint`: MCP traffic of one session on more than one path.

use crate::diagnostic::Severity;
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-single-endpoint",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::from(Version::V2025_03_26),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a session's MCP requests go to a path other than the one its first POST used (its MCP endpoint)",
    quote: "The server MUST provide a single HTTP endpoint path (hereafter referred to as the MCP endpoint) that supports both POST and GET methods.",
    spec: Some(STREAMABLE_HTTP),
    help: "serve POST, GET and DELETE of a session on one path; a proxy that rewrites paths can cause this",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some((endpoint, first)) = &ctx.session.http.endpoint else {
        return;
    };
    let carries_messages = http.requests + http.notifications + http.responses > 0;
    let of_session = carries_messages || http.session_header.is_some();
    if !of_session || http.path() == endpoint.as_str() {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the client sends {} to {}, but the session's MCP endpoint is {}",
                http.method,
                crate::words::Arg::quoted(http.path()),
                crate::words::Arg::quoted(endpoint.as_str())
            ),
        )
        .with_label("the request")
        .with_related(*first, "the session's first POST went to the endpoint here"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{entry, findings, har};

    fn post(url: &str) -> serde_json::Value {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let mut e = entry(
            "POST",
            &[("Mcp-Session-Id", "s1")],
            Some(&ping),
            (200, "application/json", "{}"),
        );
        e["request"]["url"] = json!(url);
        e
    }

    #[test]
    fn warns_on_a_second_path() {
        let trace = har(&[
            post("http://h/mcp"),
            post("http://h/mcp?x=1"),
            post("http://h/other"),
        ]);
        assert_eq!(findings("http-single-endpoint", &trace), [(4, Warning)]);
    }

    #[test]
    fn silent_on_one_path() {
        let trace = har(&[post("http://h/mcp"), post("http://h/mcp")]);
        assert_eq!(findings("http-single-endpoint", &trace), []);
    }
}
