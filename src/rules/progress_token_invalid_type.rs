//! `progress-token-invalid-type`: a progress token that is not a string or integer.

use crate::diagnostic::Severity;
use crate::engine::{Facts, ProgressTarget};
use crate::event::{Body, KeyField};
use crate::protocol::{SpecPage, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "progress-token-invalid-type",
    family: Family::Progress,
    default_severity: Severity::Error,
    versions: Versions::ALL,
    wants: Wants::REQUEST.and(Wants::NOTIFICATION),
    order_dependent: false,
    summary: "a progressToken is not a string or an integer",
    quote: "Progress tokens MUST be a string or integer value",
    spec: Some(SpecPage {
        legacy: "basic/utilities/progress",
        modern: Some("basic/patterns/progress"),
        modern_quote: None,
    }),
    help: "use a string or an integer as the progress token (integer 0 is valid)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(message) = ctx.message else { return };
    let (field, place) = match &message.body {
        Body::Request { params, .. } => (&params.meta_progress_token, "params._meta.progressToken"),
        Body::Notification { method, params } if method == "notifications/progress" => {
            (&params.progress_token, "params.progressToken")
        }
        _ => return,
    };
    if let Facts::Progress(ProgressTarget::EchoedInvalidToken) = ctx.facts {
        // The token the request carried, repeated: reported there.
        return;
    }
    if let Some(KeyField::Invalid(kind)) = field {
        out.push(ctx.diagnostic(
            &META,
            words!("{} is {}, not a string or integer", place, kind.describe()),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Error};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "progress-token-invalid-type",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_a_null_token_in_a_request() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":null}}}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error)]);
    }

    #[test]
    fn fires_on_a_fractional_token_in_the_request_not_on_progress_repeating_it() {
        // The server repeats the token it was given while the request
        // runs; once it is answered, such a token is the server's own doing.
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1.5}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1.5,"progress":1}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1.5,"progress":2}}}"#,
        ];
        assert_eq!(check(&lines), [(4, Error), (7, Error)]);
    }

    #[test]
    fn silent_on_string_integer_and_integral_float_tokens() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":""}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":-3}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":2e3}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2000,"progress":0.5}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    #[test]
    fn silent_on_progress_without_a_token() {
        // progress-malformed owns it.
        let lines = [
            r#"{"from":"server","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}}"#,
        ];
        assert_eq!(check(&lines), []);
    }

    /// A client tools/call asking for progress with `token` (a JSON text).
    fn call(token: &str) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"_meta":{{"progressToken":{token}}}}}}}}}"#
        )
    }

    /// Server progress for `token` (a JSON text).
    fn progress(token: &str) -> String {
        format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{token},"progress":1}}}}}}"#
        )
    }

    #[test]
    fn fires_on_an_object_token_in_the_request_and_on_progress_nobody_asked_for() {
        let token = r#"{"job":"a"}"#;
        assert_eq!(check(&[&call(token), &progress(token)]), [(4, Error)]);
        assert_eq!(check(&[&progress(token)]), [(4, Error)]);
    }

    #[test]
    fn fires_on_a_boolean_token() {
        assert_eq!(check(&[&call("true")]), [(4, Error)]);
    }

    #[test]
    fn silent_on_a_request_with_an_empty_meta() {
        let call = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{}}}}"#;
        assert_eq!(check(&[call]), []);
    }

    #[test]
    fn silent_on_an_integer_token_beyond_64_bits() {
        let token = "18446744073709551616";
        assert_eq!(check(&[&call(token), &progress(token)]), []);
    }
}
