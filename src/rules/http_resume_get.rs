//! `http-resume-get`: a stream resumed through a POST rather than a GET.

use crate::diagnostic::Severity;
use crate::protocol::headers::Header;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-resume-get",
    family: Family::Http,
    default_severity: Severity::Info,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a client sends Last-Event-ID on a POST: resumption is a GET to the MCP endpoint",
    quote: "If the client wishes to resume after a broken connection, it SHOULD issue an HTTP GET to the MCP endpoint, and include the Last-Event-ID header to indicate the last event ID it received.",
    spec: Some(TRANSPORTS),
    help: "resume a broken stream with a GET carrying Last-Event-ID; a POST starts a new request",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some(last) = http.request_header(Header::LastEventId) else {
        return;
    };
    if http.method == "GET" {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "the client sends Last-Event-ID {} on a {}, not on a GET",
                crate::words::Arg::quoted(last),
                http.method
            ),
        )
        .with_label("the request"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{entry, findings, har};

    fn with_last_event_id(method: &str) -> serde_json::Value {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let body = (method == "POST").then_some(&ping);
        entry(
            method,
            &[("Last-Event-ID", "7")],
            body,
            (200, "text/event-stream", ""),
        )
    }

    #[test]
    fn info_on_a_post_resuming() {
        assert_eq!(
            findings("http-resume-get", &har(&[with_last_event_id("POST")])),
            [(2, Info)]
        );
    }

    #[test]
    fn silent_on_a_get_resuming() {
        assert_eq!(
            findings("http-resume-get", &har(&[with_last_event_id("GET")])),
            []
        );
    }
}
