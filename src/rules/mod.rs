//! Rules: small checks that read one event against the session state before
//! it (and the engine's classification of it), and report what they find.
//!
//! One rule per file. Registration is one line in [`ALL`].

mod cancel_after_response;
mod cancel_duplicate;
mod cancel_initialize;
mod cancel_malformed;
mod cancel_unknown_request;
mod cancel_wrong_direction;
mod client_reported;
mod direction_ambiguous;
mod duplicate_response;
mod http_202_no_body;
mod http_protocol_version_header;
mod http_response_stream;
mod invalid_envelope;
mod invalid_json;
mod invalid_jsonrpc;
mod no_protocol_messages;
mod notification_with_id;
mod progress_after_terminal;
mod progress_malformed;
mod progress_not_increasing;
mod progress_token_invalid_type;
mod progress_token_reused;
mod progress_unknown_token;
mod progress_wrong_direction;
mod request_before_initialize;
mod request_id_invalid;
mod request_id_reused;
mod response_after_cancel;
mod response_to_notification;
mod response_unknown_id;
mod session_id_required;
mod sse_disconnect_as_cancel;
mod stdout_pollution;
mod unanswered_request;

use crate::diagnostic::{Diagnostic, RuleMeta, Severity};
use crate::engine::{Facts, Session};
use crate::event::{Event, Location, Message, Side};

/// One check. `check` sees every event before the session applies it;
/// `session_end` sees each session once, when its input ends.
pub trait Rule: Sync {
    fn meta(&self) -> &'static RuleMeta;

    fn check(&self, _ctx: &Ctx, _out: &mut Vec<Diagnostic>) {}

    fn session_end(&self, _session: &Session, _out: &mut Vec<Diagnostic>) {}
}

/// Every rule, in the order their findings on one line are reported.
pub static ALL: &[&dyn Rule] = &[
    &invalid_json::InvalidJson,
    &invalid_envelope::InvalidEnvelope,
    &invalid_jsonrpc::InvalidJsonrpc,
    &stdout_pollution::StdoutPollution,
    &direction_ambiguous::DirectionAmbiguous,
    &request_id_invalid::RequestIdInvalid,
    &notification_with_id::NotificationWithId,
    &request_id_reused::RequestIdReused,
    &request_before_initialize::RequestBeforeInitialize,
    &progress_token_invalid_type::ProgressTokenInvalidType,
    &progress_token_reused::ProgressTokenReused,
    &cancel_malformed::CancelMalformed,
    &cancel_initialize::CancelInitialize,
    &cancel_unknown_request::CancelUnknownRequest,
    &cancel_wrong_direction::CancelWrongDirection,
    &cancel_after_response::CancelAfterResponse,
    &cancel_duplicate::CancelDuplicate,
    &progress_malformed::ProgressMalformed,
    &progress_unknown_token::ProgressUnknownToken,
    &progress_wrong_direction::ProgressWrongDirection,
    &progress_after_terminal::ProgressAfterTerminal,
    &progress_not_increasing::ProgressNotIncreasing,
    &response_unknown_id::ResponseUnknownId,
    &response_to_notification::ResponseToNotification,
    &duplicate_response::DuplicateResponse,
    &response_after_cancel::ResponseAfterCancel,
    &unanswered_request::UnansweredRequest,
    &http_202_no_body::Http202NoBody,
    &session_id_required::SessionIdRequired,
    &http_protocol_version_header::HttpProtocolVersionHeader,
    &http_response_stream::HttpResponseStream,
    &sse_disconnect_as_cancel::SseDisconnectAsCancel,
    // ADDED for issue 13 (last, so that SARIF rule indexes stay put).
    &no_protocol_messages::NoProtocolMessages,
];

/// Looks a rule up by its id.
pub fn find(id: &str) -> Option<&'static dyn Rule> {
    ALL.iter().copied().find(|rule| rule.meta().id == id)
}

/// What a rule sees of one event.
pub struct Ctx<'a> {
    pub event: &'a Event,
    /// The message, for message events.
    pub message: Option<&'a Message>,
    /// The sender: given by the trace or inferred. `None` for unreadable
    /// lines, for messages that are neither request, notification nor
    /// response, and for bare messages whose sender is ambiguous.
    pub from: Option<Side>,
    /// The session before this event.
    pub session: &'a Session,
    pub facts: Facts<'a>,
    /// The last line of this input that could not be read at all.
    pub source_unreadable: Option<Location>,
    /// HTTP session ids the server assigned earlier in this input, and where.
    pub assigned_sessions: &'a [(compact_str::CompactString, Location)],
}

