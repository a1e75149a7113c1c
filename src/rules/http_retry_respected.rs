//! `http-retry-respected`: a client reconnecting sooner than the stream's retry field asked.

use crate::diagnostic::Severity;
use crate::protocol::headers::Header;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-retry-respected",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a client resumes a stream (GET with Last-Event-ID) sooner after it ended than the stream's retry field asked",
    quote: "The client MUST respect the retry field, waiting the given number of milliseconds before attempting to reconnect.",
    spec: Some(TRANSPORTS),
    help: "wait at least the retry interval the server gave before reconnecting with Last-Event-ID",
};

pub static RULE: Rule = Rule::on_events(&META, check);

/// How far HAR times may be off: a capture sees a stream end before the
/// client does (a proxy, a browser's network layer), by a few milliseconds.
fn slack(retry: u64) -> f64 {
    (retry as f64 / 10.0).max(50.0)
}

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let (Some(last), Some(started)) = (http.request_header(Header::LastEventId), ctx.event.time_ms)
    else {
        return;
    };
    let streams = &ctx.session.http;
    let Some(seen) = streams.event_ids.get(last.trim()) else {
        return;
    };
    let Some(previous) = streams.streams.get(&seen.stream) else {
        return;
    };
    let (Some(retry), Some(ended)) = (previous.retry, previous.ended_ms) else {
        return;
    };
    let waited = started - ended as f64;
    if waited + slack(retry) >= retry as f64 {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!("the client reconnects {} ms after the stream ended, but the server asked for retry {} ms", waited.max(0.0).round(), retry),
        )
        .with_label("the request")
        .with_related(previous.location, "the stream that set retry"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{entry, findings, har, sse};

    /// A POST whose SSE stream sets retry 3000 and event id "e1", ending at 07:00:01.
    fn primed() -> serde_json::Value {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}});
        let result = r#"data: {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}"#;
        let mut e = entry(
            "POST",
            &[],
            Some(&init),
            (
                200,
                "text/event-stream",
                &sse(&[result, "id: e1\nretry: 3000\ndata:"]),
            ),
        );
        e["startedDateTime"] = json!("2026-11-30T07:00:00.000Z");
        e["time"] = json!(1000);
        e
    }

    fn resume_at(started: &str) -> serde_json::Value {
        let mut e = entry(
            "GET",
            &[("Last-Event-ID", "e1")],
            None,
            (200, "text/event-stream", ""),
        );
        e["startedDateTime"] = json!(started);
        e
    }

    #[test]
    fn warns_on_a_reconnect_before_retry() {
        let trace = har(&[primed(), resume_at("2026-11-30T07:00:02.000Z")]);
        assert_eq!(findings("http-retry-respected", &trace), [(3, Warning)]);
    }

    #[test]
    fn silent_after_the_retry_interval() {
        let trace = har(&[primed(), resume_at("2026-11-30T07:00:03.800Z")]);
        assert_eq!(findings("http-retry-respected", &trace), []);
    }
}
