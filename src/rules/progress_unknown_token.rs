//! `progress-unknown-token`: progress for a token no request of the peer carried.

use super::client_reported;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ProgressTarget};
use crate::event::ReportedFailure;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "progress-unknown-token",
    family: Family::Progress,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION.and(Wants::TRANSPORT),
    order_dependent: false,
    summary: "progress for a token that no active request of the other side carried",
    quote: "Progress notifications MUST only reference tokens that: Were provided in an active request; Are associated with an in-progress operation",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "send progress only with the exact progressToken from the _meta of the request being worked on (1 and \"1\" are different tokens)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    unknown(ctx, out);
    reported(ctx, out);
}

fn unknown(ctx: &Ctx, out: &mut Out) {
    let (Facts::Progress(ProgressTarget::Unknown(token)), Some(from)) = (&ctx.facts, ctx.from)
    else {
        return;
    };
    if super::stateless_client_progress(ctx) {
        return; // v5-progress-server-only's
    }
    let mut diagnostic = ctx
        .diagnostic(
            &META,
            words!(
                "{} sends progress for token {}, which no request of the {} carried",
                from,
                token,
                from.peer()
            ),
        )
        .with_progress_token(token);
    diagnostic = diagnostic.lowered_unless_proven(ctx, Severity::Info);
    out.push(diagnostic);
}

/// The client's SDK reports progress for a token it does not know.
fn reported(ctx: &Ctx, out: &mut Out) {
    let Some((token, report)) = client_reported::failure(ctx, |f| match f {
        ReportedFailure::UnknownProgressToken(token) => Some(token.as_ref()),
        _ => None,
    }) else {
        return;
    };
    let what = match token {
        Some(token) => {
            words!(
                "the server sends progress for token {}, which it does not know",
                token
            )
        }
        None => words!("the server sends progress for a token it does not know"),
    };
    let diagnostic = client_reported::diagnostic(ctx, &META, what, report)
        .with_note("the token may belong to a request that was already answered or cancelled (then it is progress after the end of the request)");
    out.push(match token {
        Some(token) => diagnostic.with_progress_token(token),
        None => diagnostic,
    });
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1}}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "progress-unknown-token",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_a_string_token_for_an_integer_token() {
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"1","progress":1}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn fires_on_the_request_id_of_a_request_without_token() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":7,"method":"tools/call"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn info_when_the_trace_starts_mid_session() {
        let progress = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}}"#;
        assert_eq!(findings("progress-unknown-token", progress), [(1, Info)]);
    }

    #[test]
    fn silent_when_the_token_is_known_in_either_direction() {
        // After the response: progress-after-terminal; the sender's own
        // running token: progress-wrong-direction.
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":2}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn fires_on_progress_for_a_request_that_asked_for_none() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"index-1","progress":1}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn fires_on_an_unknown_token_the_client_reports() {
        let log = r#"{"error":"Connection error: Received a progress notification for an unknown token: {\"method\":\"notifications/progress\",\"params\":{\"progress\":1,\"progressToken\":5}}","timestamp":"2026-04-14T09:12:42.611Z","sessionId":"0b9f","cwd":"/p"}"#;
        assert_eq!(findings("progress-unknown-token", log), [(1, Error)]);
    }
}
