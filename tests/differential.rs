//! The differential test: generated traces whose truth is known, against
//! what mcp-lint finds in them. At every seed, in the canonical and the HAR
//! form: every injected violation is found at its line with its rule (once
//! at error or warning when that is the rule's severity); nothing else is
//! reported above info; a race the spec allows is reported at info at most.
//!
//! Sizes are chosen for a debug `cargo test`; `cargo bench --bench
//! generate -- PATH MiB TRUTH` writes bigger traces with their truth.

use std::collections::{HashMap, HashSet};

use mcp_lint::diagnostic::{Diagnostic, Severity};
use mcp_lint::generate::{
    generate_har_with_truth, generate_with_truth, GeneratedStats, GeneratorConfig, Label, LabelKind,
};

const SEEDS: [u64; 3] = [1, 0x5eed, 0xdead_beef];
const MIN_LINES: u64 = 100_000;

type Generate =
    fn(&GeneratorConfig, &mut Vec<u8>, &mut dyn std::io::Write) -> std::io::Result<GeneratedStats>;

fn run(
    form: &str,
    seed: u64,
    lines: u64,
    generate: Generate,
) -> (GeneratedStats, Vec<Label>, Vec<Diagnostic>) {
    let config = GeneratorConfig {
        sessions: 20,
        target_bytes: 0,
        min_lines: lines,
        violation_rate: 0.02,
        seed,
    };
    let (mut trace, mut truth) = (Vec::new(), Vec::new());
    let stats = generate(&config, &mut trace, &mut truth).unwrap();
    if let Some(dir) = std::env::var_os("MCP_LINT_DIFFERENTIAL_DIR") {
        // Keeps the inputs of a failure, to lint them by hand.
        let dir = std::path::Path::new(&dir);
        std::fs::write(dir.join(format!("{seed:x}-{lines}.{form}")), &trace).unwrap();
        std::fs::write(dir.join(format!("{seed:x}-{lines}.{form}.truth")), &truth).unwrap();
    }
    let labels = Label::parse_all(std::str::from_utf8(&truth).unwrap());
    let diagnostics = mcp_lint::lint_str(std::str::from_utf8(&trace).unwrap());
    (stats, labels, diagnostics)
}

/// What disagrees between the truth and the findings, one line each.
fn disagreements(labels: &[Label], diagnostics: &[Diagnostic]) -> Vec<String> {
    let key = |d: &Diagnostic| (d.location.line, d.rule.id.to_string());
    let mut found: HashMap<(u64, String), Vec<&Diagnostic>> = HashMap::new();
    for d in diagnostics {
        found.entry(key(d)).or_default().push(d);
    }
    let mut problems = Vec::new();
    let mut expected = HashSet::new();
    for label in labels {
        let at = (label.line, label.rule.clone());
        let here = found.get(&at).map_or(&[][..], Vec::as_slice);
        match label.kind {
            LabelKind::Violation => {
                expected.insert(at);
                let loud = here.iter().filter(|d| d.severity > Severity::Info).count();
                let in_session = here
                    .iter()
                    .any(|d| d.session.as_deref() == Some(label.session.as_str()));
                let default = here.first().map(|d| d.rule.default_severity);
                if !in_session {
                    problems.push(format!("missed: {label:?}"));
                } else if default > Some(Severity::Info) && loud != 1 {
                    problems.push(format!("{loud} findings above info for {label:?}"));
                }
            }
            LabelKind::Race => {
                for d in here.iter().filter(|d| d.severity > Severity::Info) {
                    problems.push(format!("race reported above info: {}", describe(d)));
                }
            }
        }
    }
    for d in diagnostics {
        if d.severity > Severity::Info && !expected.contains(&key(d)) {
            problems.push(format!("not injected: {}", describe(d)));
        }
    }
    problems
}

fn describe(d: &Diagnostic) -> String {
    format!(
        "line {} {} {} ({:?}): {}",
        d.location.line, d.rule.id, d.severity, d.session, d.message
    )
}

/// The rules a canonical trace is labelled with: violations and races.
const CANONICAL_RULES: &[&str] = &[
    "progress-not-increasing",
    "progress-after-terminal",
    "progress-unknown-token",
    "progress-wrong-direction",
    "progress-token-reused",
    "progress-malformed",
    "progress-token-invalid-type",
    "cancel-unknown-request",
    "cancel-wrong-direction",
    "cancel-initialize",
    "cancel-malformed",
    "cancel-duplicate",
    "cancel-after-response",
    "response-after-cancel",
    "duplicate-response",
    "response-unknown-id",
    "request-id-reused",
    "request-id-invalid",
    "unanswered-request",
    "notification-with-id",
    "response-to-notification",
];

const HAR_RULES: &[&str] = &[
    "progress-not-increasing",
    "progress-after-terminal",
    "progress-unknown-token",
    "progress-token-reused",
    "cancel-unknown-request",
    "cancel-after-response",
    "response-after-cancel",
    "duplicate-response",
    "request-id-reused",
    "progress-malformed",
    "progress-wrong-direction",
    "response-unknown-id",
    "cancel-malformed",
    "cancel-initialize",
    "cancel-duplicate",
];

/// Checks one seed of one form, whose truth must name every rule of `rules`.
fn check(form: &str, generate: Generate, seed: u64, rules: &[&str]) {
    let (stats, labels, diagnostics) = run(form, seed, MIN_LINES, generate);
    assert!(stats.lines >= MIN_LINES);
    let problems = disagreements(&labels, &diagnostics);
    assert!(
        problems.is_empty(),
        "{form} seed {seed:#x}: {} problems in {} lines with {} violations and {} races:\n{}",
        problems.len(),
        stats.lines,
        stats.violations,
        stats.races,
        problems[..problems.len().min(30)].join("\n")
    );
    let labelled: HashSet<&str> = labels.iter().map(|l| l.rule.as_str()).collect();
    for rule in rules {
        assert!(labelled.contains(rule), "{form} seed {seed:#x}: no {rule}");
    }
}

// One test per seed and form, so the harness runs them side by side.

#[test]
fn canonical_seed_0() {
    check("jsonl", generate_with_truth, SEEDS[0], CANONICAL_RULES);
}

#[test]
fn canonical_seed_1() {
    check("jsonl", generate_with_truth, SEEDS[1], CANONICAL_RULES);
}

#[test]
fn canonical_seed_2() {
    check("jsonl", generate_with_truth, SEEDS[2], CANONICAL_RULES);
}

#[test]
fn har_seed_0() {
    check("har", generate_har_with_truth, SEEDS[0], HAR_RULES);
}

#[test]
fn har_seed_1() {
    check("har", generate_har_with_truth, SEEDS[1], HAR_RULES);
}

#[test]
fn har_seed_2() {
    check("har", generate_har_with_truth, SEEDS[2], HAR_RULES);
}
