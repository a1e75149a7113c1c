//! `version-client-disconnect`: the client goes on after the server
//! answered another protocol version than it asked for.

use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "version-client-disconnect",
    family: Family::Lifecycle,
    default_severity: Severity::Info,
    versions: Versions::HANDSHAKE,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "the client goes on after the server answered another protocol version than it asked for (it should disconnect if it does not support that one)",
    quote: "If the client does not support the version in the server's response, it SHOULD disconnect.",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "nothing to do if the client supports the server's version; otherwise it should disconnect instead of going on",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let lifecycle = &ctx.session.lifecycle;
    // Only the client's first message after the result: one finding per session.
    if ctx.from != Some(Side::Client) || lifecycle.client_went_on.is_some() {
        return;
    }
    let (Some((requested, answered)), Some((result, true))) = (
        lifecycle.negotiated_other_version(),
        lifecycle.initialize_response,
    ) else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!("client goes on in protocol version {} although it asked for {}", crate::words::Arg::quoted(answered), crate::words::Arg::quoted(requested)),
        )
        .with_related(result, "the server answered the other version here")
        .with_note("the trace cannot show whether the client supports that version; if it does not, it should have disconnected"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    const TOOLS: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#;

    fn check(answered: &str, then: &[&str]) -> Vec<(u64, Severity)> {
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        let result = lines[1].replace("2025-11-25", answered);
        let mut trace = vec![lines[0], &result];
        trace.extend_from_slice(then);
        findings("version-client-disconnect", &trace.join("\n"))
    }

    #[test]
    fn info_once_when_the_client_goes_on() {
        let initialized = HANDSHAKE.lines().nth(2).unwrap();
        assert_eq!(check("2025-03-26", &[initialized, TOOLS]), [(3, Info)]);
        assert_eq!(check("2025-03-26", &[TOOLS]), [(3, Info)]);
    }

    #[test]
    fn silent_on_the_same_version_or_when_the_client_stops() {
        let initialized = HANDSHAKE.lines().nth(2).unwrap();
        assert_eq!(check("2025-11-25", &[initialized, TOOLS]), []);
        assert_eq!(
            check("2025-03-26", &[r#"{"from":"client","event":"closed"}"#]),
            []
        );
    }
}
