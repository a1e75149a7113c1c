//! Rules: small checks that read one event against the session state before
//! it (and the engine's classification of it), and report what they find.
//!
//! One rule per file. Registration is one line in [`ALL`].

mod batch_initialize;
mod batch_receive_support;
mod batch_removed;
mod batch_shape;
mod batch_v1_undefined;
mod cancel_after_response;
mod cancel_duplicate;
mod cancel_initialize;
mod cancel_malformed;
mod cancel_task_augmented;
mod cancel_unknown_request;
mod cancel_wrong_direction;
mod cap_elicitation_complete_unknown_id;
mod cap_elicitation_mode;
mod cap_sampling_tools;
mod cap_undeclared_but_served;
mod cap_url_elicitation_error;
mod capability_not_advertised;
mod client_reported;
mod direction_ambiguous;
mod duplicate_response;
mod error_code_legacy_range;
mod error_code_reserved_range;
mod error_code_retired;
mod http_202_no_body;
mod http_get_accept;
mod http_get_no_responses;
mod http_get_response;
mod http_get_unrelated;
mod http_no_broadcast;
mod http_post_accept;
mod http_post_every_message;
mod http_protocol_version_header;
mod http_reject_error_status;
mod http_request_content_type;
mod http_response_stream;
mod http_resume_get;
mod http_resume_same_stream;
mod http_retry_respected;
mod http_single_endpoint;
mod http_sse_close_after_response;
mod http_sse_event_id_unique;
mod http_sse_related;
mod init_by_client;
mod init_first;
mod init_result_shape;
mod initialize_twice;
mod initialized_after_failed_init;
mod initialized_required;
mod invalid_envelope;
mod invalid_json;
mod invalid_jsonrpc;
mod meta_key_format;
mod method_direction;
mod method_version;
mod no_protocol_messages;
mod notification_with_id;
mod open_requests_limit;
mod ping_empty_response;
mod ping_no_params;
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
mod result_type_required;
mod schema_violation;
mod session_404_reinitialize;
mod session_id_at_init;
mod session_id_charset;
mod session_id_required;
mod session_missing_400;
mod session_terminated_404;
mod sse_disconnect_as_cancel;
mod sse_endpoint_event;
mod sse_message_events;
mod sse_post_to_endpoint;
mod stdio_newline_framing;
mod stdio_shutdown;
mod stdout_pollution;
mod task_cancelled_sticky;
mod task_id_string;
mod task_id_unique;
mod task_initial_working;
mod task_legal_transition;
mod task_related_meta;
mod task_related_meta_discouraged;
mod task_timestamps;
mod task_ttl_in_get;
mod tasks;
mod tasks_augment_needs_capability;
mod tasks_cancel_result_cancelled;
mod tasks_cancel_terminal_rejected;
mod tasks_capability_declared;
mod tasks_create_result;
mod tasks_cursor_opaque;
mod tasks_get_result_capability;
mod tasks_list_consistency;
mod tasks_poll_interval;
mod tasks_result_blocks;
mod tasks_result_exact;
mod tasks_result_related_meta;
mod tasks_tool_forbidden;
mod tasks_tool_no_server_capability;
mod tasks_tool_required;
mod tasks_unknown_id_error;
mod tool_arguments_invalid;
mod tool_output_invalid;
mod tool_schema_invalid;
mod tool_unknown;
mod unanswered_request;
mod unknown_method;
mod unknown_protocol_version;
mod v5_http_legacy_artifacts;
mod v5_http_no_resume;
mod v5_http_notification_related;
mod v5_http_param_headers;
mod v5_http_protocol_version_header;
mod v5_http_standard_headers;
mod v5_http_unknown_method_404;
mod v5_initialize_legacy;
mod v5_listen_ack_first;
mod v5_listen_only_requested;
mod v5_listen_subscription_id;
mod v5_logging_requires_loglevel;
mod v5_missing_capability_error;
mod v5_mrtr_allowed_methods;
mod v5_mrtr_capability;
mod v5_mrtr_input_request_types;
mod v5_mrtr_nonempty;
mod v5_mrtr_request_state_echo;
mod v5_mrtr_responses_keys;
mod v5_mrtr_retry_new_id;
mod v5_no_server_requests;
mod v5_progress_on_request_stream;
mod v5_progress_server_only;
mod v5_request_meta_required;
mod v5_server_discover_implemented;
mod v5_unsupported_version;
mod v5_x_accel_buffering;
mod version_client_disconnect;
mod version_http_header_invalid_400;
mod version_server_response;

use crate::diagnostic::{Arg, Diagnostic, Severity, Words};
use crate::engine::{Cancel, Session};
use crate::event::{Location, Side};
use crate::rule::{Ctx, Out, Rule, RuleMeta};

