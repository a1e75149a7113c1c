//! One cause, one finding: a message that breaks a method, capability or
//! batch rule is reported by exactly one rule of those families, whatever
//! else it also happens to be.

fn handshake(version: &str, client: &str, server: &str) -> String {
    format!(
        r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{client},"clientInfo":{{"name":"c","version":"1"}}}}}}}}
{{"from":"server","msg":{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":"{version}","capabilities":{server},"serverInfo":{{"name":"s","version":"1"}}}}}}}}
{{"from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/initialized"}}}}
"#
    )
}

/// The (line, rule) findings of a trace, without the informational
/// `unanswered-request` findings the short traces leave behind.
fn findings(trace: &str) -> Vec<(u64, &'static str)> {
    mcp_lint::lint_str(trace)
        .iter()
        .filter(|d| d.rule.id != "unanswered-request")
        .map(|d| (d.location.line, d.rule.id))
        .collect()
}

#[test]
fn a_server_calling_a_tool_is_a_direction_problem_only() {
    let trace = handshake("2025-11-25", "{}", r#"{"tools":{}}"#)
        + r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"tools/call","params":{"name":"x"}}}"#
        + "\n"
        + r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"s1","result":{"content":[]}}}"#;
    assert_eq!(findings(&trace), [(4, "method-direction")]);
}

#[test]
fn elicitation_in_2025_03_26_is_a_version_problem_only() {
    let trace = handshake("2025-03-26", "{}", "{}")
        + r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}"#
        + "\n"
        + r#"{"from":"client","msg":{"jsonrpc":"2.0","id":"s1","result":{"action":"decline"}}}"#;
    assert_eq!(findings(&trace), [(4, "method-version")]);
}

#[test]
fn a_batch_holding_initialize_is_batch_initialize_only() {
    let trace = handshake("2025-11-25", "{}", "{}")
        + r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}},{"jsonrpc":"2.0","id":6,"method":"ping"}]}"#;
    let found = findings(&trace);
    assert_eq!(
        found
            .iter()
            .filter(|(_, rule)| rule.starts_with("batch-"))
            .count(),
        1,
        "{found:?}"
    );
    assert!(found.contains(&(4, "batch-initialize")), "{found:?}");
}

#[test]
fn a_refused_batch_in_2025_03_26_is_batch_receive_support_only() {
    let trace = handshake("2025-03-26", "{}", r#"{"tools":{}}"#)
        + r#"{"from":"client","msg":[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]}"#
        + "\n"
        + r#"{"from":"server","msg":{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}}"#;
    assert_eq!(findings(&trace), [(5, "batch-receive-support")]);
}

#[test]
fn an_empty_batch_is_invalid_jsonrpc_only() {
    let trace = handshake("2025-11-25", "{}", "{}") + r#"{"from":"client","msg":[]}"#;
    assert_eq!(findings(&trace), [(4, "invalid-jsonrpc")]);
}

#[test]
fn a_retired_error_code_is_not_also_a_legacy_one() {
    let trace = concat!(
        r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}}"#,
        "\n",
        r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Resource not found"}}}"#
    );
    assert_eq!(findings(trace), [(2, "error-code-retired")]);
}
