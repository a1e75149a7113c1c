//! `invalid-jsonrpc`: a message that breaks the JSON-RPC 2.0 message shape.

use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "invalid-jsonrpc",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::MESSAGES,
    order_dependent: false,
    summary: "a message is not a well-formed JSON-RPC 2.0 request, notification or response",
    quote: "All messages between MCP clients and servers MUST follow the JSON-RPC 2.0 specification.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "send \"jsonrpc\": \"2.0\" and exactly one of: a method (request or notification), a result, or an error object with an integer code and a string message",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(message) = ctx.message else { return };
    if message.problems.is_empty() {
        return;
    }
    let problems: Vec<String> = message.problems.iter().map(ToString::to_string).collect();
    out.push(ctx.diagnostic(
        &META,
        words!("invalid JSON-RPC message: {}", problems.join("; ")),
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "invalid-jsonrpc",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_jsonrpc_1_0_and_on_a_message_with_neither_method_nor_result() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"1.0","id":1,"method":"ping"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (5, Error)]);
    }

    #[test]
    fn fires_once_for_all_the_problems_of_one_message() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":2.0,"id":1,"result":{},"error":{"code":"-32603"}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn fires_on_an_empty_batch() {
        assert_eq!(check(&[r#"{"from":"client","msg":[]}"#]), [(4, Error)]);
    }

    #[test]
    fn silent_on_well_formed_messages_and_an_error_without_id() {
        // An error without id is response-to-notification's.
        let lines = [
            r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn fires_on_a_fractional_error_code() {
        let error = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32602.5,"message":"bad"}}}"#;
        assert_eq!(check(&[error]), [(4, Error)]);
    }

    #[test]
    fn fires_on_a_missing_jsonrpc_member() {
        assert_eq!(
            check(&[r#"{"from":"client","msg":{"id":1,"method":"tools/list"}}"#]),
            [(4, Error)]
        );
    }

    #[test]
    fn fires_on_a_result_that_is_not_an_object() {
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":"no tools"}}"#;
        assert_eq!(check(&[result]), [(4, Error)]);
    }

    #[test]
    fn fires_on_params_that_are_a_string() {
        let request = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":"greeting"}}"#;
        assert_eq!(check(&[request]), [(4, Error)]);
    }

    #[test]
    fn fires_on_an_error_without_a_message() {
        let error = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":2,"error":{"code":-32602}}}"#;
        assert_eq!(check(&[error]), [(4, Error)]);
    }
}
