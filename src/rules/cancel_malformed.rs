//! `cancel-malformed`: a cancellation without a valid requestId.

use crate::diagnostic::Severity;
use crate::engine::{CancelTarget, Facts};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cancel-malformed",
    family: Family::Cancel,
    default_severity: Severity::Warning,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "notifications/cancelled without a valid requestId (missing, null, fractional, object, ...)",
    quote: "Invalid cancellation notifications SHOULD be ignored: Unknown request IDs; Already completed requests; Malformed notifications",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "send params.requestId with the string or integer id of the request to cancel, and an optional string reason",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    if let Facts::Cancel(CancelTarget::Malformed(why)) = &ctx.facts {
        out.push(ctx.diagnostic(
            &META,
            words!(
                "malformed cancellation: {}; the receiver will ignore it",
                why
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "cancel-malformed",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn warns_on_a_misspelt_request_id_and_positional_params() {
        let lines = [
            CALL,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"request_id":1}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}}"#,
        ];
        assert_eq!(check(&lines), [(5, Warning), (6, Warning)]);
    }

    #[test]
    fn warns_on_a_fractional_id_and_a_null_reason() {
        let lines = [
            CALL,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":null}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Warning), (6, Warning)]);
    }

    #[test]
    fn silent_on_an_integral_float_id_and_a_string_reason() {
        let lines = [
            CALL,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.0,"reason":"stop"}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_a_cancellation_sent_with_an_id() {
        // notification-with-id owns it, whatever its params.
        let lines = [
            CALL,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":9,"method":"notifications/cancelled","params":{}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    /// A client cancellation whose params are `params` (a JSON text).
    fn cancel(params: &str) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{params}}}}}"#
        )
    }

    #[test]
    fn warns_on_a_cancellation_without_params() {
        let cancel =
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled"}}"#;
        assert_eq!(check(&[CALL, cancel]), [(5, Warning)]);
    }

    #[test]
    fn warns_on_a_null_request_id() {
        let cancel = cancel(r#"{"requestId":null}"#);
        assert_eq!(check(&[CALL, &cancel]), [(5, Warning)]);
    }

    #[test]
    fn warns_on_a_request_id_that_is_an_object() {
        let cancel = cancel(r#"{"requestId":{"id":1}}"#);
        assert_eq!(check(&[CALL, &cancel]), [(5, Warning)]);
    }

    #[test]
    fn warns_on_a_reason_that_is_an_object() {
        let cancel = cancel(r#"{"requestId":1,"reason":{"code":"ABORT"}}"#);
        assert_eq!(check(&[CALL, &cancel]), [(5, Warning)]);
    }

    #[test]
    fn silent_on_a_cancellation_without_a_reason() {
        assert_eq!(check(&[CALL, &cancel(r#"{"requestId":1}"#)]), []);
    }

    #[test]
    fn silent_on_a_cancellation_whose_params_the_log_does_not_show() {
        let trace = [
            r#"2026-08-13T07:09:45.382Z [info] [cbm] Message from client: method="initialize" id=0 params"#,
            r#"2026-08-13T07:10:45.390Z [info] [cbm] Message from client: method="notifications/cancelled" params"#,
        ]
        .join("\n");
        assert_eq!(findings("cancel-malformed", &trace), []);
    }
}
