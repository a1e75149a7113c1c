//! `v5-x-accel-buffering`: a 2026-07-28 SSE response without `X-Accel-Buffering: no`.

use crate::diagnostic::Severity;
use crate::protocol::headers::{is_media, Header, EVENT_STREAM};
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-x-accel-buffering",
    family: Family::Http,
    default_severity: Severity::Info,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a 2026-07-28 server opens an SSE stream without the X-Accel-Buffering: no response header, so a reverse proxy may hold its events back",
    quote: "When initiating an SSE stream, servers SHOULD include the `X-Accel-Buffering: no` header in the HTTP response.",
    spec: Some(STREAMABLE_HTTP),
    help: "send X-Accel-Buffering: no with every text/event-stream response, so that proxies such as nginx pass each event on at once",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    // A GET stream should not exist at all: v5-http-legacy-artifacts says so.
    let Some(http) = super::streamable_exchange(ctx).filter(|http| http.method == "POST") else {
        return;
    };
    let streams = http
        .response_content_type
        .as_deref()
        .is_some_and(|t| is_media(t, EVENT_STREAM));
    if !streams || !http.succeeded() {
        return;
    }
    let words = match http.response_header(Header::XAccelBuffering) {
        Some(value) if value.trim().eq_ignore_ascii_case("no") => return,
        Some(value) => words!(
            "the server opens an SSE stream with X-Accel-Buffering {}, not no",
            crate::words::Arg::quoted(value)
        ),
        None => words!("the server opens an SSE stream without X-Accel-Buffering: no"),
    };
    out.push(ctx.diagnostic(&META, words).with_label("the response"));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{findings, har, modern_sse_post};

    /// A 2026-07-28 tools/list answered on an SSE stream with `headers`.
    fn streamed(headers: &[(&str, &str)]) -> serde_json::Value {
        modern_sse_post(1, "tools/list", json!({}), headers, &[])
    }

    #[test]
    fn informs_on_a_stream_without_the_header_or_with_another_value() {
        let trace = har(&[streamed(&[]), streamed(&[("X-Accel-Buffering", "yes")])]);
        assert_eq!(
            findings("v5-x-accel-buffering", &trace),
            [(2, Info), (3, Info)]
        );
    }

    #[test]
    fn silent_with_the_header_and_on_json_answers() {
        let json_answer = crate::rules::testing::modern_post("tools/list", json!({}), &[], 200);
        let trace = har(&[streamed(&[("x-accel-buffering", "no")]), json_answer]);
        assert_eq!(findings("v5-x-accel-buffering", &trace), []);
    }
}
