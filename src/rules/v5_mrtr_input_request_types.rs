//! `v5-mrtr-input-request-types`: an input request that is no elicitation, sampling or roots request.

use super::{answer_finding, input_required_answer};
use crate::diagnostic::{Arg, Severity, Words};
use crate::protocol::{methods, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-mrtr-input-request-types",
    family: Family::Input,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "an InputRequiredResult whose inputRequests hold something other than an elicitation/create, sampling/createMessage or roots/list request",
    quote: "`inputRequests` values are request objects that MUST be one of `ElicitRequest`, `CreateMessageRequest`, or `ListRootsRequest`",
    spec: Some(SpecPage {
        legacy: "basic/patterns/mrtr",
        modern: Some("basic/patterns/mrtr"),
        modern_quote: None,
    }),
    help: "an input request asks the client for an elicitation, a sampling or its roots; anything else the client cannot fulfil",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, result)) = input_required_answer(ctx) else {
        return;
    };
    let wrong: Vec<Words> = result
        .input_requests
        .iter()
        .flatten()
        .filter(|(_, input)| {
            input
                .method()
                .and_then(methods::input_request_needs)
                .is_none()
        })
        .map(|(key, input)| match input.method() {
            Some(method) => words!("{} ({})", Arg::quoted(key), method),
            None => words!("{} (no method)", Arg::quoted(key)),
        })
        .collect();
    if wrong.is_empty() {
        return;
    }
    let what = words!(
        "input requests that are no elicitation, sampling or roots request: {}",
        Words::listed(wrong)
    );
    out.push(answer_finding(ctx, &META, &request, what).with_pointer("/result/inputRequests"));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    fn asked(requests: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let answer = server(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{requests}}}}}"#
        ));
        findings("v5-mrtr-input-request-types", &trace(&[&call, &answer]))
    }

    #[test]
    fn fires_on_another_method() {
        assert_eq!(asked(r#"{"p":{"method":"ping"}}"#), [(2, Error)]);
        assert_eq!(asked(r#"{"p":{"params":{}}}"#), [(2, Error)]);
    }

    #[test]
    fn silent_on_the_three_input_requests() {
        let three = r#"{"a":{"method":"roots/list"},"b":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}},"c":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}}"#;
        assert_eq!(asked(three), []);
    }
}
