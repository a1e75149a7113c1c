//! `v5-listen-subscription-id`: a listen-stream notification that does not name an open listen request.

use crate::diagnostic::Severity;
use crate::engine::{Facts, ListenTarget};
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-listen-subscription-id",
    family: Family::Subscription,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a notification of a subscriptions/listen stream without io.modelcontextprotocol/subscriptionId in _meta, or naming no open listen request",
    quote: "On notifications delivered via a `subscriptions/listen` stream, the server MUST include `io.modelcontextprotocol/subscriptionId` in `_meta`",
    spec: Some(SpecPage {
        legacy: "basic/patterns/subscriptions",
        modern: Some("basic/patterns/subscriptions"),
        modern_quote: None,
    }),
    help: "put the id of the subscriptions/listen request in _meta[\"io.modelcontextprotocol/subscriptionId\"] of every notification on its stream, and send nothing on a stream that has ended",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Listen(target), Some(method)) = (&ctx.facts, ctx.message.and_then(|m| m.method()))
    else {
        return;
    };
    let diagnostic = match target {
        ListenTarget::Missing if ctx.message.is_some_and(|m| m.incomplete) => return,
        ListenTarget::Missing => ctx.diagnostic(
            &META,
            words!(
                "server sends {} without io.modelcontextprotocol/subscriptionId in _meta",
                method
            ),
        ),
        ListenTarget::Unknown(named) => ctx
            .diagnostic(
                &META,
                words!(
                    "server sends {} for subscription {}, which no subscriptions/listen request of the client opened",
                    method,
                    named.to_string()
                ),
            )
            .lowered_unless_proven(ctx, Severity::Warning),
        ListenTarget::Stream { id, listen } => {
            let Some(ended) = listen.ended else { return };
            ctx.diagnostic(
                &META,
                words!(
                    "server sends {} on subscription {} after that stream ended",
                    method,
                    id
                ),
            )
            .with_request_id(id)
            .with_related(listen.location, "the listen request")
            .with_related(ended, "the stream ended here")
        }
    };
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request, DISCOVER};

    fn changed(meta: &str) -> String {
        server(&format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{{{meta}}}}}"#
        ))
    }

    const ACK: &str = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}}"#;

    fn on_stream(lines: &[&str]) -> Vec<(u64, crate::diagnostic::Severity)> {
        let listen = v5_request(
            "\"L\"",
            "subscriptions/listen",
            r#""notifications":{"toolsListChanged":true},"#,
        );
        let mut all = vec![DISCOVER.to_string(), listen, server(ACK)];
        all.extend(lines.iter().map(|l| l.to_string()));
        findings("v5-listen-subscription-id", &trace(&all))
    }

    #[test]
    fn fires_without_an_id_with_a_wrong_one_and_after_the_end() {
        assert_eq!(on_stream(&[&changed("")]), [(4, Error)]);
        let other = changed(r#""_meta":{"io.modelcontextprotocol/subscriptionId":"M"}"#);
        assert_eq!(on_stream(&[&other]), [(4, Error)]);
        let end = server(
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L"}}"#,
        );
        let late = changed(r#""_meta":{"io.modelcontextprotocol/subscriptionId":"L"}"#);
        assert_eq!(on_stream(&[&end, &late]), [(5, Error)]);
        // Without the session's start, the listen may predate the trace.
        let listen = v5_request("\"L\"", "subscriptions/listen", "");
        assert_eq!(
            findings("v5-listen-subscription-id", &trace(&[&listen, &other])),
            [(2, crate::diagnostic::Severity::Warning)]
        );
    }

    #[test]
    fn silent_with_the_listen_id() {
        let good = changed(r#""_meta":{"io.modelcontextprotocol/subscriptionId":"L"}"#);
        assert_eq!(on_stream(&[&good]), []);
    }
}
