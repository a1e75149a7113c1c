//! The state of one session: its lifecycle, and per direction the registry of
//! requests, progress tokens and cancellations.
//!
//! Only [`Session::apply`] changes it, after the rules have looked at an event
//! against the state before it.

use foldhash::{HashMap, HashSet};

use crate::event::{
    Body, KeyField, Location, Message, Method, Outcome, ProgressToken, RequestId, Side,
};

use super::facts::Transition;

/// Which generation of the protocol a session speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// Not known yet (no initialize, no 2026-07-28 request seen).
    Unknown,
    /// 2024-11-05 to 2025-11-25: sessions open with `initialize`.
    Legacy,
    /// 2026-07-28: stateless, no `initialize`, version in each request's `_meta`.
    Modern,
}

/// Messages whose id could not be read and that no null-id error has
/// answered yet: each may justify one error response with `"id": null`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unreadable {
    pending: u32,
    last: Option<Location>,
}

impl Unreadable {
    pub(crate) fn note(&mut self, location: Location) {
        self.pending += 1;
        self.last = Some(location);
    }

    /// The latest unanswered one, if any is left.
    pub fn last(&self) -> Option<Location> {
        self.last.filter(|_| self.pending > 0)
    }

    /// One null-id error answered one of them.
    pub(crate) fn consume(&mut self) -> bool {
        let had = self.pending > 0;
        self.pending = self.pending.saturating_sub(1);
        had
    }
}

/// An HTTP exchange's stream, as far as rules need it.
#[derive(Debug, Clone)]
pub struct StreamInfo {
    /// The HTTP method that opened it (`GET` streams carry no responses).
    pub method: compact_str::CompactString,
    /// It resumes an earlier stream (`Last-Event-ID`).
    pub resumes: bool,
    /// The stream of the 2024-11-05 HTTP+SSE transport, which carries every
    /// server message, responses included.
    pub legacy_sse: bool,
    /// The response has an HTTP error status (4xx, 5xx): the server rejected
    /// the request body whole, and may say so with a null-id error.
    pub rejected: bool,
}

/// Where a request is in its life, as the trace shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestState {
    Running,
    /// The requester cancelled it; for the requester it is over, and its
    /// token is free again. The receiver may still answer (a race).
    CancelRequested,
    /// The receiver answered it (possibly after a cancellation).
    Completed,
}

/// A cancellation of a request by its requester.
#[derive(Debug, Clone)]
pub struct Cancel {
    pub location: Location,
    /// Its position in the session's message order.
    pub seq: u64,
    pub stream: Option<Box<str>>,
}

/// A request still open: running, or cancelled but not answered.
#[derive(Debug, Clone)]
pub struct Request {
    pub id: RequestId,
    pub method: Method,
    pub location: Location,
    /// Position of the request in the session's message order.
    pub seq: u64,
    pub token: Option<ProgressToken>,
    pub state: RequestState,
    pub cancel: Option<Box<Cancel>>,
    /// The last progress value the receiver sent for this request.
    pub last_progress: Option<(f64, Location)>,
    /// The stream that last progress travelled on.
    pub last_progress_stream: Option<Box<str>>,
    pub stream: Option<Box<str>>,
    /// Earlier requests with the same id (a reuse) still waiting for their
    /// answers: the next answers are theirs, not duplicates.
    pub unanswered_copies: u32,
}

/// An answered request, kept compactly until the session ends: enough to
/// name it in findings about reused ids, duplicate answers and late messages.
#[derive(Debug, Clone)]
pub struct Answered {
    pub method: Method,
    pub location: Location,
    pub response: Location,
    /// The stream the response travelled on, if the trace names streams.
    pub response_stream: Option<Box<str>>,
    pub cancel: Option<Box<Cancel>>,
}

/// A request as rules see it, open or answered.
#[derive(Debug, Clone, Copy)]
pub struct RequestView<'s> {
    pub id: &'s RequestId,
    pub method: &'s str,
    pub location: Location,
    pub state: RequestState,
    /// The request's progress token (for an answered request: only when it
    /// was found by that token).
    pub token: Option<&'s ProgressToken>,
    pub cancel: Option<&'s Cancel>,
    pub response: Option<Location>,
    pub response_stream: Option<&'s str>,
    pub last_progress: Option<(f64, Location)>,
    /// The stream that last progress travelled on.
    pub last_progress_stream: Option<&'s str>,
    /// The stream the request travelled on (open requests only).
    pub stream: Option<&'s str>,
}