/// Every rule, in the order their findings on one line are reported.
pub static ALL: &[&Rule] = &[
    &invalid_json::RULE,
    &invalid_envelope::RULE,
    &invalid_jsonrpc::RULE,
    &batch_v1_undefined::RULE,
    &batch_removed::RULE,
    &batch_initialize::RULE,
    &batch_shape::RULE,
    &meta_key_format::RULE,
    &stdout_pollution::RULE,
    &direction_ambiguous::RULE,
    &unknown_method::RULE,
    &method_direction::RULE,
    &method_version::RULE,
    &capability_not_advertised::RULE,
    &cap_sampling_tools::RULE,
    &cap_elicitation_mode::RULE,
    &cap_elicitation_complete_unknown_id::RULE,
    &cap_url_elicitation_error::RULE,
    &request_id_invalid::RULE,
    &notification_with_id::RULE,
    &request_id_reused::RULE,
    &init_first::RULE,
    &init_by_client::RULE,
    &unknown_protocol_version::RULE,
    &initialize_twice::RULE,
    &request_before_initialize::RULE,
    &init_result_shape::RULE,
    &version_server_response::RULE,
    &initialized_after_failed_init::RULE,
    &version_client_disconnect::RULE,
    &ping_no_params::RULE,
    &ping_empty_response::RULE,
    &progress_token_invalid_type::RULE,
    &progress_token_reused::RULE,
    &cancel_malformed::RULE,
    &cancel_initialize::RULE,
    &cancel_unknown_request::RULE,
    &cancel_wrong_direction::RULE,
    &cancel_after_response::RULE,
    &cancel_duplicate::RULE,
    &progress_malformed::RULE,
    &progress_unknown_token::RULE,
    &progress_wrong_direction::RULE,
    &progress_after_terminal::RULE,
    &progress_not_increasing::RULE,
    &response_unknown_id::RULE,
    &response_to_notification::RULE,
    &batch_receive_support::RULE,
    &duplicate_response::RULE,
    &cap_undeclared_but_served::RULE,
    &error_code_reserved_range::RULE,
    &error_code_retired::RULE,
    &error_code_legacy_range::RULE,
    &response_after_cancel::RULE,
    &unanswered_request::RULE,
    &initialized_required::RULE,
    &task_legal_transition::RULE,
    &task_cancelled_sticky::RULE,
    &tasks_cancel_terminal_rejected::RULE,
    &tasks_cancel_result_cancelled::RULE,
    &tasks_unknown_id_error::RULE,
    &tasks_result_exact::RULE,
    &tasks_result_related_meta::RULE,
    &tasks_augment_needs_capability::RULE,
    &tasks_tool_no_server_capability::RULE,
    &tasks_tool_forbidden::RULE,
    &tasks_tool_required::RULE,
    &cancel_task_augmented::RULE,
    &tasks_get_result_capability::RULE,
    &task_id_unique::RULE,
    &task_initial_working::RULE,
    &tasks_capability_declared::RULE,
    &tasks_create_result::RULE,
    &task_id_string::RULE,
    &task_timestamps::RULE,
    &task_ttl_in_get::RULE,
    &tasks_result_blocks::RULE,
    &task_related_meta_discouraged::RULE,
    &task_related_meta::RULE,
    &tasks_poll_interval::RULE,
    &tasks_cursor_opaque::RULE,
    &tasks_list_consistency::RULE,
    &http_202_no_body::RULE,
    &stdio_shutdown::RULE,
    &stdio_newline_framing::RULE,
    &http_single_endpoint::RULE,
    &http_post_every_message::RULE,
    &http_request_content_type::RULE,
    &http_get_response::RULE,
    &http_get_accept::RULE,
    &http_post_accept::RULE,
    &v5_http_standard_headers::RULE,
    &v5_http_legacy_artifacts::RULE,
    &v5_http_no_resume::RULE,
    &v5_http_protocol_version_header::RULE,
    &v5_http_unknown_method_404::RULE,
    &v5_x_accel_buffering::RULE,
    &v5_http_notification_related::RULE,
    &v5_progress_on_request_stream::RULE,
    &v5_http_param_headers::RULE,
    &session_id_charset::RULE,
    &session_id_at_init::RULE,
    &session_missing_400::RULE,
    &session_terminated_404::RULE,
    &session_404_reinitialize::RULE,
    &http_sse_event_id_unique::RULE,
    &http_resume_get::RULE,
    &http_retry_respected::RULE,
    &sse_endpoint_event::RULE,
    &sse_post_to_endpoint::RULE,
    &sse_message_events::RULE,
    &version_http_header_invalid_400::RULE,
    &session_id_required::RULE,
    &http_protocol_version_header::RULE,
    &http_response_stream::RULE,
    &http_no_broadcast::RULE,
    &http_get_unrelated::RULE,
    &http_sse_related::RULE,
    &http_get_no_responses::RULE,
    &http_resume_same_stream::RULE,
    &http_reject_error_status::RULE,
    &http_sse_close_after_response::RULE,
    &sse_disconnect_as_cancel::RULE,
    &result_type_required::RULE,
    &v5_request_meta_required::RULE,
    &v5_no_server_requests::RULE,
    &v5_progress_server_only::RULE,
    &v5_server_discover_implemented::RULE,
    &v5_missing_capability_error::RULE,
    &v5_unsupported_version::RULE,
    &v5_mrtr_allowed_methods::RULE,
    &v5_mrtr_nonempty::RULE,
    &v5_mrtr_input_request_types::RULE,
    &v5_mrtr_capability::RULE,
    &v5_mrtr_retry_new_id::RULE,
    &v5_mrtr_request_state_echo::RULE,
    &v5_mrtr_responses_keys::RULE,
    &v5_listen_ack_first::RULE,
    &v5_listen_subscription_id::RULE,
    &v5_listen_only_requested::RULE,
    &v5_logging_requires_loglevel::RULE,
    &v5_initialize_legacy::RULE,
    &schema_violation::RULE,
    &tool_schema_invalid::RULE,
    &tool_unknown::RULE,
    &tool_arguments_invalid::RULE,
    &tool_output_invalid::RULE,
    // Last, so that SARIF rule indexes stay put.
    &no_protocol_messages::RULE,
    &open_requests_limit::RULE,
];

