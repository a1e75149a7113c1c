//! `http-get-accept`: a GET stream requested without text/event-stream in Accept.

use crate::diagnostic::Severity;
use crate::protocol::headers::EVENT_STREAM;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-get-accept",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a GET to the MCP endpoint lacks an Accept header listing text/event-stream (a wildcard alone: warning)",
    quote: "The client MUST include an Accept header, listing text/event-stream as a supported content type.",
    spec: Some(TRANSPORTS),
    help: "send Accept: text/event-stream on the GET that opens the server's stream",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    if http.method != "GET" {
        return;
    }
    out.extend(super::accept_diagnostic(ctx, &META, http, &[EVENT_STREAM]));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::{entry, findings, har, sse};

    fn get(accept: Option<&str>) -> serde_json::Value {
        let headers: Vec<(&str, &str)> = accept.map(|a| ("Accept", a)).into_iter().collect();
        entry(
            "GET",
            &headers,
            None,
            (200, "text/event-stream", &sse(&[": open"])),
        )
    }

    #[test]
    fn fires_without_event_stream_and_warns_on_a_wildcard() {
        let trace = har(&[get(None), get(Some("application/json")), get(Some("*/*"))]);
        assert_eq!(
            findings("http-get-accept", &trace),
            [(2, Error), (3, Error), (4, Warning)]
        );
    }

    #[test]
    fn silent_with_event_stream_and_on_a_post() {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let post = entry("POST", &[], Some(&ping), (200, "application/json", "{}"));
        assert_eq!(
            findings(
                "http-get-accept",
                &har(&[get(Some("text/event-stream")), post])
            ),
            []
        );
    }
}
