//! `http-post-every-message`: a client message sent in a request other than a POST.

use crate::diagnostic::Severity;
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-post-every-message",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::from(Version::V2025_03_26),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a JSON-RPC message of the client travels in the body of an HTTP request other than POST",
    quote: "Every JSON-RPC message sent from the client MUST be a new HTTP POST request to the MCP endpoint.",
    spec: Some(STREAMABLE_HTTP),
    help: "send each JSON-RPC message as the body of its own POST to the MCP endpoint; GET and DELETE carry no body",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let messages = http.requests + http.notifications + http.responses;
    if http.method == "POST" || messages == 0 {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the client sends {} JSON-RPC message(s) in the body of a {}, not a POST",
                messages,
                http.method
            ),
        )
        .with_label("the request"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har};

    fn with_body(method: &str) -> serde_json::Value {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        entry(
            method,
            &[],
            Some(&ping),
            (
                200,
                "application/json",
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            ),
        )
    }

    #[test]
    fn fires_on_a_message_in_a_put() {
        assert_eq!(
            findings("http-post-every-message", &har(&[with_body("PUT")])),
            [(2, Error)]
        );
    }

    #[test]
    fn silent_on_a_post_and_a_bodiless_get() {
        let get = entry("GET", &[], None, (405, "", ""));
        assert_eq!(
            findings("http-post-every-message", &har(&[with_body("POST"), get])),
            []
        );
    }
}
