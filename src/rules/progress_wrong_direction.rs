//! `progress-wrong-direction`: the requester sends progress for its own request's token.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ProgressTarget};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "progress-wrong-direction",
    family: Family::Progress,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "the requester sends progress for the token of its own request",
    quote: "When a party wants to receive progress updates for a request, it includes a progressToken in the request metadata. [...] The receiver MAY then send progress notifications containing the original progress token",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "progress flows from the side doing the work (the receiver of the request) to the side that asked for it",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Progress(ProgressTarget::OwnToken(request)), Some(from)) = (&ctx.facts, ctx.from)
    else {
        return;
    };
    let Some(token) = request.token else { return };
    if super::stateless_client_progress(ctx) {
        return; // v5-progress-server-only's
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} sends progress for token {} of its own {}",
                from,
                token,
                describe_request(from, request)
            ),
        )
        .with_progress_token(token)
        .with_request_id(request.id)
        .with_related(
            request.location,
            words!("the {} asked for progress with this token here", from),
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#;
    const CLIENT_PROGRESS: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "progress-wrong-direction",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_when_the_client_reports_progress_on_its_own_call() {
        assert_eq!(check(&[CALL, CLIENT_PROGRESS]), [(5, Error)]);
    }

    #[test]
    fn silent_when_both_sides_use_the_same_token_in_the_right_direction() {
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"_meta":{"progressToken":"t"}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}}"#,
            CLIENT_PROGRESS,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_once_the_own_request_ended() {
        // progress-unknown-token owns it.
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#;
        assert_eq!(check(&[CALL, result, CLIENT_PROGRESS]), []);
    }

    #[test]
    fn fires_when_the_server_reports_progress_on_its_own_sampling() {
        let sampling = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s-1","method":"sampling/createMessage","params":{"_meta":{"progressToken":"s"}}}}"#;
        let progress = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"s","progress":1}}}"#;
        assert_eq!(check(&[sampling, progress]), [(5, Error)]);
    }
}
