//! `v5-http-no-resume`: a 2026-07-28 client sends `Last-Event-ID`, trying to resume a stream.

use crate::diagnostic::Severity;
use crate::protocol::headers::Header;
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-http-no-resume",
    family: Family::Http,
    default_severity: Severity::Info,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a 2026-07-28 client sends Last-Event-ID to resume a stream; 2026-07-28 streams are not resumable",
    quote: "A `Last-Event-ID` header: ignore it; streams are not resumable.",
    spec: Some(STREAMABLE_HTTP),
    help: "a broken 2026-07-28 stream loses its request: re-issue the request with a new request id instead of resuming",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some(last_event) = http.request_header(Header::LastEventId) else {
        return;
    };
    let words = words!(
        "the client sends {} with Last-Event-ID {}, but 2026-07-28 streams are not resumable",
        http.method,
        crate::words::Arg::quoted(last_event)
    );
    out.push(ctx.diagnostic(&META, words).with_label("the request"));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{entry, findings, har, sse};

    /// A GET carrying `headers`, answered with an empty SSE stream.
    fn get(headers: &[(&str, &str)]) -> serde_json::Value {
        entry(
            "GET",
            headers,
            None,
            (200, "text/event-stream", &sse(&[": open"])),
        )
    }

    #[test]
    fn fires_on_a_2026_07_28_resumption_streamed_or_refused() {
        let headers = [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Last-Event-ID", "7"),
        ];
        let refused = entry(
            "GET",
            &headers,
            None,
            (405, "text/plain", "Method Not Allowed"),
        );
        let trace = har(&[get(&headers), refused]);
        assert_eq!(
            findings("v5-http-no-resume", &trace),
            [(2, Info), (3, Info)]
        );
    }

    #[test]
    fn silent_without_last_event_id_and_before_2026_07_28() {
        let trace = har(&[
            get(&[("MCP-Protocol-Version", "2026-07-28")]),
            get(&[
                ("MCP-Protocol-Version", "2025-11-25"),
                ("Last-Event-ID", "7"),
            ]),
        ]);
        assert_eq!(findings("v5-http-no-resume", &trace), []);
    }
}