/// Looks a rule up by its id.
pub fn find(id: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|rule| rule.meta.id == id)
}

/// An engine running every rule.
pub fn engine() -> crate::engine::Engine {
    crate::engine::Engine::new(ALL.to_vec())
}

/// A diagnostic of `meta` at `location` in `session` (for end-of-session rules).
pub fn new_diagnostic(
    meta: &'static RuleMeta,
    session: &Session,
    location: Location,
    message: Words,
) -> Diagnostic {
    Diagnostic::new(
        meta,
        session.name.clone(),
        session.version(),
        location,
        message,
    )
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

impl Diagnostic {
    /// Names the request id of `message`, when it is a request with a valid id.
    pub(crate) fn with_request_id_of(self, message: &crate::event::Message) -> Self {
        match &message.body {
            crate::event::Body::Request {
                id: crate::event::KeyField::Valid(id),
                ..
            } => self.with_request_id(id),
            _ => self,
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
    pub(crate) fn graded_by_cancel(self, ctx: &Ctx, receiver: Side, cancel: &Cancel) -> Self {
        // 2026-07-28 makes it a MUST NOT ("MUST NOT send any further
        // messages for it"): a warning even when the messages may have
        // crossed, as a trace cannot tell that race apart.
        let crossed = match ctx.version.map(crate::protocol::Version::era) {
            Some(crate::protocol::Era::Stateless) => Severity::Warning,
            _ => Severity::Info,
        };
        if ctx.session.cancel_reached(receiver, cancel) {
            self.with_severity(Severity::Warning)
                .with_note(CANCEL_REACHED)
        } else {
            let mut graded = self.with_severity(crossed).with_note(MAY_HAVE_CROSSED);
            graded.may_have_crossed = true;
            graded
        }
    }
}

const PARTIAL_NOTE: &str =
    "the trace does not start at initialize, so this may refer to a message sent before the recording began";
const UNREADABLE_NOTE: &str =
    "an earlier line of the trace could not be read, so this may refer to a message on that line";

/// The HTTP exchange a transport event is, if it is one.
pub(crate) fn http_exchange<'a>(ctx: &Ctx<'a>) -> Option<&'a crate::event::HttpExchange> {
    match &ctx.event.payload {
        crate::event::Payload::Transport(crate::event::Transport::Http(http)) => Some(http),
        _ => None,
    }
}

/// The exchange a transport event is, if it is one of Streamable HTTP (a
/// session over the 2024-11-05 HTTP+SSE transport may negotiate a later
/// revision, and still follows that transport's rules).
pub(crate) fn streamable_exchange<'a>(ctx: &Ctx<'a>) -> Option<&'a crate::event::HttpExchange> {
    http_exchange(ctx).filter(|_| !ctx.session.http.legacy_transport)
}

/// A Streamable HTTP POST with the first request its body holds.
pub(crate) fn posted_request<'a>(
    ctx: &Ctx<'a>,
) -> Option<(
    &'a crate::event::HttpExchange,
    &'a crate::event::RequestSummary,
)> {
    let http = streamable_exchange(ctx).filter(|http| http.method == "POST")?;
    Some((http, http.first_request.as_ref()?))
}

/// The stream a server's message about a client request travels on, when
/// it is not the request's own stream (or a resumption of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamKind {
    /// A GET stream opened without `Last-Event-ID`.
    FreshGet,
    /// A GET stream that resumes the stream of another request.
    ResumedOther,
    /// The SSE stream of another POST.
    OtherPost,
}

/// The server's response of this event to a pending client request, and
/// how it is misrouted, if it is (Streamable HTTP only).
pub(crate) fn misrouted_response<'a>(
    ctx: &'a Ctx,
) -> Option<(crate::engine::RequestView<'a>, &'a str, StreamKind)> {
    use crate::engine::{Facts, ResponseTarget};
    let (
        Facts::Response(ResponseTarget::Pending(request) | ResponseTarget::AfterCancel(request)),
        Some(Side::Server),
    ) = (&ctx.facts, ctx.from)
    else {
        return None;
    };
    elsewhere(ctx, request)
}

/// A request that a server message names, making the message relate to a
/// client request.
#[derive(Clone, Copy)]
pub(crate) enum Named<'a> {
    /// Progress for this running client request.
    Progress(crate::engine::RequestView<'a>),
    /// The cancellation of this running server request, which relates to
    /// the client request of the stream it went out on.
    Cancel(crate::engine::RequestView<'a>),
}

impl<'a> Named<'a> {
    pub(crate) fn request(&self) -> &crate::engine::RequestView<'a> {
        match self {
            Named::Progress(request) | Named::Cancel(request) => request,
        }
    }
}

/// The finding (of `meta`, saying `what`) on a server message that names
/// a request, which travelled on `home`, from a stream it does not belong on.
pub(crate) fn named_elsewhere_diagnostic(
    ctx: &Ctx,
    meta: &'static RuleMeta,
    what: Words,
    named: Named,
    home: &str,
) -> Diagnostic {
    let (label, related) = match named {
        Named::Progress(_) => ("the progress", words!("the request, on {}", home)),
        Named::Cancel(_) => (
            "the cancellation",
            words!("the cancelled request, on {}", home),
        ),
    };
    let request = named.request();
    ctx.diagnostic(meta, what)
        .with_label(label)
        .with_request_id(request.id)
        .with_related(request.location, related)
}

