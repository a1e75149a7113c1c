//! `response-unknown-id`: a response whose id matches no request of the other side.

use super::{describe_request, Ctx, Rule};
use crate::diagnostic::{Diagnostic, RuleMeta, Severity, SpecPage};
use crate::engine::{Facts, ResponseTarget};

pub struct ResponseUnknownId;

pub static META: RuleMeta = RuleMeta {
    id: "response-unknown-id",
    default_severity: Severity::Error,
    summary: "a response whose id matches no request of the other side",
    quote: "Responses MUST include the same ID as the request they correspond to.",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "answer with the id of the request exactly as received, keeping its type (1 and \"1\" are different ids)",
};

impl Rule for ResponseUnknownId {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let (Facts::Response(target), Some(from)) = (&ctx.facts, ctx.from) else {
            return;
        };
        let peer = from.peer();
        let Some(crate::event::Body::Response {
            id: Some(crate::event::KeyField::Valid(id)),
            ..
        }) = ctx.message.map(|m| &m.body)
        else {
            if let ResponseTarget::InvalidId(kind) = target {
                out.push(ctx.diagnostic(
                    &META,
                    format!(
                        "{from} sends a response whose id is {}, which can match no request",
                        kind.describe()
                    ),
                ));
            }
            return;
        };
        let ResponseTarget::Unknown { own } = target else {
            return;
        };
        let mut diagnostic = ctx
            .diagnostic(
                &META,
                format!("{from} answers request {id}, which the {peer} never sent"),
            )
            .with_request_id(id);
        if let Some(own) = own {
            diagnostic = diagnostic.with_related(
                own.location,
                format!(
                    "only the {from} itself sent a request with this id: {}",
                    describe_request(from, own)
                ),
            );
        }
        diagnostic = diagnostic.lowered_unless_proven(ctx, Severity::Info);
        out.push(diagnostic);
    }
}
