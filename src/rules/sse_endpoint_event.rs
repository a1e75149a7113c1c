//! `sse-endpoint-event`: a 2024-11-05 SSE stream whose first event is not the endpoint event.

use crate::diagnostic::Severity;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "sse-endpoint-event",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2024_11_05),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "the SSE stream of the 2024-11-05 HTTP+SSE transport does not open with its endpoint event",
    quote: "When a client connects, the server MUST send an endpoint event containing a URI for the client to use for sending messages.",
    spec: Some(TRANSPORTS),
    help: "send the endpoint event (event: endpoint, data: the URI to POST to) as the first event of the stream",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::http_exchange(ctx) else {
        return;
    };
    let Some(first) = http.sse.first() else {
        return;
    };
    if !http.sse_endpoint || first.event.as_deref() == Some("endpoint") {
        return;
    }
    let kind = first.event.as_deref().unwrap_or("message");
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the server's SSE stream opens with a {} event before its endpoint event",
                crate::words::Arg::quoted(kind)
            ),
        )
        .with_label("the stream"),
    );
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, sse};

    fn stream(events: &[&str]) -> serde_json::Value {
        entry("GET", &[], None, (200, "text/event-stream", &sse(events)))
    }

    const ENDPOINT: &str = "event: endpoint\ndata: /messages/?session_id=1";
    const LOG: &str = concat!(
        "event: message\n",
        r#"data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"up"}}"#
    );

    #[test]
    fn fires_when_a_message_comes_first() {
        assert_eq!(
            findings("sse-endpoint-event", &har(&[stream(&[LOG, ENDPOINT])])),
            [(2, Error)]
        );
    }

    #[test]
    fn silent_when_the_endpoint_comes_first() {
        assert_eq!(
            findings("sse-endpoint-event", &har(&[stream(&[ENDPOINT, LOG])])),
            []
        );
    }
}
