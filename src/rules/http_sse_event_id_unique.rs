//! `http-sse-event-id-unique`: an SSE event id repeated on another stream of the session.

use crate::diagnostic::Severity;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-sse-event-id-unique",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "an SSE event id is used twice in a session: on two streams (other than a stream and its resumption), or twice on one stream",
    quote: "If present, the ID MUST be globally unique across all streams within that session—or all streams with that specific client, if session management is not in use.",
    spec: Some(TRANSPORTS),
    help: "derive event ids from a per-session counter or include the stream in them, so that Last-Event-ID names one event of one stream",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let streams = &ctx.session.http;
    let here = ctx.event.stream.as_deref().unwrap_or("");
    let origin = streams.resumed_origin(http).unwrap_or(here);
    let mut seen_here: Vec<&str> = Vec::new();
    for id in http.sse.iter().filter_map(|e| e.id.as_deref()) {
        let earlier = streams
            .event_ids
            .get(id)
            .filter(|seen| seen.origin.as_ref() != origin);
        if earlier.is_none() && !seen_here.contains(&id) {
            seen_here.push(id);
            continue;
        }
        let mut diagnostic = ctx
            .diagnostic(
                &META,
                words!(
                    "the server uses SSE event id {} a second time in the session",
                    crate::words::Arg::quoted(id)
                ),
            )
            .with_label("the stream");
        if let Some(seen) = earlier {
            diagnostic =
                diagnostic.with_related(seen.location, words!("first used on {}", seen.stream));
        }
        // One finding per stream.
        return out.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, sse};

    /// A POST of a ping whose SSE answer carries the event `ids`.
    fn stream(id: u32, ids: &[&str]) -> serde_json::Value {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
        let mut events: Vec<String> = ids.iter().map(|i| format!("id: {i}\ndata:")).collect();
        events.push(format!(
            "data: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}"
        ));
        let events: Vec<&str> = events.iter().map(String::as_str).collect();
        entry(
            "POST",
            &[],
            Some(&request),
            (200, "text/event-stream", &sse(&events)),
        )
    }

    fn resume(last: &str, ids: &[&str]) -> serde_json::Value {
        let events: Vec<String> = ids.iter().map(|i| format!("id: {i}\ndata:")).collect();
        let events: Vec<&str> = events.iter().map(String::as_str).collect();
        entry(
            "GET",
            &[("Last-Event-ID", last)],
            None,
            (200, "text/event-stream", &sse(&events)),
        )
    }

    #[test]
    fn fires_on_an_id_of_another_stream_and_on_a_repeat_within_one() {
        let trace = har(&[
            stream(1, &["1", "2"]),
            stream(2, &["2"]),
            stream(3, &["5", "5"]),
        ]);
        assert_eq!(
            findings("http-sse-event-id-unique", &trace),
            [(3, Error), (4, Error)]
        );
    }

    #[test]
    fn silent_on_fresh_ids_and_on_a_resumption_of_the_same_stream() {
        let trace = har(&[
            stream(1, &["a-1", "a-2"]),
            stream(2, &["b-1"]),
            resume("a-1", &["a-2", "a-3"]),
        ]);
        assert_eq!(findings("http-sse-event-id-unique", &trace), []);
    }
}
