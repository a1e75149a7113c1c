//! `v5-http-unknown-method-404`: a 2026-07-28 request answered with error -32601 under an HTTP status other than 404.

use crate::diagnostic::Severity;
use crate::protocol::errors::METHOD_NOT_FOUND;
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

/// The HTTP status that must carry a method-not-found error.
const NOT_FOUND: i64 = 404;

pub static META: RuleMeta = RuleMeta {
    id: "v5-http-unknown-method-404",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a 2026-07-28 request is answered with JSON-RPC error -32601 (method not found) under an HTTP status other than 404",
    quote: "If the server does not implement the requested RPC method, it MUST respond with `404 Not Found` and a JSON-RPC error with code `-32601`",
    spec: Some(STREAMABLE_HTTP),
    help: "answer a request for a method the server does not implement with HTTP 404 Not Found and the JSON-RPC error -32601 in the body",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let status = http.status.unwrap_or_default();
    let streamed = http.stream_error_code == Some(METHOD_NOT_FOUND);
    let in_body = http.response_error_code == Some(METHOD_NOT_FOUND);
    if !(streamed || in_body) || status == NOT_FOUND {
        return;
    }
    let words = match streamed {
        true => words!(
            "the server answers with error {} (method not found) on an SSE stream under HTTP {}, not 404 Not Found",
            METHOD_NOT_FOUND,
            status
        ),
        false => words!(
            "the server answers with error {} (method not found) under HTTP {}, not 404 Not Found",
            METHOD_NOT_FOUND,
            status
        ),
    };
    out.push(ctx.diagnostic(&META, words).with_label("the response"));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, sse};

    /// A 2026-07-28 request of `method` answered `status` with the error
    /// `code`, in a JSON body.
    fn answered(method: &str, status: u16, code: i64) -> serde_json::Value {
        answered_as(method, (status, "application/json"), code)
    }

    /// The same, as the response's `(status, content type)` has it.
    fn answered_as(
        method: &str,
        (status, content_type): (u16, &str),
        code: i64,
    ) -> serde_json::Value {
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
        let request =
            json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": meta}});
        let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "no"}});
        let text = match content_type {
            "text/event-stream" => sse(&[&format!("data: {error}")]),
            _ => error.to_string(),
        };
        let headers = [("MCP-Protocol-Version", "2026-07-28")];
        entry(
            "POST",
            &headers,
            Some(&request),
            (status, content_type, &text),
        )
    }

    #[test]
    fn fires_on_method_not_found_under_200() {
        let streamed = answered_as("tools/frobnicate", (200, "text/event-stream"), -32601);
        let trace = har(&[answered("tools/frobnicate", 200, -32601), streamed]);
        assert_eq!(
            findings("v5-http-unknown-method-404", &trace),
            [(2, Error), (3, Error)]
        );
    }

    #[test]
    fn silent_under_404_and_on_other_errors() {
        let trace = har(&[
            answered("tools/frobnicate", 404, -32601),
            answered("tools/call", 200, -32602),
            answered_as("tools/call", (200, "text/event-stream"), -32602),
        ]);
        assert_eq!(findings("v5-http-unknown-method-404", &trace), []);
    }
}
