//! `mcp-lint rule`: a rule's page, or the list of every rule.

use std::io::Write;

use serde_json::json;

use crate::rule::RuleMeta;
use crate::rules;

mod pages {
    include!(concat!(env!("OUT_DIR"), "/pages.rs"));
}

/// The page of the rule `id` (`rules/<id>.md`), as shipped with the binary.
pub fn page(id: &str) -> Option<&'static str> {
    pages::PAGES
        .iter()
        .find(|(page_id, _)| *page_id == id)
        .map(|(_, text)| *text)
}

/// The id of the rule nearest to a misspelled one, if any is near.
pub fn nearest_id(wrong: &str) -> Option<&'static str> {
    nearest(wrong, rules::ALL.iter().map(|rule| rule.meta.id))
}

/// The rule id or family name nearest to a misspelled selector, if any is near.
pub fn nearest_selector(wrong: &str) -> Option<&'static str> {
    let families = crate::rule::Family::ALL.iter().map(|f| f.as_str());
    nearest(
        wrong,
        rules::ALL.iter().map(|rule| rule.meta.id).chain(families),
    )
}

fn nearest(wrong: &str, candidates: impl Iterator<Item = &'static str>) -> Option<&'static str> {
    candidates
        .map(|id| (edit_distance(wrong, id), id))
        .filter(|(distance, id)| *distance <= (id.len() / 3).max(2))
        .min()
        .map(|(_, id)| id)
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// Every rule, one line each: id, family, default severity, versions, summary.
pub fn write_list(out: &mut dyn Write) -> std::io::Result<()> {
    for rule in rules::ALL {
        let meta = rule.meta;
        writeln!(
            out,
            "{:<34} {:<12} {:<8} {:<26} {}",
            meta.id,
            meta.family.as_str(),
            meta.default_severity.as_str(),
            meta.versions.describe(),
            meta.summary
        )?;
    }
    Ok(())
}

/// Every rule as JSON: `{"rules":[{"id","family","severity","versions","summary","url"}]}`,
/// and `"help_url"` (the rule's page) when the package names its repository.
pub fn write_json(out: &mut dyn Write) -> std::io::Result<()> {
    let rules: Vec<_> = rules::ALL.iter().map(|rule| rule_json(rule.meta)).collect();
    let text = serde_json::to_string_pretty(&json!({ "rules": rules }))?;
    writeln!(out, "{text}")
}

fn rule_json(meta: &RuleMeta) -> serde_json::Value {
    let versions: Vec<&str> = meta.versions.iter().map(|v| v.as_str()).collect();
    let mut rule = json!({
        "id": meta.id,
        "family": meta.family.as_str(),
        "severity": meta.default_severity.as_str(),
        "versions": versions,
        "summary": meta.summary,
        "url": meta.spec_url(None),
    });
    // The rule's page, only when the package names its repository.
    if let Some(url) = meta.help_url() {
        rule["help_url"] = url.into();
    }
    rule
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_ships_its_page() {
        for rule in rules::ALL {
            let page = page(rule.meta.id).expect("a page");
            assert!(page.starts_with(&format!("# {}\n", rule.meta.id)));
        }
    }

    #[test]
    fn misspelled_ids_find_their_rule() {
        assert_eq!(nearest_id("cancel-dupliate"), Some("cancel-duplicate"));
        assert_eq!(
            nearest_id("progress-token-resued"),
            Some("progress-token-reused")
        );
        assert_eq!(nearest_id("completely-different"), None);
    }
}
