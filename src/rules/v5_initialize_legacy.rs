//! `v5-initialize-legacy`: an error to `initialize` that names no supported versions.

use serde::Deserialize;

use crate::diagnostic::Severity;
use crate::event::{Body, Outcome, Side};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-initialize-legacy",
    family: Family::Lifecycle,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a server answers initialize with an error whose data does not list the protocol versions it supports",
    quote: "A server that supports only modern versions SHOULD name the protocol versions it supports in any error it returns to an `initialize` request, on any transport",
    // Read in the handshake era, it links that era's version negotiation;
    // the sentence is the 2026-07-28 versioning page's.
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: Some("basic/versioning"),
        modern_quote: None,
    }),
    help: "put the versions the server speaks in error.data.supported (as in UnsupportedProtocolVersionError), so an older client can tell the server is newer rather than broken",
};

pub static RULE: Rule = Rule::on_events(&META, check);

#[derive(Deserialize)]
struct ErrorObject {
    data: Option<Data>,
}

#[derive(Deserialize)]
struct Data {
    supported: Option<Vec<serde::de::IgnoredAny>>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(request), Some(Side::Server), Some(message)) =
        (ctx.facts.answered(), ctx.from, ctx.message)
    else {
        return;
    };
    let failed = matches!(
        message.body,
        Body::Response {
            outcome: Outcome::Error { .. },
            ..
        }
    );
    if request.method != "initialize" || !failed || message.incomplete {
        return;
    }
    let error = message.members.error.as_ref();
    let object = error.and_then(|e| e.parse::<ErrorObject>());
    if object
        .and_then(|o| o.data)
        .and_then(|d| d.supported)
        .is_some()
    {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            "server answers initialize with an error that does not list the protocol versions it supports (error.data.supported)",
        )
        .with_request_id(request.id)
        .with_related(request.location, "the initialize request"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{findings, server, trace};

    const INITIALIZE: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#;

    fn answered(error: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let answer = server(&format!(r#"{{"jsonrpc":"2.0","id":0,"error":{error}}}"#));
        findings("v5-initialize-legacy", &trace(&[INITIALIZE, &answer]))
    }

    #[test]
    fn notes_an_error_without_the_supported_versions() {
        assert_eq!(
            answered(r#"{"code":-32601,"message":"Method not found"}"#),
            [(2, Info)]
        );
    }

    #[test]
    fn silent_when_it_lists_them_or_on_a_result() {
        let listed = r#"{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2025-11-25","supported":["2026-07-28"]}}"#;
        assert_eq!(answered(listed), []);
        let result = server(
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
        );
        assert_eq!(
            findings("v5-initialize-legacy", &trace(&[INITIALIZE, &result])),
            []
        );
    }
}
