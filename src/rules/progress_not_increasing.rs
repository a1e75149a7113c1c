//! `progress-not-increasing`: a progress value not above the previous one.

use super::number;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ProgressTarget};
use crate::event::NumberField;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "progress-not-increasing",
    family: Family::Progress,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a progress value is equal to or below the previous one for that token",
    quote: "The progress value MUST increase with each notification, even if the total is unknown.",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "report strictly increasing progress values; skip an update rather than repeat a value",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Progress(ProgressTarget::Active(request)), Some(from)) = (&ctx.facts, ctx.from)
    else {
        return;
    };
    let Some(NumberField::Number(value)) = ctx.message.and_then(|m| m.params()).map(|p| p.progress)
    else {
        return;
    };
    let Some((previous, previous_location)) = request.last_progress else {
        return;
    };
    if value > previous {
        return;
    }
    // The same progress on another HTTP stream is a broadcast: `http-no-broadcast`.
    if super::reported_as_broadcast(ctx, super::broadcast_progress(ctx)) {
        return;
    }
    let Some(token) = request.token else { return };
    let (shown, shown_previous) = (number(value), number(previous));
    let how = if value == previous {
        "repeats"
    } else {
        "goes back from"
    };
    let mut diagnostic = ctx.diagnostic(
        &META,
        words!(
            "{} progress for token {} {} {} to {}",
            from,
            token,
            how,
            shown_previous,
            shown
        ),
    );
    if request.last_progress_stream != ctx.event.stream.as_deref() {
        // Two streams: the order the capture shows may not be the order sent.
        diagnostic = diagnostic
            .with_severity(Severity::Warning)
            .with_note("the two progress notifications travelled on different streams, whose relative order is not guaranteed");
    }
    out.push(
        diagnostic
            .with_progress_token(token)
            .with_request_id(request.id)
            .with_related(
                previous_location,
                words!("previous progress {} here", shown_previous),
            ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "progress-not-increasing",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_when_progress_goes_back_and_only_on_the_drop() {
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":5}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":3}}}"#,
        ];
        assert_eq!(check(&lines), [(6, Error)]);
    }

    #[test]
    fn fires_when_a_value_repeats_as_1_and_1_0() {
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1.0}}}"#,
        ];
        assert_eq!(check(&lines), [(6, Error)]);
    }

    #[test]
    fn warning_when_the_two_notifications_travelled_on_different_streams() {
        let lines = [
            CALL,
            r#"{"from":"server","stream":"a","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2}}}"#,
            r#"{"from":"server","stream":"b","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}}"#,
        ];
        assert_eq!(check(&lines), [(6, Warning)]);
    }

    #[test]
    fn silent_when_a_new_request_takes_over_the_token() {
        let lines = [
            CALL,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":90}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    /// Server progress for `token` whose params end with `rest` (a JSON text).
    fn progress(token: &str, rest: &str) -> String {
        format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"{token}",{rest}}}}}}}"#
        )
    }

    #[test]
    fn silent_when_the_first_value_is_not_zero_and_the_total_grows() {
        let first = progress("t", r#""progress":30,"total":120"#);
        let jump = progress("t", r#""progress":110,"total":150"#);
        assert_eq!(check(&[CALL, &first, &jump]), []);
    }

    #[test]
    fn silent_on_two_tokens_interleaved() {
        // Each token counts on its own: 50, then 5 of the other, then 100.
        let other = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"u"}}}}"#;
        let lines = [
            CALL,
            other,
            &progress("t", r#""progress":50"#),
            &progress("u", r#""progress":5"#),
            &progress("t", r#""progress":100"#),
        ];
        assert_eq!(check(&lines), []);
    }

    /// Client request `id` carrying token "t".
    fn call(id: u64) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"_meta":{{"progressToken":"t"}}}}}}}}"#
        )
    }

    fn answer(id: u64) -> String {
        format!(r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"result":{{}}}}}}"#)
    }

    #[test]
    fn silent_while_two_running_requests_share_the_token_then_checks_the_one_left() {
        // 1 and 2 are request 1's, 1 is request 2's; after request 2 ends,
        // 3 is request 1's own (above 2), and then 2 goes back.
        let lines = [
            call(1),
            progress("t", r#""progress":1"#),
            progress("t", r#""progress":2"#),
            call(2),
            progress("t", r#""progress":1"#),
            answer(2),
            progress("t", r#""progress":3"#),
            progress("t", r#""progress":2"#),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(check(&lines), [(11, Error)]);
    }

    #[test]
    fn silent_while_two_running_requests_share_an_id() {
        let second = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"u"}}}}"#;
        let lines = [
            CALL,
            &progress("t", r#""progress":5"#),
            second,
            &progress("u", r#""progress":1"#),
            &progress("t", r#""progress":4"#),
            &answer(1),
            // Either request may have ended: still not attributable.
            &progress("u", r#""progress":1"#),
            &answer(1),
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_a_token_taken_over_from_a_cancelled_request_until_the_cancel_was_read() {
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;
        let ping = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"ping"}}"#;
        let lines = [
            CALL,
            &progress("t", r#""progress":5"#),
            cancel,
            &call(2),
            // Request 1's progress crossing its cancellation, then request 2's.
            &progress("t", r#""progress":6"#),
            &progress("t", r#""progress":1"#),
            ping,
            &answer(3),
            // The server had read the cancellation: this is request 2's.
            &progress("t", r#""progress":2"#),
            &progress("t", r#""progress":2"#),
        ];
        assert_eq!(check(&lines), [(13, Error)]);
    }

    #[test]
    fn a_task_carries_its_request_s_last_progress_on() {
        let call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{},"_meta":{"progressToken":"t"}}}}"#;
        let created = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null}}}}"#;
        let at = |value: u32| {
            format!(
                r#"{{"from":"server","msg":{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"t","progress":{value}}}}}}}"#
            )
        };
        let trace = |lines: &[&str]| {
            findings(
                "progress-not-increasing",
                &format!("{HANDSHAKE}{}", lines.join("\n")),
            )
        };
        assert_eq!(trace(&[call, &at(2), created, &at(1)]), [(7, Error)]);
        assert_eq!(trace(&[call, &at(1), created, &at(2), &at(3)]), []);
    }
}
