//! `tool-schema-invalid`: a tool's `inputSchema` or `outputSchema` is not a
//! valid JSON Schema (error), or one mcp-lint cannot validate with (info).

use crate::diagnostic::Severity;
use crate::engine::tool_schema::ToolSchema;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Needs, Out, Rule, RuleMeta, Wants};
use crate::words::{Arg, Words};

pub static META: RuleMeta = RuleMeta {
    id: "tool-schema-invalid",
    family: Family::Schema,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a listed tool's inputSchema or outputSchema is not a valid JSON Schema (error), or one mcp-lint does not validate with: a remote $ref, an unknown dialect, a bound exceeded (info)",
    quote: "The `inputSchema` MUST be a valid JSON Schema object (not `null`)",
    spec: Some(SpecPage::everywhere("server/tools")),
    help: "declare each schema as a valid JSON Schema object (2020-12 unless $schema names another dialect), with local references only",
};

pub static RULE: Rule = Rule::on_events(&META, check).needing(Needs::TOOLS);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(listing) = ctx.tool_list else { return };
    for tool in &listing.tools {
        let schemas = [("inputSchema", &tool.input), ("outputSchema", &tool.output)];
        for (member, schema) in schemas {
            let Some(Err(unusable)) = schema.as_deref().map(ToolSchema::as_ref) else {
                continue;
            };
            let (what, severity) = match unusable.unsupported {
                true => ("cannot be validated", Severity::Info),
                false => ("is not a valid JSON Schema", Severity::Error),
            };
            out.push(
                ctx.diagnostic(
                    &META,
                    words!(
                        "the {} of tool {} {}: {}",
                        Words::fixed(member),
                        Arg::quoted(&tool.name),
                        Words::fixed(what),
                        unusable.why
                    ),
                )
                .with_severity(severity),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(tool: &str) -> Vec<(u64, Severity)> {
        let list = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;
        let listed = format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{tool}]}}}}}}"#
        );
        findings(
            "tool-schema-invalid",
            &format!("{HANDSHAKE}{list}\n{listed}"),
        )
    }

    #[test]
    fn fires_on_an_invalid_schema_and_notes_an_unsupported_one() {
        assert_eq!(
            check(r#"{"name":"a","inputSchema":{"type":"objekt"}}"#),
            [(5, Error)]
        );
        let remote = r#"{"name":"a","inputSchema":{"$ref":"https://example.com/s.json"}}"#;
        assert_eq!(check(remote), [(5, Info)]);
        let output =
            r#"{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"required":"x"}}"#;
        assert_eq!(check(output), [(5, Error)]);
    }

    #[test]
    fn silent_on_valid_schemas() {
        let tool = r##"{"name":"a","inputSchema":{"type":"object","$defs":{"n":{"type":"integer"}},"properties":{"n":{"$ref":"#/$defs/n"}}},"outputSchema":{"type":"object"}}"##;
        assert_eq!(check(tool), []);
    }
}
