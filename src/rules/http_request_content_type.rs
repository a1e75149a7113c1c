//! `http-request-content-type`: a POSTed request answered with success but neither SSE nor JSON.

use crate::diagnostic::Severity;
use crate::protocol::headers::{is_media, EVENT_STREAM, JSON};
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-request-content-type",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::from(Version::V2025_03_26),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a POST carrying a request is answered 2xx with neither Content-Type text/event-stream nor application/json (a 202 included)",
    quote: "If the input is a JSON-RPC request, the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object.",
    spec: Some(STREAMABLE_HTTP),
    help: "answer a POSTed request with an SSE stream or a JSON body holding its response; 202 Accepted is only for notifications and responses",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    if http.method != "POST" || http.requests == 0 || !http.succeeded() {
        return;
    }
    let content_type = http.response_content_type.as_deref();
    let status = http.status.unwrap_or_default();
    let allowed = content_type.is_some_and(|t| is_media(t, EVENT_STREAM) || is_media(t, JSON));
    if allowed && status != 202 {
        return;
    }
    let answer = match content_type.filter(|t| !t.is_empty()) {
        Some(t) => words!(
            "{} with Content-Type {}",
            status,
            crate::words::Arg::quoted(t)
        ),
        None => words!("{} without a Content-Type", status),
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!("the server answers a POST carrying a request with {}, not an SSE stream or a JSON body", answer),
        )
        .with_label("the exchange"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, sse};

    fn call(answer: (u16, &str, &str)) -> serde_json::Value {
        let request = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        entry("POST", &[], Some(&request), answer)
    }

    #[test]
    fn fires_on_202_and_on_plain_text() {
        let trace = har(&[call((202, "", "")), call((200, "text/plain", "ok"))]);
        assert_eq!(
            findings("http-request-content-type", &trace),
            [(2, Error), (3, Error)]
        );
    }

    #[test]
    fn silent_on_sse_json_errors_and_notifications() {
        let result = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
        let stream = sse(&[&format!("data: {result}")]);
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let trace = har(&[
            call((200, "text/event-stream", &stream)),
            call((200, "application/json; charset=utf-8", result)),
            call((400, "text/plain", "Bad Request")),
            entry("POST", &[], Some(&note), (202, "", "")),
        ]);
        assert_eq!(findings("http-request-content-type", &trace), []);
    }
}
