//! `http-protocol-version-header`: MCP-Protocol-Version missing or not the negotiated version.

use crate::diagnostic::Severity;
use crate::event::{Payload, Transport};
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "http-protocol-version-header",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_06_18, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "an HTTP request after initialization lacks MCP-Protocol-Version (error) or names another version than the negotiated one (warning), from 2025-06-18",
    quote: "If using HTTP, the client MUST include the MCP-Protocol-Version: <protocol-version> HTTP header on all subsequent requests to the MCP server",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: None,
        modern_quote: None,
    }),
    help: "send MCP-Protocol-Version with the version of the initialize result on every request after initialization",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Payload::Transport(Transport::Http(http)) = &ctx.event.payload else {
        return;
    };
    let session = ctx.session;
    let (Some(version), Some((answered, true))) =
        (ctx.version, session.lifecycle.initialize_response)
    else {
        return;
    };
    if http.initialize {
        return;
    }
    let diagnostic = match &http.protocol_version_header {
        None => ctx.diagnostic(
            &META,
            words!(
                "the client sends {} without MCP-Protocol-Version in a session that negotiated {}",
                http.method,
                version
            ),
        ),
        Some(header) if header.trim() != version.as_str() => ctx
            .diagnostic(
                &META,
                words!(
                    "the client sends MCP-Protocol-Version {} in a session that negotiated {}",
                    crate::words::Arg::quoted(header),
                    version
                ),
            )
            // "The protocol version sent by the client SHOULD be the one negotiated".
            .with_severity(Severity::Warning),
        Some(_) => return,
    };
    out.push(
        diagnostic
            .with_label("the request")
            .with_related(answered, words!("{} was negotiated here", version)),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::{findings, har};

    /// A POST of `message` with an optional MCP-Protocol-Version header,
    /// answered with the JSON body `answer`.
    fn post(header: Option<&str>, message: &str, answer: &str) -> Value {
        let headers: Vec<Value> = header
            .map(|v| json!({"name": "MCP-Protocol-Version", "value": v}))
            .into_iter()
            .collect();
        json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "headers": headers, "postData": {"text": message}},
            "response": {"status": 200, "content": {"mimeType": "application/json", "text": answer}},
        })
    }

    /// An initialize that negotiates `version`.
    fn initialize(version: &str) -> Value {
        let message = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#;
        let result = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": version}});
        post(None, message, &result.to_string())
    }

    fn tools_list(header: Option<&str>) -> Value {
        let message = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        post(
            header,
            message,
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#,
        )
    }

    #[test]
    fn error_when_the_header_is_missing() {
        let trace = har(&[initialize("2025-06-18"), tools_list(None)]);
        assert_eq!(
            findings("http-protocol-version-header", &trace),
            [(3, Error)]
        );
    }

    #[test]
    fn warning_when_the_header_names_another_version() {
        let trace = har(&[initialize("2025-11-25"), tools_list(Some("2025-06-18"))]);
        assert_eq!(
            findings("http-protocol-version-header", &trace),
            [(3, Warning)]
        );
    }

    #[test]
    fn silent_on_the_negotiated_version_and_on_a_new_initialize() {
        let trace = har(&[
            initialize("2025-06-18"),
            tools_list(Some("2025-06-18")),
            initialize("2025-06-18"),
        ]);
        assert_eq!(findings("http-protocol-version-header", &trace), []);
    }

    #[test]
    fn silent_when_2025_03_26_was_negotiated() {
        // The header did not exist yet.
        let trace = har(&[initialize("2025-03-26"), tools_list(None)]);
        assert_eq!(findings("http-protocol-version-header", &trace), []);
    }
}
