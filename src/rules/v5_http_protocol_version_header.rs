//! `v5-http-protocol-version-header`: a 2026-07-28 POST without MCP-Protocol-Version, or with another version than its body.

use crate::diagnostic::Severity;
use crate::protocol::headers::Header;
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-http-protocol-version-header",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a 2026-07-28 POST lacks the MCP-Protocol-Version header, or names another version than the request's _meta",
    quote: "Every POST request to the MCP endpoint MUST include an MCP-Protocol-Version header.",
    spec: Some(STREAMABLE_HTTP),
    help: "send MCP-Protocol-Version on every POST, with the value of the request's io.modelcontextprotocol/protocolVersion; a server rejects a mismatch with 400 and HeaderMismatch",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((http, request)) = super::posted_request(ctx) else {
        return;
    };
    let header = http
        .request_header(Header::McpProtocolVersion)
        .map(str::trim);
    let words = match (header, request.protocol_version.as_deref()) {
        (None, _) => words!(
            "the client sends {} without an MCP-Protocol-Version header",
            request.method
        ),
        (Some(header), Some(body)) if header != body => words!(
            "the client sends MCP-Protocol-Version {} but the request's _meta names {}",
            crate::words::Arg::quoted(header),
            crate::words::Arg::quoted(body)
        ),
        _ => return,
    };
    out.push(super::header_mismatch_diagnostic(ctx, &META, http, words));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, har, modern_post};

    #[test]
    fn fires_on_a_missing_and_on_a_mismatched_header() {
        let trace = har(&[
            modern_post("tools/list", json!({}), &[], 200),
            modern_post(
                "tools/list",
                json!({}),
                &[("MCP-Protocol-Version", "2025-11-25")],
                400,
            ),
        ]);
        assert_eq!(
            findings("v5-http-protocol-version-header", &trace),
            [(2, Error), (3, Error)]
        );
    }

    #[test]
    fn silent_on_the_matching_header() {
        let trace = har(&[modern_post(
            "tools/list",
            json!({}),
            &[("MCP-Protocol-Version", "2026-07-28")],
            200,
        )]);
        assert_eq!(findings("v5-http-protocol-version-header", &trace), []);
    }
}
