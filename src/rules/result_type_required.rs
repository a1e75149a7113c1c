//! `result-type-required`: a 2026-07-28 result without a `resultType` the client knows.

use super::{answer_finding, modern_answer};
use crate::diagnostic::{Arg, Severity};
use crate::protocol::fields::RESULT_TYPES;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "result-type-required",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a 2026-07-28 result without resultType, or with a value the revision does not define",
    quote: "The `result` MUST include a `resultType` field to indicate the type of the result.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "add \"resultType\": \"complete\" to every result (\"input_required\" for an InputRequiredResult)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, Some(result))) = modern_answer(ctx) else {
        return;
    };
    let what = match &result.result_type {
        None => words!("a result that has no resultType"),
        Some(serde_json::Value::String(value)) if RESULT_TYPES.contains(&value.as_str()) => return,
        // An extension the client declared may define more result types.
        Some(serde_json::Value::String(_)) if declares_extensions(&request) => return,
        Some(serde_json::Value::String(value)) => words!(
            "resultType {}, which 2026-07-28 does not define (\"complete\" or \"input_required\")",
            Arg::quoted(value)
        ),
        Some(other) => words!("a resultType that is not a string ({})", other.to_string()),
    };
    out.push(answer_finding(ctx, &META, &request, what).with_pointer("/result/resultType"));
}

/// Whether the request declared any extension (whose result types are its own).
fn declares_extensions(request: &crate::engine::RequestView) -> bool {
    let capabilities = request.modern.and_then(|m| m.client_capabilities.as_ref());
    let extensions = capabilities.and_then(|c| c.get("extensions"));
    extensions
        .and_then(|e| e.as_object())
        .is_some_and(|e| !e.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request, v5_request_declaring};

    fn answered(result: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let answer = server(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#));
        findings("result-type-required", &trace(&[&call, &answer]))
    }

    #[test]
    fn fires_on_a_missing_or_unknown_result_type() {
        assert_eq!(answered(r#"{"content":[]}"#), [(2, Error)]);
        assert_eq!(
            answered(r#"{"resultType":"done","content":[]}"#),
            [(2, Error)]
        );
        assert_eq!(answered(r#"{"resultType":1,"content":[]}"#), [(2, Error)]);
    }

    #[test]
    fn silent_on_defined_types_errors_and_declared_extensions() {
        assert_eq!(answered(r#"{"resultType":"complete","content":[]}"#), []);
        assert_eq!(
            answered(r#"{"resultType":"input_required","requestState":"s"}"#),
            []
        );
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let error = server(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}"#);
        assert_eq!(
            findings("result-type-required", &trace(&[&call, &error])),
            []
        );
        let extension = r#"{"extensions":{"io.modelcontextprotocol/tasks":{}}}"#;
        let call = v5_request_declaring("1", "tools/call", r#""name":"x","#, extension);
        let task = server(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"task"}}"#);
        assert_eq!(
            findings("result-type-required", &trace(&[&call, &task])),
            []
        );
    }

    #[test]
    fn silent_in_a_handshake_session() {
        let trace = format!(
            "{}{}",
            crate::rules::testing::HANDSHAKE,
            concat!(
                r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
                "\n",
                r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#
            )
        );
        assert_eq!(findings("result-type-required", &trace), []);
    }
}
