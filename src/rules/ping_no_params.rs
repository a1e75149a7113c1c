//! `ping-no-params`: a ping request carries parameters.

use crate::diagnostic::Severity;
use crate::event::Body;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "ping-no-params",
    family: Family::Ping,
    default_severity: Severity::Info,
    versions: Versions::HANDSHAKE,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "a ping request has params other than _meta",
    quote: "A ping request is a standard JSON-RPC request with no parameters",
    spec: Some(SpecPage::handshake("basic/utilities/ping")),
    help: "send ping without params (only _meta is allowed); the receiver ignores anything else",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(message) = ctx.message else { return };
    let Body::Request { method, .. } = &message.body else {
        return;
    };
    if method != "ping" {
        return;
    }
    let params = message.members.params.as_ref();
    let what = match super::members_besides_meta(params) {
        Some(extra) => words!("ping has params {}", extra),
        // Positional params: only an empty array carries nothing.
        None if params.is_some_and(|p| p.text().starts_with('[') && p.text() != "[]") => {
            words!("ping has positional params")
        }
        None => return,
    };
    out.push(ctx.diagnostic(&META, what).with_request_id_of(message));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(ping: &str) -> Vec<(u64, Severity)> {
        findings("ping-no-params", &format!("{HANDSHAKE}{ping}"))
    }

    #[test]
    fn info_on_params_besides_meta() {
        let named = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping","params":{"seq":1}}}"#;
        assert_eq!(check(named), [(4, Info)]);
        let positional =
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}}"#;
        assert_eq!(check(positional), [(4, Info)]);
    }

    #[test]
    fn silent_without_params_or_with_meta_only() {
        assert_eq!(
            check(r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#),
            []
        );
        assert_eq!(
            check(
                r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}}"#
            ),
            []
        );
        let meta = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":1}}}}"#;
        assert_eq!(check(meta), []);
    }
}
