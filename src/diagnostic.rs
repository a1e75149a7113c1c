//! Diagnostics as data: what a rule found, where, and why it is a violation.
//! Every output format renders these; none of them computes anything.

use std::fmt;

use crate::event::{Location, ProgressToken, RequestId, Side};
use crate::protocol::Version;
pub use crate::rule::RuleMeta;
pub use crate::words::{Arg, Words};

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

/// An earlier (or related) place in the trace that makes the finding a violation.
#[derive(Debug, Clone, PartialEq)]
pub struct Related {
    pub location: Location,
    pub message: Words,
}

#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    /// What was found, as data; reports word and escape it.
    pub message: Words,
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
    pub note: Option<Words>,
    /// A short label for the offending line; the rule's summary when `None`.
    pub label: Option<Words>,
    /// The JSON pointer of the offending value in the message (`/params/name`).
    pub pointer: Option<Box<str>>,
    /// The revision whose spec page the finding links (the session's).
    pub spec_version: Option<Version>,
    /// The finding rests on a failure the client's log reports in words,
    /// not on messages the trace shows.
    pub reported_by_client: bool,
    /// A message for a cancelled request that may have crossed the
    /// cancellation (a race the spec allows); the policy may leave it out.
    pub may_have_crossed: bool,
}

impl Diagnostic {
    /// A finding of `meta` at `location`, worded for a session of `version`.
    pub fn new(
        meta: &'static RuleMeta,
        session: Option<Box<str>>,
        version: Option<Version>,
        location: Location,
        message: Words,
    ) -> Diagnostic {
        Diagnostic {
            rule: meta,
            severity: meta.default_severity,
            message,
            location,
            batch_index: None,
            session,
            from: None,
            request_id: None,
            progress_token: None,
            related: Vec::new(),
            quote: meta.quote_for(version),
            note: None,
            label: None,
            pointer: None,
            spec_version: version,
            reported_by_client: false,
            may_have_crossed: false,
        }
    }

    /// The spec page the finding links, made when a report shows it.
    pub fn spec_url(&self) -> Option<String> {
        self.rule.spec_url(self.spec_version)
    }

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

    pub fn with_related(mut self, location: Location, message: impl Into<Words>) -> Self {
        self.related.push(Related {
            location,
            message: message.into(),
        });
        self
    }

    pub fn with_label(mut self, label: impl Into<Words>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Marks a finding the client's log reported.
    pub fn reported_by_client(mut self) -> Self {
        self.reported_by_client = true;
        self
    }

    pub fn with_note(mut self, note: impl Into<Words>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Points at the offending value inside the message.
    pub fn with_pointer(mut self, pointer: &str) -> Self {
        self.pointer = Some(pointer.into());
        self
    }

    /// The finding's words, with the pointer of the offending value when it
    /// has one; trace text goes through `escape`.
    pub fn text(&self, escape: &dyn Fn(&str) -> std::borrow::Cow<str>) -> String {
        let message = self.message.render(escape);
        match &self.pointer {
            Some(pointer) => format!("{message} (at {})", escape(pointer)),
            None => message,
        }
    }

    /// Where in its batch the message sits, as reports say it.
    pub fn batch_place(&self) -> Option<String> {
        self.batch_index
            .map(|index| format!("message {} of the batch", index + 1))
    }

    /// The order of the report: by input, line, place in a batch, and the
    /// order the rules found them in (a stable sort keeps that last one).
    /// Findings already in order (most often) are left as they are: sorting
    /// would take a buffer half their size.
    pub fn sort(diagnostics: &mut [Diagnostic]) {
        let key = |d: &Diagnostic| (d.location.source, d.location.line, d.batch_index);
        if !diagnostics.is_sorted_by_key(key) {
            diagnostics.sort_by_key(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Location;

    #[test]
    fn the_text_names_the_pointer_and_escapes_only_trace_text() {
        let meta = crate::rules::find("invalid-jsonrpc").expect("a rule").meta;
        let location = Location {
            source: 0,
            line: 3,
            offset: 0,
            len: 0,
        };
        let finding = Diagnostic::new(meta, None, None, location, words!("bad {}", "x\u{1b}"))
            .with_pointer("/params/\u{1b}");
        let shown = finding.text(&|t| t.replace('\u{1b}', "?").into());
        assert_eq!(shown, "bad x? (at /params/?)");
    }
}
