//! `http-reject-error-status`: a POST of notifications or responses refused with a JSON-RPC error but a success status.

use crate::diagnostic::Severity;
use crate::event::{Body, Outcome, Side};
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-reject-error-status",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::from(Version::V2025_03_26),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "the server answers a POST of only notifications or responses with a JSON-RPC error under a 2xx status, not an HTTP error status",
    quote: "If the server cannot accept the input, it MUST return an HTTP error status code (e.g., 400 Bad Request).",
    spec: Some(STREAMABLE_HTTP),
    help: "refuse input you cannot accept with an HTTP error status (400 Bad Request); the body may then hold a JSON-RPC error without an id",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(Side::Server), Some(message)) = (ctx.from, ctx.message) else {
        return;
    };
    let Body::Response {
        outcome: Outcome::Error { .. },
        ..
    } = &message.body
    else {
        return;
    };
    let Some(stream) = ctx
        .event
        .stream
        .as_deref()
        .and_then(|s| ctx.session.http.streams.get(s))
    else {
        return;
    };
    let succeeded = stream.status.is_some_and(|s| (200..300).contains(&s));
    if ctx.session.http.legacy_transport
        || stream.method != "POST"
        || stream.requests > 0
        || stream.input == 0
        || !succeeded
    {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!("the server refuses a POST of notifications or responses with a JSON-RPC error under status {}", stream.status.unwrap_or_default()),
        )
        .with_label("the error")
        .with_related(stream.location, "the POST"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har};

    fn initialized(answer: (u16, &str, &str)) -> serde_json::Value {
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        entry("POST", &[], Some(&note), answer)
    }

    const ERROR: &str =
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#;

    #[test]
    fn fires_on_an_error_under_200() {
        assert_eq!(
            findings(
                "http-reject-error-status",
                &har(&[initialized((200, "application/json", ERROR))])
            ),
            [(2, Error)]
        );
    }

    #[test]
    fn silent_on_400_and_on_202() {
        let trace = har(&[
            initialized((400, "application/json", ERROR)),
            initialized((202, "", "")),
        ]);
        assert_eq!(findings("http-reject-error-status", &trace), []);
    }
}
