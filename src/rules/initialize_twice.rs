//! `initialize-twice`: a second initialize after a successful one.

use crate::diagnostic::Severity;
use crate::event::Side;
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "initialize-twice",
    family: Family::Lifecycle,
    default_severity: Severity::Info,
    versions: Versions::HANDSHAKE,
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "the client sends initialize again in a session that was already initialized",
    quote: "The initialization phase MUST be the first interaction between client and server.",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "to start over, end the session (close the connection, or on HTTP start a new session) and initialize there",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let lifecycle = &ctx.session.lifecycle;
    let is_initialize = ctx.message.and_then(|m| m.method()) == Some("initialize");
    if !is_initialize || ctx.from != Some(Side::Client) {
        return;
    }
    // Over HTTP without session ids nothing ties two initializes to one
    // session: each may open its own with a server that keeps none.
    if ctx.session.name.is_none() && !ctx.session.http.streams.is_empty() {
        return;
    }
    // A retry after a failed initialize is the way to recover from it.
    let (Some((_, first)), Some((answered, true))) =
        (&lifecycle.initialize, lifecycle.initialize_response)
    else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            "client sends initialize again although the session is already initialized",
        )
        .with_related(*first, "the first initialize was sent here")
        .with_related(answered, "and succeeded here"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Info;
    use crate::rules::testing::{findings, har, HANDSHAKE};

    const AGAIN: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#;

    #[test]
    fn info_on_initialize_after_a_successful_one() {
        let trace = format!("{HANDSHAKE}{AGAIN}");
        assert_eq!(findings("initialize-twice", &trace), [(4, Info)]);
    }

    /// An initialize POST answered 200, sent with `session` as Mcp-Session-Id.
    fn http_initialize(id: u32, session: Option<&str>) -> serde_json::Value {
        let message = AGAIN.replace("\"id\":5", &format!("\"id\":{id}"));
        let message: serde_json::Value = serde_json::from_str(&message).unwrap();
        let result = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":"2025-11-25","capabilities":{{}},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
        );
        let headers: Vec<serde_json::Value> = session
            .map(|s| serde_json::json!({"name": "Mcp-Session-Id", "value": s}))
            .into_iter()
            .collect();
        serde_json::json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "headers": headers,
                        "postData": {"text": message["msg"].to_string()}},
            "response": {"status": 200, "content": {"text": result}},
        })
    }

    #[test]
    fn over_http_only_within_one_session_id() {
        let trace = har(&[
            http_initialize(1, Some("s1")),
            http_initialize(2, Some("s1")),
        ]);
        assert_eq!(findings("initialize-twice", &trace), [(3, Info)]);
        let trace = har(&[http_initialize(1, None), http_initialize(2, None)]);
        assert_eq!(findings("initialize-twice", &trace), []);
    }

    #[test]
    fn silent_on_a_retry_after_a_failed_initialize() {
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        let failed = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version","data":{"supported":["2025-11-25"]}}}}"#;
        let trace = [lines[0], failed, AGAIN].join("\n");
        assert_eq!(findings("initialize-twice", &trace), []);
        assert_eq!(findings("initialize-twice", HANDSHAKE), []);
    }
}