/// The server's message of this event that names a request (progress for
/// a client request, the cancellation of a request of its own), the named
/// request's stream, and how the stream it travels on differs, when that is
/// not the named request's stream or a resumption of it (Streamable HTTP
/// only). A broadcast copy is `http-no-broadcast`'s.
pub(crate) fn related_elsewhere<'a>(ctx: &'a Ctx) -> Option<(Named<'a>, &'a str, StreamKind)> {
    use crate::engine::{CancelTarget, Facts, ProgressTarget};
    let named = match (&ctx.facts, ctx.from) {
        (Facts::Progress(ProgressTarget::Active(request)), Some(Side::Server)) => {
            Named::Progress(*request)
        }
        (Facts::Cancel(CancelTarget::Running(request)), Some(Side::Server)) => {
            Named::Cancel(*request)
        }
        _ => return None,
    };
    if reported_as_broadcast(ctx, broadcast_progress(ctx)) {
        return None;
    }
    let (_, home, how) = elsewhere(ctx, named.request())?;
    Some((named, home, how))
}

/// The client's open requests that travelled on `stream` (or on the stream
/// it resumes).
pub(crate) fn stream_requests<'a: 's, 's>(
    ctx: &Ctx<'a>,
    stream: &'s str,
) -> impl Iterator<Item = &'a crate::engine::Request> + 's {
    let http = &ctx.session.http;
    let origin = http.origin(stream);
    let open = ctx.session.side(Side::Client).open_requests();
    open.filter(move |r| {
        r.stream
            .as_deref()
            .is_some_and(|s| http.origin(s) == origin)
    })
}

/// The id of the `subscriptions/listen` request whose response stream
/// `stream` is, if it is one.
pub(crate) fn listen_of<'a>(ctx: &Ctx<'a>, stream: &str) -> Option<&'a crate::event::RequestId> {
    let listens = &ctx.session.subscriptions.listens;
    stream_requests(ctx, stream)
        .map(|r| &r.id)
        .find(|id| listens.contains_key(*id))
}

/// Where the server's message about `request` travels, when that is not
/// the request's stream or a resumption of it.
fn elsewhere<'a>(
    ctx: &'a Ctx,
    request: &crate::engine::RequestView<'a>,
) -> Option<(crate::engine::RequestView<'a>, &'a str, StreamKind)> {
    let http = &ctx.session.http;
    let (here, home) = (ctx.event.stream.as_deref()?, request.stream?);
    // The usual case, looked up in no table: the request's own stream.
    if here == home {
        return None;
    }
    let stream = http.streams.get(here)?;
    // The 2024-11-05 HTTP+SSE transport sends every server message on its one stream.
    if http.legacy_transport || !http.distinct(here, home) {
        return None;
    }
    let how = match (stream.method == "GET", stream.resumes) {
        (true, false) => StreamKind::FreshGet,
        // A resumption whose stream the trace does not hold may be the request's own.
        (true, true) if stream.origin.as_ref() == here => return None,
        (true, true) => StreamKind::ResumedOther,
        (false, _) => StreamKind::OtherPost,
    };
    Some((*request, home, how))
}

/// The stream that first carried the server's response to `request`, when
/// this second response travels on another stream (not a resumption of it)
/// of Streamable HTTP: one message broadcast on two streams.
pub(crate) fn broadcast_from<'a>(
    ctx: &Ctx<'a>,
    request: &crate::engine::RequestView<'a>,
) -> Option<&'a str> {
    on_another_stream(ctx, request.response_stream)
}

/// The server's earlier request that this one repeats on another stream
/// (not a resumption of it) of Streamable HTTP, and that stream: the same
/// id and method, which no two requests of a session share, is one request
/// broadcast. The first copy's stream is known while it is unanswered.
pub(crate) fn broadcast_request<'a>(
    ctx: &Ctx<'a>,
) -> Option<(crate::engine::RequestView<'a>, &'a str)> {
    let crate::engine::Facts::Request(facts) = &ctx.facts else {
        return None;
    };
    let earlier = facts.earlier?;
    let same = ctx.message?.method() == Some(earlier.method);
    let first = on_another_stream(ctx, earlier.stream.filter(|_| same))?;
    Some((earlier, first))
}

/// The server's progress for a running request that repeats the last
/// progress value on another stream (not a resumption of it) of Streamable
/// HTTP, and that stream: progress must increase with each notification,
/// so the same value for the same token is the one notification broadcast.
pub(crate) fn broadcast_progress<'a>(
    ctx: &Ctx<'a>,
) -> Option<(crate::engine::RequestView<'a>, &'a str)> {
    use crate::engine::{Facts, ProgressTarget};
    use crate::event::NumberField;
    let Facts::Progress(ProgressTarget::Active(request)) = &ctx.facts else {
        return None;
    };
    let NumberField::Number(value) = ctx.message?.params()?.progress else {
        return None;
    };
    let repeated = request.last_progress.is_some_and(|(last, _)| last == value);
    let first = on_another_stream(ctx, request.last_progress_stream.filter(|_| repeated))?;
    Some((*request, first))
}

