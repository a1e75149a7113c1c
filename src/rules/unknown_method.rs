//! `unknown-method`: a method of no MCP revision that does not look like an extension.

use super::sent_method;
use crate::diagnostic::Severity;
use crate::protocol::{methods, SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "unknown-method",
    family: Family::Method,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "a method that no MCP revision defines and that is not named like an extension",
    quote: "Experimental, non-standard capabilities that the server supports.",
    spec: Some(SpecPage {
        legacy: "schema",
        modern: Some("schema"),
        modern_quote: None,
    }),
    help: "check the spelling against the schema; a custom method is best named with a prefix of its own (com.example/method) and announced under capabilities.experimental",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((method, from)) = sent_method(ctx) else {
        return;
    };
    if methods::is_known(method) || methods::looks_like_extension(method) {
        return;
    }
    let speaks = match ctx.version {
        Some(version) => Versions::only(version),
        None => ctx.session.possible_versions(),
    };
    out.push(ctx.diagnostic(
        &META,
        words!(
            "{} sends {}, which no MCP revision defines (the session speaks {})",
            from,
            method,
            speaks.describe()
        ),
    ));
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "unknown-method",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_a_misspelled_method_and_an_unknown_notification() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/invoke","params":{}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/tools/changed"}}"#,
        ];
        assert_eq!(check(&lines), [(4, Info), (5, Info)]);
    }

    #[test]
    fn silent_on_known_and_extension_methods() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"com.example/search"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"experimental/trace"}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":4,"method":"tasks/get"}}"#,
        ];
        assert_eq!(check(&lines), []);
    }
}
