//! `v5-mrtr-responses-keys`: a retry's input responses that answer no input request that was asked.

use super::retry;
use crate::diagnostic::{Arg, Severity, Words};
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-mrtr-responses-keys",
    family: Family::Input,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a retry whose inputResponses answer input requests the server did not ask (warning), or leave some unanswered (info)",
    quote: "Keys correspond to the keys in the `InputRequests` map",
    spec: Some(SpecPage {
        legacy: "basic/patterns/mrtr",
        modern: Some("basic/patterns/mrtr"),
        modern_quote: None,
    }),
    help: "answer each input request under its key from inputRequests, and only those; the server ignores other keys and asks again for missing ones",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((params, id, round)) = retry(ctx) else {
        return;
    };
    let keys = params.response_keys().unwrap_or_default();
    let Some(round) = round else {
        if keys.is_empty() {
            return;
        }
        // Asked before the recording began, perhaps.
        let diagnostic = ctx
            .diagnostic(
                &META,
                words!(
                    "client sends input responses {} that answer no input request the server asked for this operation",
                    quoted(&keys)
                ),
            )
            .with_request_id(id)
            .with_pointer("/params/inputResponses")
            .lowered_unless_proven(ctx, Severity::Info);
        return out.push(diagnostic);
    };
    let asked = |key: &&str| round.asked.iter().any(|a| &**a == *key);
    let unasked: Vec<&str> = keys.iter().copied().filter(|k| !asked(k)).collect();
    let missing: Vec<&str> = round
        .asked
        .iter()
        .map(|a| &**a)
        .filter(|a| !keys.contains(a))
        .collect();
    let (text, severity) = match (unasked.is_empty(), missing.is_empty()) {
        (true, true) => return,
        (false, _) => (
            words!(
                "client retries request {} with input responses {} that the server did not ask for",
                round.id,
                quoted(&unasked)
            ),
            Severity::Warning,
        ),
        (true, false) => (
            words!(
                "client retries request {} without answering input requests {}",
                round.id,
                quoted(&missing)
            ),
            Severity::Info,
        ),
    };
    out.push(
        ctx.diagnostic(&META, text)
            .with_severity(severity)
            .with_request_id(id)
            .with_pointer("/params/inputResponses")
            .with_related(round.result, "the input requests"),
    );
}

/// Keys quoted and listed: `"a" and "b"`.
fn quoted(keys: &[&str]) -> Words {
    Words::listed(keys.iter().map(|k| words!("{}", Arg::quoted(k))).collect())
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Info, Warning};
    use crate::rules::testing::{findings, server, trace, v5_request, DISCOVER};

    const INPUT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"},"b":{"method":"roots/list"}}}}"#;

    fn answered(responses: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let members = format!(r#""name":"x","inputResponses":{responses},"#);
        let retry = v5_request("2", "tools/call", &members);
        findings(
            "v5-mrtr-responses-keys",
            &trace(&[DISCOVER, &call, &server(INPUT), &retry]),
        )
    }

    const ROOTS: &str = r#"{"roots":[]}"#;

    #[test]
    fn warns_on_unasked_keys_and_notes_missing_ones() {
        let extra = format!(r#"{{"a":{ROOTS},"b":{ROOTS},"c":{ROOTS}}}"#);
        assert_eq!(answered(&extra), [(4, Warning)]);
        assert_eq!(answered(&format!(r#"{{"a":{ROOTS}}}"#)), [(4, Info)]);
    }

    #[test]
    fn silent_when_every_asked_key_is_answered() {
        assert_eq!(answered(&format!(r#"{{"a":{ROOTS},"b":{ROOTS}}}"#)), []);
    }

    #[test]
    fn warns_on_responses_to_an_operation_that_asked_nothing() {
        let members = format!(r#""name":"x","inputResponses":{{"a":{ROOTS}}},"#);
        let retry = v5_request("2", "tools/call", &members);
        assert_eq!(
            findings("v5-mrtr-responses-keys", &trace(&[DISCOVER, &retry])),
            [(2, Warning)]
        );
        // Without the session's start, the question may predate the trace.
        assert_eq!(findings("v5-mrtr-responses-keys", &retry), [(1, Info)]);
    }
}
