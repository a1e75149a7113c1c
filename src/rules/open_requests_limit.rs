//! `open-requests-limit`: one side has more requests running, or more
//! cancelled requests that may still be answered, than mcp-lint follows
//! (`--max-open-requests`), so that a trace that opens (or cancels) millions
//! of requests and never answers them cannot exhaust memory.

use crate::diagnostic::Severity;
use crate::engine::facts::{CancelTarget, Facts};
use crate::event::{Body, KeyField};
use crate::protocol::Versions;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "open-requests-limit",
    family: Family::Trace,
    default_severity: Severity::Warning,
    versions: Versions::ALL,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION),
    order_dependent: true,
    summary: "a side has more requests running, or more cancelled requests that may still be answered, than mcp-lint follows (--max-open-requests); past it, requests are not followed",
    quote: "",
    spec: None,
    help: "look at why the peer stopped answering; raise --max-open-requests if the trace really holds that many requests in flight",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some(from)) = (ctx.message, ctx.from) else {
        return;
    };
    let registry = ctx.session.side(from);
    let max = registry.max_open() as u64;
    let (text, id) = match (&message.body, &ctx.facts) {
        (
            Body::Request {
                id: KeyField::Valid(id),
                ..
            },
            _,
        ) if registry.untracked.is_none() && registry.is_full_for(id) => (
            words!(
                "{} has {} requests running at once, the most mcp-lint follows (--max-open-requests): its requests from here on are not followed, and answers, cancellations and progress naming no followed request are not reported",
                from,
                max
            ),
            id,
        ),
        (Body::Notification { .. }, Facts::Cancel(CancelTarget::Running(request)))
            if registry.forgotten.is_none() && registry.is_full_of_cancelled() =>
        {
            (
                words!(
                    "{} has {} cancelled requests that may still be answered, the most mcp-lint follows (--max-open-requests): from here on the oldest are forgotten, and answers and progress naming no followed request are not reported",
                    from,
                    max
                ),
                request.id,
            )
        }
        _ => return,
    };
    out.push(ctx.diagnostic(&META, text).with_request_id(id));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity;
    use crate::rules::testing::HANDSHAKE;

    fn findings(trace: &str, max: usize) -> Vec<(&'static str, u64)> {
        let engine = crate::rules::engine().following_at_most(Some(max));
        let found = crate::lint_with(trace, None, engine);
        found.iter().map(|d| (d.rule.id, d.location.line)).collect()
    }

    fn call(id: u32) -> String {
        format!(r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"ping"}}}}"#)
    }

    fn answer(id: u32) -> String {
        format!(r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"result":{{}}}}}}"#)
    }

    #[test]
    fn reports_once_past_the_limit_and_nothing_about_untracked_answers() {
        let lines = [
            call(1),
            call(2),
            call(3),
            call(4),
            answer(4),
            answer(3),
            answer(1),
            answer(2),
        ];
        let trace = format!("{HANDSHAKE}{}", lines.join("\n"));
        let found = findings(&trace, 2);
        // Lines 4-5 of the trace are 1 and 2; request 3 (line 6) is the first past the limit.
        assert_eq!(found, [("open-requests-limit", 6)], "{found:?}");
        assert_eq!(
            crate::rules::find("open-requests-limit")
                .unwrap()
                .meta
                .default_severity,
            Severity::Warning
        );
    }

    fn cancel(id: u32) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}}}"#
        )
    }

    #[test]
    fn cancelled_requests_do_not_count_against_the_running_limit() {
        let lines = [
            call(1),
            cancel(1),
            call(2),
            cancel(2),
            call(3),
            call(4),
            answer(3),
            answer(4),
        ];
        let trace = format!("{HANDSHAKE}{}", lines.join("\n"));
        assert_eq!(findings(&trace, 2), []);
    }

    #[test]
    fn reports_once_when_the_oldest_cancelled_requests_are_forgotten() {
        let mut lines = Vec::new();
        for id in 1..=4 {
            lines.extend([call(id), cancel(id)]);
        }
        // 1 and 2 are forgotten: their late answers are not reported; 4's is.
        lines.extend([answer(1), answer(2), answer(4)]);
        let trace = format!("{HANDSHAKE}{}", lines.join("\n"));
        let found = findings(&trace, 2);
        // The cancellation of 3 (line 9) is the first past the limit of 2.
        assert_eq!(
            found,
            [("open-requests-limit", 9), ("response-after-cancel", 14)],
            "{found:?}"
        );
    }

    #[test]
    fn silent_while_requests_are_answered() {
        let lines = [call(1), answer(1), call(2), answer(2), call(3), answer(3)];
        let trace = format!("{HANDSHAKE}{}", lines.join("\n"));
        assert_eq!(findings(&trace, 1), []);
    }
}
