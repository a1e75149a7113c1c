//! `progress-after-terminal`: progress after the request's response or cancellation.

use super::describe_request;
use crate::diagnostic::Severity;
use crate::engine::{Facts, ProgressTarget};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::{Arg, Words};

pub static META: RuleMeta = RuleMeta {
    id: "progress-after-terminal",
    family: Family::Progress,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::NOTIFICATION,
    order_dependent: true,
    summary: "progress after the request was answered or its task ended (error), or after the requester cancelled it (warning, info when it may have crossed the cancellation)",
    quote: "Progress notifications MUST stop after completion",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "stop sending progress once the response is written, and once a cancellation for the request has been read",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(from) = ctx.from else { return };
    let Facts::Progress(target) = &ctx.facts else {
        return;
    };
    let (request, diagnostic) = match target {
        ProgressTarget::Completed(request) => {
            let same_stream = request.response_stream == ctx.event.stream.as_deref();
            let mut diagnostic = ctx
                .diagnostic(
                    &META,
                    words!(
                        "{} sends progress after it answered {}",
                        from,
                        describe_request(from.peer(), request)
                    ),
                )
                .with_label("progress after the response");
            if !same_stream {
                diagnostic = diagnostic
                    .with_severity(Severity::Warning)
                    .with_note("the progress and the response travelled on different streams, whose relative order is not guaranteed");
            }
            if let Some(response) = request.response {
                diagnostic = diagnostic.with_related(response, "answered here");
            }
            (request, diagnostic)
        }
        ProgressTarget::TaskEnded(request, task) => {
            let Some(end) = &task.ended else { return };
            let mut diagnostic = ctx
                .diagnostic(
                    &META,
                    words!(
                        "{} sends progress after task {} of {} ended",
                        from,
                        Arg::quoted(&task.id),
                        describe_request(from.peer(), request)
                    ),
                )
                .with_label("progress after the task ended")
                .with_related(end.location, ended_here(end));
            if end.stream.as_deref() != ctx.event.stream.as_deref() {
                diagnostic = diagnostic
                    .with_severity(Severity::Warning)
                    .with_note("the progress and the message that showed the end travelled on different streams, whose relative order is not guaranteed");
            }
            (request, diagnostic)
        }
        ProgressTarget::Cancelled(request) => {
            let Some(cancel) = request.cancel else {
                return;
            };
            let diagnostic = ctx
                .diagnostic(
                    &META,
                    words!(
                        "{} sends progress after the {} cancelled {}",
                        from,
                        from.peer(),
                        describe_request(from.peer(), request)
                    ),
                )
                .graded_by_cancel(ctx, from, cancel)
                .with_label("progress after the cancellation")
                .with_related(cancel.location, "cancelled here");
            (request, diagnostic)
        }
        _ => return,
    };
    let mut diagnostic = diagnostic
        .with_request_id(request.id)
        .with_related(request.location, "the request that carried the token");
    if let Some(token) = request.token {
        diagnostic = diagnostic.with_progress_token(token);
    }
    diagnostic.related.sort_by_key(|r| r.location.line);
    out.push(diagnostic);
}

