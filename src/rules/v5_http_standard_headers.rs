//! `v5-http-standard-headers`: a 2026-07-28 POST whose Mcp-Method or Mcp-Name header is missing or differs from its body.

use crate::diagnostic::Severity;
use crate::event::{HttpExchange, RequestSummary};
use crate::protocol::headers::{decoded_value, Header};
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Words;

pub static META: RuleMeta = RuleMeta {
    id: "v5-http-standard-headers",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a 2026-07-28 POST lacks Mcp-Method (every request) or Mcp-Name (tools/call, resources/read, prompts/get), or their values differ from the request body",
    quote: "These headers are REQUIRED for compliance.",
    spec: Some(STREAMABLE_HTTP),
    help: "mirror the request's method into Mcp-Method and its params.name (or params.uri) into Mcp-Name, base64-encoded as =?base64?...?= when not plain ASCII",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((http, request)) = super::posted_request(ctx) else {
        return;
    };
    let method = request.method.as_str();
    let words = match http.request_header(Header::McpMethod).map(str::trim) {
        None => words!("the client sends {} without an Mcp-Method header", method),
        Some(header) if header != method => words!(
            "the client sends Mcp-Method {} for a {} request",
            crate::words::Arg::quoted(header),
            method
        ),
        Some(_) => match name_problem(http, request) {
            Some(words) => words,
            None => return,
        },
    };
    out.push(super::header_mismatch_diagnostic(ctx, &META, http, words));
}

/// What is wrong with `Mcp-Name`, for a method whose body names something.
fn name_problem(http: &HttpExchange, request: &RequestSummary) -> Option<Words> {
    let body = request.name.as_deref()?;
    let Some(header) = http.request_header(Header::McpName) else {
        return Some(words!(
            "the client sends {} without an Mcp-Name header",
            request.method
        ));
    };
    if decoded_value(header).as_deref() == Some(body) {
        return None;
    }
    Some(words!(
        "the client sends Mcp-Name {} but the request names {}",
        crate::words::Arg::quoted(header),
        crate::words::Arg::quoted(body)
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, har, modern_post};

    const VERSION: (&str, &str) = ("MCP-Protocol-Version", "2026-07-28");

    #[test]
    fn fires_on_missing_and_mismatched_headers() {
        let call = json!({"name": "get_weather"});
        let trace = har(&[
            modern_post("tools/list", json!({}), &[VERSION], 200),
            modern_post(
                "tools/list",
                json!({}),
                &[VERSION, ("Mcp-Method", "tools/call")],
                200,
            ),
            modern_post(
                "tools/call",
                call.clone(),
                &[VERSION, ("Mcp-Method", "tools/call")],
                200,
            ),
            modern_post(
                "tools/call",
                call,
                &[VERSION, ("Mcp-Method", "tools/call"), ("Mcp-Name", "other")],
                400,
            ),
        ]);
        assert_eq!(
            findings("v5-http-standard-headers", &trace),
            [(2, Error), (3, Error), (4, Error), (5, Error)]
        );
    }

    #[test]
    fn silent_on_mirrored_headers_plain_and_base64() {
        let weather = json!({"name": "get_weather"});
        let accented = json!({"name": "météo"});
        let trace = har(&[
            modern_post(
                "tools/list",
                json!({}),
                &[VERSION, ("Mcp-Method", "tools/list")],
                200,
            ),
            modern_post(
                "tools/call",
                weather,
                &[
                    VERSION,
                    ("Mcp-Method", "tools/call"),
                    ("Mcp-Name", "get_weather"),
                ],
                200,
            ),
            modern_post(
                "tools/call",
                accented,
                &[
                    VERSION,
                    ("Mcp-Method", "tools/call"),
                    ("Mcp-Name", "=?base64?bcOpdMOpbw==?="),
                ],
                200,
            ),
        ]);
        assert_eq!(findings("v5-http-standard-headers", &trace), []);
    }
}
