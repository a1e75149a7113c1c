//! `v5-mrtr-request-state-echo`: a retry that does not echo the request state exactly.

use super::retry;
use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-mrtr-request-state-echo",
    family: Family::Input,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a retry that does not echo the InputRequiredResult's requestState exactly, or sends one the result did not have",
    quote: "If an `InputRequiredResult` contains the `requestState` field, the client MUST echo back the exact value of that field when retrying the original request.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/mrtr",
        modern: Some("basic/patterns/mrtr"),
        modern_quote: None,
    }),
    help: "copy requestState from the InputRequiredResult into the retry unchanged, and send none when the result had none",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((params, id, Some(round))) = retry(ctx) else {
        return;
    };
    let text = match (&round.request_state, &params.request_state) {
        (Some(asked), Some(echoed)) if asked == echoed => return,
        (None, None) => return,
        (Some(_), Some(_)) => words!(
            "client retries request {} with a requestState that differs from the one the server sent",
            round.id
        ),
        (Some(_), None) => words!(
            "client retries request {} without the requestState the server sent",
            round.id
        ),
        (None, Some(_)) => words!(
            "client retries request {} with a requestState, but the server sent none",
            round.id
        ),
    };
    out.push(
        ctx.diagnostic(&META, text)
            .with_request_id(id)
            .with_pointer("/params/requestState")
            .with_related(round.result, "the InputRequiredResult it retries"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    const ELICIT: &str = r#"{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}"#;

    fn retried(state: &str, echoed: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let input = server(&format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"input_required","inputRequests":{{"k":{ELICIT}}}{state}}}}}"#
        ));
        let members =
            format!(r#""name":"x","inputResponses":{{"k":{{"action":"decline"}}}},{echoed}"#);
        let retry = v5_request("2", "tools/call", &members);
        findings(
            "v5-mrtr-request-state-echo",
            &trace(&[&call, &input, &retry]),
        )
    }

    #[test]
    fn fires_on_a_changed_missing_or_invented_state() {
        assert_eq!(
            retried(r#","requestState":"abc""#, r#""requestState":"abd","#),
            [(3, Error)]
        );
        assert_eq!(retried(r#","requestState":"abc""#, ""), [(3, Error)]);
        assert_eq!(retried("", r#""requestState":"abc","#), [(3, Error)]);
    }

    #[test]
    fn silent_on_an_exact_echo_or_none_at_all() {
        assert_eq!(
            retried(r#","requestState":"abc""#, r#""requestState":"abc","#),
            []
        );
        assert_eq!(retried("", ""), []);
    }
}
