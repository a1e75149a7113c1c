//! `stdio-newline-framing`: a message written over several lines, or several on one line.

use crate::diagnostic::Severity;
use crate::event::{Misframing, Payload, Transport};
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::Versions;
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "stdio-newline-framing",
    family: Family::Stdio,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a message on stdio is written over several lines, or several messages on one line",
    quote: "Messages are delimited by newlines, and MUST NOT contain embedded newlines.",
    spec: Some(TRANSPORTS),
    help: "write each message as compact JSON on one line of its own, ending with a newline: no pretty-printing, no raw newline in a string, a newline after every message",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Payload::Transport(Transport::Misframed(how)) = &ctx.event.payload else {
        return;
    };
    let diagnostic = match *how {
        Misframing::Split { lines, last } => ctx
            .diagnostic(&META, words!("one message is written over {} lines", lines))
            .with_label("the message starts here")
            .with_related(last, "and ends here"),
        Misframing::Joined { messages } => ctx
            .diagnostic(
                &META,
                words!("{} messages are written on one line", messages),
            )
            .with_label("the line"),
    };
    out.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::findings;

    const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

    #[test]
    fn fires_once_on_a_pretty_printed_message() {
        let trace =
            format!("{PING}\n{{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {{}}\n}}\n");
        assert_eq!(findings("stdio-newline-framing", &trace), [(2, Error)]);
        assert_eq!(findings("invalid-json", &trace), []);
    }

    #[test]
    fn fires_once_on_two_messages_on_one_line() {
        let trace = format!("{PING}{}\n", r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
        assert_eq!(findings("stdio-newline-framing", &trace), [(1, Error)]);
        assert_eq!(findings("invalid-json", &trace), []);
    }

    #[test]
    fn silent_on_one_message_per_line_and_on_a_line_that_is_no_message() {
        let trace = format!(
            "{PING}\nServer started\n{}\n",
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
        assert_eq!(findings("stdio-newline-framing", &trace), []);
        assert_eq!(findings("invalid-json", &trace), [(2, Error)]);
    }

    #[test]
    fn fires_once_on_a_recorded_message_over_lines_instead_of_stdout_pollution() {
        let lines = [
            r#"{"from":"server","event":"not-protocol","text":"{"}"#,
            r#"{"from":"server","event":"not-protocol","text":"  \"jsonrpc\": \"2.0\", \"method\": \"notifications/tools/list_changed\""}"#,
            r#"{"from":"server","event":"not-protocol","text":"}"}"#,
        ];
        let trace = format!("{}{}", crate::rules::testing::HANDSHAKE, lines.join("\n"));
        assert_eq!(findings("stdio-newline-framing", &trace), [(4, Error)]);
        assert_eq!(findings("stdout-pollution", &trace), []);
    }
}
