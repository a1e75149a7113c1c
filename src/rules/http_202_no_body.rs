//! `http-202-no-body`: a POST of only notifications or responses not answered 202 without a body.

use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-202-no-body",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::from(Version::V2025_03_26),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a POST holding only notifications or responses is accepted with a status other than 202, or with a body",
    quote: "If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/streamable-http"),
        modern_quote: None,
    }),
    help: "answer a POST that carries no request with 202 Accepted and an empty body (or an HTTP error status when rejecting it)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let only_input = http.requests == 0 && http.notifications + http.responses > 0;
    let Some(status) = http.status.filter(|s| (200..300).contains(s)) else {
        return;
    };
    // A JSON-RPC error in the body is a refusal: `http-reject-error-status`.
    let refused = http.response_error;
    if !only_input || refused || http.method != "POST" || (status == 202 && !http.response_has_body)
    {
        return;
    }
    let what = match (http.notifications, http.responses) {
        (0, _) => "responses",
        (_, 0) => "notifications",
        _ => "notifications and responses",
    };
    let answer = match (status, http.response_has_body) {
        (202, _) => words!("202 with a body"),
        (_, true) => words!("{} with a body", status),
        (_, false) => words!("{}", status),
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the server accepted a POST of only {} with {}, not 202 without a body",
                what,
                answer
            ),
        )
        .with_label("the exchange"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, har};

    /// A POST of `message`, answered with `status` and the body `answer`.
    fn post(message: Value, status: u16, answer: &str) -> Value {
        json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "postData": {"text": message.to_string()}},
            "response": {"status": status, "content": {"text": answer}},
        })
    }

    fn initialized() -> Value {
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    }

    #[test]
    fn fires_on_200_for_a_posted_notification() {
        let trace = har(&[post(initialized(), 200, "")]);
        assert_eq!(findings("http-202-no-body", &trace), [(2, Error)]);
    }

    #[test]
    fn fires_on_202_with_a_body_and_on_200_for_a_posted_response() {
        let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"roots": []}});
        let trace = har(&[post(initialized(), 202, "ok"), post(response, 200, "")]);
        assert_eq!(
            findings("http-202-no-body", &trace),
            [(2, Error), (3, Error)]
        );
    }

    #[test]
    fn silent_on_202_without_body_on_a_rejection_and_on_requests() {
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        let tools = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
        let trace = har(&[
            post(initialized(), 202, ""),
            post(initialized(), 400, "Bad Request"),
            post(list, 200, tools),
        ]);
        assert_eq!(findings("http-202-no-body", &trace), []);
    }

    #[test]
    fn silent_in_a_2024_11_05_session() {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2024-11-05"}});
        let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05"}}"#;
        let trace = har(&[
            post(initialize, 200, result),
            post(initialized(), 200, "Accepted"),
        ]);
        assert_eq!(findings("http-202-no-body", &trace), []);
    }
}
