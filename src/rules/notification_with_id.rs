//! `notification-with-id`: a `notifications/*` method sent with an id.

use crate::diagnostic::Severity;
use crate::event::{Body, KeyField};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "notification-with-id",
    family: Family::Jsonrpc,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a notifications/* method is sent with an id, which makes it a request",
    quote: "Notifications MUST NOT include an ID.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "drop the \"id\" member: notifications are one-way and get no response",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(Body::Request { id, method, .. }) = ctx.message.map(|m| &m.body) else {
        return;
    };
    if !method.starts_with("notifications/") {
        return;
    }
    let shown = match id {
        KeyField::Valid(id) => id.to_string(),
        KeyField::Invalid(kind) => kind.describe().to_string(),
    };
    let mut diagnostic = ctx.diagnostic(
        &META,
        words!("notification {} is sent with id {}", method, shown),
    );
    if let KeyField::Valid(id) = id {
        diagnostic = diagnostic.with_request_id(id);
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "notification-with-id",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_a_cancellation_sent_with_an_id() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"notifications/cancelled","params":{"requestId":1}}}"#,
        ];
        assert_eq!(check(&lines), [(5, Error)]);
    }

    #[test]
    fn fires_on_a_null_id() {
        let lines = [
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":null,"method":"notifications/message","params":{"level":"info","data":"x"}}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error)]);
    }

    #[test]
    fn silent_on_notifications_without_id() {
        let lines = [
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_requests_whatever_their_id() {
        // A bad id on a request is request-id-invalid's.
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":null,"method":"tools/list"}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn fires_on_notifications_initialized_sent_with_an_id() {
        let initialize = HANDSHAKE.lines().take(2).collect::<Vec<_>>().join("\n");
        let initialized = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}}"#;
        let trace = format!("{initialize}\n{initialized}");
        assert_eq!(findings("notification-with-id", &trace), [(3, Error)]);
    }
}
