//! `initialized-after-failed-init`: `notifications/initialized` after initialize failed.

use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "initialized-after-failed-init",
    family: Family::Lifecycle,
    default_severity: Severity::Warning,
    versions: Versions::HANDSHAKE,
    wants: Wants::NOTIFICATION.and(Wants::REQUEST),
    order_dependent: false,
    summary: "the client sends notifications/initialized although initialize failed",
    quote: "After successful initialization, the client MUST send an initialized notification to indicate it is ready to begin normal operations",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "after an error to initialize, retry initialize (for example with a version the error names) or disconnect; the session is not initialized",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    // Sent with an id it is still meant as the notification (the lifecycle
    // counts it so); notification-with-id reports the id.
    let method = ctx.message.and_then(|m| m.method());
    if method != Some("notifications/initialized") || ctx.from != Some(Side::Client) {
        return;
    }
    let Some((failed, false)) = ctx.session.lifecycle.initialize_response else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            "client sends notifications/initialized although initialize failed",
        )
        .with_related(failed, "the server answered initialize with an error here"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, HANDSHAKE};

    const FAILED: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version","data":{"supported":["2024-11-05"]}}}}"#;

    #[test]
    fn warns_on_initialized_after_an_error() {
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        let trace = [lines[0], FAILED, lines[2]].join("\n");
        assert_eq!(
            findings("initialized-after-failed-init", &trace),
            [(3, Warning)]
        );
    }

    #[test]
    fn silent_after_success_and_after_a_successful_retry() {
        assert_eq!(findings("initialized-after-failed-init", HANDSHAKE), []);
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        let retry = lines[0].replace("\"id\":0", "\"id\":1");
        let result = lines[1].replace("\"id\":0", "\"id\":1");
        let trace = [lines[0], FAILED, &retry, &result, lines[2]].join("\n");
        assert_eq!(findings("initialized-after-failed-init", &trace), []);
    }
}
