//! `v5-mrtr-capability`: an input request the client's request did not declare support for.

use super::{answer_finding, input_required_answer};
use crate::diagnostic::{Arg, Severity, Words};
use crate::protocol::{capabilities, methods, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-mrtr-capability",
    family: Family::Input,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "an InputRequiredResult asks for elicitation, sampling or roots (or an elicitation mode, or sampling with tools) that the answered request did not declare in its client capabilities",
    quote: "Servers MUST NOT send an `inputRequests` that the client has not declared support for in its capabilities.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/mrtr",
        modern: Some("basic/patterns/mrtr"),
        modern_quote: None,
    }),
    help: "read io.modelcontextprotocol/clientCapabilities of the request being answered; without the capability, answer with MissingRequiredClientCapabilityError (-32021) instead",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, result)) = input_required_answer(ctx) else {
        return;
    };
    // Capabilities are per request in 2026-07-28: only this request's count.
    let Some(declared) = request.modern.and_then(|m| m.client_capabilities.as_ref()) else {
        return;
    };
    let mut undeclared: Vec<Words> = Vec::new();
    for (key, input) in result.input_requests.iter().flatten() {
        let Some((method, needs)) = input
            .method()
            .and_then(|m| Some((m, methods::input_request_needs(m)?)))
        else {
            continue;
        };
        if !capabilities::advertised(declared, needs) {
            undeclared.push(words!("{} ({} needs {})", Arg::quoted(key), method, needs));
        } else if let Some(finer) = finer_need(method, input.params.as_ref(), declared) {
            undeclared.push(words!("{} ({} {})", Arg::quoted(key), method, finer));
        }
    }
    if undeclared.is_empty() {
        return;
    }
    let what = words!(
        "input requests its client capabilities did not declare: {}",
        Words::listed(undeclared)
    );
    out.push(answer_finding(ctx, &META, &request, what).with_pointer("/result/inputRequests"));
}

/// What an input request needs beyond its method's capability, when the
/// declared capabilities lack it: its elicitation mode, or sampling's tools
/// (the checks of cap-elicitation-mode and cap-sampling-tools).
fn finer_need(
    method: &str,
    params: Option<&serde_json::Value>,
    declared: &serde_json::Value,
) -> Option<Words> {
    use super::{cap_elicitation_mode as elicit, cap_sampling_tools as sampling};
    let params = params?;
    if method == elicit::METHOD {
        let mode = params.get("mode").and_then(|m| m.as_str());
        let mode = mode.unwrap_or(elicit::DEFAULT_MODE);
        let elicitation = declared.get(elicit::ELICITATION)?;
        return (!elicit::supports(elicitation, mode))
            .then(|| words!("in {} mode needs elicitation.{}", mode, mode));
    }
    if method == sampling::METHOD {
        let asked: sampling::SamplingParams = serde_json::from_value(params.clone()).ok()?;
        let member = asked.tool_member()?;
        return (!capabilities::advertised(declared, sampling::TOOLS))
            .then(|| words!("with {} needs {}", member, sampling::TOOLS));
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request_declaring};

    const ELICIT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"city":{"method":"elicitation/create","params":{"message":"City?","requestedSchema":{"type":"object","properties":{}}}}}}}"#;

    fn declared(capabilities: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request_declaring("1", "tools/call", r#""name":"x","#, capabilities);
        findings("v5-mrtr-capability", &trace(&[&call, &server(ELICIT)]))
    }

    #[test]
    fn fires_when_the_request_did_not_declare_elicitation() {
        assert_eq!(declared("{}"), [(2, Error)]);
        assert_eq!(declared(r#"{"sampling":{}}"#), [(2, Error)]);
    }

    #[test]
    fn silent_when_it_did() {
        assert_eq!(declared(r#"{"elicitation":{}}"#), []);
        assert_eq!(declared(r#"{"elicitation":{"form":{}}}"#), []);
    }

    #[test]
    fn fires_on_a_mode_or_tool_use_the_request_did_not_declare() {
        let url = ELICIT.replace(r#""message":"City?""#, r#""mode":"url","message":"City?""#);
        let call = v5_request_declaring(
            "1",
            "tools/call",
            r#""name":"x","#,
            r#"{"elicitation":{"form":{}}}"#,
        );
        assert_eq!(
            findings("v5-mrtr-capability", &trace(&[&call, &server(&url)])),
            [(2, Error)]
        );
        let sample = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"llm":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":9,"tools":[]}}}}}"#;
        let sampling = |caps: &str| {
            let call = v5_request_declaring("1", "tools/call", r#""name":"x","#, caps);
            findings("v5-mrtr-capability", &trace(&[&call, &server(sample)]))
        };
        assert_eq!(sampling(r#"{"sampling":{}}"#), [(2, Error)]);
        assert_eq!(sampling(r#"{"sampling":{"tools":{}}}"#), []);
    }
}
