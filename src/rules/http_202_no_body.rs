//! `http-202-no-body`: a POST of only notifications or responses not answered 202 without a body.

use super::{Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::event::{Payload, Transport};

pub struct Http202NoBody;

pub static META: RuleMeta = RuleMeta {
    id: "http-202-no-body",
    default_severity: Severity::Error,
    summary: "a POST holding only notifications or responses is accepted with a status other than 202, or with a body",
    quote: "If the server accepts the input, the server MUST return HTTP status code 202 Accepted with no body.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/streamable-http"),
        modern_quote: None,
    }),
    help: "answer a POST that carries no request with 202 Accepted and an empty body (or an HTTP error status when rejecting it)",
};

impl Rule for Http202NoBody {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let Payload::Transport(Transport::Http(http)) = &ctx.event.payload else {
            return;
        };
        let only_input = http.requests == 0 && http.notifications + http.responses > 0;
        let Some(status) = http.status.filter(|s| (200..300).contains(s)) else {
            return;
        };
        // The 2024-11-05 HTTP+SSE transport has no such requirement.
        let legacy = ctx.session.version.as_deref() == Some("2024-11-05");
        if legacy
            || !only_input
            || http.method != "POST"
            || (status == 202 && !http.response_has_body)
        {
            return;
        }
        let what = match (http.notifications, http.responses) {
            (0, _) => "responses",
            (_, 0) => "notifications",
            _ => "notifications and responses",
        };
        let answer = match (status, http.response_has_body) {
            (202, _) => "202 with a body".to_string(),
            (_, true) => format!("{status} with a body"),
            (_, false) => format!("{status}"),
        };
        out.push(
            ctx.diagnostic(
                &META,
                format!("the server accepted a POST of only {what} with {answer}, not 202 without a body"),
            )
            .with_label("the exchange"),
        );
    }
}
