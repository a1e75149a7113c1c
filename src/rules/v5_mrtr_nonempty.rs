//! `v5-mrtr-nonempty`: an `InputRequiredResult` with neither input requests nor request state.

use super::{answer_finding, input_required_answer};
use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-mrtr-nonempty",
    family: Family::Input,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "an InputRequiredResult with neither inputRequests nor requestState",
    quote: "Servers MUST include at least one of `inputRequests` or `requestState` in every `InputRequiredResult` response.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/mrtr",
        modern: Some("basic/patterns/mrtr"),
        modern_quote: None,
    }),
    help: "put the requests the client must fulfil in inputRequests, or the state to echo in requestState; an InputRequiredResult without either gives the client nothing to retry with",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, result)) = input_required_answer(ctx) else {
        return;
    };
    if result.input_requests.is_some() || result.request_state.is_some() {
        return;
    }
    let what = "an InputRequiredResult that has neither inputRequests nor requestState";
    out.push(answer_finding(ctx, &META, &request, what.into()));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    fn answered(result: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let answer = server(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#));
        findings("v5-mrtr-nonempty", &trace(&[&call, &answer]))
    }

    #[test]
    fn fires_on_an_empty_input_required_result() {
        assert_eq!(answered(r#"{"resultType":"input_required"}"#), [(2, Error)]);
    }

    #[test]
    fn silent_with_either_member() {
        assert_eq!(
            answered(r#"{"resultType":"input_required","requestState":"s"}"#),
            []
        );
        let asked =
            r#"{"resultType":"input_required","inputRequests":{"roots":{"method":"roots/list"}}}"#;
        assert_eq!(answered(asked), []);
        assert_eq!(answered(r#"{"resultType":"complete","content":[]}"#), []);
    }
}
