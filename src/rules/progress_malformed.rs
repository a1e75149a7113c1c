//! `progress-malformed`: a progress notification with a missing or non-numeric value.

use crate::diagnostic::{Severity, Words};
use crate::event::{Body, NumberField};
use crate::protocol::{fields, SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "progress-malformed",
    family: Family::Progress,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "notifications/progress without a progressToken, with progress missing or not a number, or total or message of the wrong type",
    quote: "The progress notification MUST include: The original progress token; The current progress value so far; An optional \"total\" value; An optional \"message\" value",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "send params.progressToken, a numeric params.progress, and optionally a numeric total and a string message",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(Body::Notification { method, params }) = ctx.message.map(|m| &m.body) else {
        return;
    };
    // A log that shows the message only in part cannot prove a member missing.
    if method != "notifications/progress" || ctx.message.is_some_and(|m| m.incomplete) {
        return;
    }
    let mut problems = Vec::new();
    if params.not_object {
        problems.push(words!("params is not an object"));
    } else {
        if params.progress_token.is_none() {
            problems.push(words!("progressToken is missing"));
        }
        match params.progress {
            NumberField::Absent => problems.push(words!("progress is missing")),
            NumberField::Invalid(kind) => {
                problems.push(words!("progress is {}, not a number", kind.describe()))
            }
            NumberField::Number(_) => {}
        }
        if let NumberField::Invalid(kind) = params.total {
            problems.push(words!("total is {}, not a number", kind.describe()));
        }
        // Before 2025-03-26 `message` is an extra member, and may hold anything.
        let defined = fields::PROGRESS_MESSAGE.covers(ctx.versions);
        if let (Some(kind), true) = (params.message_invalid, defined) {
            problems.push(words!("message is {}, not a string", kind.describe()));
        }
    }
    if !problems.is_empty() {
        out.push(ctx.diagnostic(
            &META,
            words!(
                "malformed progress notification: {}",
                Words::joined(problems, "; ")
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1}}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "progress-malformed",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn a_non_string_message_is_an_extra_member_before_2025_03_26() {
        let call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#;
        let progress = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1,"message":42}}}"#;
        let trace =
            |version: &str| HANDSHAKE.replace("2025-11-25", version) + call + "\n" + progress;
        assert_eq!(findings("progress-malformed", &trace("2024-11-05")), []);
        assert_eq!(
            findings("progress-malformed", &trace("2025-03-26")),
            [(5, Error)]
        );
    }

    #[test]
    fn fires_on_a_missing_progress_and_a_missing_token() {
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error), (6, Error)]);
    }

    #[test]
    fn fires_once_for_all_the_problems_of_one_notification() {
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":"50%","total":null,"message":{}}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn fires_on_positional_params() {
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":[1,50]}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn silent_on_fractional_values_and_on_a_token_of_the_wrong_type() {
        // The token's type is progress-token-invalid-type's.
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":0.5,"total":1.5,"message":"half","extra":true}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1.5,"progress":1}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    /// Server progress whose params are `params` (a JSON text).
    fn progress(params: &str) -> String {
        format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","method":"notifications/progress","params":{params}}}}}"#
        )
    }

    #[test]
    fn fires_on_a_null_total_and_a_null_message() {
        let progress = progress(r#"{"progressToken":1,"progress":25,"total":null,"message":null}"#);
        assert_eq!(check(&[CALL, &progress]), [(5, Error)]);
    }

    #[test]
    fn fires_on_a_string_total_and_an_object_message() {
        let progress = progress(r#"{"progressToken":1,"progress":25,"total":"100","message":{}}"#);
        assert_eq!(check(&[CALL, &progress]), [(5, Error)]);
    }

    #[test]
    fn silent_on_progress_whose_params_the_log_does_not_show() {
        let trace = [
            r#"2026-08-13T07:09:45.382Z [info] [cbm] Message from client: method="initialize" id=0 params"#,
            r#"2026-08-13T07:09:45.390Z [info] [cbm] Message from server: method="notifications/progress" params"#,
        ]
        .join("\n");
        assert_eq!(findings("progress-malformed", &trace), []);
    }
}
