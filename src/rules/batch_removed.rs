//! `batch-removed`: a JSON-RPC batch from 2025-06-18 on, where batches were removed.

use super::report_batch;
use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "batch-removed",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::from(Version::V2025_06_18),
    wants: Wants::MESSAGES,
    order_dependent: false,
    summary: "a JSON-RPC batch in a session of 2025-06-18 or later, revisions that removed batches",
    quote: "Messages are individual JSON-RPC requests, notifications, or responses.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/stdio"),
        modern_quote: Some("Each message is a single JSON-RPC request, notification, or response."),
    }),
    help: "send each message on its own (one line on stdio, one POST body over HTTP)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    report_batch(
        ctx,
        out,
        &META,
        "JSON-RPC batches were removed in 2025-06-18",
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, HANDSHAKE};

    const BATCH: &str = r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":2,"method":"prompts/list"}]}"#;

    #[test]
    fn fires_once_per_batch_from_2025_06_18() {
        assert_eq!(
            findings("batch-removed", &format!("{HANDSHAKE}{BATCH}")),
            [(4, Error)]
        );
        let trace = HANDSHAKE.replace("2025-11-25", "2025-06-18") + BATCH;
        assert_eq!(findings("batch-removed", &trace), [(4, Error)]);
    }

    #[test]
    fn silent_in_2025_03_26_on_an_empty_batch_and_on_a_batch_with_initialize() {
        let trace = HANDSHAKE.replace("2025-11-25", "2025-03-26") + BATCH;
        assert_eq!(findings("batch-removed", &trace), []);
        // The empty array is invalid-jsonrpc's.
        let empty = format!("{HANDSHAKE}{}", r#"{"from":"client","msg":[]}"#);
        assert_eq!(findings("batch-removed", &empty), []);
        let with_initialize = format!(
            "{HANDSHAKE}{}",
            r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}},{"jsonrpc":"2.0","id":8,"method":"tools/list"}]}"#
        );
        assert_eq!(findings("batch-removed", &with_initialize), []);
    }
}
