//! `session-id-required`: an HTTP request without the session id the server assigned.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::Era;
use crate::event::{Payload, Transport};
use crate::sanitize::escape_controls;

pub struct SessionIdRequired;

pub static META: RuleMeta = RuleMeta {
    id: "session-id-required",
    default_severity: Severity::Error,
    summary: "an HTTP request after initialization lacks the Mcp-Session-Id the server assigned, or carries one it never assigned",
    quote: "If an Mcp-Session-Id is returned by the server during initialization, clients using the Streamable HTTP transport MUST include it in the Mcp-Session-Id header on all of their subsequent HTTP requests.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: None,
        modern_quote: None,
    }),
    help: "send the Mcp-Session-Id from the initialize response on every later request of the session (POST, GET and DELETE); start a new session with a new initialize",
};

impl Rule for SessionIdRequired {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let Payload::Transport(Transport::Http(http)) = &ctx.event.payload else {
            return;
        };
        // A new initialize starts a session and may come without an id;
        // 2026-07-28 has no sessions.
        if http.initialize || ctx.session.era == Era::Modern {
            return;
        }
        let Some((latest, assigned_at)) = ctx.assigned_sessions.last() else {
            return;
        };
        let message = match &http.session_header {
            None => format!(
                "the client sends {} without Mcp-Session-Id after the server assigned {:?}",
                http.method,
                escape_controls(latest)
            ),
            Some(id) if !ctx.assigned_sessions.iter().any(|(a, _)| a == id) => format!(
                "the client sends {} with Mcp-Session-Id {:?}, which the server never assigned (it assigned {:?})",
                http.method,
                escape_controls(id),
                escape_controls(latest)
            ),
            Some(_) => return,
        };
        out.push(
            ctx.diagnostic(&META, message)
                .with_label("the request")
                .with_related(*assigned_at, "the server assigned the session id here"),
        );
    }
}
