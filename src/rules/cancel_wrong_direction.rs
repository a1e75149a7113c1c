//! `cancel-wrong-direction`: a side cancels a request the other side issued.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{CancelTarget, Facts};
use crate::event::Side;
use crate::protocol::{Era, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cancel-wrong-direction",
    family: Family::Cancel,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a side cancels a request that the other side issued",
    quote: "Cancellation notifications MUST only reference requests that: Were previously issued in the same direction",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: Some("Servers MUST NOT send `notifications/cancelled` for any other purpose."),
    }),
    help: "a side may cancel only its own requests; to refuse a request it received, it answers with an error",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Facts::Cancel(CancelTarget::WrongDirection(request)), Some(from)) = (&ctx.facts, ctx.from)
    else {
        return;
    };
    let mut diagnostic = ctx
        .diagnostic(
            &META,
            words!(
                "{} cancels request {}, which the {} issued, not the {}",
                from,
                request.id,
                from.peer(),
                from
            ),
        )
        .with_request_id(request.id)
        .with_related(
            request.location,
            words!("{} was sent here", describe_request(from.peer(), request)),
        );
    // A 2026-07-28 server issues no requests, so no request of its own
    // before the recording can hold the id.
    if !(from == Side::Server && ctx.version.map(Version::era) == Some(Era::Stateless)) {
        diagnostic = diagnostic.lowered_unless_proven(ctx, Severity::Warning);
    }
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#;
    const SERVER_CANCELS_1: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;

    #[test]
    fn fires_when_the_server_cancels_a_client_request() {
        let trace = format!("{HANDSHAKE}{CALL}\n{SERVER_CANCELS_1}");
        assert_eq!(findings("cancel-wrong-direction", &trace), [(5, Error)]);
    }

    #[test]
    fn silent_when_a_2026_07_28_server_ends_a_listen_stream() {
        let listen = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"l1","method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}"#;
        let end = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"l1"}}}"#;
        assert_eq!(
            findings("cancel-wrong-direction", &format!("{listen}\n{end}")),
            []
        );
        // A server cancelling a client's tools/call is still wrong there,
        // an error even mid-session: such a server issues no requests.
        let call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}"#;
        let cancel = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1"}}}"#;
        assert_eq!(
            findings("cancel-wrong-direction", &format!("{call}\n{cancel}")),
            [(2, Error)]
        );
    }

    #[test]
    fn warning_when_the_trace_starts_mid_session() {
        let trace = format!("{CALL}\n{SERVER_CANCELS_1}");
        assert_eq!(findings("cancel-wrong-direction", &trace), [(2, Warning)]);
    }

    #[test]
    fn silent_when_the_sender_has_its_own_request_with_that_id() {
        let sampling =
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage"}}"#;
        let trace = format!("{HANDSHAKE}{CALL}\n{sampling}\n{SERVER_CANCELS_1}");
        assert_eq!(findings("cancel-wrong-direction", &trace), []);
    }

    #[test]
    fn silent_when_neither_side_issued_the_id() {
        // cancel-unknown-request owns it.
        let trace = format!("{HANDSHAKE}{SERVER_CANCELS_1}");
        assert_eq!(findings("cancel-wrong-direction", &trace), []);
    }

    #[test]
    fn fires_when_the_client_cancels_a_server_request() {
        let elicitation =
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":7,"method":"elicitation/create"}}"#;
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}}"#;
        let trace = format!("{HANDSHAKE}{CALL}\n{elicitation}\n{cancel}");
        assert_eq!(findings("cancel-wrong-direction", &trace), [(6, Error)]);
    }
}
