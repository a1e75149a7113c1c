//! `v5-mrtr-allowed-methods`: an `InputRequiredResult` for a method that may not ask for input.

use super::{answer_finding, input_required_answer};
use crate::diagnostic::Severity;
use crate::protocol::{methods, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-mrtr-allowed-methods",
    family: Family::Input,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "an InputRequiredResult answering a request other than tools/call, prompts/get or resources/read",
    quote: "Servers MUST NOT send `InputRequiredResult` responses on any other client requests.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/mrtr",
        modern: Some("basic/patterns/mrtr"),
        modern_quote: None,
    }),
    help: "only tools/call, prompts/get and resources/read may ask the client for input; answer other requests with their result or an error",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, _)) = input_required_answer(ctx) else {
        return;
    };
    let row = methods::method(request.method, Version::V2026_07_28);
    if row.is_some_and(|r| r.may_require_input) {
        return;
    }
    let what =
        "an InputRequiredResult, which only tools/call, prompts/get and resources/read may receive";
    out.push(answer_finding(ctx, &META, &request, what.into()));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    const INPUT: &str =
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s1"}}"#;

    #[test]
    fn fires_on_tools_list() {
        let list = v5_request("1", "tools/list", "");
        assert_eq!(
            findings("v5-mrtr-allowed-methods", &trace(&[&list, &server(INPUT)])),
            [(2, Error)]
        );
    }

    #[test]
    fn silent_on_tools_call() {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        assert_eq!(
            findings("v5-mrtr-allowed-methods", &trace(&[&call, &server(INPUT)])),
            []
        );
    }
}
