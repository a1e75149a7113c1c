//! `response-unknown-id`: a response whose id matches no request of the other side.

use super::client_reported;
use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::event::ReportedFailure;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "response-unknown-id",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::RESPONSE.and(Wants::TRANSPORT),
    order_dependent: false,
    summary: "a response whose id matches no request of the other side",
    quote: "Responses MUST include the same ID as the request they correspond to.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "answer with the id of the request exactly as received, keeping its type (1 and \"1\" are different ids)",
};

/// Why a response the client reports as unknown is a warning.
const FORGOTTEN_NOTE: &str = "the client forgets a request once it cancels it or stops waiting, so this may be a late answer to such a request rather than an id it never sent";

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    unknown(ctx, out);
    reported(ctx, out);
}

fn unknown(ctx: &Ctx, out: &mut Out) {
    let (Facts::Response(target), Some(from)) = (&ctx.facts, ctx.from) else {
        return;
    };
    let peer = from.peer();
    let Some(crate::event::Body::Response {
        id: Some(crate::event::KeyField::Valid(id)),
        ..
    }) = ctx.message.map(|m| &m.body)
    else {
        if let ResponseTarget::InvalidId(kind) = target {
            out.push(ctx.diagnostic(
                &META,
                words!(
                    "{} sends a response whose id is {}, which can match no request",
                    from,
                    kind.describe()
                ),
            ));
        }
        return;
    };
    let ResponseTarget::Unknown { own } = target else {
        return;
    };
    let mut diagnostic = ctx
        .diagnostic(
            &META,
            words!(
                "{} answers request {}, which the {} never sent",
                from,
                id,
                peer
            ),
        )
        .with_request_id(id);
    if let Some(own) = own {
        diagnostic = diagnostic.with_related(
            own.location,
            words!(
                "only the {} itself sent a request with this id: {}",
                from,
                describe_request(from, own)
            ),
        );
    }
    diagnostic = diagnostic.lowered_unless_proven(ctx, Severity::Info);
    out.push(diagnostic);
}

/// The client's SDK reports a response to a request it does not know.
fn reported(ctx: &Ctx, out: &mut Out) {
    let Some((id, report)) = client_reported::failure(ctx, |f| match f {
        ReportedFailure::UnknownResponseId(id) => Some(id.as_ref()),
        _ => None,
    }) else {
        return;
    };
    let what = match id {
        Some(id) => words!("the server answers request {}, which it does not know", id),
        None => words!("the server answers a request it does not know"),
    };
    let diagnostic = client_reported::diagnostic(ctx, &META, what, report)
        .with_severity(Severity::Warning)
        .with_note(FORGOTTEN_NOTE);
    out.push(match id {
        Some(id) => diagnostic.with_request_id(id),
        None => diagnostic,
    });
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "response-unknown-id",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_a_string_id_for_an_integer_request_and_on_an_own_id() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"1","result":{"tools":[]}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":7,"method":"roots/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":7,"result":{"roots":[]}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error), (7, Error)]);
    }

    #[test]
    fn info_mid_session_or_after_an_unreadable_line() {
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":3,"result":{}}}"#;
        assert_eq!(findings("response-unknown-id", result), [(1, Info)]);
        assert_eq!(check(&["not json", result]), [(5, Info)]);
    }

    #[test]
    fn error_on_an_invalid_id_even_mid_session() {
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1.5,"result":{}}}"#;
        assert_eq!(findings("response-unknown-id", result), [(1, Error)]);
    }

    #[test]
    fn silent_once_on_a_response_that_repeats_the_invalid_id_of_a_request() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"Invalid Request"}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1.5,"result":{}}}"#,
        ];
        let trace = format!("{HANDSHAKE}{}", lines.join("\n"));
        assert_eq!(findings("response-unknown-id", &trace), [(6, Error)]);
    }

    #[test]
    fn silent_when_the_id_matches_something() {
        // Duplicate answers, answers after a cancellation, null ids and
        // answers to id-bearing notifications belong to other rules.
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":2,"result":{}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":null,"result":{}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":9,"method":"notifications/roots/list_changed"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":9,"result":{}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn fires_when_the_client_answers_its_own_request() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"tools/list"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn warns_on_an_unknown_id_the_client_reports() {
        // A Claude Code log (issue 13): the client forgets cancelled requests.
        let log = r#"{"error":"Connection error: Received a response for an unknown message ID: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}","timestamp":"2026-04-14T09:13:10.207Z","sessionId":"0b9f","cwd":"/p"}"#;
        assert_eq!(
            findings("response-unknown-id", log),
            [(1, Severity::Warning)]
        );
    }
}
