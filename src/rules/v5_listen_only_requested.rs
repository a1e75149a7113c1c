//! `v5-listen-only-requested`: a listen-stream notification the client did not opt in to.

use serde::Deserialize;

use crate::diagnostic::{Arg, Severity};
use crate::engine::{Facts, ListenTarget};
use crate::protocol::subscriptions::{opt_in, OptIn};
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-listen-only-requested",
    family: Family::Subscription,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a notification on a subscriptions/listen stream of a type (or for a resource) the listen request did not ask for",
    quote: "The server MUST NOT send notification types the client has not explicitly requested.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/subscriptions",
        modern: Some("basic/patterns/subscriptions"),
        modern_quote: None,
    }),
    help: "deliver on a listen stream only the notification types its request opted in to in params.notifications, and resources/updated only for the URIs in resourceSubscriptions",
};

pub static RULE: Rule = Rule::on_events(&META, check);

#[derive(Deserialize)]
struct Updated {
    uri: Option<String>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Listen(ListenTarget::Stream { id, listen }), Some(message)) =
        (&ctx.facts, ctx.message)
    else {
        return;
    };
    let Some((method, opt_in)) = message.method().and_then(|m| Some((m, opt_in(m)?))) else {
        return;
    };
    let uri = match opt_in {
        OptIn::Uris(_) => message
            .members
            .params
            .as_ref()
            .and_then(|p| p.parse::<Updated>())
            .and_then(|p| p.uri),
        OptIn::Flag(_) => None,
    };
    if listen.filter.allows(opt_in, uri.as_deref()) {
        return;
    }
    let what = match (opt_in, &uri) {
        (OptIn::Uris(member), Some(uri)) => {
            words!("for {}, which is not in its {}", Arg::quoted(uri), member)
        }
        (OptIn::Uris(member), None) => words!("for a resource not in its {}", member),
        (OptIn::Flag(member), _) => words!("although its filter does not set {}", member),
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!("server sends {} on subscription {} {}", method, id, what),
        )
        .with_request_id(id)
        .with_related(listen.location, "the listen request and its filter"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    const ACK: &str = r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}}"#;

    fn delivered(method: &str, params: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let listen = v5_request(
            "1",
            "subscriptions/listen",
            r#""notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]},"#,
        );
        let note = server(&format!(
            r#"{{"jsonrpc":"2.0","method":"{method}","params":{{{params}"_meta":{{"io.modelcontextprotocol/subscriptionId":1}}}}}}"#
        ));
        findings(
            "v5-listen-only-requested",
            &trace(&[&listen, &server(ACK), &note]),
        )
    }

    #[test]
    fn fires_on_types_and_resources_not_asked_for() {
        assert_eq!(
            delivered("notifications/prompts/list_changed", ""),
            [(3, Error)]
        );
        let other = r#""uri":"file:///b","#;
        assert_eq!(
            delivered("notifications/resources/updated", other),
            [(3, Error)]
        );
    }

    #[test]
    fn silent_on_what_was_asked_for() {
        assert_eq!(delivered("notifications/tools/list_changed", ""), []);
        let asked = r#""uri":"file:///a","#;
        assert_eq!(delivered("notifications/resources/updated", asked), []);
    }
}
