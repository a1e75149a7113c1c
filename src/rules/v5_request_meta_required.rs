//! `v5-request-meta-required`: a 2026-07-28 request without its protocol
//! version or client capabilities in `_meta`, or a server that serves one.

use super::answer_finding;
use crate::diagnostic::{Severity, Words};
use crate::engine::operations::MetaProblem;
use crate::engine::Facts;
use crate::event::{Body, Outcome, Side};
use crate::protocol::errors::INVALID_PARAMS;
use crate::protocol::{methods, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-request-meta-required",
    family: Family::Lifecycle,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::REQUEST.and(Wants::RESPONSE),
    order_dependent: false,
    summary: "a 2026-07-28 request without io.modelcontextprotocol/protocolVersion or clientCapabilities in _meta (or with a value of the wrong type), or a server that does not reject it with -32602",
    quote: "A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code `-32602` (Invalid params).",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "send the protocol version (a string) and the client capabilities (an object, {} for none) in the _meta of every request; a server answers a request without them with error -32602",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    match &ctx.facts {
        Facts::Request(facts) => {
            let (Some(params), Some(Body::Request { method, .. })) =
                (&facts.modern, ctx.message.map(|m| &m.body))
            else {
                return;
            };
            // Only the methods of the revision: any other is another rule's.
            let exists = methods::method(method, Version::V2026_07_28).is_some();
            if ctx.from != Some(Side::Client)
                || !exists
                || ctx.message.is_some_and(|m| m.incomplete)
            {
                return;
            }
            let problems: Vec<Words> = params
                .meta_problems()
                .into_iter()
                .map(|(key, problem)| match problem {
                    MetaProblem::Missing => words!("no {}", key),
                    MetaProblem::WrongType(kind) => {
                        words!("{} that is not {}", key, kind.describe())
                    }
                })
                .collect();
            if problems.is_empty() {
                return;
            }
            out.push(
                ctx.diagnostic(
                    &META,
                    words!(
                        "client sends {} with {} in _meta",
                        method,
                        Words::listed(problems)
                    ),
                )
                .with_request_id_of(ctx.message.expect("a request"))
                .with_pointer("/params/_meta"),
            );
        }
        Facts::Response(_) => check_answer(ctx, out),
        _ => {}
    }
}

/// The server must reject a malformed request with -32602.
fn check_answer(ctx: &Ctx, out: &mut Out) {
    let (Some(request), Some(Side::Server), Some(Body::Response { outcome, .. })) =
        (ctx.facts.answered(), ctx.from, ctx.message.map(|m| &m.body))
    else {
        return;
    };
    if !request.modern.is_some_and(|m| m.malformed_meta) {
        return;
    }
    let answer = match outcome {
        Outcome::Error {
            code: Some(INVALID_PARAMS),
        } => return,
        Outcome::Error { code: Some(code) } => words!("error {}", code),
        Outcome::Error { code: None } => words!("an error without a code"),
        Outcome::Result { .. } => words!("a result"),
    };
    let what = words!(
        "{} instead of error -32602, though it lacks required _meta",
        answer
    );
    out.push(answer_finding(ctx, &META, request, what));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request};

    const DISCOVER: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}}"#;
    const NO_CAPS: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}"#;
    const NO_META: &str =
        r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}"#;

    #[test]
    fn fires_on_a_missing_or_mistyped_key() {
        assert_eq!(findings("v5-request-meta-required", NO_CAPS), [(1, Error)]);
        // Without any _meta, the request is of 2026-07-28 by its session.
        assert_eq!(
            findings("v5-request-meta-required", &trace(&[DISCOVER, NO_META])),
            [(2, Error)]
        );
        let wrong = NO_CAPS.replace(
            r#""2026-07-28"}"#,
            r#""2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}"#,
        );
        assert_eq!(findings("v5-request-meta-required", &wrong), [(1, Error)]);
    }

    #[test]
    fn fires_when_the_server_serves_a_malformed_request() {
        let served =
            server(r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools":[]}}"#);
        assert_eq!(
            findings("v5-request-meta-required", &trace(&[NO_CAPS, &served])),
            [(1, Error), (2, Error)]
        );
        let rejected = server(
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"missing clientCapabilities"}}"#,
        );
        assert_eq!(
            findings("v5-request-meta-required", &trace(&[NO_CAPS, &rejected])),
            [(1, Error)]
        );
    }

    #[test]
    fn silent_on_a_complete_request_and_in_a_handshake_session() {
        let list = v5_request("2", "tools/list", "");
        let answer =
            server(r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools":[]}}"#);
        assert_eq!(
            findings("v5-request-meta-required", &trace(&[&list, &answer])),
            []
        );
        let legacy = format!("{}{NO_META}", crate::rules::testing::HANDSHAKE);
        assert_eq!(findings("v5-request-meta-required", &legacy), []);
    }
}