impl RequestView<'_> {
    pub fn is_outstanding(&self) -> bool {
        self.state != RequestState::Completed
    }
}

impl Request {
    pub fn view(&self) -> RequestView<'_> {
        RequestView {
            id: &self.id,
            method: &self.method,
            location: self.location,
            state: self.state,
            token: self.token.as_ref(),
            cancel: self.cancel.as_deref(),
            response: None,
            response_stream: None,
            last_progress: self.last_progress,
            last_progress_stream: self.last_progress_stream.as_deref(),
            stream: self.stream.as_deref(),
        }
    }
}

impl Answered {
    fn view<'s>(&'s self, id: &'s RequestId, token: Option<&'s ProgressToken>) -> RequestView<'s> {
        RequestView {
            id,
            method: &self.method,
            location: self.location,
            state: RequestState::Completed,
            token,
            cancel: self.cancel.as_deref(),
            response: Some(self.response),
            response_stream: self.response_stream.as_deref(),
            last_progress: None,
            last_progress_stream: None,
            stream: None,
        }
    }
}

/// What one side has sent: its requests and tokens, and how far it has
/// provably read the other side's messages.
#[derive(Debug, Default)]
pub struct Registry {
    /// This side's requests that are not answered yet, by id.
    pub open: HashMap<RequestId, Request>,
    /// This side's answered requests, by id.
    pub answered: HashMap<RequestId, Answered>,
    /// Tokens of this side's running requests.
    pub active_tokens: HashMap<ProgressToken, RequestId>,
    /// For a token no longer active: the last request that carried it.
    pub released_tokens: HashMap<ProgressToken, RequestId>,
    /// `notifications/*` messages this side sent with an id, by that id.
    pub id_notifications: HashMap<RequestId, Location>,
    /// Per stream, the highest position of a message of the other side that
    /// this side has answered (or sent progress for): proof it had read that
    /// far on that stream. Streams are ordered only within themselves.
    pub read_upto: HashMap<Option<Box<str>>, u64>,
    /// Where this side closed its end, if it did.
    pub closed: Option<Location>,
    /// What this side sent whose id could not be read.
    pub unreadable: Unreadable,
}

impl Registry {
    /// The request with this id: the open one, or else the answered one.
    pub fn request(&self, id: &RequestId) -> Option<RequestView<'_>> {
        match self.open.get(id) {
            Some(open) => Some(open.view()),
            None => self
                .answered
                .get_key_value(id)
                .map(|(id, a)| a.view(id, None)),
        }
    }

    /// The request that holds `token` now, or held it last.
    pub fn token_holder(&self, token: &ProgressToken) -> Option<RequestView<'_>> {
        if let Some(id) = self.active_tokens.get(token) {
            return self.open.get(id).map(Request::view);
        }
        let (token, id) = self.released_tokens.get_key_value(token)?;
        match self.open.get(id) {
            Some(open) if open.token.as_ref() == Some(token) => Some(open.view()),
            _ => self
                .answered
                .get_key_value(id)
                .map(|(id, a)| a.view(id, Some(token))),
        }
    }

    fn note_read(&mut self, request_stream: Option<Box<str>>, request_seq: u64) {
        let upto = self.read_upto.entry(request_stream).or_insert(0);
        *upto = (*upto).max(request_seq);
    }

    fn release_token(&mut self, id: &RequestId, token: Option<&ProgressToken>) {
        let Some(token) = token else { return };
        // Only the request that holds the token may release it: a token
        // reused by a later request stays with that request.
        if self.active_tokens.get(token) == Some(id) {
            self.active_tokens.remove(token);
            self.released_tokens.insert(token.clone(), id.clone());
        }
    }
}

