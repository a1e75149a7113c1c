//! `tool-output-invalid`: a tool with an `outputSchema` answers a call with
//! `structuredContent` that does not validate against it, or without
//! `structuredContent` at all.

use serde::Deserialize;

use crate::diagnostic::Severity;
use crate::engine::tool_schema::violations;
use crate::event::{Body, Outcome, Side};
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Needs, Out, Rule, RuleMeta, Wants};
use crate::words::{Arg, Words};

pub static META: RuleMeta = RuleMeta {
    id: "tool-output-invalid",
    family: Family::Schema,
    default_severity: Severity::Error,
    versions: Versions::from(Version::V2025_06_18),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a tool with an outputSchema returns structuredContent that does not validate against it, or none on success",
    quote: "If an output schema is provided: Servers MUST provide structured results that conform to this schema.",
    spec: Some(SpecPage::everywhere("server/tools")),
    help: "return structuredContent that matches the tool's outputSchema in every successful result",
};

pub static RULE: Rule = Rule::on_events(&META, check).needing(Needs::TOOLS);

/// The members of a `tools/call` result this rule reads.
#[derive(Deserialize)]
struct CallResult {
    #[serde(rename = "structuredContent")]
    structured: Option<serde_json::Value>,
    #[serde(rename = "isError", default)]
    is_error: bool,
    /// A task-augmented call is answered with its task, not its result.
    task: Option<serde::de::IgnoredAny>,
    /// `input_required` (2026-07-28): the call is not done yet.
    #[serde(rename = "resultType")]
    result_type: Option<String>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some(Side::Server)) = (ctx.message, ctx.from) else {
        return;
    };
    let Some(request) = ctx.facts.answered().filter(|r| r.method == "tools/call") else {
        return;
    };
    let result = match &message.body {
        Body::Response {
            outcome: Outcome::Result { .. },
            ..
        } if !message.incomplete => message.members.result.as_ref(),
        _ => None,
    };
    let Some(tool) = ctx
        .session
        .tools
        .called_tool(request.id)
        .filter(|t| !t.ambiguous)
    else {
        return;
    };
    let Some(Ok(validator)) = tool.output.as_deref() else {
        return;
    };
    // Parsed last: most tools have no outputSchema, and results can be large.
    let Some(result) = result.and_then(|r| r.parse::<CallResult>()) else {
        return;
    };
    let asks_input = result.result_type.as_deref() == Some("input_required");
    if result.is_error || result.task.is_some() || asks_input {
        return;
    }
    let diagnostic = |message: Words| {
        ctx.diagnostic(&META, message)
            .with_request_id(request.id)
            .with_related(
                tool.listed,
                "the tool and its outputSchema were listed here",
            )
    };
    let Some(structured) = result.structured else {
        let why = words!(
            "tool {} has an outputSchema, but its result has no structuredContent",
            Arg::quoted(&tool.name)
        );
        return out.push(diagnostic(why));
    };
    for violation in violations(validator, &structured, "/result/structuredContent") {
        let why = words!(
            "{} (outputSchema of tool {})",
            violation.message,
            Arg::quoted(&tool.name)
        );
        out.push(diagnostic(why).with_pointer(&violation.pointer));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    const LIST: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;
    const LISTED: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"weather","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"celsius":{"type":"number"}},"required":["celsius"]}}]}}}"#;
    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"weather","arguments":{}}}}"#;

    fn check(result: &str) -> Vec<(u64, Severity)> {
        let answer =
            format!(r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":2,"result":{result}}}}}"#);
        let lines = [LIST, LISTED, CALL, &answer];
        findings(
            "tool-output-invalid",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_invalid_or_missing_structured_content() {
        let wrong = r#"{"content":[],"structuredContent":{"celsius":"warm"}}"#;
        assert_eq!(check(wrong), [(7, Error)]);
        assert_eq!(
            check(r#"{"content":[{"type":"text","text":"21"}]}"#),
            [(7, Error)]
        );
    }

    #[test]
    fn silent_on_valid_output_and_on_errors() {
        assert_eq!(
            check(r#"{"content":[],"structuredContent":{"celsius":21.5}}"#),
            []
        );
        assert_eq!(
            check(r#"{"content":[{"type":"text","text":"down"}],"isError":true}"#),
            []
        );
    }
}
