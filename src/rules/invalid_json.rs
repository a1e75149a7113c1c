//! `invalid-json`: a line that is not JSON, or not UTF-8.

use crate::diagnostic::Severity;
use crate::event::{Payload, Unreadable};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "invalid-json",
    family: Family::Trace,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::UNREADABLE,
    order_dependent: false,
    summary: "a line of the trace is not valid JSON or not valid UTF-8",
    quote: "JSON-RPC messages MUST be UTF-8 encoded.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/index"),
        modern_quote: None,
    }),
    help: "every line must hold one complete JSON value; a recorder that mixes other output into the trace, or a peer that writes non-JSON to stdout, breaks the stream",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    if let Payload::Unreadable(Unreadable::Json(why)) = &ctx.event.payload {
        out.push(ctx.diagnostic(&META, words!("{}", why)));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings("invalid-json", &format!("{HANDSHAKE}{}", lines.join("\n")))
    }

    #[test]
    fn fires_on_a_log_line_and_a_trailing_comma() {
        let lines = [
            "Server started on stdio",
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping",}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error)]);
    }

    #[test]
    fn fires_on_a_repeated_member_and_a_truncated_final_line() {
        let lines = [
            r#"{"from":"client","from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"res"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error)]);
    }

    #[test]
    fn silent_on_crlf_blank_lines_and_unicode() {
        let trace = format!(
            "{HANDSHAKE}\r\n\n{}\r\n",
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Grüße 🚀"}}}"#
        );
        assert_eq!(findings("invalid-json", &trace), []);
    }

    #[test]
    fn silent_on_json_that_is_not_an_envelope() {
        // invalid-envelope owns it.
        assert_eq!(check(&["[1]", r#""text""#]), []);
    }
}
