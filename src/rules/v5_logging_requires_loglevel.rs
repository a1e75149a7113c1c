//! `v5-logging-requires-loglevel`: a 2026-07-28 log message for no request that asked for logs.

use serde::Deserialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::{Request, RequestState};
use crate::event::Side;
use crate::protocol::meta::log_level_passes;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-logging-requires-loglevel",
    family: Family::Method,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTIFICATION,
    order_dependent: true,
    summary: "a 2026-07-28 server sends notifications/message for no request that set io.modelcontextprotocol/logLevel, below the level it set, or on a stream other than that request's (a warning on stdio, where a log names no request)",
    quote: "The server MUST NOT emit `notifications/message` for a request that does not include this field.",
    spec: Some(SpecPage {
        legacy: "server/utilities/logging",
        modern: Some("server/utilities/logging"),
        modern_quote: None,
    }),
    help: "send log messages only for a request whose _meta sets io.modelcontextprotocol/logLevel, on that request's stream, at or above that level",
};

pub static RULE: Rule = Rule::on_events(&META, check);

#[derive(Deserialize)]
struct LogParams {
    level: Option<String>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let message = ctx.message.and_then(|m| m.method());
    if message != Some("notifications/message") || ctx.from != Some(Side::Server) {
        return;
    }
    let level = ctx
        .message
        .and_then(|m| m.members.params.as_ref()?.parse::<LogParams>())
        .and_then(|p| p.level)
        .unwrap_or_default();
    let Some(diagnostic) = finding(ctx, &level) else {
        return;
    };
    // On stdio a log names no request, so the finding is a warning.
    out.push(match ctx.event.stream {
        Some(_) => diagnostic,
        None => diagnostic.with_severity(Severity::Warning),
    });
}

/// What is wrong with a log at `level`: on HTTP its stream says which
/// request it is for; elsewhere any running request may be the one.
fn finding(ctx: &Ctx, level: &str) -> Option<Diagnostic> {
    // Only the stream of a POSTed request names a request (a GET stream,
    // which 2026-07-28 does not have, is v5-http-legacy-artifacts').
    let streams = &ctx.session.http.streams;
    let here = ctx.event.stream.as_deref();
    let here = here.filter(|s| streams.get(*s).is_some_and(|info| info.requests > 0));
    if let Some(listen) = here.and_then(|s| super::listen_of(ctx, s)) {
        let text = words!(
            "server sends notifications/message on the stream of subscription {}",
            listen
        );
        return Some(ctx.diagnostic(&META, text));
    }
    let running = ctx.session.side(Side::Client).open_requests();
    let asked = |r: &&Request| r.state == RequestState::Running && requested(r).is_some();
    let all: Vec<&Request> = running.filter(asked).collect();
    let scope: Vec<&Request> = match here {
        Some(stream) => super::stream_requests(ctx, stream).filter(asked).collect(),
        None => all.clone(),
    };
    if let Some(request) = scope.first() {
        if scope
            .iter()
            .any(|r| requested(r).is_some_and(|t| log_level_passes(level, t)))
        {
            return None;
        }
        let text = words!(
            "server sends notifications/message at level {} below the level {} that {} set",
            level,
            requested(request).unwrap_or_default(),
            describe(request)
        );
        return Some(
            ctx.diagnostic(&META, text)
                .with_related(request.location, "the request that set the level"),
        );
    }
    if let Some(other) = all.first().filter(|_| here.is_some()) {
        let text = words!(
            "server sends notifications/message on a stream whose request did not set io.modelcontextprotocol/logLevel, while {} did",
            describe(other)
        );
        return Some(ctx.diagnostic(&META, text).with_related(
            other.location,
            "the request that set a level, on its own stream",
        ));
    }
    let text = "server sends notifications/message while no running request set io.modelcontextprotocol/logLevel";
    Some(ctx.diagnostic(&META, text))
}

/// The level a request set, if it set one.
fn requested(request: &Request) -> Option<&str> {
    request.modern.as_ref()?.log_level.as_deref()
}

fn describe(request: &Request) -> crate::words::Words {
    words!("client request {} ({})", &request.id, &*request.method)
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::{findings, har, modern_sse_post, server, sse_result, trace};

    const LOG: &str = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}"#;

    fn call(meta: &str) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"x","_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}{meta}}}}}}}}}"#
        )
    }

    #[test]
    fn warns_on_stdio_when_no_running_request_asked_for_logs() {
        let lines = [call(""), server(LOG)];
        assert_eq!(
            findings("v5-logging-requires-loglevel", &trace(&lines)),
            [(2, Warning)]
        );
    }

    #[test]
    fn silent_when_a_running_request_set_a_level() {
        let lines = [
            call(r#","io.modelcontextprotocol/logLevel":"info""#),
            server(LOG),
        ];
        assert_eq!(findings("v5-logging-requires-loglevel", &trace(&lines)), []);
    }

    /// A 2026-07-28 tools/call `id` over HTTP, with `meta` in its `_meta`,
    /// whose stream carries `events`.
    fn http_call(id: u32, meta: serde_json::Value, events: &[&str]) -> serde_json::Value {
        let params = serde_json::json!({"name": "t", "_meta": meta});
        modern_sse_post(id, "tools/call", params, &[], events)
    }

    fn log_event(level: &str) -> String {
        format!(
            r#"data: {{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"{level}","data":"x"}}}}"#
        )
    }

    #[test]
    fn fires_on_http_below_the_level_and_on_another_requests_stream() {
        let warning = serde_json::json!({"io.modelcontextprotocol/logLevel": "warning"});
        let trace = har(&[
            http_call(1, warning.clone(), &[&log_event("info")]),
            http_call(2, warning, &[]),
            http_call(3, serde_json::json!({}), &[&log_event("error")]),
        ]);
        assert_eq!(
            findings("v5-logging-requires-loglevel", &trace),
            [(2, Error), (4, Error)]
        );
    }

    #[test]
    fn silent_on_http_at_or_above_the_level_on_its_own_stream() {
        let warning = serde_json::json!({"io.modelcontextprotocol/logLevel": "warning"});
        let events = [log_event("warning"), log_event("emergency"), sse_result(1)];
        let events: Vec<&str> = events.iter().map(String::as_str).collect();
        let trace = har(&[http_call(1, warning, &events)]);
        assert_eq!(findings("v5-logging-requires-loglevel", &trace), []);
    }
}
