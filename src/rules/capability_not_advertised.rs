//! `capability-not-advertised`: a method sent although the side whose
//! capability gates it did not advertise that capability. Driven by the
//! `needs` column of the method table: adding a gate is adding a row there.

use super::{judged_version, negotiated_severity, sent_method};
use crate::diagnostic::Severity;
use crate::protocol::{capabilities, methods, SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "capability-not-advertised",
    family: Family::Capability,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "a request needs a capability its receiver did not advertise, or a notification one its sender did not advertise (tools/call without the server's tools, notifications/tools/list_changed without tools.listChanged)",
    quote: "Only use capabilities that were successfully negotiated",
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: None,
        modern_quote: None,
    }),
    help: "check the peer's capabilities (initialize, or server/discover and each request's _meta in 2026-07-28) before using a feature; a side that sends list_changed or log notifications declares listChanged or logging first",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some((method, from)), Some(version)) = (sent_method(ctx), judged_version(ctx)) else {
        return;
    };
    // A method of another revision or direction has its own rule.
    let Some(row) = methods::method(method, version).filter(|r| r.senders.allows(from)) else {
        return;
    };
    let Some(path) = row.needs_in(version) else {
        return;
    };
    let holder = row.capability_holder(from);
    let Some(advertised) = ctx.session.lifecycle.capabilities(holder) else {
        return; // the trace does not show what the holder advertised
    };
    if capabilities::advertised(&advertised.value, path) {
        return;
    }
    let whose = if holder == from {
        words!("it did not advertise")
    } else {
        words!("the {} did not advertise", holder)
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "{} sends {}, but {} the `{}` capability",
                from,
                method,
                whose,
                path
            ),
        )
        .with_severity(negotiated_severity(version))
        .with_related(
            advertised.location,
            words!(
                "the {} advertised its capabilities here, without `{}`",
                holder,
                path
            ),
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Warning};
    use crate::rules::testing::findings;

    /// A handshake in `version` with the client's and the server's capabilities.
    fn session(version: &str, client: &str, server: &str, lines: &[&str]) -> Vec<(u64, Severity)> {
        let trace = format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{client},"clientInfo":{{"name":"c","version":"1"}}}}}}}}
{{"from":"server","msg":{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{version}","capabilities":{server},"serverInfo":{{"name":"s","version":"1"}}}}}}}}
{{"from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/initialized"}}}}
{}"#,
            lines.join("\n")
        );
        findings("capability-not-advertised", &trace)
    }

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}}"#;
    const LIST_CHANGED: &str =
        r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}}"#;
    const SAMPLE: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}}"#;

    #[test]
    fn fires_on_requests_and_notifications_without_their_capability() {
        let lines = [CALL, LIST_CHANGED, SAMPLE];
        assert_eq!(
            session("2025-06-18", "{}", "{}", &lines),
            [(4, Error), (5, Error), (6, Error)]
        );
        let tools = r#"{"tools":{}}"#;
        assert_eq!(
            session("2025-06-18", "{}", tools, &lines),
            [(5, Error), (6, Error)]
        );
    }

    #[test]
    fn silent_when_the_capabilities_were_cut_at_depth() {
        // supergateway prints server messages as console.log does: nested
        // objects become [Object], so listChanged may be there unseen.
        let log = concat!(
            "[supergateway] SSE → Child (session a): {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}\n",
            "[supergateway] Child → SSE (session a): {\n  jsonrpc: '2.0',\n  id: 0,\n  result: {\n    protocolVersion: '2025-06-18',\n    capabilities: { tools: [Object] },\n    serverInfo: { name: 'x', version: '1' }\n  }\n}\n",
            "[supergateway] Child → SSE (session a): { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }\n",
        );
        assert_eq!(findings("capability-not-advertised", log), []);
    }

    #[test]
    fn is_a_warning_before_2025_06_18() {
        assert_eq!(session("2025-03-26", "{}", "{}", &[CALL]), [(4, Warning)]);
    }

    #[test]
    fn silent_when_advertised_or_not_shown() {
        let server = r#"{"tools":{"listChanged":true}}"#;
        let client = r#"{"sampling":{}}"#;
        assert_eq!(
            session("2025-06-18", client, server, &[CALL, LIST_CHANGED, SAMPLE]),
            []
        );
        // A trace that starts after the handshake does not show capabilities.
        assert_eq!(findings("capability-not-advertised", CALL), []);
    }

    #[test]
    fn completion_is_not_gated_in_2024_11_05_and_a_server_tools_call_is_not_its_own() {
        let complete = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{}}}"#;
        let server_call = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"tools/call","params":{}}}"#;
        assert_eq!(
            session("2024-11-05", "{}", "{}", &[complete, server_call]),
            []
        );
        assert_eq!(
            session("2025-03-26", "{}", "{}", &[complete]),
            [(4, Warning)]
        );
    }

    #[test]
    fn tasks_list_and_cancel_need_the_peers_tasks_capabilities_in_either_direction() {
        let list = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tasks/list"}}"#;
        let cancel = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"tasks/cancel","params":{"taskId":"a"}}}"#;
        let lines = [list, cancel];
        assert_eq!(
            session(
                "2025-11-25",
                r#"{"tasks":{"list":{}}}"#,
                r#"{"tasks":{"cancel":{}}}"#,
                &lines
            ),
            [(4, Error), (5, Error)]
        );
        assert_eq!(
            session(
                "2025-11-25",
                r#"{"tasks":{"cancel":{}}}"#,
                r#"{"tasks":{"list":{}}}"#,
                &lines
            ),
            []
        );
    }
}