/// Whether `copy` (what a broadcast helper found) is reported by
/// `http-no-broadcast` in the versions of this event, so that another rule
/// leaves the copy to it: one cause, one finding.
pub(crate) fn reported_as_broadcast<T>(ctx: &Ctx, copy: Option<T>) -> bool {
    copy.is_some() && http_no_broadcast::META.versions.covers(ctx.versions)
}

/// `first`, when the server's message of this event travels on another
/// stream than `first` (not a resumption of it) of Streamable HTTP.
fn on_another_stream<'a>(ctx: &Ctx<'a>, first: Option<&'a str>) -> Option<&'a str> {
    let http = &ctx.session.http;
    let (here, first) = (ctx.event.stream.as_deref()?, first?);
    let both_http = http.streams.contains_key(here) && http.streams.contains_key(first);
    let broadcast = both_http && !http.legacy_transport && http.distinct(here, first);
    (broadcast && ctx.from == Some(Side::Server)).then_some(first)
}

/// A client's header finding (`words`) on a 2026-07-28 POST; when the
/// server accepted the request anyway, the note says so: it must reject a
/// mismatch with 400 Bad Request and a HeaderMismatch error.
pub(crate) fn header_mismatch_diagnostic(
    ctx: &Ctx,
    meta: &'static RuleMeta,
    http: &crate::event::HttpExchange,
    words: crate::words::Words,
) -> Diagnostic {
    let diagnostic = ctx.diagnostic(meta, words).with_label("the request");
    match http.succeeded() {
        true => diagnostic.with_note(words!(
            "the server accepted it with {} instead of rejecting it with 400 Bad Request",
            http.status.unwrap_or_default()
        )),
        false => diagnostic,
    }
}

/// The finding of an `Accept` header (of `meta`) that does not list
/// `media`: an error, or a warning when a wildcard admits what is missing.
pub(crate) fn accept_diagnostic(
    ctx: &Ctx,
    meta: &'static RuleMeta,
    http: &crate::event::HttpExchange,
    media: &[&str],
) -> Option<Diagnostic> {
    use crate::protocol::headers::{accept_missing, Header};
    let accept = http.request_header(Header::Accept);
    let missing = accept_missing(accept, media);
    let (first, _) = missing.first()?;
    let names: Vec<&str> = missing.iter().map(|(m, _)| *m).collect();
    let what = match accept {
        None => words!("the client sends {} without an Accept header", http.method),
        Some(accept) => words!(
            "the client sends {} with Accept {}, which does not list {}",
            http.method,
            crate::words::Arg::quoted(accept),
            names.join(" and ")
        ),
    };
    let diagnostic = ctx.diagnostic(meta, what).with_label("the request");
    Some(match missing.iter().all(|(_, wildcard)| *wildcard) {
        true => diagnostic
            .with_severity(Severity::Warning)
            .with_note(words!(
                "a wildcard admits {}, but the spec asks for it by name",
                first
            )),
        false => diagnostic,
    })
}

/// How a side names a request in messages: "client request 3 (tools/call)".
pub(crate) fn describe_request(side: Side, request: &crate::engine::RequestView) -> Words {
    words!("{} request {} ({})", side, request.id, request.method)
}

/// The member names of a JSON object as written, sorted; `None` when the
/// member is absent or not an object.
pub(crate) fn object_keys(member: Option<&crate::event::Json>) -> Option<Vec<String>> {
    use std::collections::BTreeMap;
    let object: BTreeMap<String, serde::de::IgnoredAny> = member?.parse()?;
    Some(object.into_keys().collect())
}

/// The members of an object other than `_meta`, quoted and listed for a
/// message (`"a" and "b"`); `None` when there are none or it is no object.
pub(crate) fn members_besides_meta(member: Option<&crate::event::Json>) -> Option<Words> {
    let names: Vec<Words> = object_keys(member)?
        .into_iter()
        .filter(|name| name != "_meta")
        .map(|name| words!("{}", Arg::quoted(&name)))
        .collect();
    (!names.is_empty()).then(|| Words::listed(names))
}

/// The names of `required` that the object `member` lacks (all of them when
/// it is absent or not an object), quoted for a message.
pub(crate) fn missing_members(
    member: Option<&crate::event::Json>,
    required: &[&'static str],
) -> Vec<&'static str> {
    let present = object_keys(member).unwrap_or_default();
    required
        .iter()
        .copied()
        .filter(|name| !present.iter().any(|p| p == name))
        .collect()
}

/// Names as a reader lists them: `a`, `a and b`, `a, b and c`.
pub(crate) fn listed(names: &[&str]) -> Words {
    Words::listed(names.iter().map(|name| words!("{}", name)).collect())
}

/// The revision a method is judged in: the one the message is read in,
/// except that in 2026-07-28 only a message naming its version in `_meta`
/// is surely of that revision (one endpoint may serve both eras, and an
/// `initialize` or `ping` without it belongs to a handshake session).
pub(crate) fn judged_version(ctx: &Ctx) -> Option<crate::protocol::Version> {
    let version = ctx.version?;
    let named = ctx
        .message
        .and_then(|m| m.params())
        .is_some_and(|p| p.meta_protocol_version.is_some());
    match version.era() {
        crate::protocol::Era::Stateless if !named => None,
        _ => Some(version),
    }
}

