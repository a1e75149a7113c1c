//! `cap-undeclared-but-served`: a side answers with a result a request that
//! needs a capability it never advertised.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::event::{Body, Outcome};
use crate::protocol::{capabilities, methods, SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cap-undeclared-but-served",
    family: Family::Capability,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a side answers with a result a request that needs a capability it never advertised (a server serving tools/list without tools)",
    quote: "Servers that support tools MUST declare the `tools` capability",
    spec: Some(SpecPage {
        legacy: "server/tools",
        modern: Some("server/tools"),
        modern_quote: None,
    }),
    help: "declare every capability the side serves (tools, prompts, resources, logging, completions; sampling, roots, elicitation for a client), or answer requests for undeclared ones with -32601 Method not found",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (
        Facts::Response(ResponseTarget::Pending(request) | ResponseTarget::AfterCancel(request)),
        Some(from),
        Some(Body::Response {
            outcome: Outcome::Result { .. },
            ..
        }),
        Some(version),
    ) = (
        &ctx.facts,
        ctx.from,
        ctx.message.map(|m| &m.body),
        ctx.version,
    )
    else {
        return;
    };
    // A request its sender may not send is method-direction's.
    let row = methods::method(request.method, version).filter(|r| r.senders.allows(from.peer()));
    let Some(path) = row.and_then(|r| r.needs_in(version)) else {
        return;
    };
    let Some(advertised) = ctx.session.lifecycle.capabilities(from) else {
        return;
    };
    if capabilities::advertised(&advertised.value, path) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} answers {} with a result, but never advertised the `{}` capability",
                from,
                describe_request(from.peer(), request),
                path
            ),
        )
        .with_request_id(request.id)
        .with_related(
            advertised.location,
            words!(
                "the {} advertised its capabilities here, without `{}`",
                from,
                path
            ),
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{findings, HANDSHAKE};

    const LIST: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;

    #[test]
    fn fires_on_a_result_for_an_undeclared_capability() {
        let trace = format!(
            "{HANDSHAKE}{LIST}\n{}",
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#
        );
        assert_eq!(findings("cap-undeclared-but-served", &trace), [(5, Info)]);
    }

    #[test]
    fn silent_on_the_answer_to_a_request_sent_in_the_wrong_direction() {
        let trace = format!(
            "{HANDSHAKE}{}\n{}",
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"tools/call","params":{"name":"x"}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"s1","result":{"content":[]}}}"#
        );
        assert_eq!(findings("cap-undeclared-but-served", &trace), []);
    }

    #[test]
    fn silent_on_an_error_answer_or_a_declared_capability() {
        let refused = format!(
            "{HANDSHAKE}{LIST}\n{}",
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}}"#
        );
        assert_eq!(findings("cap-undeclared-but-served", &refused), []);
        let declared = HANDSHAKE.replace(
            r#""capabilities":{},"serverInfo""#,
            r#""capabilities":{"tools":{}},"serverInfo""#,
        ) + LIST
            + "\n"
            + r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#;
        assert_eq!(findings("cap-undeclared-but-served", &declared), []);
    }
}
