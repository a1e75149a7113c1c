//! `cap-elicitation-mode`: an elicitation in a mode the client did not declare.

use serde::Deserialize;

use super::server_request_to_client;
use crate::diagnostic::Severity;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cap-elicitation-mode",
    family: Family::Capability,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2025_11_25),
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "elicitation/create in a mode the client did not declare (url mode to a client whose elicitation capability is {}, which means form only)",
    quote: "Servers MUST NOT send elicitation requests with modes that are not supported by the client.",
    spec: Some(SpecPage {
        legacy: "client/elicitation",
        modern: None,
        modern_quote: None,
    }),
    help: "send url-mode elicitations only to clients whose capabilities hold elicitation.url, and form mode only to clients that declare elicitation.form or an empty elicitation object",
};

pub static RULE: Rule = Rule::on_events(&META, check);

/// The elicitation method and its capability.
pub(super) const METHOD: &str = "elicitation/create";
pub(super) const ELICITATION: &str = "elicitation";
/// The mode of a request without `mode`.
pub(super) const DEFAULT_MODE: &str = "form";

#[derive(Deserialize)]
struct ElicitParams {
    mode: Option<String>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((params, client)) = server_request_to_client::<ElicitParams>(ctx, METHOD) else {
        return;
    };
    // Without elicitation at all, capability-not-advertised reports it.
    let Some(declared) = client.value.get(ELICITATION) else {
        return;
    };
    // A log that shows the request only in part may have hidden its mode.
    let incomplete = ctx.message.is_some_and(|m| m.incomplete);
    let Some(mode) = params
        .mode
        .as_deref()
        .or((!incomplete).then_some(DEFAULT_MODE))
    else {
        return;
    };
    if supports(declared, mode) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!("server sends {} in {} mode, but the client's elicitation capability does not declare it", METHOD, mode),
        )
        .with_related(client.location, "the client's capabilities"),
    );
}

/// Whether the client's `elicitation` object supports `mode`: it names the
/// mode, or it names none and the mode is form ("an empty capabilities
/// object is equivalent to declaring support for form mode only").
pub(super) fn supports(declared: &serde_json::Value, mode: &str) -> bool {
    let names = |m: &str| declared.get(m).is_some_and(|v| !v.is_null() && v != false);
    let names_none = !names("form") && !names("url");
    names(mode) || (mode == DEFAULT_MODE && names_none)
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, with_client_capabilities};

    fn with_client(caps: &str, request: &str) -> String {
        with_client_capabilities(caps) + request
    }

    const URL: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"mode":"url","elicitationId":"e1","url":"https://example.com/auth","message":"Sign in"}}}"#;
    const FORM: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{}}}}}"#;

    #[test]
    fn fires_on_url_mode_to_a_form_only_client_and_form_to_a_url_only_one() {
        let trace = with_client(r#"{"elicitation":{}}"#, URL);
        assert_eq!(findings("cap-elicitation-mode", &trace), [(4, Error)]);
        let trace = with_client(r#"{"elicitation":{"url":{}}}"#, FORM);
        assert_eq!(findings("cap-elicitation-mode", &trace), [(4, Error)]);
    }

    #[test]
    fn silent_on_declared_modes_and_without_elicitation() {
        let url = with_client(r#"{"elicitation":{"url":{}}}"#, URL);
        assert_eq!(findings("cap-elicitation-mode", &url), []);
        let form = with_client(r#"{"elicitation":{}}"#, FORM);
        assert_eq!(findings("cap-elicitation-mode", &form), []);
        assert_eq!(
            findings("cap-elicitation-mode", &with_client("{}", URL)),
            []
        );
    }
}
