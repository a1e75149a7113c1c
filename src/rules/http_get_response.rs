//! `http-get-response`: a GET answered with success but not an SSE stream.

use crate::diagnostic::Severity;
use crate::protocol::headers::{is_media, EVENT_STREAM};
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-get-response",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a GET to the MCP endpoint is answered 2xx with a content type other than text/event-stream (405 is the other allowed answer)",
    quote: "The server MUST either return Content-Type: text/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed at the MCP endpoint.",
    spec: Some(TRANSPORTS),
    help: "answer the GET with an SSE stream (Content-Type: text/event-stream), or with 405 Method Not Allowed when the server offers no such stream",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    if http.method != "GET" || !http.succeeded() {
        return;
    }
    let content_type = http.response_content_type.as_deref();
    if content_type.is_some_and(|t| is_media(t, EVENT_STREAM)) {
        return;
    }
    let status = http.status.unwrap_or_default();
    let what = match content_type {
        Some(t) => words!(
            "the server answers the GET with {} and Content-Type {}, not an SSE stream or 405",
            status,
            crate::words::Arg::quoted(t)
        ),
        None => words!(
            "the server answers the GET with {} without a Content-Type, not an SSE stream or 405",
            status
        ),
    };
    out.push(ctx.diagnostic(&META, what).with_label("the exchange"));
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, sse};

    #[test]
    fn fires_on_a_json_answer_to_a_get() {
        let session = [("Mcp-Session-Id", "s1")];
        let trace = har(&[entry(
            "GET",
            &session,
            None,
            (200, "application/json", "{}"),
        )]);
        assert_eq!(findings("http-get-response", &trace), [(2, Error)]);
    }

    #[test]
    fn silent_on_an_sse_stream_and_on_405() {
        let stream = entry(
            "GET",
            &[],
            None,
            (200, "text/event-stream; charset=utf-8", &sse(&[": open"])),
        );
        let refused = entry("GET", &[], None, (405, "text/plain", "Method Not Allowed"));
        assert_eq!(findings("http-get-response", &har(&[stream, refused])), []);
    }
}
