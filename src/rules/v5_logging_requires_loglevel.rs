//! `v5-logging-requires-loglevel`: a 2026-07-28 log message for no request that asked for logs.

use crate::diagnostic::Severity;
use crate::engine::{Request, RequestState};
use crate::event::Side;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-logging-requires-loglevel",
    family: Family::Method,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::NOTIFICATION,
    order_dependent: true,
    summary: "a 2026-07-28 server sends notifications/message while no request it is serving set io.modelcontextprotocol/logLevel (a warning on stdio, where a log names no request)",
    quote: "The server MUST NOT emit `notifications/message` for a request that does not include this field.",
    spec: Some(SpecPage {
        legacy: "server/utilities/logging",
        modern: Some("server/utilities/logging"),
        modern_quote: None,
    }),
    help: "send log messages only for a request whose _meta sets io.modelcontextprotocol/logLevel, on that request's stream, at or above that level",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let message = ctx.message.and_then(|m| m.method());
    if message != Some("notifications/message") || ctx.from != Some(Side::Server) {
        return;
    }
    // A log is for a request still running; which one, only its HTTP
    // stream says (whether it travels on the right one is the transport
    // rules' matter). On stdio it names none, so the finding is a warning.
    let wanted = |r: &&Request| {
        r.state == RequestState::Running && r.modern.as_ref().is_some_and(|m| m.log_level)
    };
    if ctx
        .session
        .side(Side::Client)
        .open
        .values()
        .any(|r| wanted(&r))
    {
        return;
    }
    let text = "server sends notifications/message while no running request set io.modelcontextprotocol/logLevel";
    let diagnostic = ctx.diagnostic(&META, text);
    out.push(match ctx.event.stream {
        Some(_) => diagnostic,
        None => diagnostic.with_severity(Severity::Warning),
    });
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, server, trace};

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
}
