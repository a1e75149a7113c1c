//! Requests and ids, progress tokens and cancellations, per direction: what
//! one side has issued, and how far it has provably read the other side.

use foldhash::HashMap;

use crate::event::{Location, Method, ProgressToken, RequestId};

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

    /// The latest one, answered or not.
    pub fn last_seen(&self) -> Option<Location> {
        self.last
    }

    /// One null-id error answered one of them.
    pub(crate) fn consume(&mut self) -> bool {
        let had = self.pending > 0;
        self.pending = self.pending.saturating_sub(1);
        had
    }
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
    /// The revision a 2026-07-28 request named: its answer is read in it,
    /// whatever the session's own version (one endpoint may serve both eras).
    pub named_version: Option<crate::protocol::Version>,
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
    /// A batch of requests or notifications this side sent that the other
    /// side has not answered anything since: a null-id error then may say
    /// the batch itself could not be read.
    pub unanswered_batch: Option<Location>,
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

    pub(crate) fn note_read(&mut self, request_stream: Option<Box<str>>, request_seq: u64) {
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

impl Registry {
    /// This side sent a request with a valid id, at position `seq`.
    pub(crate) fn open(&mut self, request: Request) {
        let id = request.id.clone();
        let unanswered_copies = self
            .open
            .get(&id)
            .map_or(0, |earlier| earlier.unanswered_copies + 1);
        if let Some(token) = &request.token {
            self.active_tokens.insert(token.clone(), id.clone());
            self.released_tokens.remove(token);
        }
        self.open.insert(
            id,
            Request {
                unanswered_copies,
                ..request
            },
        );
    }

    /// This side cancelled its running request `id`.
    pub(crate) fn cancel(&mut self, id: &RequestId, cancel: Cancel) {
        let Some(request) = self.open.get_mut(id) else {
            return;
        };
        request.state = RequestState::CancelRequested;
        request.cancel = Some(Box::new(cancel));
        let token = request.token.clone();
        self.release_token(id, token.as_ref());
    }

    /// The peer answered this side's request `id`; returns where the request
    /// was (its stream and position), to note what the peer had read.
    pub(crate) fn answer(
        &mut self,
        id: &RequestId,
        response: Location,
        response_stream: Option<&str>,
    ) -> Option<(Option<Box<str>>, u64)> {
        let request = self.open.get_mut(id)?;
        let read = (request.stream.clone(), request.seq);
        if request.unanswered_copies > 0 {
            // The answer to an earlier request that reused this id.
            request.unanswered_copies -= 1;
        } else if let Some(request) = self.open.remove(id) {
            self.release_token(id, request.token.as_ref());
            self.answered.insert(
                id.clone(),
                Answered {
                    method: request.method,
                    location: request.location,
                    response,
                    response_stream: response_stream.map(Into::into),
                    cancel: request.cancel,
                },
            );
        }
        Some(read)
    }

    /// The peer sent progress for this side's request `id`; returns where
    /// the request was, to note what the peer had read.
    pub(crate) fn progress(
        &mut self,
        id: &RequestId,
        value: Option<f64>,
        location: Location,
        stream: Option<&str>,
    ) -> Option<(Option<Box<str>>, u64)> {
        let request = self.open.get_mut(id)?;
        if let Some(value) = value {
            request.last_progress = Some((value, location));
            request.last_progress_stream = stream.map(Into::into);
        }
        Some((request.stream.clone(), request.seq))
    }
}