impl Ctx<'_> {
    /// A diagnostic of `meta` at this event, with the session's context filled in.
    pub fn diagnostic(&self, meta: &'static RuleMeta, message: String) -> Diagnostic {
        // Where in a multi-message line (an HTTP body) the message sits.
        let message = match &self.event.place {
            Some(place) => format!("{message} ({place})"),
            None => message,
        };
        new_diagnostic(meta, self.session, self.event.location, message)
            .with_from(self.from)
            .with_batch_index(self.message.and_then(|m| m.batch_index))
    }
}

/// A diagnostic of `meta` at `location` in `session`.
pub fn new_diagnostic(
    meta: &'static RuleMeta,
    session: &Session,
    location: Location,
    message: String,
) -> Diagnostic {
    Diagnostic {
        rule: meta,
        severity: meta.default_severity,
        message,
        location,
        batch_index: None,
        session: session.name.clone(),
        from: None,
        request_id: None,
        progress_token: None,
        related: Vec::new(),
        quote: meta.quote_for(session.version.as_deref()),
        note: None,
        label: None,
        spec_url: meta.spec_url(session.version.as_deref()),
        reported_by_client: false,
    }
}

impl Diagnostic {
    fn with_from(mut self, from: Option<Side>) -> Self {
        self.from = from;
        self
    }

    fn with_batch_index(mut self, index: Option<u32>) -> Self {
        self.batch_index = index;
        self
    }
}

impl Diagnostic {
    /// Lowers a finding about something "never sent" to `lowered` when the
    /// trace cannot prove the absence: it starts mid-session, or an earlier
    /// line could not be read (the missing message may be on it).
    pub(crate) fn lowered_unless_proven(self, ctx: &Ctx, lowered: Severity) -> Self {
        match (ctx.session.complete, ctx.source_unreadable) {
            (false, _) => self.with_severity(lowered).with_note(PARTIAL_NOTE),
            (true, Some(line)) => self
                .with_severity(lowered)
                .with_note(UNREADABLE_NOTE)
                .with_related(line, "this line could not be read"),
            (true, None) => self,
        }
    }
}

/// Said of a message that the trace cannot prove came after the receiver read the cancellation.
const MAY_HAVE_CROSSED: &str = "it may have been sent before the cancellation reached the receiver (the messages crossed); that race is allowed";
/// Said when the receiver had provably read the cancellation.
const CANCEL_REACHED: &str = "the receiver had already answered a message sent after the cancellation, so it had read the cancellation";

impl Diagnostic {
    /// Grades a message the receiver sent for a cancelled request: a warning
    /// when the trace proves the cancellation had reached it, else info (the
    /// spec allows the race).
    pub(crate) fn graded_by_cancel(
        self,
        session: &Session,
        receiver: Side,
        cancel: &crate::engine::Cancel,
    ) -> Self {
        if session.cancel_reached(receiver, cancel) {
            self.with_severity(Severity::Warning)
                .with_note(CANCEL_REACHED)
        } else {
            self.with_severity(Severity::Info)
                .with_note(MAY_HAVE_CROSSED)
        }
    }
}

const PARTIAL_NOTE: &str =
    "the trace does not start at initialize, so this may refer to a message sent before the recording began";
const UNREADABLE_NOTE: &str =
    "an earlier line of the trace could not be read, so this may refer to a message on that line";

/// How a side names a request in messages: "client request 3 (tools/call)".
pub(crate) fn describe_request(side: Side, request: &crate::engine::RequestView) -> String {
    format!(
        "{side} request {} ({})",
        request.id,
        crate::sanitize::escape_controls(request.method)
    )
}

/// A JSON number as people write it: `3`, `0.5`, `1e-300`.
pub(crate) fn number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value:?}")
    }
}

/// Helpers for the unit tests of the rules.
#[cfg(test)]
pub(crate) mod testing {
    use crate::diagnostic::Severity;

    /// The first three lines of a complete session: initialize, its result,
    /// and notifications/initialized (protocol 2025-11-25).
    pub const HANDSHAKE: &str = concat!(
        r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#,
        "\n",
        r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}"#,
        "\n",
        r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}"#,
        "\n",
    );

    /// A HAR document of `entries`, one per line: entry N is on line N + 1.
    pub fn har(entries: &[serde_json::Value]) -> String {
        let entries: Vec<String> = entries.iter().map(serde_json::Value::to_string).collect();
        format!(
            "{{\"log\":{{\"version\":\"1.2\",\"entries\":[\n{}\n]}}}}",
            entries.join(",\n")
        )
    }

    /// The findings of one rule on a trace, as (line, severity).
    pub fn findings(rule: &str, trace: &str) -> Vec<(u64, Severity)> {
        let rule = super::find(rule).expect("a registered rule");
        crate::lint_with(trace, None, crate::engine::Engine::new(vec![rule]))
            .iter()
            .map(|d| (d.location.line, d.severity))
            .collect()
    }
}
