//! Diagnostics as data: what a rule found, where, and why it is a violation.
//! Every output format renders these; none of them computes anything.

use std::fmt;

use crate::event::{Location, ProgressToken, RequestId, Side};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a rule's spec sentence lives: a page path under
/// `https://modelcontextprotocol.io/specification/<version>/`.
#[derive(Debug, Clone, Copy)]
pub struct SpecPage {
    /// The page in the handshake era (2024-11-05 to 2025-11-25).
    pub legacy: &'static str,
    /// The page in 2026-07-28, where it moved or exists.
    pub modern: Option<&'static str>,
    /// The sentence in 2026-07-28, where it differs from [`RuleMeta::quote`].
    pub modern_quote: Option<&'static str>,
}

/// The fixed description of one rule.
#[derive(Debug)]
pub struct RuleMeta {
    /// The user-facing, stable kebab-case id.
    pub id: &'static str,
    pub default_severity: Severity,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// The spec sentence the finding breaks, verbatim.
    pub quote: &'static str,
    /// `None` for rules about the trace file itself rather than the protocol.
    pub spec: Option<SpecPage>,
    /// What to do about it.
    pub help: &'static str,
}

pub const SPEC_BASE: &str = "https://modelcontextprotocol.io/specification";
/// The version whose pages are linked when a session's version is unknown.
pub const DEFAULT_SPEC_VERSION: &str = "2025-11-25";
pub const MODERN_VERSION: &str = "2026-07-28";
pub const KNOWN_VERSIONS: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    MODERN_VERSION,
];

impl RuleMeta {
    /// The spec page for a session of the given protocol version.
    pub fn spec_url(&self, version: Option<&str>) -> Option<String> {
        let spec = self.spec?;
        let version = version
            .filter(|v| KNOWN_VERSIONS.contains(v))
            .unwrap_or(DEFAULT_SPEC_VERSION);
        let page = match (version == MODERN_VERSION, spec.modern) {
            (true, Some(modern)) => modern,
            _ => spec.legacy,
        };
        Some(format!("{SPEC_BASE}/{version}/{page}"))
    }

    /// The spec sentence in the wording of the given protocol version.
    pub fn quote_for(&self, version: Option<&str>) -> &'static str {
        match (version, self.spec.and_then(|s| s.modern_quote)) {
            (Some(MODERN_VERSION), Some(modern)) => modern,
            _ => self.quote,
        }
    }

    /// The documentation page of the rule in this repository.
    pub fn doc_path(&self) -> String {
        format!("rules/{}.md", self.id)
    }
}

/// An earlier (or related) place in the trace that makes the finding a violation.
#[derive(Debug, Clone, PartialEq)]
pub struct Related {
    pub location: Location,
    pub message: String,
}

#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    pub message: String,
    pub location: Location,
    pub batch_index: Option<u32>,
    pub session: Option<Box<str>>,
    pub from: Option<Side>,
    pub request_id: Option<RequestId>,
    pub progress_token: Option<ProgressToken>,
    pub related: Vec<Related>,
    /// The spec sentence, in the wording of the session's protocol version.
    pub quote: &'static str,
    /// Extra explanation for this finding (the rule's help is always shown too).
    pub note: Option<String>,
    /// A short label for the offending line; the rule's summary when `None`.
    pub label: Option<String>,
    pub spec_url: Option<String>,
    /// ADDED for issue 13: the finding rests on a failure the client's log
    /// reports in words, not on messages the trace shows.
    pub reported_by_client: bool,
}

impl Diagnostic {
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn with_request_id(mut self, id: &RequestId) -> Self {
        self.request_id = Some(id.clone());
        self
    }

    pub fn with_progress_token(mut self, token: &ProgressToken) -> Self {
        self.progress_token = Some(token.clone());
        self
    }

    pub fn with_related(mut self, location: Location, message: impl Into<String>) -> Self {
        self.related.push(Related {
            location,
            message: message.into(),
        });
        self
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// ADDED for issue 13: marks a finding the client's log reported.
    pub fn reported_by_client(mut self) -> Self {
        self.reported_by_client = true;
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// The order of the report: by input, line, place in a batch, and the
    /// order the rules found them in (a stable sort keeps that last one).
    pub fn sort(diagnostics: &mut [Diagnostic]) {
        diagnostics.sort_by_key(|d| (d.location.source, d.location.line, d.batch_index));
    }
}
