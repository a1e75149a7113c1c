//! `method-version`: a method that does not exist in the revision the session speaks.

use std::borrow::Cow;

use serde::Deserialize;

use super::{judged_version, negotiated_severity, sent_method};
use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::{capabilities, methods, SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "method-version",
    family: Family::Method,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "a method that does not exist in the session's protocol version (elicitation/create in 2025-03-26, tasks/get in 2025-06-18, ping in 2026-07-28)",
    quote: "Respect the negotiated protocol version",
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: None,
        modern_quote: None,
    }),
    help: "use only the methods of the negotiated revision; a feature of another revision needs that revision negotiated, and a 2026-07-28 extension method needs the extension in capabilities.extensions",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some((method, from)), Some(version)) = (sent_method(ctx), judged_version(ctx)) else {
        return;
    };
    if super::stateless_server_request(ctx) {
        return; // v5-no-server-requests'
    }
    // Unknown methods are unknown-method's; one no revision lets this side
    // send is method-direction's.
    if methods::method(method, version).is_some()
        || methods::versions_sent_by(method, from).is_empty()
    {
        return;
    }
    let extension = methods::extension_method(method, version);
    if let Some((_, id)) = extension {
        if extension_allowed(ctx, from, id) {
            return;
        }
    }
    let text = match extension {
        Some((_, id)) => words!("{} sends {}, which {} defines only in the extension {}, and the session did not advertise it in capabilities.extensions", from, method, version, id),
        None => words!("{} sends {}, which is not a method of {} (it exists in {})", from, method, version, methods::versions_of(method).describe()),
    };
    // An extension one side lacks is a SHOULD-level fallback matter
    // ("revert to core protocol behavior or reject"): a warning.
    let severity = match extension {
        Some(_) => Severity::Warning,
        None => negotiated_severity(version),
    };
    out.push(ctx.diagnostic(&META, text).with_severity(severity));
}

/// Whether an extension method may be sent: no side shown in the trace
/// lacks the extension (a side whose capabilities are unknown may have it).
fn extension_allowed(ctx: &Ctx, from: Side, id: &str) -> bool {
    [Side::Client, Side::Server].into_iter().all(|side| {
        let shown: Option<Cow<serde_json::Value>> = match side {
            // A 2026-07-28 client request carries its own capabilities.
            Side::Client if from == Side::Client => own_client_capabilities(ctx).map(Cow::Owned),
            _ => None,
        };
        let shown = shown.or_else(|| {
            let caps = ctx.session.lifecycle.capabilities(side)?;
            Some(Cow::Borrowed(&caps.value))
        });
        shown.is_none_or(|caps| capabilities::extension_advertised(&caps, id))
    })
}

#[derive(Deserialize)]
struct OwnParams {
    #[serde(rename = "_meta")]
    meta: Option<OwnMeta>,
}

#[derive(Deserialize)]
struct OwnMeta {
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<serde_json::Value>,
}

fn own_client_capabilities(ctx: &Ctx) -> Option<serde_json::Value> {
    let params = ctx.message?.members.params.as_ref()?;
    params
        .parse::<OwnParams>()?
        .meta?
        .client_capabilities
        .filter(serde_json::Value::is_object)
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn in_version(version: &str, lines: &[&str]) -> Vec<(u64, Severity)> {
        let handshake = HANDSHAKE.replace("2025-11-25", version);
        findings(
            "method-version",
            &format!("{handshake}{}", lines.join("\n")),
        )
    }

    const ELICIT: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}"#;
    const TASKS_GET: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t"}}}"#;

    #[test]
    fn grades_by_version() {
        assert_eq!(in_version("2025-03-26", &[ELICIT]), [(4, Warning)]);
        assert_eq!(in_version("2025-06-18", &[TASKS_GET]), [(4, Error)]);
    }

    #[test]
    fn silent_where_the_method_exists() {
        assert_eq!(in_version("2025-06-18", &[ELICIT]), []);
        assert_eq!(in_version("2025-11-25", &[TASKS_GET]), []);
    }

    const V5_CAPS: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":"#;

    #[test]
    fn fires_on_ping_named_2026_07_28_and_silent_on_an_unnamed_one() {
        let ping = format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"_meta":{{{V5_CAPS}{{}}}}}}}}}}"#
        );
        assert_eq!(findings("method-version", &ping), [(1, Error)]);
        // Without its version, a ping may belong to a handshake session on
        // the same endpoint.
        let legacy = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}"#;
        let trace = format!(
            "{}\n{legacy}",
            ping.replace("\"ping\"", "\"tools/list\"")
                .replace("\"id\":1", "\"id\":0")
        );
        assert_eq!(findings("method-version", &trace), []);
    }

    #[test]
    fn an_extension_method_needs_the_extension_advertised() {
        let request = |caps: &str| {
            format!(
                r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{{"taskId":"t","_meta":{{{V5_CAPS}{caps}}}}}}}}}"#
            )
        };
        assert_eq!(findings("method-version", &request("{}")), [(1, Warning)]);
        let with = request(r#"{"extensions":{"io.modelcontextprotocol/tasks":{}}}"#);
        assert_eq!(findings("method-version", &with), []);
    }
}
