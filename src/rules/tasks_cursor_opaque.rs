//! `tasks-cursor-opaque`: `tasks/list` sent with a cursor its receiver never
//! gave as `nextCursor` (made up, or modified).

use super::tasks::{PAGE, VERSIONS};
use crate::diagnostic::Severity;
use crate::protocol::tasks::{operation, Operation};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "tasks-cursor-opaque",
    family: Family::Tasks,
    default_severity: Severity::Info,
    versions: VERSIONS,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "tasks/list is sent with a cursor that no earlier tasks/list result of the receiver gave as nextCursor",
    quote: "Requestors MUST treat cursors as opaque tokens and not attempt to parse or modify them.",
    spec: Some(PAGE),
    help: "send back a nextCursor exactly as the receiver gave it, and start a listing without a cursor",
};

pub static RULE: Rule = Rule::on_events(&META, check);

#[derive(serde::Deserialize)]
struct ListParams<'a> {
    #[serde(borrow)]
    cursor: Option<&'a str>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some((method, from)), Some(message)) = (super::sent_method(ctx), ctx.message) else {
        return;
    };
    // A trace that starts mid-session may not show where the cursor came from.
    if operation(method) != Some(Operation::List) || !ctx.session.complete {
        return;
    }
    let params = message.members.params.as_ref();
    let Some(cursor) = params
        .and_then(|p| p.parse::<ListParams>())
        .and_then(|p| p.cursor)
    else {
        return;
    };
    if ctx.session.tasks.gave_cursor(from.peer(), cursor) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} sends tasks/list with cursor {}, which the {} never gave",
                from,
                Arg::quoted(cursor),
                from.peer()
            ),
        )
        .with_request_id_of(message),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::tasks::testing::{answer, session, BEFORE};
    use crate::rules::testing::findings;

    fn list(id: u32, cursor: &str) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"tasks/list","params":{{"cursor":"{cursor}"}}}}}}"#
        )
    }

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("tasks-cursor-opaque", &session(lines))
    }

    const FIRST: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tasks/list"}}"#;

    #[test]
    fn info_on_a_cursor_never_given() {
        let page = answer(2, r#"{"tasks":[],"nextCursor":"c1"}"#);
        assert_eq!(check(&[FIRST, &page, &list(3, "c2")]), [(BEFORE + 3, Info)]);
    }

    #[test]
    fn silent_on_a_given_cursor() {
        let page = answer(2, r#"{"tasks":[],"nextCursor":"c1"}"#);
        assert_eq!(check(&[FIRST, &page, &list(3, "c1")]), []);
    }
}
