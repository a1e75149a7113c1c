//! Rule selection: which rules run and at which severity, from selectors
//! (a rule id, a family name, or `all`) given on the command line or in a
//! configuration file.

use crate::diagnostic::{Diagnostic, Severity};
use crate::rule::{Family, Rule, RuleMeta};
use crate::rules;

/// What a selector names: one rule, a family of rules, or every rule.
#[derive(Debug, Clone, Copy)]
pub enum Selector {
    All,
    Family(Family),
    Rule(&'static RuleMeta),
}

impl Selector {
    /// Reads a selector; the error names the nearest rule or family.
    pub fn parse(text: &str) -> Result<Selector, String> {
        let text = text.trim();
        if text == "all" {
            return Ok(Selector::All);
        }
        if let Some(family) = Family::parse(text) {
            return Ok(Selector::Family(family));
        }
        match rules::find(text) {
            Some(rule) => Ok(Selector::Rule(rule.meta)),
            None => Err(unknown(text)),
        }
    }

    pub fn matches(self, meta: &RuleMeta) -> bool {
        match self {
            Selector::All => true,
            Selector::Family(family) => meta.family == family,
            Selector::Rule(rule) => rule.id == meta.id,
        }
    }

    /// A rule id is more specific than a family, which is more specific than
    /// `all`: `--select cancel --ignore cancel-duplicate` keeps the others.
    fn specificity(self) -> u8 {
        match self {
            Selector::All => 0,
            Selector::Family(_) => 1,
            Selector::Rule(_) => 2,
        }
    }
}

/// Says a selector names no rule or family, and which one the user may have meant.
pub fn unknown(text: &str) -> String {
    let text = crate::sanitize::escape_controls(text);
    match crate::explain::nearest_selector(&text) {
        Some(near) => format!(
            "unknown rule {text:?}: did you mean {near:?}? (mcp-lint rule --all lists every rule and family)"
        ),
        None => format!(
            "unknown rule {text:?}: not a rule id, a family or all (mcp-lint rule --all lists every rule and family)"
        ),
    }
}

/// Reads every selector of a list, stopping at the first unknown one.
pub fn parse_all<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Selector>, String> {
    texts.iter().map(|t| Selector::parse(t.as_ref())).collect()
}

/// Reads a `RULE=LEVEL` severity override.
pub fn parse_override(text: &str) -> Result<(Selector, Severity), String> {
    let (selector, level) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?} is not RULE=LEVEL (for example ping-no-params=info)"))?;
    Ok((Selector::parse(selector)?, parse_severity(level)?))
}

/// Reads a severity level: error, warning or info.
pub fn parse_severity(text: &str) -> Result<Severity, String> {
    match text.trim() {
        "error" => Ok(Severity::Error),
        "warning" => Ok(Severity::Warning),
        "info" => Ok(Severity::Info),
        other => Err(format!(
            "{:?} is not a severity (error, warning or info)",
            crate::sanitize::escape_controls(other)
        )),
    }
}

/// Which rules run and at which severity.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// `None` runs every rule.
    pub select: Option<Vec<Selector>>,
    pub extend_select: Vec<Selector>,
    pub ignore: Vec<Selector>,
    pub severity: Vec<(Selector, Severity)>,
}

impl Selection {
    /// This selection with `over` laid on top, as the command line lies on a
    /// configuration file: its `select` replaces, the rest adds.
    pub fn overlay(&self, over: &Selection) -> Selection {
        let mut merged = self.clone();
        if over.select.is_some() {
            merged.select = over.select.clone();
            merged.extend_select.clear();
        }
        merged.extend_select.extend(&over.extend_select);
        merged.ignore.extend(&over.ignore);
        merged.severity.extend(&over.severity);
        merged
    }

