//! `error-code-legacy-range`: an error code from the sub-range new
//! implementations should not use.

use super::error_code_use;
use crate::diagnostic::Severity;
use crate::protocol::errors::CodeUse;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "error-code-legacy-range",
    family: Family::Jsonrpc,
    default_severity: Severity::Info,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "an error code in -32019 to -32000, the sub-range new implementations should not use",
    quote: "new implementations SHOULD NOT use codes from this sub-range at all",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "use a code the specification defines, a JSON-RPC code, or an application code outside -32768 to -32000",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some((code, CodeUse::Legacy)), Some(from)) = (error_code_use(ctx), ctx.from) else {
        return;
    };
    out.push(ctx.diagnostic(
        &META,
        words!("{} answers with error code {}, from the sub-range -32019 to -32000 left to legacy implementations", from, code),
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Info;
    use crate::rules::error_code_reserved_range::tests::answered_with;

    #[test]
    fn fires_on_legacy_codes_except_retired_ones() {
        assert_eq!(
            answered_with("error-code-legacy-range", -32001),
            [(2, Info)]
        );
        assert_eq!(answered_with("error-code-legacy-range", -32002), []);
        assert_eq!(answered_with("error-code-legacy-range", -32050), []);
        assert_eq!(answered_with("error-code-legacy-range", -32603), []);
    }
}
