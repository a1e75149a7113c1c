//! Server-sent event streams: parsed alone, then linted as the body of a
//! tools/call POST's response (first byte even) or of a GET stream (odd)
//! in a HAR capture.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_lint::decode::Format;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    let body = String::from_utf8_lossy(rest);
    let mut last = 0;
    for event in mcp_lint::decode::sse::parse(&body) {
        // Events come in the order of the body, each inside it.
        assert!(event.offset <= body.len() && event.offset >= last);
        last = event.offset;
    }
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "_meta": {"progressToken": 1}}});
    let mut request = json!({"method": "GET", "url": "http://localhost/mcp", "headers": []});
    if first % 2 == 0 {
        request["method"] = json!("POST");
        request["postData"] = json!({"mimeType": "application/json", "text": call.to_string()});
    }
    let headers = json!([{"name": "Content-Type", "value": "text/event-stream"}]);
    let response = json!({"status": 200, "headers": headers, "content": {"mimeType": "text/event-stream", "text": body}});
    let har =
        json!({"log": {"version": "1.2", "entries": [{"request": request, "response": response}]}});
    mcp_lint_fuzz::lint(har.to_string().as_bytes(), Some(Format::Har));
});
