//! `meta-key-format`: a `_meta` key that breaks the key grammar (warning), or
//! one under a prefix reserved for MCP that the specification does not
//! define (info).

use std::borrow::Cow;
use std::fmt;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;

use crate::diagnostic::{Arg, Severity, Words};
use crate::event::{Body, META_MEMBER};
use crate::protocol::{meta, SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "meta-key-format",
    family: Family::Jsonrpc,
    default_severity: Severity::Warning,
    versions: Versions::from(Version::V2025_06_18),
    wants: Wants::MESSAGES,
    order_dependent: false,
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

/// The keys of `_meta` objects that break the grammar, and those under a
/// reserved prefix the revision does not define, as findings show them.
#[derive(Default)]
struct OddKeys {
    malformed: Vec<Words>,
    unknown: Vec<Words>,
}

impl OddKeys {
    /// Sorts one key; a well-formed key costs no allocation.
    fn note(&mut self, key: &str, version: Version) {
        if let Some(problem) = meta::key_problem(key) {
            self.malformed.push(words!("{}: {}", quoted(key), problem));
        } else if meta::is_reserved(key, version) && !meta::is_known_reserved(key, version) {
            self.unknown.push(quoted(key));
        }
    }
}

/// Reads one `_meta` object into [`OddKeys`], skipping its values.
struct MetaVisitor<'o> {
    odd: &'o mut OddKeys,
    version: Version,
}

/// A key, borrowed unless it holds escapes.
#[derive(Deserialize)]
struct Key<'a>(#[serde(borrow)] Cow<'a, str>);

impl<'de> Visitor<'de> for MetaVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a _meta object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while let Some(Key(key)) = map.next_key()? {
            map.next_value::<IgnoredAny>()?;
            self.odd.note(&key, self.version);
        }
        Ok(())
    }
}

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some(version)) = (ctx.message, ctx.version) else {
        return;
    };
    let member = match &message.body {
        Body::Response { .. } => message.members.result.as_ref(),
        _ => message.members.params.as_ref(),
    };
    // The decoder noted where the first `_meta` is: most messages have none.
    let Some(text) = member.and_then(|m| m.from_first_meta()) else {
        return;
    };
    let odd = odd_keys(text, version);
    if !odd.malformed.is_empty() {
        out.push(ctx.diagnostic(
            &META,
            words!("malformed _meta key {}", Words::joined(odd.malformed, "; ")),
        ));
    }
    if !odd.unknown.is_empty() {
        out.push(
            ctx.diagnostic(
                &META,
                words!(
                    "_meta key {} uses a prefix reserved for MCP, but {} defines no such key",
                    Words::joined(odd.unknown, ", "),
                    version
                ),
            )
            .with_severity(Severity::Info),
        );
    }
}

/// The odd keys of every `_meta` object in a member's text. Only the `_meta`
/// objects are parsed, found by their member name: a message without one
/// costs a byte search, and the rest of one with it is not read.
/// Whether a `_meta` value is `{"progressToken":T}` with a plain string or
/// integer `T` (what most requests carry), read without a parser.
fn holds_only_a_progress_token(value: &[u8]) -> bool {
    let Some(token) = value.strip_prefix(br#"{"progressToken":"#) else {
        return false;
    };
    let rest = match token.strip_prefix(b"\"") {
        Some(string) => match memchr::memchr2(b'"', b'\\', string) {
            Some(end) if string[end] == b'"' => &string[end + 1..],
            _ => return false,
        },
        None => {
            let digits = token
                .iter()
                .take_while(|b| b.is_ascii_digit() || **b == b'-')
                .count();
            &token[digits..]
        }
    };
    rest.len() < token.len() && rest.starts_with(b"}")
}

/// The `_meta` objects of a member's text, from its first one on: only
/// their keys are read (and so checked to be UTF-8), never their values.
fn odd_keys(text: &[u8], version: Version) -> OddKeys {
    let mut odd = OddKeys::default();
    for at in META_MEMBER.find_iter(text) {
        let rest = text[at + META_MEMBER.needle().len()..].trim_ascii_start();
        let Some(value) = rest.strip_prefix(b":") else {
            continue; // the string "_meta" as a value, not a member name
        };
        if holds_only_a_progress_token(value.trim_ascii_start()) {
            continue; // the commonest `_meta`, and a valid one: no need to parse it
        }
        let mut deserializer = serde_json::Deserializer::from_slice(value);
        let visitor = MetaVisitor {
            odd: &mut odd,
            version,
        };
        // A `_meta` that is not an object is the schema's business.
        let _ = serde::Deserializer::deserialize_map(&mut deserializer, visitor);
    }
    odd
}

/// A key as a finding shows it: quoted (the report escapes it).
fn quoted(key: &str) -> Words {
    words!("{}", Arg::quoted(key))
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
    fn a_lone_progress_token_is_recognised_without_parsing() {
        let only = |text: &str| super::holds_only_a_progress_token(text.as_bytes());
        assert!(only(r#"{"progressToken":"call-2"},"name":"x"}"#));
        assert!(only(r#"{"progressToken":-17}}"#));
        assert!(!only(r#"{"progressToken":"a\"b"}"#));
        assert!(!only(r#"{"progressToken":1,"bad key":2}"#));
        assert!(!only(r#"{"progressToken":}"#));
        assert!(!only(r#"{"progressToken":1.5}"#));
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
    fn reads_nested_meta_objects_too() {
        let lines = [
            r#"{"from":"server","msg":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"},"_meta":{"ui widget":1}}]}}}"#,
        ];
        assert_eq!(check(&lines), [(4, Warning)]);
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
