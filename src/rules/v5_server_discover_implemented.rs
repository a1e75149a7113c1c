//! `v5-server-discover-implemented`: a 2026-07-28 server answers `server/discover` with "method not found".

use super::modern_answer;
use crate::diagnostic::Severity;
use crate::event::{Body, Outcome};
use crate::protocol::errors::METHOD_NOT_FOUND;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-server-discover-implemented",
    family: Family::Lifecycle,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a server answers a 2026-07-28 server/discover with -32601 (method not found)",
    quote: "Servers MUST implement `server/discover`.",
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: Some("basic/lifecycle"),
        modern_quote: None,
    }),
    help: "answer server/discover with the supported versions and the server's capabilities; clients call it to learn what the server speaks",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((request, None)) = modern_answer(ctx) else {
        return;
    };
    let not_found = matches!(
        ctx.message.map(|m| &m.body),
        Some(Body::Response {
            outcome: Outcome::Error {
                code: Some(METHOD_NOT_FOUND)
            },
            ..
        })
    );
    if request.method != "server/discover" || !not_found {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "server answers server/discover (request {}) with -32601 (method not found)",
                request.id
            ),
        )
        .with_request_id(request.id)
        .with_related(request.location, "the request"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, server, trace, v5_request};

    fn answered(answer: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let discover = v5_request("1", "server/discover", "");
        findings(
            "v5-server-discover-implemented",
            &trace(&[&discover, &server(answer)]),
        )
    }

    #[test]
    fn fires_on_method_not_found() {
        let error =
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;
        assert_eq!(answered(error), [(2, Warning)]);
    }

    #[test]
    fn silent_on_a_result_or_another_error() {
        let result = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}}"#;
        assert_eq!(answered(result), []);
        let busy = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"busy"}}"#;
        assert_eq!(answered(busy), []);
    }
}
