//! Baselines: findings accepted once, so that a run fails on new ones only.
//!
//! A finding is known by its rule, file, session and a fingerprint of what it
//! is about (request id, progress token and message), never by its line
//! number, so lines added above it do not make it new. The file is JSON,
//! one entry per finding kind, sorted, so that its diffs read well; an entry
//! counts identical findings. An entry that no longer matches is stale: the
//! bug it accepted is fixed, and keeping it could hide a regression.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::findings::Findings;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub file: String,
    pub rule: String,
    pub session: Option<String>,
    pub fingerprint: String,
    pub count: usize,
    /// The message of the first such finding, for people reading the file.
    pub message: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    version: u32,
    findings: Vec<Entry>,
}

/// What identifies a finding across runs.
type Key = (String, String, Option<String>, String);

#[derive(Debug, Default)]
pub struct Baseline {
    entries: Vec<Entry>,
}

/// A file name as a baseline stores it: `/` separators, no leading `./`.
fn file_key(name: &str) -> String {
    let name = name.replace('\\', "/");
    name.trim_start_matches("./").to_string()
}

/// FNV-1a, 64 bits: small, and the same in every build (std's hashers are not).
fn fnv1a(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        // The separator keeps ("ab", "c") apart from ("a", "bc").
        for byte in part.bytes().chain(std::iter::once(0xff)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The fingerprint of a finding: what it is about, not where it is.
pub fn fingerprint(d: &Diagnostic) -> String {
    let request = d.request_id.as_ref().map(|id| id.to_string());
    let token = d.progress_token().map(|t| t.to_string());
    let hash = fnv1a(&[
        d.rule.id,
        request.as_deref().unwrap_or(""),
        token.as_deref().unwrap_or(""),
        &d.message.to_string(),
    ]);
    format!("{hash:016x}")
}

fn key(d: &Diagnostic, names: &[String]) -> Key {
    (
        file_key(&names[d.location.source as usize]),
        d.rule.id.to_string(),
        d.session.as_deref().map(str::to_string),
        fingerprint(d),
    )
}

impl Entry {
    fn key(&self) -> Key {
        (
            self.file.clone(),
            self.rule.clone(),
            self.session.clone(),
            self.fingerprint.clone(),
        )
    }
}

impl Baseline {
    /// Reads a baseline file.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let shown = crate::sanitize::escape_controls(&path.to_string_lossy()).into_owned();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{shown}: cannot read the baseline: {e}"))?;
        let file: BaselineFile = serde_json::from_str(&text)
            .map_err(|e| format!("{shown}: not a mcp-lint baseline: {e}"))?;
        if file.version != 1 {
            return Err(format!(
                "{shown}: baseline version {} is not 1; write it again with --update-baseline",
                file.version
            ));
        }
        Ok(Baseline {
            entries: file.findings,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.iter().map(|e| e.count).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// This baseline with the entries of the linted files replaced by their
    /// findings now; entries of files this run did not lint are kept.
    pub fn updated(
        &self,
        diagnostics: impl IntoIterator<Item = Diagnostic>,
        names: &[String],
    ) -> Baseline {
        let linted: Vec<String> = names.iter().map(|n| file_key(n)).collect();
        let mut counts: BTreeMap<Key, Entry> = BTreeMap::new();
        for entry in self.entries.iter().filter(|e| !linted.contains(&e.file)) {
            counts.insert(entry.key(), entry.clone());
        }
        for d in diagnostics {
            let key = key(&d, names);
            counts
                .entry(key.clone())
                .or_insert_with(|| Entry {
                    file: key.0,
                    rule: key.1,
                    session: key.2,
                    fingerprint: key.3,
                    count: 0,
                    message: d.message.to_string(),
                })
                .count += 1;
        }
        Baseline {
            entries: counts.into_values().collect(),
        }
    }

    /// Writes the baseline, sorted, one member per line.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut entries = self.entries.clone();
        entries.sort();
        let file = BaselineFile {
            version: 1,
            findings: entries,
        };
        let text = serde_json::to_string_pretty(&file).map_err(std::io::Error::other)?;
        std::fs::write(path, text + "\n")
    }

    /// Removes the findings the baseline accepts, and returns its stale
    /// entries: those of linted files that matched fewer findings than they count.
    pub fn suppress(&self, diagnostics: &mut Findings, names: &[String]) -> Vec<Entry> {
        let mut left: BTreeMap<Key, usize> =
            self.entries.iter().map(|e| (e.key(), e.count)).collect();
        diagnostics.retain(|d| match left.get_mut(&key(&d, names)) {
            Some(count) if *count > 0 => {
                *count -= 1;
                None
            }
            _ => Some(d.severity),
        });
        let linted: Vec<String> = names.iter().map(|n| file_key(n)).collect();
        self.entries
            .iter()
            .filter(|e| linted.contains(&e.file) && left[&e.key()] > 0)
            .map(|e| Entry {
                count: left[&e.key()],
                ..e.clone()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_ignore_the_line_and_depend_on_the_message() {
        let trace = |pad: &str| {
            format!(
                "{pad}{}\n{}\n",
                r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}}"#,
                r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}}"#,
            )
        };
        let engine = || {
            crate::engine::Engine::new(vec![crate::rules::find("cancel-unknown-request").unwrap()])
        };
        let before = crate::lint_with(&trace(""), None, engine());
        let after = crate::lint_with(&trace("\n\n"), None, engine());
        assert_eq!(before.len(), 2);
        assert_ne!(before[0].location.line, after[0].location.line);
        assert_eq!(fingerprint(&before[0]), fingerprint(&after[0]));
        assert_ne!(fingerprint(&before[0]), fingerprint(&before[1]));
    }

    #[test]
    fn file_keys_do_not_depend_on_how_the_path_was_written() {
        assert_eq!(file_key("./a/b.jsonl"), "a/b.jsonl");
        assert_eq!(file_key("a\\b.jsonl"), "a/b.jsonl");
    }
}