#[derive(Debug, Default)]
pub struct Lifecycle {
    /// The client's initialize request.
    pub initialize: Option<(RequestId, Location)>,
    /// The server's answer to it, and whether it succeeded.
    pub initialize_response: Option<(Location, bool)>,
    /// The client's `notifications/initialized`.
    pub initialized: Option<Location>,
}

#[derive(Debug)]
pub struct Session {
    pub source: u32,
    pub name: Option<Box<str>>,
    pub era: Era,
    /// Whether the trace holds the start of the session (it opens with
    /// `initialize` or `server/discover`). When it does not, ids and tokens
    /// issued before the excerpt are unknown, not absent.
    pub complete: bool,
    pub lifecycle: Lifecycle,
    /// The protocol version of the initialize result (or of the last
    /// 2026-07-28 request).
    pub version: Option<Box<str>>,
    /// Messages seen so far; a message's position in the session's order.
    pub messages: u64,
    /// HTTP streams that ended before their exchange did, by stream name.
    pub aborted_streams: HashMap<Box<str>, Location>,
    /// HTTP streams (exchanges) of the session, by stream name.
    pub streams: HashMap<Box<str>, StreamInfo>,
    /// Ids of bare requests whose sender could not be inferred; their
    /// responses are part of the same reported ambiguity.
    pub ambiguous_requests: HashSet<RequestId>,
    /// Ids of bare responses whose sender could not be inferred: the
    /// request they answer is unknown, so none of those may be called unanswered.
    pub ambiguous_responses: HashSet<RequestId>,
    sides: [Registry; 2],
}

impl Session {
    pub fn new(source: u32, name: Option<Box<str>>) -> Self {
        Session {
            source,
            name,
            era: Era::Unknown,
            complete: false,
            lifecycle: Lifecycle::default(),
            version: None,
            messages: 0,
            aborted_streams: HashMap::default(),
            streams: HashMap::default(),
            ambiguous_requests: HashSet::default(),
            ambiguous_responses: HashSet::default(),
            sides: Default::default(),
        }
    }

    /// What `side` issued and has read.
    pub fn side(&self, side: Side) -> &Registry {
        &self.sides[side.index()]
    }

    fn side_mut(&mut self, side: Side) -> &mut Registry {
        &mut self.sides[side.index()]
    }

    /// Whether the trace proves that `receiver` had read `cancel` before its
    /// current message: it had already answered a message its peer sent after
    /// the cancellation on the same ordered stream.
    pub fn cancel_reached(&self, receiver: Side, cancel: &Cancel) -> bool {
        self.side(receiver)
            .read_upto
            .get(&cancel.stream)
            .is_some_and(|upto| *upto > cancel.seq)
    }

    /// Whether rules about the handshake apply to this session.
    pub fn has_handshake(&self) -> bool {
        self.era == Era::Legacy && self.complete
    }

    /// An error with a null id answers one unreadable message `side` sent.
    pub(crate) fn consume_unreadable(&mut self, side: Side) -> bool {
        self.side_mut(side).unreadable.consume()
    }

    pub(crate) fn note_closed(&mut self, from: Side, location: Location) {
        self.side_mut(from).closed = Some(location);
    }

