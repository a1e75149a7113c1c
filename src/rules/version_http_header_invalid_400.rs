//! `version-http-header-invalid-400`: a request naming an unknown protocol version in its header answered with success.

use crate::diagnostic::Severity;
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "version-http-header-invalid-400",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_06_18, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary: "a request whose MCP-Protocol-Version header names no protocol version is answered 2xx, not 400 Bad Request",
    quote: "If the server receives a request with an invalid or unsupported MCP-Protocol-Version, it MUST respond with 400 Bad Request.",
    spec: Some(TRANSPORTS),
    help: "validate MCP-Protocol-Version and answer a value that names no supported version with 400 Bad Request",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some(header) = &http.protocol_version_header else {
        return;
    };
    if Version::parse(header.trim()).is_some() || !http.succeeded() {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!("the server answers a request with MCP-Protocol-Version {} with {}, not 400 Bad Request", crate::words::Arg::quoted(header.as_str()), http.status.unwrap_or_default()),
        )
        .with_label("the exchange"),
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{entry, findings, har};

    fn ping(version: &str, status: u16) -> serde_json::Value {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let answer = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        entry(
            "POST",
            &[("MCP-Protocol-Version", version)],
            Some(&ping),
            (status, "application/json", answer),
        )
    }

    /// An initialize POST that negotiates 2025-06-18.
    fn initialize() -> serde_json::Value {
        let request = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}});
        let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}}"#;
        entry(
            "POST",
            &[],
            Some(&request),
            (200, "application/json", result),
        )
    }

    #[test]
    fn fires_on_success_for_an_unknown_version() {
        assert_eq!(
            findings(
                "version-http-header-invalid-400",
                &har(&[initialize(), ping("2025-13-45", 200)])
            ),
            [(3, Error)]
        );
    }

    #[test]
    fn silent_on_400_and_on_a_known_version() {
        let trace = har(&[
            initialize(),
            ping("2025-13-45", 400),
            ping("2025-06-18", 200),
        ]);
        assert_eq!(findings("version-http-header-invalid-400", &trace), []);
    }
}
