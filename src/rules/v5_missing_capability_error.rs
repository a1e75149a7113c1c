//! `v5-missing-capability-error`: a -32021 error without the capabilities it is missing.

use super::check_defined_error;
use crate::diagnostic::Severity;
use crate::protocol::errors::MISSING_CLIENT_CAPABILITY;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-missing-capability-error",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a MissingRequiredClientCapabilityError (-32021) whose data does not list the required capabilities",
    quote: "the server MUST return a `MissingRequiredClientCapabilityError` (`-32021`) whose `data.requiredCapabilities` lists the missing capabilities.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "put the capabilities the request needs in error.data.requiredCapabilities (a ClientCapabilities object), so the client can tell the user what is missing",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    check_defined_error(ctx, out, &META, &MISSING_CLIENT_CAPABILITY);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    fn answered(error: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request("1", "tools/call", r#""name":"ask","#);
        let answer = server(&format!(r#"{{"jsonrpc":"2.0","id":1,"error":{error}}}"#));
        findings("v5-missing-capability-error", &trace(&[&call, &answer]))
    }

    #[test]
    fn fires_without_required_capabilities() {
        assert_eq!(
            answered(r#"{"code":-32021,"message":"needs elicitation"}"#),
            [(2, Error)]
        );
        assert_eq!(
            answered(r#"{"code":-32021,"message":"needs elicitation","data":{}}"#),
            [(2, Error)]
        );
    }

    #[test]
    fn silent_with_them_and_on_other_codes() {
        let listed = r#"{"code":-32021,"message":"needs elicitation","data":{"requiredCapabilities":{"elicitation":{}}}}"#;
        assert_eq!(answered(listed), []);
        assert_eq!(answered(r#"{"code":-32602,"message":"bad"}"#), []);
    }
}
