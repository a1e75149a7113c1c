//! `tasks-create-result`: a receiver that declared tasks for a request type
//! answers a task-augmented request of that type with another result than a
//! `CreateTaskResult`.

use super::tasks::{PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::engine::tasks::creates_task;
use crate::event::{Body, Outcome};
use crate::protocol::capabilities::advertised;
use crate::protocol::tasks::augmentable;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-create-result",
    family: Family::Tasks,
    default_severity: Severity::Error,
    versions: VERSIONS,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a receiver that declared tasks for a request type answers a task-augmented request of that type with a plain result instead of a CreateTaskResult",
    quote: "Receivers that accept a task-augmented request MUST return a `CreateTaskResult` as the response.",
    spec: Some(PAGE),
    help: "answer a task-augmented request at once with {\"task\": {...}} and deliver its result through tasks/result",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(from), Some(request), Some(message)) = (ctx.from, ctx.facts.answered(), ctx.message)
    else {
        return;
    };
    let Body::Response {
        outcome: Outcome::Result { .. },
        ..
    } = message.body
    else {
        return;
    };
    if ctx
        .session
        .tasks
        .augmented(from.peer(), request.id)
        .is_none()
        || message.incomplete
        || creates_task(message, request.method)
    {
        return;
    }
    // A receiver that did not declare the type processes it normally (allowed).
    let (Some(row), Some(declared)) = (
        augmentable(request.method),
        ctx.session.lifecycle.capabilities(from),
    ) else {
        return;
    };
    if !advertised(&declared.value, row.capability) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} answers the task-augmented {} with a plain result, not a CreateTaskResult",
                from,
                super::describe_request(from.peer(), request)
            ),
        )
        .with_request_id(request.id)
        .with_related(request.location, "the request asked to run as a task")
        .with_related(
            declared.location,
            words!("the {} declared `{}` here", from, row.capability),
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::tasks::testing::{answer, created, session, session_with, BEFORE, CALL};
    use crate::rules::testing::findings;

    #[test]
    fn fires_on_a_plain_result_from_a_server_that_declared_tool_tasks() {
        let trace = session(&[CALL, &answer(1, r#"{"content":[]}"#)]);
        assert_eq!(
            findings("tasks-create-result", &trace),
            [(BEFORE + 2, Error)]
        );
    }

    #[test]
    fn silent_on_a_task_and_on_an_undeclared_type_processed_normally() {
        assert_eq!(
            findings("tasks-create-result", &session(&[CALL, &created(1, "a")])),
            Vec::<(u64, Severity)>::new()
        );
        let trace = session_with(r#"{"tools":{}}"#, &[CALL, &answer(1, r#"{"content":[]}"#)]);
        assert_eq!(findings("tasks-create-result", &trace), []);
    }
}
