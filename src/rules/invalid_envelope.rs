//! `invalid-envelope`: a JSON line that is not a valid trace envelope.

use crate::diagnostic::Severity;
use crate::event::{Payload, Unreadable};
use crate::protocol::Versions;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "invalid-envelope",
    family: Family::Trace,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::UNREADABLE,
    order_dependent: false,
    summary: "a record is JSON but not valid for its format: a canonical envelope, a HAR or Inspector entry, an mcpsnoop frame",
    quote: "",
    spec: None,
    help: "each line needs \"from\" (\"client\" or \"server\") and either \"msg\" (the JSON-RPC message) or \"event\"; see docs/trace-format.md",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    if let Payload::Unreadable(Unreadable::Envelope(why)) = &ctx.event.payload {
        out.push(ctx.diagnostic(&META, words!("{}", why)));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "invalid-envelope",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_an_unknown_sender_and_a_misspelt_msg() {
        let lines = [
            r#"{"from":"proxy","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            r#"{"from":"client","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error)]);
    }

    #[test]
    fn fires_on_a_non_object_line_a_bad_ts_and_an_unknown_event() {
        let lines = [
            r#"[1]"#,
            r#"{"from":"client","ts":"noon","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            r#"{"from":"server","event":"crashed"}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error), (6, Error)]);
    }

    #[test]
    fn silent_on_optional_and_unknown_members() {
        let lines = [
            r#"{"ts":"2026-11-30T07:00:00.123Z","from":"client","stream":7,"pid":42,"msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            r#"{"ts":1764486000123,"from":"server","stream":7,"msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"server","event":"closed"}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_a_line_that_is_not_json() {
        // invalid-json owns it.
        assert_eq!(check(&[r#"{"from":"client","msg":{"#]), []);
    }

    #[test]
    fn fires_on_a_line_without_from() {
        let line = r#"{"msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}"#;
        assert_eq!(check(&[line]), [(4, Error)]);
    }

    #[test]
    fn fires_on_a_line_with_both_msg_and_event() {
        let line = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"ping"},"event":"closed"}"#;
        assert_eq!(check(&[line]), [(4, Error)]);
    }

    #[test]
    fn fires_on_a_sender_in_the_wrong_case() {
        let line = r#"{"from":"Server","msg":{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}}"#;
        assert_eq!(check(&[line]), [(4, Error)]);
    }

    #[test]
    fn fires_on_a_null_session() {
        let line =
            r#"{"session":null,"from":"client","msg":{"jsonrpc":"2.0","method":"ping","id":1}}"#;
        assert_eq!(check(&[line]), [(4, Error)]);
    }
}
