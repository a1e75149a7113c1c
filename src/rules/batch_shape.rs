//! `batch-shape`: a 2025-03-26 batch that mixes responses with requests or notifications.

use super::{describe_batch, opened_batch};
use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "batch-shape",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2025_03_26),
    wants: Wants::MESSAGES,
    order_dependent: false,
    summary: "a 2025-03-26 batch that mixes responses with requests or notifications",
    quote: "An array batching one or more _requests and/or notifications_",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: None,
        modern_quote: None,
    }),
    help:
        "batch requests and notifications together, or responses together, never both in one batch",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((batch, from)) = opened_batch(ctx) else {
        return;
    };
    if batch.responses == 0 || batch.requests + batch.notifications == 0 {
        return;
    }
    out.push(ctx.diagnostic(
        &META,
        words!(
            "{} mixes responses with requests or notifications",
            describe_batch(&batch, from)
        ),
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, HANDSHAKE};

    fn in_2025_03_26(line: &str) -> String {
        HANDSHAKE.replace("2025-11-25", "2025-03-26") + line
    }

    #[test]
    fn fires_once_on_a_mixed_batch() {
        let trace = in_2025_03_26(
            r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":"s1","result":{}},{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":"s2","result":{}}]}"#,
        );
        assert_eq!(findings("batch-shape", &trace), [(4, Error)]);
    }

    #[test]
    fn silent_on_pure_batches() {
        let requests = in_2025_03_26(
            r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]}"#,
        );
        assert_eq!(findings("batch-shape", &requests), []);
        let responses = in_2025_03_26(
            r#"{"from":"server","msg":[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]}"#,
        );
        assert_eq!(findings("batch-shape", &responses), []);
    }
}
