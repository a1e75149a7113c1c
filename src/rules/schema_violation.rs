//! `schema-violation`: a message does not match the official JSON schema of
//! its revision (params by method, a result by the method of the request it
//! answers, an error object).

use crate::diagnostic::{Diagnostic, Severity};
use crate::event::{Body, Message, Outcome};
use crate::protocol::schema::{self, Expected, ProtocolSchema, Violation};
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Arg;

pub static META: RuleMeta = RuleMeta {
    id: "schema-violation",
    family: Family::Schema,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION).and(Wants::RESPONSE),
    order_dependent: false,
    summary: "a message's params, result or error does not match the official JSON schema of the session's revision",
    quote: "The authoritative definition of the protocol is the TypeScript schema",
    spec: Some(SpecPage::everywhere("schema")),
    help: "make the member match its definition in the schema of the protocol revision the session speaks (the note names it)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(message) = ctx.message else { return };
    // A message with a JSON-RPC shape problem is invalid-jsonrpc's; a log
    // that shows it only in part cannot prove a member missing.
    if message.incomplete || !message.problems.is_empty() {
        return;
    }
    let Some(method) = method_of(ctx, message) else {
        return;
    };
    // Before the version is known, a message valid in any revision the
    // session may speak is valid; else the newest one's violations are shown.
    let candidates = ctx.version.map_or(ctx.versions, Versions::only);
    let mut newest = None;
    for version in candidates.iter() {
        let schema = schema::of(version);
        let violations = violations(schema, method, message);
        if violations.is_empty() {
            return;
        }
        newest = Some((version, schema, violations));
    }
    let Some((version, schema, violations)) = newest else {
        return;
    };
    for violation in &violations {
        if !schema::reported_elsewhere(method, violation) {
            out.push(diagnostic(ctx, version, schema, violation));
        }
    }
}

/// The method the message's content is defined by: its own, or for a
/// response the method of the request it answers ("" for an error, whose
/// shape is the same for every method).
fn method_of<'a>(ctx: &'a Ctx, message: &'a Message) -> Option<&'a str> {
    match &message.body {
        Body::Request { method, .. } | Body::Notification { method, .. } => Some(method),
        Body::Response {
            outcome: Outcome::Error { .. },
            ..
        } => Some(""),
        Body::Response { .. } => ctx.facts.answered().map(|request| request.method),
        Body::Unclassifiable => None,
    }
}

fn violations(schema: &ProtocolSchema, method: &str, message: &Message) -> Vec<Violation> {
    let members = &message.members;
    match &message.body {
        Body::Request { .. } | Body::Notification { .. } => {
            schema.check_params(method, members.params.as_ref().map(|p| p.text()))
        }
        Body::Response { .. } => match (&members.result, &members.error) {
            (Some(result), _) => schema.check_result(method, result.text()),
            (None, Some(error)) => schema.check_error(error.text()),
            (None, None) => Vec::new(),
        },
        Body::Unclassifiable => Vec::new(),
    }
}

fn diagnostic(
    ctx: &Ctx,
    version: Version,
    schema: &ProtocolSchema,
    violation: &Violation,
) -> Diagnostic {
    let definition = schema.definition(violation);
    let holder = definition.map_or("the schema", |d| &*d.name);
    let message = match &violation.expected {
        Expected::Member => {
            let member = violation.pointer.rsplit('/').next().unwrap_or_default();
            words!("{} lacks required member {}", holder, Arg::quoted(member))
        }
        expected => words!(
            "{} expects {} here, not {}",
            holder,
            expected.to_string(),
            violation.found
        ),
    };
    let description = definition.and_then(|d| d.description.as_deref());
    let note = match description {
        Some(description) => words!(
            "{} (schema of {}): {}",
            holder,
            version,
            first_sentence(description)
        ),
        None => words!("schema of {}", version),
    };
    ctx.diagnostic(&META, message)
        .with_note(note)
        .with_pointer(&violation.pointer)
}

/// The first sentence (or line) of a schema description.
fn first_sentence(description: &str) -> &str {
    let line = description.lines().next().unwrap_or_default();
    match line.find(". ") {
        Some(end) => &line[..=end],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "schema-violation",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":"x"}}}}"#;

    #[test]
    fn fires_once_on_a_call_without_a_name() {
        let call = CALL.replace(r#""name":"search","#, "");
        assert_eq!(check(&[&call]), [(4, Error)]);
    }

    #[test]
    fn fires_on_a_result_of_the_wrong_shape_for_its_request() {
        let result =
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"content":"hi"}}}"#;
        assert_eq!(check(&[CALL, result]), [(5, Error)]);
        let error = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad","data":{}}}}"#;
        assert_eq!(check(&[CALL, error]), []);
    }

    #[test]
    fn silent_on_valid_messages_and_on_what_other_rules_report() {
        let result = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}],"extra":true}}}"#;
        assert_eq!(check(&[CALL, result]), []);
        assert_eq!(findings("schema-violation", HANDSHAKE), []);
        // progress-malformed's and invalid-jsonrpc's.
        let progress = r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}}"#;
        let error = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"bad"}}}"#;
        assert_eq!(check(&[CALL, progress, error]), []);
    }
}