/// The severity of using what was not negotiated: "Both parties MUST: Respect
/// the negotiated protocol version; Only use capabilities that were
/// successfully negotiated" from 2025-06-18 on, SHOULD before.
pub(crate) fn negotiated_severity(version: crate::protocol::Version) -> Severity {
    use crate::protocol::Version;
    match version {
        Version::V2024_11_05 | Version::V2025_03_26 => Severity::Warning,
        _ => Severity::Error,
    }
}

/// The method a request or notification names, with its sender.
pub(crate) fn sent_method<'c>(ctx: &Ctx<'c>) -> Option<(&'c str, Side)> {
    let method = ctx.message?.method().filter(|m| !m.is_empty())?;
    Some((method, ctx.from?))
}

/// The params of a request `method` the server sends, as `T`, with the
/// client's capabilities as the trace shows them; `None` for any other
/// message, so the params of no other message are parsed.
pub(crate) fn server_request_to_client<'c, T: serde::de::DeserializeOwned>(
    ctx: &Ctx<'c>,
    method: &str,
) -> Option<(T, &'c crate::engine::Capabilities)> {
    let message = ctx.message.filter(|m| m.method() == Some(method))?;
    if ctx.from != Some(Side::Server) {
        return None;
    }
    let capabilities = ctx.session.lifecycle.capabilities(Side::Client)?;
    let params = message.members.params.as_ref()?.parse::<T>()?;
    Some((params, capabilities))
}

/// A server's answer to a 2026-07-28 request of the client: the request,
/// and the result's members when it is a result (`None` for an error).
pub(crate) fn modern_answer<'c>(
    ctx: &Ctx<'c>,
) -> Option<(
    crate::engine::RequestView<'c>,
    Option<crate::engine::operations::ResultView>,
)> {
    use crate::event::{Body, Outcome};
    let message = ctx.message.filter(|m| !m.incomplete)?;
    let request = *ctx.facts.answered()?;
    if ctx.from != Some(Side::Server) || request.modern.is_none() {
        return None;
    }
    let result = match &message.body {
        Body::Response {
            outcome: Outcome::Result { .. },
            ..
        } => Some(crate::engine::operations::ResultView::of(
            message.members.result.as_ref(),
        )?),
        _ => None,
    };
    Some((request, result))
}

/// A finding about the server's answer to a request of the client:
/// "server answers client request 3 (tools/call) with {what}".
pub(crate) fn answer_finding(
    ctx: &Ctx,
    meta: &'static RuleMeta,
    request: &crate::engine::RequestView,
    what: Words,
) -> Diagnostic {
    let named = describe_request(Side::Client, request);
    ctx.diagnostic(meta, words!("server answers {} with {}", named, what))
        .with_request_id(request.id)
        .with_related(request.location, "the request")
}

/// A server's `InputRequiredResult` for a 2026-07-28 request of the client.
pub(crate) fn input_required_answer<'c>(
    ctx: &Ctx<'c>,
) -> Option<(
    crate::engine::RequestView<'c>,
    crate::engine::operations::ResultView,
)> {
    match modern_answer(ctx)? {
        (request, Some(result)) if result.requires_input() => Some((request, result)),
        _ => None,
    }
}

/// A 2026-07-28 client request that retries an operation (it carries
/// `inputResponses` or `requestState`): its params and id, and the input
/// round it retries, if the trace shows one.
pub(crate) fn retry<'c>(
    ctx: &'c Ctx,
) -> Option<(
    &'c crate::engine::operations::RequestParams,
    &'c crate::event::RequestId,
    Option<&'c crate::engine::operations::InputRound>,
)> {
    use crate::event::{Body, KeyField};
    let (crate::engine::Facts::Request(facts), Some(Side::Client)) = (&ctx.facts, ctx.from) else {
        return None;
    };
    let params = facts.modern.as_ref().filter(|p| p.is_retry())?;
    let Some(Body::Request {
        id: KeyField::Valid(id),
        ..
    }) = ctx.message.map(|m| &m.body)
    else {
        return None;
    };
    Some((params, id, facts.retried))
}

/// A request the server sends in a 2026-07-28 session, where servers send
/// none (v5-no-server-requests reports it, and no other rule).
pub(crate) fn stateless_server_request(ctx: &Ctx) -> bool {
    use crate::event::Body;
    let request = matches!(ctx.message.map(|m| &m.body), Some(Body::Request { method, .. }) if !method.starts_with("notifications/"));
    request
        && ctx.from == Some(Side::Server)
        && ctx.version.map(crate::protocol::Version::era) == Some(crate::protocol::Era::Stateless)
}

/// Progress the client sends in a 2026-07-28 session, where only servers
/// send it (v5-progress-server-only reports it, and no other rule).
pub(crate) fn stateless_client_progress(ctx: &Ctx) -> bool {
    ctx.from == Some(Side::Client)
        && ctx.message.and_then(|m| m.method()) == Some("notifications/progress")
        && ctx.version.map(crate::protocol::Version::era) == Some(crate::protocol::Era::Stateless)
}

