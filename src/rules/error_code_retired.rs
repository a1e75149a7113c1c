//! `error-code-retired`: an error code that 2026-07-28 forbids emitting.

use super::error_code_use;
use crate::diagnostic::Severity;
use crate::protocol::errors::CodeUse;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "error-code-retired",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "an error code 2026-07-28 retired: -32002 (resource not found) or -32042 (URL elicitation required)",
    quote: "Implementations of this protocol version MUST NOT emit these codes:",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "answer a missing resource with -32602 (Invalid params), and ask for a URL elicitation with an InputRequiredResult",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some((code, CodeUse::Retired { meaning, instead })), Some(from)) =
        (error_code_use(ctx), ctx.from)
    else {
        return;
    };
    out.push(ctx.diagnostic(
        &META,
        words!(
            "{} answers with error code {} ({}), which 2026-07-28 retired; use {}",
            from,
            code,
            meaning,
            instead
        ),
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::error_code_reserved_range::tests::answered_with;

    #[test]
    fn fires_on_retired_codes_only() {
        assert_eq!(answered_with("error-code-retired", -32002), [(2, Error)]);
        assert_eq!(answered_with("error-code-retired", -32042), [(2, Error)]);
        assert_eq!(answered_with("error-code-retired", -32602), []);
        assert_eq!(answered_with("error-code-retired", -32001), []);
    }
}