    /// Applies a message after the rules have seen it.
    pub(crate) fn apply(
        &mut self,
        from: Side,
        message: &Message,
        location: Location,
        stream: Option<&str>,
        transition: &Transition,
    ) {
        let seq = self.messages;
        self.messages += 1;
        if seq == 0 {
            self.complete = matches!(message.method(), Some("initialize" | "server/discover"))
                && matches!(message.body, Body::Request { .. });
        }
        match &message.body {
            Body::Request { id, method, params } => {
                if let Some(version) = &params.meta_protocol_version {
                    if self.era == Era::Unknown {
                        self.era = Era::Modern;
                    }
                    self.version = Some(version.clone());
                }
                if method == "server/discover" && self.era == Era::Unknown {
                    self.era = Era::Modern;
                }
                let KeyField::Valid(id) = id else {
                    self.side_mut(from).unreadable.note(location);
                    return;
                };
                if method.starts_with("notifications/") {
                    self.side_mut(from)
                        .id_notifications
                        .insert(id.clone(), location);
                    return;
                }
                if method == "initialize" && from == Side::Client {
                    if self.era == Era::Unknown {
                        self.era = Era::Legacy;
                    }
                    // The first initialize, or a retry after a failed one.
                    let failed = matches!(self.lifecycle.initialize_response, Some((_, false)));
                    if self.lifecycle.initialize.is_none() || failed {
                        self.lifecycle.initialize = Some((id.clone(), location));
                        self.lifecycle.initialize_response = None;
                    }
                }
                let token = match &params.meta_progress_token {
                    Some(KeyField::Valid(token)) => Some(token.clone()),
                    _ => None,
                };
                let registry = self.side_mut(from);
                let unanswered_copies = registry
                    .open
                    .get(id)
                    .map_or(0, |earlier| earlier.unanswered_copies + 1);
                if let Some(token) = &token {
                    registry.active_tokens.insert(token.clone(), id.clone());
                    registry.released_tokens.remove(token);
                }
                registry.open.insert(
                    id.clone(),
                    Request {
                        id: id.clone(),
                        method: method.clone(),
                        location,
                        seq,
                        token,
                        state: RequestState::Running,
                        cancel: None,
                        last_progress: None,
                        last_progress_stream: None,
                        stream: stream.map(Into::into),
                        unanswered_copies,
                    },
                );
            }
            Body::Notification { method, params } => match transition {
                Transition::Cancel(id) => {
                    let registry = self.side_mut(from);
                    let Some(request) = registry.open.get_mut(id) else {
                        return;
                    };
                    request.state = RequestState::CancelRequested;
                    request.cancel = Some(Box::new(Cancel {
                        location,
                        seq,
                        stream: stream.map(Into::into),
                    }));
                    let token = request.token.clone();
                    registry.release_token(id, token.as_ref());
                }
                Transition::Progress(id) => {
                    let Some(request) = self.sides[from.peer().index()].open.get_mut(id) else {
                        return;
                    };
                    let (request_seq, request_stream) = (request.seq, request.stream.clone());
                    if let crate::event::NumberField::Number(value) = params.progress {
                        request.last_progress = Some((value, location));
                        request.last_progress_stream = stream.map(Into::into);
                    }
                    self.side_mut(from).note_read(request_stream, request_seq);
                }
                _ if method == "notifications/initialized" && from == Side::Client => {
                    self.lifecycle.initialized.get_or_insert(location);
                }
                _ => {}
            },
            Body::Response { outcome, .. } => match transition {
                Transition::Answer(id) => self.answer(from, id, location, stream, outcome),
                // A rejection answers every request of the rejected body.
                Transition::Reject(ids) => {
                    for id in ids {
                        self.answer(from, id, location, stream, outcome);
                    }
                }
                _ => {}
            },
            Body::Unclassifiable => {}
        }
    }

    /// `from` answers the peer's open request `id`.
    fn answer(
        &mut self,
        from: Side,
        id: &RequestId,
        location: Location,
        stream: Option<&str>,
        outcome: &Outcome,
    ) {
        let is_initialize = from == Side::Server
            && self
                .lifecycle
                .initialize
                .as_ref()
                .is_some_and(|(init, _)| init == id);
        let requester = self.side_mut(from.peer());
        let Some(request) = requester.open.get_mut(id) else {
            return;
        };
        let (request_seq, request_stream) = (request.seq, request.stream.clone());
        if request.unanswered_copies > 0 {
            // The answer to an earlier request that reused this id.
            request.unanswered_copies -= 1;
        } else if let Some(request) = requester.open.remove(id) {
            requester.release_token(id, request.token.as_ref());
            requester.answered.insert(
                id.clone(),
                Answered {
                    method: request.method,
                    location: request.location,
                    response: location,
                    response_stream: stream.map(Into::into),
                    cancel: request.cancel,
                },
            );
        }
        self.side_mut(from).note_read(request_stream, request_seq);
        if is_initialize && self.lifecycle.initialize_response.is_none() {
            let ok = matches!(outcome, Outcome::Result { .. });
            self.lifecycle.initialize_response = Some((location, ok));
            if let Outcome::Result {
                protocol_version: Some(version),
            } = outcome
            {
                self.version = Some(version.clone());
            }
        }
    }
}
