//! `v5-no-server-requests`: a 2026-07-28 server sends a JSON-RPC request.

use super::stateless_server_request;
use crate::diagnostic::Severity;
use crate::protocol::{methods, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-no-server-requests",
    family: Family::Method,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a 2026-07-28 server sends a JSON-RPC request (input requests travel inside an InputRequiredResult)",
    quote: "Servers MUST NOT initiate JSON-RPC requests, and clients do not send JSON-RPC responses.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/index",
        modern: Some("basic/patterns/index"),
        modern_quote: None,
    }),
    help: "to ask the client for input, answer the client's request with an InputRequiredResult whose inputRequests hold the elicitation, sampling or roots request; the client retries with inputResponses",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    if !stateless_server_request(ctx) {
        return;
    }
    let Some(method) = ctx.message.and_then(|m| m.method()) else {
        return;
    };
    let instead = match methods::input_request_needs(method) {
        Some(_) => words!(" (send it as an input request inside an InputRequiredResult)"),
        None => words!(""),
    };
    let message = ctx.message.expect("a request");
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "server sends a request ({}), but 2026-07-28 servers send no requests{}",
                method,
                instead
            ),
        )
        .with_request_id_of(message),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request, HANDSHAKE};

    const ELICIT: &str = r#"{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"City?","requestedSchema":{"type":"object","properties":{}}}}"#;

    #[test]
    fn fires_on_a_server_request_in_a_2026_07_28_session() {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let lines = [
            call.as_str(),
            &server(ELICIT),
            &server(r#"{"jsonrpc":"2.0","id":"s2","method":"ping"}"#),
        ];
        assert_eq!(
            findings("v5-no-server-requests", &trace(&lines)),
            [(2, Error), (3, Error)]
        );
    }

    #[test]
    fn silent_in_a_handshake_session_and_on_notifications() {
        let legacy = format!("{HANDSHAKE}{}", server(ELICIT));
        assert_eq!(findings("v5-no-server-requests", &legacy), []);
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let progress = server(
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#,
        );
        assert_eq!(
            findings("v5-no-server-requests", &trace(&[&call, &progress])),
            []
        );
    }
}
