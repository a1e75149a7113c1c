//! `error-code-reserved-range`: an error code from the sub-range reserved for
//! the specification that the specification does not define.

use super::error_code_use;
use crate::diagnostic::Severity;
use crate::protocol::errors::CodeUse;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "error-code-reserved-range",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "an error code in -32099 to -32020 that the specification does not define (it defines -32020, -32021 and -32022)",
    quote: "Implementations MUST NOT emit any code from this sub-range that is not defined by this specification and MUST use defined codes only with their specified meanings.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "use a code the specification defines for this case, a JSON-RPC code (-32600 to -32603), or an application code outside -32768 to -32000",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some((code, CodeUse::ReservedUndefined)), Some(from)) = (error_code_use(ctx), ctx.from)
    else {
        return;
    };
    out.push(ctx.diagnostic(
        &META,
        words!("{} answers with error code {}, which is reserved for the specification and not defined by it", from, code),
    ));
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::findings;

    /// A 2026-07-28 tools/call answered with error `code`.
    pub fn answered_with(rule: &str, code: i64) -> Vec<(u64, Severity)> {
        let trace = format!(
            "{}\n{}",
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}}"#,
            format_args!(
                r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":1,"error":{{"code":{code},"message":"failed"}}}}}}"#
            )
        );
        findings(rule, &trace)
    }

    #[test]
    fn fires_on_an_undefined_reserved_code_only() {
        assert_eq!(
            answered_with("error-code-reserved-range", -32050),
            [(2, Error)]
        );
        assert_eq!(answered_with("error-code-reserved-range", -32021), []);
        assert_eq!(answered_with("error-code-reserved-range", -32001), []);
        assert_eq!(answered_with("error-code-reserved-range", -32602), []);
    }

    #[test]
    fn silent_in_a_handshake_session() {
        let trace = format!(
            "{}{}\n{}",
            crate::rules::testing::HANDSHAKE,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32050,"message":"x"}}}"#
        );
        assert_eq!(findings("error-code-reserved-range", &trace), []);
    }
}
