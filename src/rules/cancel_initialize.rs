//! `cancel-initialize`: a client cancels its own initialize request.

use crate::diagnostic::Severity;
use crate::engine::{CancelTarget, Facts};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cancel-initialize",
    family: Family::Cancel,
    default_severity: Severity::Error,
    versions: Versions::HANDSHAKE,
    wants: Wants::NOTIFICATION,
    order_dependent: false,
    summary: "a client cancels its initialize request",
    quote: "The initialize request MUST NOT be cancelled by clients",
    spec: Some(SpecPage {
        legacy: "basic/utilities/cancellation",
        modern: None,
        modern_quote: None,
    }),
    help: "to give up on a server that does not answer initialize, close the connection instead",
};

/// Why a cancellation without a logged target is only probably of initialize.
const PROBABLE_NOTE: &str = "the log does not show which request was cancelled; initialize was the client's only open request, so it is the probable target";

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (request, probable) = match &ctx.facts {
        Facts::Cancel(CancelTarget::Initialize(request)) => (request, false),
        // The log does not show the target (Claude Desktop's payload-free lines).
        Facts::Cancel(CancelTarget::Unlogged {
            probable_initialize: Some(request),
        }) => (request, true),
        _ => return,
    };
    let verb = if probable {
        "probably cancels"
    } else {
        "cancels"
    };
    let diagnostic = ctx
        .diagnostic(
            &META,
            words!("client {} its initialize request {}", verb, request.id),
        )
        .with_request_id(request.id)
        .with_related(request.location, "initialize was sent here");
    out.push(if probable {
        diagnostic
            .with_severity(Severity::Warning)
            .with_note(PROBABLE_NOTE)
    } else {
        diagnostic
    });
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CANCEL_0: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}}"#;

    #[test]
    fn fires_on_cancelling_a_pending_initialize() {
        let initialize = HANDSHAKE.lines().next().unwrap();
        let trace = [initialize, CANCEL_0].join("\n");
        assert_eq!(findings("cancel-initialize", &trace), [(2, Error)]);
    }

    #[test]
    fn fires_on_every_cancellation_of_an_answered_initialize() {
        let trace = format!("{HANDSHAKE}{CANCEL_0}\n{CANCEL_0}");
        assert_eq!(
            findings("cancel-initialize", &trace),
            [(4, Error), (5, Error)]
        );
    }

    #[test]
    fn silent_when_the_server_cancels_its_own_request_0() {
        let trace = format!(
            "{HANDSHAKE}{}",
            [
                r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage"}}"#,
                r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}}"#,
            ]
            .join("\n")
        );
        assert_eq!(findings("cancel-initialize", &trace), []);
    }

    #[test]
    fn silent_on_the_string_id_0() {
        // "0" is not the id of initialize: cancel-unknown-request owns it.
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"0"}}}"#;
        assert_eq!(
            findings("cancel-initialize", &format!("{HANDSHAKE}{cancel}")),
            []
        );
    }

    #[test]
    fn fires_on_cancelling_an_initialize_with_a_string_id() {
        // A client that cancels everything on shutdown includes it too.
        let initialize =
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"init-1","method":"initialize"}}"#;
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"init-1","result":{}}}"#;
        let cancel = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"init-1"}}}"#;
        let trace = [initialize, result, cancel].join("\n");
        assert_eq!(findings("cancel-initialize", &trace), [(3, Error)]);
    }

    // Claude Desktop's payload-free lines (issue 13) show no requestId.
    const INIT_0: &str = r#"2026-08-13T07:09:45.382Z [info] [cbm] Message from client: method="initialize" id=0 params"#;
    const UNLOGGED_CANCEL: &str = r#"2026-08-13T07:10:45.390Z [info] [cbm] Message from client: method="notifications/cancelled" params"#;

    #[test]
    fn warns_on_a_cancellation_without_its_target_while_only_initialize_is_open() {
        let trace = [INIT_0, UNLOGGED_CANCEL].join("\n");
        assert_eq!(findings("cancel-initialize", &trace), [(2, Warning)]);
    }

    #[test]
    fn silent_on_a_cancellation_without_its_target_once_initialize_is_answered() {
        let trace = [
            INIT_0,
            r#"2026-08-13T07:09:45.400Z [info] [cbm] Message from server: id=0 result"#,
            r#"2026-08-13T07:09:45.401Z [info] [cbm] Message from client: method="tools/call" id=1 params"#,
            UNLOGGED_CANCEL,
        ]
        .join("\n");
        assert_eq!(findings("cancel-initialize", &trace), []);
    }
}
