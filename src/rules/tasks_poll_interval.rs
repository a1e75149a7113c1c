//! `tasks-poll-interval`: a requestor polls a task with `tasks/get` sooner
//! than the `pollInterval` of the previous answer.

use super::tasks::{PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::tasks::named_task_id;
use crate::protocol::tasks::{operation, Operation};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "tasks-poll-interval",
    family: Family::Tasks,
    default_severity: Severity::Info,
    versions: VERSIONS,
    wants: Wants::REQUEST,
    order_dependent: true,
    summary: "a requestor sends tasks/get for a task sooner after the previous tasks/get answer than that answer's pollInterval",
    quote: "Requestors SHOULD respect the `pollInterval` provided in responses when determining polling frequency.",
    spec: Some(PAGE),
    help: "wait at least pollInterval milliseconds after a tasks/get answer before polling the task again, or wait on tasks/result instead",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some((method, from)), Some(now), Some(message)) =
        (super::sent_method(ctx), ctx.event.time_ms, ctx.message)
    else {
        return;
    };
    if operation(method) != Some(Operation::Get) {
        return;
    }
    let task_id = named_task_id(message);
    let Some(task) = task_id
        .as_ref()
        .and_then(|id| id.as_str())
        .and_then(|id| ctx.session.tasks.task(from.peer(), id))
    else {
        return;
    };
    let Some(poll) = task.poll.filter(|p| now - p.answered_ms < p.interval_ms) else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} polls task {} {} ms after the last answer, which asked for {} ms between polls",
                from,
                Arg::quoted(&task.id),
                now - poll.answered_ms,
                poll.interval_ms
            ),
        )
        .with_request_id_of(message)
        .with_related(
            poll.location,
            "the previous tasks/get answer, with its pollInterval",
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::tasks::testing::{session, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn timed(ms: u32, line: String) -> String {
        line.replacen(
            '{',
            &format!(
                r#"{{"ts":"2025-11-25T10:00:{:02}.{:03}Z","#,
                ms / 1000,
                ms % 1000
            ),
            1,
        )
    }

    fn get(id: u32, at: u32) -> [String; 2] {
        [
            timed(
                at,
                format!(
                    r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"tasks/get","params":{{"taskId":"a"}}}}}}"#
                ),
            ),
            timed(
                at + 2,
                format!(
                    r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"result":{{"taskId":"a","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null,"pollInterval":1000}}}}}}"#
                ),
            ),
        ]
    }

    fn check(polls: &[u32]) -> Vec<(u64, Severity)> {
        let created = crate::rules::tasks::testing::created(1, "a");
        let mut lines = vec![CALL.to_string(), created];
        for (i, at) in polls.iter().enumerate() {
            lines.extend(get(i as u32 + 2, *at));
        }
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        findings("tasks-poll-interval", &session(&lines))
    }

    #[test]
    fn info_when_polled_sooner_than_asked() {
        assert_eq!(check(&[0, 300]), [(BEFORE + 5, Info)]);
    }

    #[test]
    fn silent_when_the_interval_is_respected() {
        assert_eq!(check(&[0, 1002, 2100]), []);
    }
}
