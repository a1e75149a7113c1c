//! `request-before-initialize`: requests before the handshake is complete.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::Facts;
use crate::event::{Body, Side};

pub struct RequestBeforeInitialize;

pub static META: RuleMeta = RuleMeta {
    id: "request-before-initialize",
    default_severity: Severity::Warning,
    summary: "a side sends a request other than ping before initialization is complete",
    quote: "The client SHOULD NOT send requests other than pings before the server has responded to the initialize request. The server SHOULD NOT send requests other than pings and logging before receiving the initialized notification.",
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: None,
        modern_quote: None,
    }),
    help: "wait for the initialize response (client) or the notifications/initialized notification (server) before sending requests",
};

impl Rule for RequestBeforeInitialize {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Request(_), Some(from), Some(Body::Request { id, method, .. })) =
            (&ctx.facts, ctx.from, ctx.message.map(|m| &m.body))
        else {
            return;
        };
        let lifecycle = &ctx.session.lifecycle;
        if !ctx.session.has_handshake() || method == "ping" || method == "initialize" {
            return;
        }
        let Some((_, init_location)) = &lifecycle.initialize else {
            return;
        };
        let method = crate::sanitize::escape_controls(method);
        let (message, related) = match (from, lifecycle.initialize_response, lifecycle.initialized) {
            // The client waits for the initialize response even if it sent
            // `initialized` too early.
            (Side::Client, None, _) => (
                format!("client sends {method} before the server has answered initialize"),
                (*init_location, "initialize was sent here and is not answered yet"),
            ),
            (_, Some((answered, false)), _) => (
                format!("{from} sends {method} although initialize failed, so the session was never initialized"),
                (answered, "initialize failed here"),
            ),
            (Side::Client, Some((answered, true)), None) => (
                format!("client sends {method} before it sent notifications/initialized"),
                (answered, "the server answered initialize here"),
            ),
            (Side::Server, _, None) => (
                format!("server sends {method} before the client sent notifications/initialized"),
                (*init_location, "the session started here"),
            ),
            (_, _, Some(_)) => return,
        };
        let mut diagnostic = ctx
            .diagnostic(&META, message)
            .with_related(related.0, related.1);
        if let crate::event::KeyField::Valid(id) = id {
            diagnostic = diagnostic.with_request_id(id);
        }
        out.push(diagnostic);
    }
}
