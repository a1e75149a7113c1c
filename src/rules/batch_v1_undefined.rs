//! `batch-v1-undefined`: a JSON-RPC batch in a 2024-11-05 session, which
//! does not define batches.

use super::report_batch;
use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "batch-v1-undefined",
    family: Family::Jsonrpc,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2024_11_05),
    wants: Wants::MESSAGES,
    order_dependent: false,
    summary: "a JSON-RPC batch in a 2024-11-05 session, a revision that does not define batches",
    quote: "",
    spec: Some(SpecPage {
        legacy: "basic/messages",
        modern: None,
        modern_quote: None,
    }),
    help: "send each message on its own; batches exist only in 2025-03-26",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    report_batch(
        ctx,
        out,
        &META,
        "2024-11-05 does not define batches, and its schema has no array message",
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, HANDSHAKE};

    const BATCH: &str = r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"prompts/list"}]}"#;

    #[test]
    fn fires_once_per_batch_in_2024_11_05() {
        let trace = HANDSHAKE.replace("2025-11-25", "2024-11-05") + BATCH;
        assert_eq!(findings("batch-v1-undefined", &trace), [(4, Warning)]);
    }

    #[test]
    fn silent_in_2025_03_26_and_on_single_messages() {
        let trace = HANDSHAKE.replace("2025-11-25", "2025-03-26") + BATCH;
        assert_eq!(findings("batch-v1-undefined", &trace), []);
        let single = HANDSHAKE.replace("2025-11-25", "2024-11-05")
            + r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;
        assert_eq!(findings("batch-v1-undefined", &single), []);
    }
}
