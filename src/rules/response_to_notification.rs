//! `response-to-notification`: a response that answers a notification.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{Facts, ResponseTarget};
use crate::event::{Body, Outcome};

pub struct ResponseToNotification;

pub static META: RuleMeta = RuleMeta {
    id: "response-to-notification",
    default_severity: Severity::Error,
    summary: "a response answers a notification: a null-id reply no unreadable message justifies, or a success result to an id-bearing notifications/* message",
    quote: "The receiver MUST NOT send a response.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "send nothing in reply to a notification; a reply with a null id is only for an error about a message whose id could not be read, and a notifications/* method sent with an id gets an error such as -32601 Method not found, never a result",
};

impl Rule for ResponseToNotification {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Response(target), Some(from), Some(Body::Response { outcome, .. })) =
            (&ctx.facts, ctx.from, ctx.message.map(|m| &m.body))
        else {
            return;
        };
        let is_result = matches!(outcome, Outcome::Result { .. });
        match target {
            ResponseTarget::NullId => {
                let peer_unreadable = ctx
                    .session
                    .side(from.peer())
                    .unreadable
                    .last()
                    .or(ctx.source_unreadable);
                if let (false, Some(_)) = (is_result, peer_unreadable) {
                    return; // an error about a message whose id could not be read
                }
                let message = if is_result {
                    format!("{from} sends a success result with a null id; it can only answer a notification")
                } else {
                    format!(
                        "{from} sends an error with a null id, but the {} sent no message whose id could not be read",
                        from.peer()
                    )
                };
                out.push(ctx.diagnostic(&META, message));
            }
            ResponseTarget::ToNotification(location) if is_result => {
                out.push(
                    ctx.diagnostic(
                        &META,
                        format!(
                            "{from} answers a notification sent with an id with a success result"
                        ),
                    )
                    .with_related(*location, "the notification, wrongly sent with an id"),
                );
            }
            _ => {}
        }
    }
}