    /// Whether a rule runs: the most specific selector that names it decides,
    /// and an ignore wins a tie.
    pub fn enables(&self, meta: &RuleMeta) -> bool {
        let default = [Selector::All];
        let selected = self.select.as_deref().unwrap_or(&default);
        let enabled = most_specific(selected.iter().chain(&self.extend_select), meta);
        let ignored = most_specific(self.ignore.iter(), meta);
        match (enabled, ignored) {
            (Some(on), Some(off)) => on > off,
            (on, _) => on.is_some(),
        }
    }

    /// The rules that run, in the order of `rules::ALL`.
    pub fn rules(&self) -> Vec<&'static Rule> {
        rules::ALL
            .iter()
            .copied()
            .filter(|rule| self.enables(rule.meta))
            .collect()
    }

    /// The severity a finding of `meta` is reported at, when overridden: the
    /// most specific override wins, and the last one of equal specificity.
    pub fn severity_of(&self, meta: &RuleMeta) -> Option<Severity> {
        self.severity
            .iter()
            .enumerate()
            .filter(|(_, (selector, _))| selector.matches(meta))
            .max_by_key(|(index, (selector, _))| (selector.specificity(), *index))
            .map(|(_, (_, severity))| *severity)
    }

    /// Sets the severity of a finding to its override, if any.
    pub fn apply_severity(&self, diagnostic: &mut Diagnostic) {
        if let Some(severity) = self.severity_of(diagnostic.rule) {
            diagnostic.severity = severity;
        }
    }
}

fn most_specific<'a>(selectors: impl Iterator<Item = &'a Selector>, meta: &RuleMeta) -> Option<u8> {
    selectors
        .filter(|s| s.matches(meta))
        .map(|s| s.specificity())
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(selection: &Selection) -> Vec<&'static str> {
        selection.rules().iter().map(|r| r.meta.id).collect()
    }

    #[test]
    fn families_select_their_rules_and_ids_refine_them() {
        let selection = Selection {
            select: Some(parse_all(&["cancel"]).unwrap()),
            ignore: parse_all(&["cancel-duplicate"]).unwrap(),
            ..Selection::default()
        };
        let chosen = ids(&selection);
        assert!(selection
            .rules()
            .iter()
            .all(|r| r.meta.family == Family::Cancel));
        assert!(!chosen.contains(&"cancel-duplicate"));
        assert!(chosen.contains(&"cancel-malformed"));
    }

    #[test]
    fn a_rule_selected_by_id_survives_ignoring_its_family() {
        let selection = Selection {
            select: Some(parse_all(&["cancel-duplicate"]).unwrap()),
            ignore: parse_all(&["cancel"]).unwrap(),
            ..Selection::default()
        };
        assert_eq!(ids(&selection), ["cancel-duplicate"]);
    }

    #[test]
    fn the_command_line_select_replaces_the_configured_one() {
        let config = Selection {
            select: Some(parse_all(&["ping"]).unwrap()),
            ..Selection::default()
        };
        let cli = Selection {
            select: Some(parse_all(&["progress"]).unwrap()),
            ..Selection::default()
        };
        assert!(config
            .overlay(&cli)
            .rules()
            .iter()
            .all(|r| r.meta.family == Family::Progress));
    }

    #[test]
    fn rule_overrides_beat_family_overrides() {
        let selection = Selection {
            severity: vec![
                parse_override("ping-no-params=info").unwrap(),
                parse_override("ping=warning").unwrap(),
            ],
            ..Selection::default()
        };
        let meta = rules::find("ping-no-params").unwrap().meta;
        assert_eq!(selection.severity_of(meta), Some(Severity::Info));
    }

    #[test]
    fn unknown_selectors_name_the_nearest() {
        assert!(Selector::parse("progres")
            .unwrap_err()
            .contains("\"progress\""));
        assert!(Selector::parse("cancel-dupliate")
            .unwrap_err()
            .contains("\"cancel-duplicate\""));
        assert!(parse_override("ping").is_err());
        assert!(parse_override("ping=fatal").is_err());
    }
}
