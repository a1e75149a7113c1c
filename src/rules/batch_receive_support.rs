//! `batch-receive-support`: a 2025-03-26 peer refuses a batch with a null-id
//! error, as if it could not read it.

use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::event::{Body, Outcome};
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "batch-receive-support",
    family: Family::Jsonrpc,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2025_03_26),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a 2025-03-26 peer answers a batch with a null-id error (such as -32600 Invalid Request) instead of answering its messages",
    quote: "MCP implementations MAY support sending JSON-RPC batches, but MUST support receiving JSON-RPC batches.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: None,
        modern_quote: None,
    }),
    help: "in 2025-03-26, read a batch as its messages and answer each request (the responses may come as a batch too)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (
        Facts::Response(ResponseTarget::NullId),
        Some(from),
        Some(Body::Response {
            outcome: Outcome::Error { code },
            ..
        }),
    ) = (&ctx.facts, ctx.from, ctx.message.map(|m| &m.body))
    else {
        return;
    };
    let peer = ctx.session.side(from.peer());
    // A message of the batch whose id could not be read justifies the error.
    let (Some(batch), None) = (peer.unanswered_batch, peer.unreadable.last()) else {
        return;
    };
    let code = code.map_or(words!(""), |c| words!(" {}", c));
    out.push(
        ctx.diagnostic(
            &META,
            words!("{} answers the {}'s batch with error{} and a null id instead of answering its messages", from, from.peer(), code),
        )
        .with_related(batch, "the batch"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, HANDSHAKE};

    const BATCH: &str = r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"prompts/list"}]}"#;
    const REFUSAL: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Batches not supported"}}}"#;

    fn in_version(version: &str, lines: &[&str]) -> String {
        HANDSHAKE.replace("2025-11-25", version) + &lines.join("\n")
    }

    #[test]
    fn fires_on_a_null_id_error_right_after_a_batch() {
        let trace = in_version("2025-03-26", &[BATCH, REFUSAL]);
        assert_eq!(findings("batch-receive-support", &trace), [(5, Warning)]);
    }

    #[test]
    fn silent_when_the_batch_was_answered_or_in_other_revisions() {
        let answered = in_version(
            "2025-03-26",
            &[
                BATCH,
                r#"{"from":"server","msg":[{"jsonrpc":"2.0","id":1,"result":{"tools":[]}},{"jsonrpc":"2.0","id":2,"result":{"prompts":[]}}]}"#,
                REFUSAL,
            ],
        );
        assert_eq!(findings("batch-receive-support", &answered), []);
        let removed = in_version("2025-06-18", &[BATCH, REFUSAL]);
        assert_eq!(findings("batch-receive-support", &removed), []);
    }
}
