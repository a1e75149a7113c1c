//! `v5-listen-ack-first`: a notification on a listen stream before the server acknowledged it.

use crate::diagnostic::Severity;
use crate::engine::{Facts, ListenTarget};
use crate::protocol::subscriptions::ACKNOWLEDGED;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-listen-ack-first",
    family: Family::Subscription,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTIFICATION,
    order_dependent: true,
    summary: "a notification on a subscriptions/listen stream before notifications/subscriptions/acknowledged",
    quote: "The server MUST send `notifications/subscriptions/acknowledged` as the first message carrying the subscription's ID in `_meta` under `io.modelcontextprotocol/subscriptionId`, and MUST NOT send any notification on the subscription before it.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/subscriptions",
        modern: Some("basic/patterns/subscriptions"),
        modern_quote: None,
    }),
    help: "acknowledge the listen request first, with the subset of notification types the server honours; only then deliver notifications on the stream",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Listen(ListenTarget::Stream { id, listen }), Some(method)) =
        (&ctx.facts, ctx.message.and_then(|m| m.method()))
    else {
        return;
    };
    if method == ACKNOWLEDGED || listen.acknowledged.is_some() || listen.ended.is_some() {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "server sends {} on subscription {} before acknowledging it",
                method,
                id
            ),
        )
        .with_request_id(id)
        .with_related(listen.location, "the listen request"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    const ACK: &str = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}"#;
    const CHANGED: &str = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}"#;

    fn after_listen(lines: &[&str]) -> Vec<(u64, crate::diagnostic::Severity)> {
        let listen = v5_request(
            "7",
            "subscriptions/listen",
            r#""notifications":{"toolsListChanged":true},"#,
        );
        let mut all = vec![listen];
        all.extend(lines.iter().map(|l| server(l)));
        findings("v5-listen-ack-first", &trace(&all))
    }

    #[test]
    fn fires_before_the_acknowledgement() {
        assert_eq!(after_listen(&[CHANGED, ACK]), [(2, Error)]);
    }

    #[test]
    fn silent_after_it() {
        assert_eq!(after_listen(&[ACK, CHANGED]), []);
    }
}
