//! `open-requests-limit`: one side has more requests open at once than
//! mcp-lint follows (`--max-open-requests`), so that a trace that opens
//! millions of requests and never answers them cannot exhaust memory.

use crate::diagnostic::Severity;
use crate::event::{Body, KeyField};
use crate::protocol::Versions;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "open-requests-limit",
    family: Family::Trace,
    default_severity: Severity::Warning,
    versions: Versions::ALL,
    wants: Wants::REQUEST,
    order_dependent: true,
    summary: "a side has more requests open at once than mcp-lint follows (--max-open-requests); its further requests are not followed",
    quote: "",
    spec: None,
    help: "look at why the peer stopped answering; raise --max-open-requests if the trace really holds that many requests in flight",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some(from)) = (ctx.message, ctx.from) else {
        return;
    };
    let Body::Request {
        id: KeyField::Valid(id),
        ..
    } = &message.body
    else {
        return;
    };
    let registry = ctx.session.side(from);
    if registry.untracked.is_some() || !registry.is_full_for(id) {
        return;
    }
    let max = registry.max_open() as u64;
    let text = words!(
        "{} has {} requests open at once, the most mcp-lint follows (--max-open-requests): its requests from here on are not followed, and answers, cancellations and progress naming no followed request are not reported",
        from,
        max
    );
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

    #[test]
    fn silent_while_requests_are_answered() {
        let lines = [call(1), answer(1), call(2), answer(2), call(3), answer(3)];
        let trace = format!("{HANDSHAKE}{}", lines.join("\n"));
        assert_eq!(findings(&trace, 1), []);
    }
}
