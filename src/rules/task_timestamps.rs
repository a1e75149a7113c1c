//! `task-timestamps`: a task lacks `createdAt` or `lastUpdatedAt`, or one of
//! them is not an ISO 8601 timestamp.

use super::tasks::{seen_whole, PAGE, VERSIONS};
use crate::decode::timestamp::parse_rfc3339_ms;
use crate::diagnostic::Severity;
use crate::engine::tasks::{Observation, Via};
use crate::event::Side;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "task-timestamps",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "a task in a CreateTaskResult, a task operation's result or a status notification lacks createdAt or lastUpdatedAt, or holds one that is not an ISO 8601 timestamp (error), or a createdAt other than its first (warning)",
    quote: "Receivers MUST include a `createdAt` ISO 8601-formatted timestamp in all task responses",
    spec: Some(PAGE),
    help: "include \"createdAt\" and \"lastUpdatedAt\" as ISO 8601 date-times (\"2025-11-25T10:30:00Z\") in every task you report",
};

pub static RULE: Rule = Rule::on_events(&META, check);

const MEMBERS: [&str; 2] = ["createdAt", "lastUpdatedAt"];

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((from, seen)) = seen_whole(ctx) else {
        return;
    };
    for observation in seen {
        for member in MEMBERS {
            let problem = match observation.task.member(member) {
                None => words!("has no {}", member),
                Some(value) if value.as_str().and_then(parse_rfc3339_ms).is_none() => {
                    words!(
                        "has the {} {}, which is not an ISO 8601 timestamp",
                        member,
                        value.to_string()
                    )
                }
                Some(_) => continue,
            };
            let task = observation
                .task
                .id()
                .map_or(words!(""), |id| words!(" {}", Arg::quoted(id)));
            out.push(ctx.diagnostic(
                &META,
                words!("{} reports task{}, which {}", from, task, problem),
            ));
        }
        report_moved_creation(ctx, out, from, &observation);
    }
}

/// A task whose `createdAt` differs from the one it was created with: a
/// warning, as the spec only implies that it stays (derived).
fn report_moved_creation(ctx: &Ctx, out: &mut Out, from: Side, observation: &Observation) {
    let (Some(id), Some(shown)) = (
        observation.task.id(),
        // One that is no timestamp is reported as such.
        observation
            .task
            .member("createdAt")
            .and_then(|c| c.as_str())
            .filter(|c| parse_rfc3339_ms(c).is_some()),
    ) else {
        return;
    };
    let Some(task) = ctx.session.tasks.task(from, id) else {
        return;
    };
    let Some(first) = task.created_at.as_deref().filter(|first| *first != shown) else {
        return;
    };
    if observation.via == Via::Created {
        return; // a reused id: task-id-unique's
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} reports task {} created at {}, not at {} as when it was created",
                from,
                Arg::quoted(id),
                shown,
                first
            ),
        )
        .with_severity(Severity::Warning)
        .with_related(task.created, "the task was created here"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::tasks::testing::{created, session, BEFORE, CALL};
    use crate::rules::testing::findings;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("task-timestamps", &session(lines))
    }

    #[test]
    fn fires_on_a_missing_and_on_a_malformed_timestamp() {
        let status = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"a","status":"working","createdAt":"yesterday","ttl":null}}}"#;
        assert_eq!(
            check(&[CALL, &created(1, "a"), status]),
            [(BEFORE + 3, Error), (BEFORE + 3, Error)]
        );
    }

    #[test]
    fn silent_on_iso_timestamps() {
        assert_eq!(check(&[CALL, &created(1, "a")]), []);
    }

    #[test]
    fn warns_when_created_at_moves() {
        let moved = crate::rules::tasks::testing::status("a", "working")
            .replace("2025-11-25T10:00:00Z", "2025-11-25T11:00:00Z");
        assert_eq!(
            check(&[CALL, &created(1, "a"), &moved]),
            [(BEFORE + 3, Warning)]
        );
    }
}
