//! `sse-message-events`: a 2024-11-05 server message sent as an SSE event of another type.

use crate::diagnostic::Severity;
use crate::event::SseData;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "sse-message-events",
    family: Family::Http,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2024_11_05),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a server of the 2024-11-05 HTTP+SSE transport sends a JSON-RPC message in an SSE event whose type is not message",
    quote: "Server messages are sent as SSE message events, with the message content encoded as JSON in the event data.",
    spec: Some(TRANSPORTS),
    help: "send every server message as an SSE event of type message (or without an event line)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::http_exchange(ctx) else {
        return;
    };
    let mistyped = http.sse.iter().find_map(|e| {
        let kind = e.event.as_deref().filter(|k| *k != "message")?;
        (e.data == SseData::JsonRpc).then_some(kind)
    });
    let Some(kind) = mistyped else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!("the server sends a JSON-RPC message as an SSE {} event, not a message event; clients skip it", crate::words::Arg::quoted(kind)),
        )
        .with_label("the stream"),
    );
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{entry, findings, har, sse};

    fn stream(kind: &str) -> serde_json::Value {
        let message = format!("event: {kind}\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}}");
        let events = sse(&["event: endpoint\ndata: /messages/?session_id=1", &message]);
        entry("GET", &[], None, (200, "text/event-stream", &events))
    }

    #[test]
    fn warns_on_a_message_in_a_notification_event() {
        assert_eq!(
            findings("sse-message-events", &har(&[stream("notification")])),
            [(2, Warning)]
        );
    }

    #[test]
    fn silent_on_message_events() {
        assert_eq!(
            findings("sse-message-events", &har(&[stream("message")])),
            []
        );
    }
}
