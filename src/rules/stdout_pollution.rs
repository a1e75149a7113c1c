//! `stdout-pollution`: a server wrote non-protocol output on its stdout.

use super::client_reported;
use crate::diagnostic::Severity;
use crate::event::{Payload, ReportedFailure, Transport};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "stdout-pollution",
    family: Family::Stdio,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a server wrote output that is not an MCP message on its stdout",
    quote: "The server MUST NOT write anything to its stdout that is not a valid MCP message.",
    spec: Some(SpecPage {
        legacy: "basic/transports",
        modern: Some("basic/transports/stdio"),
        modern_quote: None,
    }),
    help: "send logs and banners to stderr (or as notifications/message); stdout carries only newline-delimited JSON-RPC messages",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    recorded(ctx, out);
    reported(ctx, out);
}

/// The trace recorded the output itself.
fn recorded(ctx: &Ctx, out: &mut Out) {
    if let Payload::Transport(Transport::NotProtocol(seen)) = &ctx.event.payload {
        let from = ctx.from.map_or("the server", |side| side.as_str());
        out.push(
            ctx.diagnostic(
                &META,
                words!(
                    "{} wrote non-protocol output on stdout: {}",
                    from,
                    crate::sanitize::truncate(seen, 120)
                ),
            )
            .with_label("reported here"),
        );
    }
}

/// The client reports a line of the server's stdout it could not parse.
fn reported(ctx: &Ctx, out: &mut Out) {
    if let Some((error, report)) = client_reported::failure(ctx, |f| match f {
        ReportedFailure::NotJson(error) => Some(error),
        _ => None,
    }) {
        let what = words!(
            "it could not parse a line of the server's stdout ({})",
            crate::sanitize::truncate(error, 120)
        );
        out.push(client_reported::diagnostic(ctx, &META, what, report));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, HANDSHAKE};

    #[test]
    fn fires_on_non_protocol_output_recorded_in_the_trace() {
        let line =
            r#"{"from":"server","event":"not-protocol","text":"Installed 55 packages in 32ms"}"#;
        assert_eq!(
            findings("stdout-pollution", &format!("{HANDSHAKE}{line}")),
            [(4, Error)]
        );
    }

    #[test]
    fn silent_on_a_text_line_of_a_bare_capture() {
        // The capture does not say which stream it came from: invalid-json.
        let trace = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            "Installed 55 packages in 32ms",
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#,
        ]
        .join("\n");
        assert_eq!(findings("stdout-pollution", &trace), []);
    }

    #[test]
    fn silent_on_other_transport_events() {
        let line = r#"{"from":"server","event":"closed"}"#;
        assert_eq!(
            findings("stdout-pollution", &format!("{HANDSHAKE}{line}")),
            []
        );
    }

    #[test]
    fn fires_on_a_parse_error_the_client_reports() {
        let log = "2025-07-10 10:49:36.646 [error] user-wirewiki: Client error for command Unexpected token 'S', \"Starting MCP server\" is not valid JSON";
        assert_eq!(findings("stdout-pollution", log), [(1, Error)]);
    }
}