/// Reports an error response with `error`'s code whose `data` lacks the
/// members the specification requires of it.
pub(crate) fn check_defined_error(
    ctx: &Ctx,
    out: &mut Out,
    meta: &'static RuleMeta,
    error: &crate::protocol::errors::DefinedError,
) {
    #[derive(serde::Deserialize)]
    struct ErrorObject {
        data: Option<serde_json::Value>,
    }
    match error_code_use(ctx) {
        Some((code, _)) if code == error.code => {}
        _ => return,
    }
    let Some(message) = ctx.message.filter(|m| !m.incomplete) else {
        return;
    };
    let object = message
        .members
        .error
        .as_ref()
        .and_then(|e| e.parse::<ErrorObject>());
    let data = object.and_then(|o| o.data);
    let missing: Vec<&str> = error
        .data
        .iter()
        .copied()
        .filter(|member| data.as_ref().and_then(|d| d.get(member)).is_none())
        .collect();
    if missing.is_empty() {
        return;
    }
    let from = ctx.from.map_or(words!("a side"), |s| words!("{}", s));
    out.push(
        ctx.diagnostic(
            meta,
            words!(
                "{} answers with error {} ({}) whose data has no {}",
                from,
                error.code,
                error.name,
                listed(&missing)
            ),
        )
        .with_pointer("/error/data"),
    );
}

/// What the revision of an error response says of its code.
pub(crate) fn error_code_use(ctx: &Ctx) -> Option<(i64, crate::protocol::errors::CodeUse)> {
    use crate::event::{Body, Outcome};
    let Some(Body::Response {
        outcome: Outcome::Error { code: Some(code) },
        ..
    }) = ctx.message.map(|m| &m.body)
    else {
        return None;
    };
    let version = ctx.version?;
    Some((*code, crate::protocol::errors::classify(*code, version)))
}

/// The batch a message opens (its first element), with who sent it.
pub(crate) fn opened_batch(ctx: &Ctx) -> Option<(crate::event::Batch, Option<Side>)> {
    let batch = ctx.message?.batch.as_deref().filter(|b| b.index == 0)?;
    Some((*batch, ctx.from.or(ctx.event.from)))
}

/// A batch as findings name it: "the client's batch of 3 messages (2
/// requests, 1 notification)".
pub(crate) fn describe_batch(batch: &crate::event::Batch, from: Option<Side>) -> Words {
    let whose = from.map_or(words!("a"), |side| words!("the {}'s", side));
    let kinds: Vec<Words> = [
        (batch.requests, "request"),
        (batch.notifications, "notification"),
        (batch.responses, "response"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, kind)| words!("{} {}{}", n, kind, if n == 1 { "" } else { "s" }))
    .collect();
    let plural = if batch.len == 1 { "" } else { "s" };
    words!(
        "{} batch of {} message{} ({})",
        whose,
        batch.len,
        plural,
        Words::joined(kinds, ", ")
    )
}

/// Reports a batch, once, on its first element, for a revision that has no
/// batches; a batch holding `initialize` is batch-initialize's.
pub(crate) fn report_batch(ctx: &Ctx, out: &mut Out, meta: &'static RuleMeta, why: &str) {
    let Some((batch, from)) = opened_batch(ctx) else {
        return;
    };
    if batch.initialize.is_some() {
        return;
    }
    out.push(ctx.diagnostic(meta, words!("{}: {}", describe_batch(&batch, from), why)));
}

pub(crate) use crate::words::number;

/// Helpers for the unit tests of the rules.
#[cfg(test)]
pub(crate) mod testing {
    use crate::diagnostic::Severity;

    /// The first three lines of a complete session: initialize, its result,
    /// and notifications/initialized (protocol 2025-11-25).
    /// An SSE event of a server request (`ping`, id "s1"), and one of the
    /// server's cancellation of it.
    pub const SSE_SERVER_PING: &str = r#"data: {"jsonrpc":"2.0","id":"s1","method":"ping"}"#;
    pub const SSE_SERVER_PING_CANCEL: &str =
        r#"data: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"s1"}}"#;

    pub const HANDSHAKE: &str = concat!(
        r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#,
        "\n",
        r#"{"from":"server","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}}"#,
        "\n",
        r#"{"from":"client","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}"#,
        "\n",
    );

