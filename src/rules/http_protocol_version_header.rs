//! `http-protocol-version-header`: MCP-Protocol-Version missing or not the negotiated version.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::Era;
use crate::event::{Payload, Transport};
use crate::sanitize::escape_controls;

pub struct HttpProtocolVersionHeader;

pub static META: RuleMeta = RuleMeta {
    id: "http-protocol-version-header",
    default_severity: Severity::Error,
    summary: "an HTTP request after initialization lacks MCP-Protocol-Version (error) or names another version than the negotiated one (warning), from 2025-06-18",
    quote: "If using HTTP, the client MUST include the MCP-Protocol-Version: <protocol-version> HTTP header on all subsequent requests to the MCP server",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: None,
        modern_quote: None,
    }),
    help: "send MCP-Protocol-Version with the version of the initialize result on every request after initialization",
};

/// Versions that define the header (it came with 2025-06-18).
const WITH_HEADER: &[&str] = &["2025-06-18", "2025-11-25"];

impl Rule for HttpProtocolVersionHeader {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let Payload::Transport(Transport::Http(http)) = &ctx.event.payload else {
            return;
        };
        let session = ctx.session;
        let (Some(version), Some((answered, true))) = (
            session.version.as_deref(),
            session.lifecycle.initialize_response,
        ) else {
            return;
        };
        if http.initialize || session.era == Era::Modern || !WITH_HEADER.contains(&version) {
            return;
        }
        let diagnostic = match &http.protocol_version_header {
            None => ctx.diagnostic(
                &META,
                format!(
                    "the client sends {} without MCP-Protocol-Version in a session that negotiated {version}",
                    http.method
                ),
            ),
            Some(header) if header.trim() != version => ctx
                .diagnostic(
                    &META,
                    format!(
                        "the client sends MCP-Protocol-Version {:?} in a session that negotiated {version}",
                        escape_controls(header)
                    ),
                )
                // "The protocol version sent by the client SHOULD be the one negotiated".
                .with_severity(Severity::Warning),
            Some(_) => return,
        };
        out.push(
            diagnostic
                .with_label("the request")
                .with_related(answered, format!("{version} was negotiated here")),
        );
    }
}
