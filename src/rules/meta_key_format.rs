//! `meta-key-format`: a `_meta` key that breaks the key grammar (warning), or
//! one under a prefix reserved for MCP that the specification does not
//! define (info).

use std::collections::BTreeMap;

use serde::de::IgnoredAny;
use serde::Deserialize;

use crate::diagnostic::Severity;
use crate::event::{Body, Json};
use crate::protocol::{meta, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::sanitize::escape_controls;

pub static META: RuleMeta = RuleMeta {
    id: "meta-key-format",
    family: Family::Jsonrpc,
    default_severity: Severity::Warning,
    versions: Versions::from(Version::V2025_06_18),
    wants: Wants::MESSAGES,
    summary: "a _meta key of params or result breaks the key grammar (warning), or sits under a prefix reserved for MCP without being a key the spec defines (info)",
    quote: "If specified, MUST be a series of labels separated by dots (`.`), followed by a slash (`/`).",
    spec: Some(SpecPage {
        legacy: "basic/index",
        modern: Some("basic/index"),
        modern_quote: None,
    }),
    help: "name _meta keys as an optional reverse-DNS prefix of your own and a name (com.example/trace-id); names begin and end with a letter or digit; leave prefixes whose second label is modelcontextprotocol or mcp to the specification",
};

pub static RULE: Rule = Rule::on_events(&META, check);

/// `params._meta` or `result._meta`, its keys in order.
#[derive(Deserialize)]
struct WithMeta {
    #[serde(rename = "_meta")]
    meta: Option<BTreeMap<String, IgnoredAny>>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some(version)) = (ctx.message, ctx.version) else {
        return;
    };
    let member = match &message.body {
        Body::Response { .. } => message.members.result.as_ref(),
        _ => message.members.params.as_ref(),
    };
    let Some(keys) = member.and_then(meta_keys) else {
        return;
    };
    let malformed: Vec<String> = keys
        .keys()
        .filter_map(|k| Some(format!("{}: {}", quoted(k), meta::key_problem(k)?)))
        .collect();
    let unknown: Vec<String> = keys
        .keys()
        .filter(|k| meta::is_reserved(k, version) && !meta::is_known_reserved(k, version))
        .map(|k| quoted(k))
        .collect();
    if !malformed.is_empty() {
        out.push(ctx.diagnostic(
            &META,
            format!("malformed _meta key {}", malformed.join("; ")),
        ));
    }
    if !unknown.is_empty() {
        out.push(
            ctx.diagnostic(
                &META,
                format!(
                    "_meta key {} uses a prefix reserved for MCP, but {version} defines no such key",
                    unknown.join(", ")
                ),
            )
            .with_severity(Severity::Info),
        );
    }
}

/// The `_meta` keys of a member, read only when its text has a `_meta`.
fn meta_keys(member: &Json) -> Option<BTreeMap<String, IgnoredAny>> {
    let text = member.text();
    memchr::memmem::find(text.as_bytes(), b"\"_meta\"")?;
    member.parse::<WithMeta>()?.meta
}

/// A key as a finding shows it: quoted and escaped.
fn quoted(key: &str) -> String {
    format!("\"{}\"", escape_controls(key))
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info, Warning};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(lines: &[&str]) -> Vec<(u64, Severity)> {
        findings(
            "meta-key-format",
            &format!("{HANDSHAKE}{}", lines.join("\n")),
        )
    }

    #[test]
    fn fires_on_malformed_and_unknown_reserved_keys() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"_trace":"x","progressToken":1}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"io.modelcontextprotocol/cost":3}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{"_meta":{"my key":1,"dev.mcp/x":2}}}}"#,
        ];
        assert_eq!(
            check(&lines),
            [(4, Warning), (5, Info), (6, Warning), (6, Info)]
        );
    }

    #[test]
    fn silent_on_well_formed_and_known_keys_and_before_2025_06_18() {
        let lines = [
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1,"com.example/trace-id":"a","traceparent":"00-1"}}}}"#,
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}}}}"#,
            r#"{"from":"client","msg":{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"note":"_meta"}}}"#,
        ];
        assert_eq!(check(&lines), []);
        let old = HANDSHAKE.replace("2025-11-25", "2025-03-26")
            + r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"_trace":"x"}}}}"#;
        assert_eq!(findings("meta-key-format", &old), []);
    }
}
