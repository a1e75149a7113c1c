//! `unanswered-request`: a request with neither response nor cancellation at session end.

use super::client_reported;
use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{RequestState, Session};
use crate::event::{ReportedFailure, RequestId, Side};
use crate::protocol::tasks::Operation;
use crate::protocol::{Era, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "unanswered-request",
    family: Family::Cancel,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a request has neither a response nor a cancellation when its session ends",
    quote: "When the request has not received a success or error response within the timeout period, the sender SHOULD issue a cancellation notification for that request and stop waiting for a response.",
    spec: Some(SpecPage {
        legacy: "basic/lifecycle",
        modern: Some("basic/patterns/cancellation"),
        modern_quote: None,
    }),
    help: "if the recording ended early this is expected; otherwise the receiver lost the request, or the requester should have cancelled it after a timeout",
};

pub static RULE: Rule = Rule::on_events(&META, check).and_session_end(session_end);

/// The client reports that it stopped waiting for a response.
fn check(ctx: &Ctx, out: &mut Out) {
    if let Some(((), report)) = client_reported::failure(ctx, |f| {
        matches!(f, ReportedFailure::TimedOut).then_some(())
    }) {
        let what = "a request timed out: the server did not answer it within the client's timeout";
        out.push(client_reported::diagnostic(ctx, &META, what, report));
    }
}

fn session_end(session: &Session, out: &mut Out) {
    // A 2026-07-28 server's requests are v5-no-server-requests' alone: its
    // client rightly leaves them unanswered.
    let stateless = session.version().map(Version::era) == Some(Era::Stateless);
    let sides: &[Side] = if stateless {
        &[Side::Client]
    } else {
        &[Side::Client, Side::Server]
    };
    for &side in sides {
        let registry = session.side(side);
        let mut open: Vec<_> = registry
            .open_requests()
            .filter(|r| {
                r.state == RequestState::Running
                    && !session.ambiguous_responses.contains(&r.id)
                    && !awaits_running_task(session, side, &r.id)
                    && !cancelled_by_close(session, r)
            })
            .collect();
        open.sort_by_key(|r| r.seq);
        let closed = session.side(side.peer()).closed;
        for request in open {
            let mut diagnostic = super::new_diagnostic(
                &META,
                session,
                request.location,
                if request.method == "initialize" {
                    // A cancellation of initialize does not count: it is not allowed.
                    words!(
                        "{} got no response before the session ended",
                        describe_request(side, &request.view())
                    )
                } else {
                    words!(
                        "{} got neither a response nor a cancellation before the session ended",
                        describe_request(side, &request.view())
                    )
                },
            )
            .with_request_id(&request.id);
            diagnostic.from = Some(side);
            if request.unanswered_copies > 0 {
                diagnostic = diagnostic.with_note(words!(
                    "{} earlier request(s) with the same id are unanswered too",
                    request.unanswered_copies
                ));
            }
            if let Some(aborted) = request
                .stream
                .as_deref()
                .and_then(|s| session.http.aborted.get(s))
            {
                diagnostic =
                    diagnostic.with_related(*aborted, "its stream ended before the response");
            }
            if let Some(closed) = closed {
                diagnostic = diagnostic
                    .with_related(closed, words!("the {} closed its end here", side.peer()));
            }
            out.push(diagnostic);
        }
    }
}

/// Whether `requester`'s request `id` is a `tasks/result` for a task that
/// has not ended: it blocks until then, as the spec asks.
fn awaits_running_task(session: &Session, requester: Side, id: &RequestId) -> bool {
    matches!(
        session.tasks.operated_task(requester, id),
        Some((operating, Some(task))) if operating.operation == Operation::Result && task.ended.is_none()
    )
}

