//! `version-server-response`: the server answers another protocol version
//! than the client asked for.

use crate::diagnostic::Severity;
use crate::engine::{Facts, ResponseTarget};
use crate::event::{Body, Outcome, Side};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "version-server-response",
    family: Family::Lifecycle,
    default_severity: Severity::Info,
    versions: Versions::HANDSHAKE,
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "the server answers initialize with another protocol version than the client asked for (allowed when it does not support that one)",
    quote: "If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports.",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "nothing to do if the server does not support the requested version; if it does, it must answer that version",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let lifecycle = &ctx.session.lifecycle;
    let (Facts::Response(ResponseTarget::Pending(request)), Some(Side::Server)) =
        (&ctx.facts, ctx.from)
    else {
        return;
    };
    let Some(Body::Response {
        outcome: Outcome::Result {
            protocol_version: Some(answered),
        },
        ..
    }) = ctx.message.map(|m| &m.body)
    else {
        return;
    };
    if !lifecycle.is_initialize(request.id) {
        return;
    }
    let Some(requested) = lifecycle.requested_other_than(answered) else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!("server answers protocol version {} to a request for {}: allowed only if it does not support {}", crate::words::Arg::quoted(answered), crate::words::Arg::quoted(requested), crate::words::Arg::quoted(requested)),
        )
        .with_request_id(request.id)
        .with_related(request.location, "the client asked for its version here"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(answered: &str) -> Vec<(u64, Severity)> {
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        let result = lines[1].replace("2025-11-25", answered);
        findings("version-server-response", &[lines[0], &result].join("\n"))
    }

    #[test]
    fn info_on_another_version() {
        assert_eq!(check("2025-06-18"), [(2, Info)]);
    }

    #[test]
    fn silent_on_the_same_version_and_on_errors() {
        assert_eq!(check("2025-11-25"), []);
        // The client asked for a version that names no revision.
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        let draft = lines[0].replace("2025-11-25", "draft");
        let trace = [draft.as_str(), lines[1]].join("\n");
        assert_eq!(findings("version-server-response", &trace), []);
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        let error = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version"}}}"#;
        assert_eq!(
            findings("version-server-response", &[lines[0], error].join("\n")),
            []
        );
    }
}
