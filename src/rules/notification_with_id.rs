//! `notification-with-id`: a `notifications/*` method sent with an id.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::event::{Body, KeyField};

pub struct NotificationWithId;

pub static META: RuleMeta = RuleMeta {
    id: "notification-with-id",
    default_severity: Severity::Error,
    summary: "a notifications/* method is sent with an id, which makes it a request",
    quote: "Notifications MUST NOT include an ID.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "drop the \"id\" member: notifications are one-way and get no response",
};

impl Rule for NotificationWithId {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
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
            format!(
                "notification {} is sent with id {shown}",
                crate::sanitize::escape_controls(method)
            ),
        );
        if let KeyField::Valid(id) = id {
            diagnostic = diagnostic.with_request_id(id);
        }
        out.push(diagnostic);
    }
}
