//! `http-sse-close-after-response`: a POST stream that goes on after the final response.

use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-sse-close-after-response",
    family: Family::Http,
    default_severity: Severity::Info,
    versions: Versions::from(Version::V2025_03_26),
    wants: Wants::MESSAGES,
    order_dependent: false,
    summary: "the server sends more on a POST's SSE stream after the response to every request of that POST",
    quote: "After the JSON-RPC response has been sent, the server SHOULD close the SSE stream.",
    spec: Some(STREAMABLE_HTTP),
    help: "end the SSE stream of a POST once it carried the response; send later messages on the GET stream",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    if ctx.from != Some(Side::Server) {
        return;
    }
    let http = &ctx.session.http;
    let Some(here) = ctx.event.stream.as_deref() else {
        return;
    };
    let Some(stream) = http.streams.get(http.origin(here)) else {
        return;
    };
    // One finding per stream: its first message after the response.
    if http.legacy_transport
        || stream.method != "POST"
        || !stream.answered_all()
        || stream.after_final > 0
    {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            "the server goes on sending on a POST's SSE stream after the response it carries",
        )
        .with_label("after the response")
        .with_related(stream.location, "the POST"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{entry, findings, har, sse};

    fn call(events: &[&str]) -> serde_json::Value {
        let request =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}});
        entry(
            "POST",
            &[],
            Some(&request),
            (200, "text/event-stream", &sse(events)),
        )
    }

    const RESULT: &str = r#"data: {"jsonrpc":"2.0","id":1,"result":{}}"#;
    const LOG: &str = r#"data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;

    #[test]
    fn info_once_on_messages_after_the_response() {
        assert_eq!(
            findings(
                "http-sse-close-after-response",
                &har(&[call(&[RESULT, LOG, LOG])])
            ),
            [(2, Info)]
        );
    }

    #[test]
    fn silent_on_messages_before_the_response() {
        assert_eq!(
            findings(
                "http-sse-close-after-response",
                &har(&[call(&[LOG, RESULT])])
            ),
            []
        );
    }
}