    /// [`HANDSHAKE`] with the client advertising `capabilities`.
    pub fn with_client_capabilities(capabilities: &str) -> String {
        HANDSHAKE.replacen(
            r#""capabilities":{}"#,
            &format!(r#""capabilities":{capabilities}"#),
            1,
        )
    }

    /// A HAR document of `entries`, one per line: entry N is on line N + 1.
    pub fn har(entries: &[serde_json::Value]) -> String {
        let entries: Vec<String> = entries.iter().map(serde_json::Value::to_string).collect();
        format!(
            "{{\"log\":{{\"version\":\"1.2\",\"entries\":[\n{}\n]}}}}",
            entries.join(",\n")
        )
    }

    /// A HAR entry: `method` to `/mcp` with request `headers` and `body`,
    /// answered with `status`, `content_type` and the body `text`.
    pub fn entry(
        method: &str,
        headers: &[(&str, &str)],
        body: Option<&serde_json::Value>,
        answer: (u16, &str, &str),
    ) -> serde_json::Value {
        let (status, content_type, text) = answer;
        let pairs = |pairs: &[(&str, &str)]| -> Vec<serde_json::Value> {
            let pair =
                |(name, value): &(&str, &str)| serde_json::json!({"name": name, "value": value});
            pairs.iter().map(pair).collect()
        };
        let mut entry = serde_json::json!({
            "request": {"method": method, "url": "http://localhost/mcp", "headers": pairs(headers)},
            "response": {"status": status, "headers": pairs(&[("Content-Type", content_type)]), "content": {"mimeType": content_type, "text": text}},
        });
        if let Some(body) = body {
            entry["request"]["postData"] = serde_json::json!({"text": body.to_string()});
        }
        entry
    }

    /// A 2025-03-26 initialize POST answered with the session id `assigned`.
    pub fn initialize_assigning(assigned: &str) -> serde_json::Value {
        let request = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}});
        let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26"}}"#;
        let mut e = entry(
            "POST",
            &[],
            Some(&request),
            (200, "application/json", result),
        );
        e["response"]["headers"] =
            serde_json::json!([{"name": "Mcp-Session-Id", "value": assigned}]);
        e
    }

    /// A 2025-11-25 initialize POST (id 0) answered with a JSON body, no session id.
    pub fn initialize_exchange() -> serde_json::Value {
        let request = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}});
        let result = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}"#;
        entry(
            "POST",
            &[],
            Some(&request),
            (200, "application/json", result),
        )
    }

    /// A ping POST (id 1) with `headers`, answered with `status` and its result.
    pub fn ping_with(headers: &[(&str, &str)], status: u16) -> serde_json::Value {
        let request = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let result = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        entry(
            "POST",
            headers,
            Some(&request),
            (status, "application/json", result),
        )
    }

    /// An SSE body of events, each given as its field lines (`"id: 1\ndata: {}"`).
    pub fn sse(events: &[&str]) -> String {
        events.iter().map(|e| format!("{e}\n\n")).collect()
    }

    /// A tools/call POST (id and progress token `id`) whose SSE stream
    /// carries `events` (field lines).
    pub fn sse_call(id: u32, events: &[&str]) -> serde_json::Value {
        let request = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "t", "_meta": {"progressToken": id}}});
        entry(
            "POST",
            &[],
            Some(&request),
            (200, "text/event-stream", &sse(events)),
        )
    }

    /// A GET stream, resuming after `last` if given, that carries `events`.
    pub fn get_stream(last: Option<&str>, events: &[&str]) -> serde_json::Value {
        let headers: Vec<(&str, &str)> = last.map(|l| ("Last-Event-ID", l)).into_iter().collect();
        entry(
            "GET",
            &headers,
            None,
            (200, "text/event-stream", &sse(events)),
        )
    }

    /// An SSE event carrying progress 1 for `token`.
    pub fn sse_progress(token: u32) -> String {
        format!("data: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":{token},\"progress\":1}}}}")
    }

    /// A 2026-07-28 POST of `method` (with `params`) carrying `headers`,
    /// answered `status` with an empty result.
    pub fn modern_post(
        method: &str,
        params: serde_json::Value,
        headers: &[(&str, &str)],
        status: u16,
    ) -> serde_json::Value {
        let request = modern_request(1, method, params);
        entry(
            "POST",
            headers,
            Some(&request),
            (
                status,
                "application/json",
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            ),
        )
    }

    /// A 2026-07-28 request `id` of `method`: `params` with the protocol
    /// version added to its `_meta` (kept when given).
    fn modern_request(id: u32, method: &str, params: serde_json::Value) -> serde_json::Value {
        let mut params = params;
        if !params["_meta"].is_object() {
            params["_meta"] = serde_json::json!({});
        }
        params["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2026-07-28".into();
        serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    /// A 2026-07-28 POST of request `id` (`method` with `params`), answered
    /// with an SSE stream of `events` (field lines; [`sse_result`] answers
    /// it); `response_headers` join the response's Content-Type.
    pub fn modern_sse_post(
        id: u32,
        method: &str,
        params: serde_json::Value,
        response_headers: &[(&str, &str)],
        events: &[&str],
    ) -> serde_json::Value {
        let request = modern_request(id, method, params);
        let mut e = entry(
            "POST",
            &[("MCP-Protocol-Version", "2026-07-28")],
            Some(&request),
            (200, "text/event-stream", &sse(events)),
        );
        let headers = e["response"]["headers"].as_array_mut().expect("headers");
        for (name, value) in response_headers {
            headers.push(serde_json::json!({"name": name, "value": value}));
        }
        e
    }

    /// An SSE event carrying an empty result for request `id`.
    pub fn sse_result(id: u32) -> String {
        format!("data: {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}")
    }

    /// A 2026-07-28 client request line declaring `capabilities`; `members`
    /// are more members of `params` (JSON text ending in a comma, or empty).
    pub fn v5_request_declaring(
        id: &str,
        method: &str,
        members: &str,
        capabilities: &str,
    ) -> String {
        format!(
            r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{members}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{capabilities}}}}}}}}}"#
        )
    }

    /// A 2026-07-28 client request line that declares no capabilities.
    pub fn v5_request(id: &str, method: &str, members: &str) -> String {
        v5_request_declaring(id, method, members, "{}")
    }

    /// A 2026-07-28 session's first line: the trace holds its start.
    pub const DISCOVER: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}}"#;

    /// A line the server sent: `msg` is its JSON-RPC message.
    pub fn server(msg: &str) -> String {
        format!(r#"{{"from":"server","msg":{msg}}}"#)
    }

    /// Lines joined into a trace.
    pub fn trace<S: AsRef<str>>(lines: &[S]) -> String {
        let lines: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
        lines.join("\n")
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