/// How the trace showed a task's end.
fn ended_here(end: &crate::engine::tasks::End) -> Words {
    match end.status {
        Some(status) => words!("the task was reported {} here", status.as_str()),
        None => "tasks/result was answered here, so the task had ended".into(),
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error, Info, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#;
    const PROGRESS: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}}"#;
    const RESULT: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#;
    const CANCEL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#;

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "progress-after-terminal",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn error_on_progress_after_the_response() {
        assert_eq!(check(&[CALL, RESULT, PROGRESS]), [(6, Error)]);
    }

    #[test]
    fn warning_when_the_response_travelled_on_another_stream() {
        let lines = [
            r#"{"from":"client","stream":"a","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#,
            r#"{"from":"server","stream":"b","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"server","stream":"a","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}}"#,
        ];
        assert_eq!(check(&lines), [(6, Warning)]);
    }

    #[test]
    fn warning_after_a_2026_07_28_cancellation_even_when_it_may_have_crossed() {
        use crate::rules::testing::{server, trace};
        let call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"t"}}}}"#;
        let progress = server(
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#,
        );
        let lines = [call, CANCEL, &progress];
        assert_eq!(
            findings("progress-after-terminal", &trace(&lines)),
            [(3, Warning)]
        );
    }

    #[test]
    fn info_after_a_cancellation_warning_once_it_was_provably_read() {
        assert_eq!(check(&[CALL, CANCEL, PROGRESS]), [(6, Info)]);
        // The server answered a request sent after the cancellation.
        let later = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list"}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}}"#,
        ];
        assert_eq!(
            check(&[CALL, CANCEL, later[0], later[1], PROGRESS]),
            [(8, Warning)]
        );
    }

    #[test]
    fn silent_before_the_response_and_for_a_token_taken_over_by_a_new_request() {
        let second_call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#;
        assert_eq!(check(&[CALL, PROGRESS, RESULT, second_call, PROGRESS]), []);
    }

    #[test]
    fn silent_when_the_response_comes_before_the_total_is_reached() {
        let partial = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":10,"total":40}}}"#;
        assert_eq!(check(&[CALL, partial, RESULT]), []);
    }

    #[test]
    fn silent_when_one_of_two_requests_sharing_the_token_ends_then_fires_after_both() {
        let second = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"t"}}}}"#;
        let second_result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":2,"result":{}}}"#;
        // The newer request ends first: the progress is the older one's.
        let lines = [
            CALL,
            second,
            PROGRESS,
            second_result,
            PROGRESS,
            RESULT,
            PROGRESS,
        ];
        assert_eq!(check(&lines), [(10, Error)]);
        let lines = [
            CALL,
            second,
            PROGRESS,
            RESULT,
            PROGRESS,
            second_result,
            PROGRESS,
        ];
        assert_eq!(check(&lines), [(10, Error)]);
    }

    #[test]
    fn silent_until_the_last_of_two_requests_sharing_an_id_is_answered() {
        let second = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"u"}}}}"#;
        let lines = [CALL, second, RESULT, PROGRESS, RESULT, PROGRESS];
        assert_eq!(check(&lines), [(9, Error)]);
    }

    const TASK_CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{},"_meta":{"progressToken":"t"}}}}"#;
    const CREATED: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"task":{"taskId":"a","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":null}}}}"#;

    fn get(id: u32, status: &str) -> [String; 2] {
        [
            format!(
                r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"tasks/get","params":{{"taskId":"a"}}}}}}"#
            ),
            format!(
                r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"result":{{"taskId":"a","status":"{status}","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:01Z","ttl":null}}}}}}"#
            ),
        ]
    }

    #[test]
    fn progress_of_a_task_runs_until_the_task_ends() {
        let [ask, working] = get(2, "working");
        let lines = [TASK_CALL, CREATED, PROGRESS, &ask, &working, PROGRESS];
        assert_eq!(check(&lines), []);
        let [ask, completed] = get(2, "completed");
        let lines = [TASK_CALL, CREATED, PROGRESS, &ask, &completed, PROGRESS];
        assert_eq!(check(&lines), [(9, Error)]);
    }

    #[test]
    fn a_tasks_result_answer_ends_the_task() {
        let ask = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":"a"}}}"#;
        let answer = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}}"#;
        assert_eq!(check(&[TASK_CALL, CREATED, ask, PROGRESS]), []);
        assert_eq!(
            check(&[TASK_CALL, CREATED, ask, answer, PROGRESS]),
            [(8, Error)]
        );
    }

    #[test]
    fn warning_when_the_task_s_end_travelled_on_another_stream() {
        let on =
            |stream: &str, line: &str| line.replacen('{', &format!(r#"{{"stream":"{stream}","#), 1);
        let ended = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/tasks/status","params":{"taskId":"a","status":"completed","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:01Z","ttl":null}}}"#;
        let lines = [
            on("a", TASK_CALL),
            on("a", CREATED),
            on("get", ended),
            on("a", PROGRESS),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(check(&lines), [(7, Warning)]);
    }
}
