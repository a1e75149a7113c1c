//! `v5-mrtr-retry-new-id`: a retry that reuses the id of the request it retries.

use super::retry;
use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-mrtr-retry-new-id",
    family: Family::Input,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a client retries a request the server answered with an InputRequiredResult under the same JSON-RPC id",
    quote: "The JSON-RPC `id` MUST be different between the initial request and the retry, as they are independent requests.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/mrtr",
        modern: Some("basic/patterns/mrtr"),
        modern_quote: None,
    }),
    help: "give the retry a new id: the first request was answered, and the retry is a request of its own",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((_, id, Some(round))) = retry(ctx) else {
        return;
    };
    if *id != round.id {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!("client retries request {} under the same id {}", id, id),
        )
        .with_request_id(id)
        .with_related(round.request, "the first request")
        .with_related(round.result, "the InputRequiredResult it retries"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    const INPUT: &str =
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s1"}}"#;

    fn retried_as(id: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let retry = v5_request(id, "tools/call", r#""name":"x","requestState":"s1","#);
        findings(
            "v5-mrtr-retry-new-id",
            &trace(&[&call, &server(INPUT), &retry]),
        )
    }

    #[test]
    fn fires_on_the_same_id() {
        assert_eq!(retried_as("1"), [(3, Error)]);
    }

    #[test]
    fn silent_on_a_new_id_even_a_string_one() {
        assert_eq!(retried_as("2"), []);
        assert_eq!(retried_as("\"1\""), []);
    }
}
