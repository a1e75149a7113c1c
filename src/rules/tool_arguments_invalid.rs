//! `tool-arguments-invalid`: a `tools/call` passes arguments that do not
//! validate against the tool's `inputSchema`.

use crate::diagnostic::Severity;
use crate::engine::tool_schema::violations;
use crate::engine::tools::call_arguments;
use crate::event::Side;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Needs, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "tool-arguments-invalid",
    family: Family::Schema,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a tools/call's arguments do not validate against the inputSchema the server listed for the tool",
    quote: "`inputSchema`: JSON Schema defining expected parameters",
    spec: Some(SpecPage::everywhere("server/tools")),
    help: "pass arguments that match the tool's inputSchema (from its tools/list entry)",
};

pub static RULE: Rule = Rule::on_events(&META, check).needing(Needs::TOOLS);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some(Side::Client)) = (ctx.message, ctx.from) else {
        return;
    };
    if message.incomplete {
        return;
    }
    let Some(name) = ctx.called_tool else {
        return;
    };
    let tool = ctx.session.tools.find(name);
    let Some(tool) = tool.filter(|t| !t.ambiguous) else {
        return;
    };
    let Some(Ok(validator)) = tool.input.as_deref() else {
        return; // no schema, or one tool-schema-invalid reported
    };
    let Some(arguments) = ctx.called_arguments.and_then(call_arguments) else {
        return;
    };
    for violation in violations(validator, &arguments, "/params/arguments") {
        out.push(
            ctx.diagnostic(
                &META,
                words!(
                    "{} (inputSchema of tool {})",
                    violation.message,
                    Arg::quoted(&tool.name)
                ),
            )
            .with_pointer(&violation.pointer)
            .with_related(tool.listed, "the tool and its inputSchema were listed here"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    const LIST: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;
    const LISTED: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"search","inputSchema":{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","minimum":1}},"required":["q"]}}]}}}"#;

    fn call(arguments: &str) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"search"{arguments}}}}}}}"#
        )
    }

    fn check(arguments: &str) -> Vec<(u64, Severity)> {
        let lines = [LIST, LISTED, &call(arguments)];
        findings(
            "tool-arguments-invalid",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_each_offending_argument() {
        assert_eq!(check(r#","arguments":{"q":1}"#), [(6, Error)]);
        assert_eq!(
            check(r#","arguments":{"limit":0}"#),
            [(6, Error), (6, Error)]
        );
        assert_eq!(check(""), [(6, Error)]);
    }

    #[test]
    fn silent_when_two_listed_tools_share_the_name() {
        // Without the guard the strict schema, listed last, would be used.
        let twice = LISTED.replace(
            r#""tools":["#,
            r#""tools":[{"name":"search","inputSchema":{"type":"object"}},"#,
        );
        let trace = format!(
            "{HANDSHAKE}{LIST}\n{twice}\n{}",
            call(r#","arguments":{"q":1}"#)
        );
        assert_eq!(findings("tool-arguments-invalid", &trace), []);
    }

    #[test]
    fn params_that_are_not_an_object_name_no_tool() {
        // serde would read `["search"]` as a struct of one field: a call of
        // `search` whose arguments are the string "search".
        let array = call("").replace(r#"{"name":"search"}"#, r#"["search"]"#);
        assert!(array.contains(r#""params":["search"]"#), "{array}");
        let trace = format!("{HANDSHAKE}{LIST}\n{LISTED}\n{array}");
        assert_eq!(findings("tool-arguments-invalid", &trace), []);
        // Arguments written as null are absent: an empty object, without `q`.
        assert_eq!(check(r#","arguments":null"#), [(6, Error)]);
    }

    #[test]
    fn arguments_or_a_name_written_twice_are_not_read() {
        // serde_json refuses the object, so which arguments were meant is unknown.
        assert_eq!(check(r#","arguments":{"q":1},"arguments":{"q":1}"#), []);
        // A name written twice names no tool; arguments written once still do not count.
        let twice = call(r#","arguments":{"q":1}"#)
            .replace(r#""name":"search""#, r#""name":"search","name":"search""#);
        let trace = format!("{HANDSHAKE}{LIST}\n{LISTED}\n{twice}");
        assert_eq!(findings("tool-arguments-invalid", &trace), []);
        // The members are found wherever they stand, among others.
        assert_eq!(
            check(r#","x":"a \"quoted\" \\ text","arguments":{"q":1},"y":[1,{"z":2}]"#),
            [(6, Error)]
        );
    }

    #[test]
    fn silent_on_valid_arguments_and_unknown_tools() {
        assert_eq!(
            check(r#","arguments":{"q":"mcp","limit":3,"extra":true}"#),
            []
        );
        let other = call(r#","arguments":{}"#).replace("search", "other");
        let trace = format!("{HANDSHAKE}{LIST}\n{LISTED}\n{other}");
        assert_eq!(findings("tool-arguments-invalid", &trace), []);
    }
}
