//! `batch-initialize`: an `initialize` request inside a JSON-RPC batch.

use serde::Deserialize;

use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "batch-initialize",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    // The version is not negotiated yet when initialize is sent, and no
    // revision allows it in a batch: 2025-03-26 forbids it, the others have
    // no batches at all.
    versions: Versions::ALL,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "an initialize request inside a JSON-RPC batch",
    quote: "The initialize request MUST NOT be part of a JSON-RPC batch, as other requests and notifications are not possible until initialization has completed.",
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: None,
        modern_quote: None,
    }),
    help: "send initialize on its own, wait for its result, then send notifications/initialized and the session's other messages",
};

pub static RULE: Rule = Rule::on_events(&META, check);

/// The one revision whose text says it; its page is the one to link.
const BATCHES: Version = Version::V2025_03_26;

#[derive(Deserialize)]
struct InitializeParams {
    #[serde(rename = "protocolVersion")]
    protocol_version: Option<String>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(batch) = ctx.message.and_then(|m| m.batch.as_deref()) else {
        return;
    };
    if batch.initialize != Some(batch.index) {
        return;
    }
    let mut diagnostic = ctx.diagnostic(
        &META,
        words!(
            "initialize is sent inside a batch of {} messages; it must travel alone",
            batch.len
        ),
    );
    diagnostic.spec_version = Some(BATCHES);
    // A client asking for 2024-11-05 speaks a revision with no batches at
    // all, where this is undefined rather than forbidden.
    if requested(ctx).is_some_and(|v| v < BATCHES) {
        diagnostic = diagnostic.with_severity(Severity::Warning);
    }
    out.push(diagnostic);
}

/// The revision the initialize request asks for (only this message's params
/// are read).
fn requested(ctx: &Ctx) -> Option<Version> {
    let params = ctx.message?.members.params.as_ref()?;
    let version = params.parse::<InitializeParams>()?.protocol_version?;
    Some(Version::nearest(&version))
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::findings;

    fn batch(version: &str) -> String {
        format!(
            r#"{{"from":"client","msg":[{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}},{{"jsonrpc":"2.0","id":1,"method":"tools/list"}}]}}"#
        )
    }

    #[test]
    fn fires_once_on_the_initialize_of_a_batch() {
        assert_eq!(
            findings("batch-initialize", &batch("2025-03-26")),
            [(1, Error)]
        );
        assert_eq!(
            findings("batch-initialize", &batch("2025-06-18")),
            [(1, Error)]
        );
    }

    #[test]
    fn is_a_warning_for_a_client_asking_for_2024_11_05() {
        assert_eq!(
            findings("batch-initialize", &batch("2024-11-05")),
            [(1, Warning)]
        );
    }

    #[test]
    fn silent_on_a_lone_initialize_and_a_batch_without_it() {
        let trace = crate::rules::testing::HANDSHAKE.replace("2025-11-25", "2025-03-26")
            + r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"prompts/list"}]}"#;
        assert_eq!(findings("batch-initialize", &trace), []);
    }
}
