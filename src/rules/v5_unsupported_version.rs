//! `v5-unsupported-version`: a -32022 error that does not list the supported versions.

use super::check_defined_error;
use crate::diagnostic::{Severity, Words};
use crate::event::Side;
use crate::protocol::errors::UNSUPPORTED_VERSION;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-unsupported-version",
    family: Family::Lifecycle,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::RESPONSE.and(Wants::REQUEST),
    order_dependent: false,
    summary: "an UnsupportedProtocolVersionError (-32022) whose data does not give the requested and the supported versions (error), or a client whose next request names none of the supported ones (warning)",
    quote: "If the server does not implement the requested version, it MUST respond with an `UnsupportedProtocolVersionError` listing the versions it does support",
    spec: Some(SpecPage {
        legacy: "basic/versioning",
        modern: Some("basic/versioning"),
        modern_quote: None,
    }),
    help: "put the version the client asked for in error.data.requested and the versions the server speaks in error.data.supported, so the client can retry with one of them",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    check_defined_error(ctx, out, &META, &UNSUPPORTED_VERSION);
    check_retry(ctx, out);
}

/// "The client should choose a mutually supported version from this list
/// and retry": its next request names one of them.
fn check_retry(ctx: &Ctx, out: &mut Out) {
    let Some((supported, error)) = &ctx.session.served.supported else {
        return;
    };
    let named = ctx
        .message
        .and_then(|m| m.params())
        .and_then(|p| p.meta_protocol_version.as_deref());
    let Some(named) = named.filter(|_| ctx.from == Some(Side::Client)) else {
        return;
    };
    if supported.iter().any(|s| s == named) {
        return;
    }
    let listed = Words::listed(supported.iter().map(|v| words!("{}", v)).collect());
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "client goes on with protocol version {} after the server said it supports {}",
                named,
                listed
            ),
        )
        .with_severity(Severity::Warning)
        .with_pointer("/params/_meta")
        .with_related(*error, "the server listed its versions here"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{Error, Warning};
    use crate::rules::testing::{findings, server, trace, v5_request};

    fn answered(error: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let call = v5_request("1", "tools/list", "");
        let answer = server(&format!(r#"{{"jsonrpc":"2.0","id":1,"error":{error}}}"#));
        findings("v5-unsupported-version", &trace(&[&call, &answer]))
    }

    #[test]
    fn fires_without_the_supported_versions() {
        let bare = r#"{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2026-07-28"}}"#;
        assert_eq!(answered(bare), [(2, Error)]);
    }

    #[test]
    fn warns_when_the_next_request_names_an_unlisted_version() {
        let call = v5_request("1", "tools/list", "");
        let error = server(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2026-07-28","supported":["2026-07-29"]}}}"#,
        );
        let again = v5_request("2", "tools/list", "");
        let lines = [
            call.as_str(),
            &error,
            &again,
            &again.replace(r#""id":2"#, r#""id":3"#),
        ];
        // Only the retry, the next request, is judged.
        assert_eq!(
            findings("v5-unsupported-version", &trace(&lines)),
            [(3, Warning)]
        );
        let listed = again.replace(r#""2026-07-28""#, r#""2026-07-29""#);
        assert_eq!(
            findings(
                "v5-unsupported-version",
                &trace(&[call.as_str(), &error, &listed])
            ),
            []
        );
    }

    #[test]
    fn silent_with_them_and_on_other_codes() {
        let full = r#"{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2026-07-28","supported":["2025-11-25"]}}"#;
        assert_eq!(answered(full), []);
        assert_eq!(answered(r#"{"code":-32603,"message":"oops"}"#), []);
    }
}