/// Whether a 2026-07-28 request's stream closed before its answer: over
/// Streamable HTTP that closing is its cancellation.
fn cancelled_by_close(session: &Session, request: &crate::engine::Request) -> bool {
    let modern = request.named_version.map(Version::era) == Some(Era::Stateless);
    let stream = request.stream.as_deref();
    modern && stream.is_some_and(|s| session.http.aborted.contains_key(s))
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    /// A tools/call POST whose SSE stream the client closed before the answer.
    fn closed_stream_call(meta: serde_json::Value) -> String {
        use serde_json::json;
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "x", "_meta": meta}});
        crate::rules::testing::har(&[json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "postData": {"text": call.to_string()}},
            "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": ""}},
            "_error": "net::ERR_ABORTED",
        })])
    }

    #[test]
    fn silent_on_a_2026_07_28_server_request_left_unanswered() {
        use crate::rules::testing::{server, trace, v5_request};
        let call = v5_request("1", "tools/call", r#""name":"x","#);
        let roots = server(r#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#);
        let done =
            server(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#);
        let lines = [call.as_str(), &roots, &done];
        assert_eq!(findings("unanswered-request", &trace(&lines)), []);
    }

    #[test]
    fn a_closed_stream_cancels_a_2026_07_28_request_only() {
        let modern = serde_json::json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        });
        assert_eq!(
            findings("unanswered-request", &closed_stream_call(modern)),
            []
        );
        // Up to 2025-11-25 a dropped stream may be resumed: still waiting.
        let legacy = closed_stream_call(serde_json::json!({}));
        assert_eq!(findings("unanswered-request", &legacy), [(2, Info)]);
    }

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "unanswered-request",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn info_on_requests_of_either_side_left_unanswered() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage"}}"#,
            r#"{"from":"server","event":"closed"}"#,
        ];
        assert_eq!(check(&lines), [(4, Info), (5, Info)]);
    }

    #[test]
    fn info_when_the_cancellation_did_not_count() {
        // A malformed cancellation, and one of initialize, leave the request pending.
        let initialize = HANDSHAKE.lines().next().unwrap();
        let trace = [
            initialize,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}}"#,
        ]
        .join("\n");
        assert_eq!(findings("unanswered-request", &trace), [(1, Info)]);
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"id":1}}}"#,
        ];
        assert_eq!(check(&lines), [(4, Info)]);
    }

    #[test]
    fn a_post_stream_that_ends_without_the_response_is_named() {
        use crate::rules::testing::har;
        use serde_json::json;
        let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "slow", "_meta": {"progressToken": "t"}}});
        let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#;
        // Status 200 and no error: only the missing response shows the drop.
        let entry = json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "postData": {"text": call.to_string()}},
            "response": {"status": 200, "content": {"mimeType": "text/event-stream", "text": format!("data: {progress}\n\n")}},
        });
        let trace = har(&[entry]);
        let findings = crate::lint_str(&trace);
        let finding = findings
            .iter()
            .find(|d| d.rule.id == "unanswered-request")
            .expect("unanswered-request");
        assert_eq!(
            finding.related[0].message.to_string(),
            "its stream ended before the response"
        );
    }

    #[test]
    fn silent_when_answered_or_cancelled() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_the_ids_of_an_ambiguous_bare_response() {
        // Either side's request 1 may be the one answered.
        let trace = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ]
        .join("\n");
        assert_eq!(findings("unanswered-request", &trace), []);
    }

    #[test]
    fn info_even_when_the_trace_starts_mid_session() {
        let trace = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":57,"method":"resources/read"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":58,"method":"tools/call"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":57,"result":{"contents":[]}}}"#,
        ]
        .join("\n");
        assert_eq!(findings("unanswered-request", &trace), [(2, Info)]);
    }

    #[test]
    fn info_on_a_timeout_the_client_reports() {
        let log = r#"{"debug":"Tool 'reconcile' failed after 60s: MCP error -32001: Request timed out","timestamp":"2026-04-14T09:14:10.300Z","sessionId":"0b9f","cwd":"/p"}"#;
        assert_eq!(findings("unanswered-request", log), [(1, Info)]);
    }

    #[test]
    fn silent_on_a_tasks_result_that_waits_for_its_running_task() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"a"}}}"#,
        ];
        assert_eq!(check(&lines), []);
        let ended = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"a","status":"failed","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:01Z","ttl":null}}}"#;
        assert_eq!(check(&[lines[0], lines[1], lines[2], ended]), [(6, Info)]);
    }
}
