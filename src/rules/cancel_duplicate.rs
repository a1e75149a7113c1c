//! `cancel-duplicate`: the same request cancelled twice.

use crate::diagnostic::Severity;
use crate::engine::{CancelTarget, Facts};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cancel-duplicate",
    family: Family::Cancel,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "the same request is cancelled twice",
    quote: "Invalid cancellation notifications SHOULD be ignored: Unknown request IDs; Already completed requests; Malformed notifications",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "send one cancellation per request; make the cancel path idempotent (for example, a timeout racing a user's cancel)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Cancel(CancelTarget::AlreadyCancelled(request)), Some(from)) =
        (&ctx.facts, ctx.from)
    else {
        return;
    };
    let mut diagnostic = ctx
        .diagnostic(
            &META,
            words!("{} cancels request {} a second time", from, request.id),
        )
        .with_request_id(request.id);
    if let Some(first) = request.cancel.map(|c| c.location) {
        diagnostic = diagnostic.with_related(first, "first cancelled here");
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#;
    const CANCEL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "cancel-duplicate",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn info_on_a_second_cancellation_of_a_running_request() {
        assert_eq!(check(&[CALL, CANCEL, CANCEL]), [(6, Info)]);
    }

    #[test]
    fn info_even_when_a_response_came_in_between() {
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#;
        assert_eq!(check(&[CALL, CANCEL, result, CANCEL]), [(7, Info)]);
    }

    #[test]
    fn silent_when_the_first_cancellation_was_malformed() {
        let malformed = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"request_id":1}}}"#;
        assert_eq!(check(&[CALL, malformed, CANCEL]), []);
    }

    #[test]
    fn silent_on_repeated_cancellations_of_initialize() {
        // cancel-initialize reports each of them.
        let cancel_init = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}}"#;
        assert_eq!(check(&[cancel_init, cancel_init]), []);
    }
}
