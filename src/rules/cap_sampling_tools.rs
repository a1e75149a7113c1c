//! `cap-sampling-tools`: a tool-enabled sampling request to a client that did
//! not declare `sampling.tools`.

use serde::de::IgnoredAny;
use serde::Deserialize;

use super::server_request_to_client;
use crate::diagnostic::Severity;
use crate::protocol::{capabilities, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "cap-sampling-tools",
    family: Family::Capability,
    default_severity: Severity::Error,
    versions: Versions::only(Version::V2025_11_25),
    wants: Wants::REQUEST,
    order_dependent: false,
    summary: "sampling/createMessage with tools or toolChoice to a client that did not declare sampling.tools",
    quote: "Servers MUST NOT send tool-enabled sampling requests to Clients that have not declared support for tool use via the `sampling.tools` capability.",
    spec: Some(SpecPage {
        legacy: "client/sampling",
        modern: Some("client/sampling"),
        modern_quote: None,
    }),
    help: "send tools and toolChoice only when the client's capabilities hold sampling.tools; otherwise sample without tools",
};

pub static RULE: Rule = Rule::on_events(&META, check);

/// The sampling method and the capability its tool use needs.
pub(super) const METHOD: &str = "sampling/createMessage";
const SAMPLING: &str = "sampling";
pub(super) const TOOLS: &str = "sampling.tools";

#[derive(Deserialize)]
pub(super) struct SamplingParams {
    tools: Option<IgnoredAny>,
    #[serde(rename = "toolChoice")]
    tool_choice: Option<IgnoredAny>,
}

impl SamplingParams {
    /// The member that asks for tool use, if one does.
    pub(super) fn tool_member(&self) -> Option<&'static str> {
        match (&self.tools, &self.tool_choice) {
            (Some(_), _) => Some("tools"),
            (None, Some(_)) => Some("toolChoice"),
            (None, None) => None,
        }
    }
}

fn check(ctx: &Ctx, out: &mut Out) {
    let Some((params, client)) = server_request_to_client::<SamplingParams>(ctx, METHOD) else {
        return;
    };
    // Without sampling at all, capability-not-advertised reports the request.
    if !capabilities::advertised(&client.value, SAMPLING)
        || capabilities::advertised(&client.value, TOOLS)
    {
        return;
    }
    let Some(member) = params.tool_member() else {
        return;
    };
    out.push(
        ctx.diagnostic(
            &META,
            words!(
                "server sends {} with `{}`, but the client did not declare `{}`",
                METHOD,
                member,
                TOOLS
            ),
        )
        .with_related(client.location, "the client's capabilities"),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, with_client_capabilities};

    fn with_client(caps: &str, request: &str) -> String {
        with_client_capabilities(caps) + request
    }

    const WITH_TOOLS: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":10,"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}}"#;
    const PLAIN: &str = r#"{"from":"server","msg":{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}}}"#;

    #[test]
    fn fires_on_tools_without_sampling_tools() {
        let trace = with_client(r#"{"sampling":{}}"#, WITH_TOOLS);
        assert_eq!(findings("cap-sampling-tools", &trace), [(4, Error)]);
    }

    #[test]
    fn silent_with_sampling_tools_without_tools_or_without_sampling() {
        let tools = with_client(r#"{"sampling":{"tools":{}}}"#, WITH_TOOLS);
        assert_eq!(findings("cap-sampling-tools", &tools), []);
        let plain = with_client(r#"{"sampling":{}}"#, PLAIN);
        assert_eq!(findings("cap-sampling-tools", &plain), []);
        // No sampling at all is capability-not-advertised's.
        assert_eq!(
            findings("cap-sampling-tools", &with_client("{}", WITH_TOOLS)),
            []
        );
    }
}
