//! `tasks-get-result-capability`: `tasks/get` or `tasks/result` sent to a
//! peer that declared no `tasks` capability at all (the spec names no
//! sub-capability for them).

use super::tasks::{PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::protocol::{capabilities, methods, tasks};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "tasks-get-result-capability",
    family: Family::Tasks,
    default_severity: Severity::Info,
    versions: VERSIONS,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "tasks/get or tasks/result sent to a peer that declared no tasks capability, so it has no tasks to ask about",
    quote: "If `capabilities.tasks` is not defined, the peer SHOULD NOT attempt to create tasks during requests.",
    spec: Some(PAGE),
    help: "ask for tasks only of a peer that declared the tasks capability and created them",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some((method, from)), Some(version)) = (super::sent_method(ctx), ctx.version) else {
        return;
    };
    // tasks/list and tasks/cancel have their own capability (capability-not-advertised).
    let gated = methods::method(method, version).and_then(|row| row.needs_in(version));
    if tasks::operation(method).is_none() || gated.is_some() {
        return;
    }
    let Some(declared) = ctx.session.lifecycle.capabilities(from.peer()) else {
        return;
    };
    if capabilities::advertised(&declared.value, tasks::CAPABILITY) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} sends {}, but the {} declared no tasks capability",
                from,
                method,
                from.peer()
            ),
        )
        .with_request_id_of(ctx.message.expect("a request"))
        .with_related(
            declared.location,
            words!("the {} declared its capabilities here", from.peer()),
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::tasks::testing::{ask, session, session_with, BEFORE};
    use crate::rules::testing::findings;

    #[test]
    fn info_when_the_peer_declared_no_tasks() {
        let trace = session_with(
            r#"{"tools":{}}"#,
            &[&ask(2, "tasks/get", "a"), &ask(3, "tasks/list", "a")],
        );
        assert_eq!(
            findings("tasks-get-result-capability", &trace),
            [(BEFORE + 1, Info)]
        );
    }

    #[test]
    fn silent_when_it_declared_tasks() {
        let trace = session(&[&ask(2, "tasks/result", "a")]);
        assert_eq!(
            findings("tasks-get-result-capability", &trace),
            Vec::<(u64, Severity)>::new()
        );
    }
}
