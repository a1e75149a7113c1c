//! `progress-token-reused`: a request carries a token another active request holds.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::Facts;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "progress-token-reused",
    family: Family::Progress,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a request carries a progress token still active for another request of the same sender",
    quote: "Progress tokens can be chosen by the sender using any means, but MUST be unique across all active requests.",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "pick a token no running request uses; a token is free again once its request is answered or cancelled, or, for a request answered with a task, once the task ends",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Request(facts), Some(from)) = (&ctx.facts, ctx.from) else {
        return;
    };
    let Some(holder) = facts.token_holder else {
        return;
    };
    let Some(token) = holder.token else { return };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "progress token {} is still active for {}",
                token,
                describe_request(from, &holder)
            ),
        )
        .with_progress_token(token)
        .with_request_id(holder.id)
        .with_related(holder.location, "the running request that holds the token"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "progress-token-reused",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_when_two_running_requests_share_the_token_0() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":0}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":0}}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn silent_once_the_earlier_request_was_answered_or_cancelled() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_across_sides_and_across_token_types() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"_meta":{"progressToken":1}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"1"}}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn fires_when_the_server_reuses_the_token_of_a_running_sampling() {
        let lines = [
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":10,"method":"sampling/createMessage","params":{"_meta":{"progressToken":"llm"}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":11,"method":"sampling/createMessage","params":{"_meta":{"progressToken":"llm"}}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn silent_when_a_token_equals_another_requests_id() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":2}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":1}}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn a_token_stays_active_until_the_task_of_its_request_ends() {
        let call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{},"_meta":{"progressToken":"t"}}}}"#;
        let created = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null}}}}"#;
        let status = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"a","status":"completed","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:01Z","ttl":null}}}"#;
        let reuse = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"t"}}}}"#;
        assert_eq!(check(&[call, created, reuse]), [(6, Error)]);
        assert_eq!(check(&[call, created, status, reuse]), []);
    }
}
