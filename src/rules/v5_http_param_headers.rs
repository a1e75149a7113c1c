//! `v5-http-param-headers`: a 2026-07-28 tools/call whose Mcp-Param headers do not mirror the arguments its tool annotates.

use crate::diagnostic::{Arg, Severity, Words};
use crate::event::HttpExchange;
use crate::protocol::headers::{
    decoded_value, mirrors, Header, MirroredParam, PARAM_HEADERS_METHOD,
};
use crate::protocol::spec::STREAMABLE_HTTP;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Needs, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "v5-http-param-headers",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2026_07_28),
    wants: Wants::TRANSPORT,
    order_dependent: true,
    summary: "a 2026-07-28 tools/call lacks an Mcp-Param header for an argument its tool marks with x-mcp-header, sends one for a null or absent argument, or sends another value than the argument",
    quote: "When a server's tool definition includes `x-mcp-header` annotations, conforming clients MUST mirror the designated parameter values into HTTP headers.",
    spec: Some(STREAMABLE_HTTP),
    help: "for each inputSchema property marked x-mcp-header, send Mcp-Param-{Name} with the argument's value (base64-encoded as =?base64?...?= when not plain ASCII), and omit it when the argument is null or absent",
};

pub static RULE: Rule = Rule::on_events(&META, check).needing(Needs::TOOLS);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((http, request)) = super::posted_request(ctx) else {
        return;
    };
    // Only a tool the trace listed says which arguments it mirrors.
    let tool = request
        .name
        .as_deref()
        .and_then(|n| ctx.session.tools.find(n));
    let Some(tool) = tool.filter(|t| !t.ambiguous && request.method == PARAM_HEADERS_METHOD) else {
        return;
    };
    // Read only here: a call to a tool that mirrors no argument never needs them.
    let arguments = request
        .arguments
        .as_deref()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(text).ok());
    let arguments = arguments.as_ref();
    let problems: Vec<Words> = tool
        .mirrored
        .iter()
        .filter_map(|param| problem(http, param, arguments))
        .collect();
    if problems.is_empty() {
        return;
    }
    let words = words!(
        "the client calls tool {} with {}",
        Arg::quoted(&tool.name),
        Words::listed(problems)
    );
    let diagnostic = super::header_mismatch_diagnostic(ctx, &META, http, words)
        .with_related(tool.listed, "the tools/list result that annotates it");
    out.push(diagnostic);
}

/// What is wrong with the header that mirrors `param`, if anything.
fn problem(
    http: &HttpExchange,
    param: &MirroredParam,
    arguments: Option<&serde_json::Value>,
) -> Option<Words> {
    let value = param
        .path
        .iter()
        .try_fold(arguments?, |value, key| value.get(&**key))
        .filter(|value| !value.is_null());
    let header = param_header(http, &param.name);
    match (value, header) {
        (None, None) => None,
        (Some(_), None) => Some(words!("no Mcp-Param-{} header", &*param.name)),
        (None, Some(_)) => Some(words!(
            "an Mcp-Param-{} header for a null or absent argument",
            &*param.name
        )),
        (Some(value), Some(header)) => {
            let decoded = decoded_value(header);
            if decoded.is_some_and(|d| mirrors(&d, value)) {
                return None;
            }
            Some(words!(
                "Mcp-Param-{} {} for the argument {}",
                &*param.name,
                Arg::quoted(header),
                value.to_string()
            ))
        }
    }
}

/// The value of the request's `Mcp-Param-{name}` header (names are case-insensitive).
fn param_header<'h>(http: &'h HttpExchange, name: &str) -> Option<&'h str> {
    let prefix = Header::McpParam.name().len();
    http.request_headers
        .iter()
        .filter(|h| h.header == Header::McpParam)
        .find(|h| {
            h.name
                .get(prefix..)
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
        .map(|h| h.value.as_str())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har, modern_post};

    /// A tools/list answered with one tool whose `region` argument is
    /// mirrored into Mcp-Param-Region.
    fn listing() -> serde_json::Value {
        let tools = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "sql", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "limit": {"type": "integer", "x-mcp-header": "Limit"}}}}]}});
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        entry(
            "POST",
            &[],
            Some(&list),
            (200, "application/json", &tools.to_string()),
        )
    }

    fn call(arguments: serde_json::Value, headers: &[(&str, &str)]) -> serde_json::Value {
        let params = json!({"name": "sql", "arguments": arguments});
        modern_post("tools/call", params, headers, 200)
    }

    #[test]
    fn fires_on_a_missing_a_stray_and_a_different_header() {
        let trace = har(&[
            listing(),
            call(json!({"region": "eu"}), &[]),
            call(json!({"region": null}), &[("Mcp-Param-Region", "eu")]),
            call(json!({"region": "eu"}), &[("mcp-param-region", "us")]),
        ]);
        assert_eq!(
            findings("v5-http-param-headers", &trace),
            [(3, Error), (4, Error), (5, Error)]
        );
    }

    #[test]
    fn silent_on_mirrored_plain_base64_and_numeric_values() {
        let trace = har(&[
            listing(),
            call(
                json!({"region": "eu", "limit": 42}),
                &[("Mcp-Param-Region", "eu"), ("Mcp-Param-Limit", "42.0")],
            ),
            call(
                json!({"region": "météo"}),
                &[("MCP-PARAM-REGION", "=?base64?bcOpdMOpbw==?=")],
            ),
            call(json!({"limit": null}), &[]),
        ]);
        assert_eq!(findings("v5-http-param-headers", &trace), []);
    }
}
