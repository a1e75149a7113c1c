//! `cap-elicitation-complete-unknown-id`: a completion for a URL-mode
//! elicitation the server never opened.

use serde::Deserialize;

use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::elicitation::COMPLETE;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cap-elicitation-complete-unknown-id",
    family: Family::Capability,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2025_11_25),
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "notifications/elicitation/complete names an elicitationId that no earlier URL-mode elicitation of the session carried",
    quote: "Clients MUST ignore notifications referencing unknown or already-completed IDs.",
    spec: Some(SpecPage {
        legacy: "client/elicitation",
        modern: None,
        modern_quote: None,
    }),
    help: "send notifications/elicitation/complete only with the elicitationId of a URL-mode elicitation/create (or of an elicitation listed in a -32042 error) sent earlier in the same session",
};

pub static RULE: Rule = Rule::on_events(&META, check);

#[derive(Deserialize)]
struct CompleteParams {
    #[serde(rename = "elicitationId")]
    elicitation_id: String,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(message) = ctx.message.filter(|m| m.method() == Some(COMPLETE)) else {
        return;
    };
    if ctx.from != Some(Side::Server) {
        return;
    }
    // Without a string id the schema rules report the params.
    let params = message.members.params.as_ref();
    let Some(params) = params.and_then(|p| p.parse::<CompleteParams>()) else {
        return;
    };
    let id = params.elicitation_id.as_str();
    if ctx.session.elicitations.opened(id).is_some() {
        return;
    }
    let diagnostic = ctx
        .diagnostic(
            &META,
            words!(
                "server completes elicitation {}, but no earlier URL-mode elicitation of this session has that elicitationId",
                id
            ),
        )
        .with_pointer("/params/elicitationId");
    out.push(diagnostic.lowered_unless_proven(ctx, Severity::Info));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Error, Info};
    use crate::rules::testing::{findings, trace, with_client_capabilities};

    const RULE: &str = "cap-elicitation-complete-unknown-id";
    const CREATE: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"mode":"url","elicitationId":"e1","url":"https://example.com/auth","message":"Sign in"}}}"#;
    const REQUIRED: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"auth","data":{"elicitations":[{"mode":"url","elicitationId":"e1","url":"https://example.com/auth","message":"Sign in"}]}}}}"#;
    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pay"}}}"#;

    fn complete(id: &str) -> String {
        format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{{"elicitationId":"{id}"}}}}}}"#
        )
    }

    fn session(lines: &[&str]) -> String {
        with_client_capabilities(r#"{"elicitation":{"url":{}}}"#) + &trace(lines)
    }

    #[test]
    fn fires_on_an_id_no_elicitation_carried() {
        let other = complete("e2");
        assert_eq!(findings(RULE, &session(&[CREATE, &other])), [(5, Error)]);
        let first = complete("e1");
        assert_eq!(findings(RULE, &session(&[&first, CREATE])), [(4, Error)]);
    }

    #[test]
    fn info_when_the_trace_misses_the_sessions_start() {
        assert_eq!(findings(RULE, &complete("e1")), [(1, Info)]);
    }

    #[test]
    fn silent_after_a_url_elicitation_or_a_url_elicitation_required_error() {
        let done = complete("e1");
        assert_eq!(findings(RULE, &session(&[CREATE, &done])), []);
        assert_eq!(findings(RULE, &session(&[CALL, REQUIRED, &done])), []);
    }
}
