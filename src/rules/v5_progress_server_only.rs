//! `v5-progress-server-only`: a 2026-07-28 client sends progress.

use super::stateless_client_progress;
use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-progress-server-only",
    family: Family::Progress,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a 2026-07-28 client sends notifications/progress (only servers report progress there)",
    quote: "The server MAY send progress notifications to report the status of requests the client has issued.",
    spec: Some(SpecPage {
        legacy: "basic/patterns/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "in 2026-07-28 the only notification a client sends is notifications/cancelled; progress flows from the server, for the client's requests",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    if stateless_client_progress(ctx) {
        out.push(ctx.diagnostic(
            &META,
            "client sends notifications/progress, which only the server sends in 2026-07-28",
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, server, trace, v5_request, HANDSHAKE};

    const PROGRESS: &str = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#;

    #[test]
    fn fires_on_client_progress_in_2026_07_28() {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let client = format!(r#"{{"from":"client","msg":{PROGRESS}}}"#);
        assert_eq!(
            findings("v5-progress-server-only", &trace(&[&call, &client])),
            [(2, Error)]
        );
    }

    #[test]
    fn silent_on_server_progress_and_in_handshake_sessions() {
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let progress = server(PROGRESS);
        assert_eq!(
            findings("v5-progress-server-only", &trace(&[&call, &progress])),
            []
        );
        let legacy = format!(r#"{HANDSHAKE}{{"from":"client","msg":{PROGRESS}}}"#);
        assert_eq!(findings("v5-progress-server-only", &legacy), []);
    }
}
