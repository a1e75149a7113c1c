//! Requests and ids, progress tokens and cancellations, per direction: what
//! one side has issued, and how far it has provably read the other side.

use foldhash::HashMap;

use crate::event::{Location, Method, ProgressToken, RequestId};

use super::answered::{IdBook, ReleasedTokens};
use super::cold::{ColdMap, Record};
use super::id_queue::IdQueue;
use super::lazy::Lazy;
use super::operations::{InputRound, ModernRequest, OperationKey};
use super::retired::RetiredRequests;
use crate::packed::{Packer, Unpacker};

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

    /// The latest one, if some are left after `answered` of them were.
    pub fn last_after(&self, answered: u32) -> Option<Location> {
        self.last.filter(|_| self.pending > answered)
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

/// How many running requests of one side of one session are followed at
/// once (`--max-open-requests`), and separately how many cancelled ones that
/// may still be answered: a hostile trace that opens (or cancels) millions
/// of requests and never answers them cannot exhaust memory. An open
/// request takes about 256 bytes, so this bounds a side at about 50 MB.
pub const DEFAULT_MAX_OPEN_REQUESTS: usize = 100_000;

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
    /// The receiver ended the request itself, as its method allows (a
    /// 2026-07-28 server ending a `subscriptions/listen`).
    pub by_receiver: bool,
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
    /// Whether the id was reused while an earlier request with it was open.
    /// Until the last of them is answered, no answer says which one it
    /// ended, so progress on any of their tokens is ambiguous.
    pub shares_id: bool,
    /// The tokens of those earlier requests.
    pub earlier_tokens: Vec<ProgressToken>,
    /// How many of this request and those earlier ones carry a token of
    /// the wrong type (so that progress may repeat it).
    pub invalid_tokens: u32,
    /// The revision a 2026-07-28 request named: its answer is read in it,
    /// whatever the session's own version (one endpoint may serve both eras).
    pub named_version: Option<crate::protocol::Version>,
    /// What a 2026-07-28 request declared.
    pub modern: Option<Box<ModernRequest>>,
}

/// An answered request, kept until the session ends: enough to name it in
/// findings about reused ids, duplicate answers and late messages, in 40
/// bytes (the request's method as a number, the request's and the
/// response's lines; an integer id in sequence is not stored, see
/// [`IdBook`]); what few requests have (an unknown method, a cancellation,
/// a response stream) is kept beside it, in [`AnsweredExtras`].
#[derive(Debug, Clone, Copy)]
pub struct Answered {
    request: Spot,
    response: Spot,
    /// The method's number in the method table; `None` for a method it does not know.
    method: Option<u16>,
}

/// What only some answered requests have.
#[derive(Debug, Clone, Default)]
pub struct AnsweredExtras {
    /// The method, when the method table does not know it.
    method: Option<Box<str>>,
    /// The stream the response travelled on, if the trace names streams.
    response_stream: Option<Box<str>>,
    cancel: Option<Box<Cancel>>,
}

/// Written as the request's spot, the response's and the method's number
/// (`u16::MAX` for none).
impl super::answered::Slot for Answered {
    const BYTES: usize = 34;

    fn put(&self, into: &mut [u8]) {
        let spots = [self.request, self.response];
        let numbers = spots
            .iter()
            .flat_map(|spot| [spot.offset, spot.line_and_len]);
        for (bytes, number) in into.chunks_exact_mut(8).zip(numbers) {
            bytes.copy_from_slice(&number.to_le_bytes());
        }
        let method = self.method.unwrap_or(u16::MAX);
        into[32..34].copy_from_slice(&method.to_le_bytes());
    }

    fn take(from: &[u8]) -> Self {
        let number =
            |at: usize| u64::from_le_bytes(from[at..at + 8].try_into().unwrap_or_default());
        let method = u16::from_le_bytes([from[32], from[33]]);
        Answered {
            request: Spot {
                offset: number(0),
                line_and_len: number(8),
            },
            response: Spot {
                offset: number(16),
                line_and_len: number(24),
            },
            method: (method != u16::MAX).then_some(method),
        }
    }
}

impl Cancel {
    pub(super) fn pack(&self, packer: &mut Packer) {
        packer.location(&self.location);
        packer.uint(self.seq);
        packer.optional_text(self.stream.as_deref());
        packer.byte(self.by_receiver.into());
    }

    pub(super) fn unpack(unpacker: &mut Unpacker) -> Cancel {
        Cancel {
            location: unpacker.location(),
            seq: unpacker.uint(),
            stream: unpacker.optional_text(),
            by_receiver: unpacker.byte() != 0,
        }
    }
}

impl Record for AnsweredExtras {
    fn pack(&self, packer: &mut Packer) {
        packer.optional_text(self.method.as_deref());
        packer.optional_text(self.response_stream.as_deref());
        packer.byte(self.cancel.is_some().into());
        self.cancel.iter().for_each(|cancel| cancel.pack(packer));
    }

    fn unpack(unpacker: &mut Unpacker) -> Self {
        AnsweredExtras {
            method: unpacker.optional_text(),
            response_stream: unpacker.optional_text(),
            cancel: (unpacker.byte() != 0).then(|| Box::new(Cancel::unpack(unpacker))),
        }
    }
}

/// A line of a session's input in 16 bytes: where it starts, its number (40
/// bits) and its length (24 bits: a longer line is quoted only in part).
#[derive(Debug, Clone, Copy)]
pub(super) struct Spot {
    offset: u64,
    line_and_len: u64,
}

impl Spot {
    const LEN_BITS: u32 = 24;
    const MAX_LEN: u64 = (1 << Self::LEN_BITS) - 1;
    const MAX_LINE: u64 = (1 << (64 - Self::LEN_BITS)) - 1;

    pub(super) fn of(location: Location) -> Spot {
        let len = u64::from(location.len).min(Self::MAX_LEN);
        let line = location.line.min(Self::MAX_LINE);
        Spot {
            offset: location.offset,
            line_and_len: line << Self::LEN_BITS | len,
        }
    }

    pub(super) fn pack(self, packer: &mut Packer) {
        packer.uint(self.offset);
        packer.uint(self.line_and_len);
    }

    pub(super) fn unpack(unpacker: &mut Unpacker) -> Spot {
        Spot {
            offset: unpacker.uint(),
            line_and_len: unpacker.uint(),
        }
    }

    pub(super) fn at(self, source: u32) -> Location {
        Location {
            source,
            line: self.line_and_len >> Self::LEN_BITS,
            offset: self.offset,
            len: (self.line_and_len & Self::MAX_LEN) as u32,
        }
    }
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
    /// The revision the request named, if it named one (open requests only).
    pub named_version: Option<crate::protocol::Version>,
    /// What a 2026-07-28 request declared (open requests only).
    pub modern: Option<&'s ModernRequest>,
}

impl RequestView<'_> {
    pub fn is_outstanding(&self) -> bool {
        self.state != RequestState::Completed
    }
}

impl Request {
    /// A running request with nothing beyond its id, method and place.
    pub fn new(id: RequestId, method: Method, location: Location, seq: u64) -> Request {
        Request {
            id,
            method,
            location,
            seq,
            token: None,
            state: RequestState::Running,
            cancel: None,
            last_progress: None,
            last_progress_stream: None,
            stream: None,
            unanswered_copies: 0,
            shares_id: false,
            earlier_tokens: Vec::new(),
            invalid_tokens: 0,
            named_version: None,
            modern: None,
        }
    }

    /// Every token this request (and the earlier ones with its id) carries.
    fn tokens(&self) -> impl Iterator<Item = &ProgressToken> {
        self.token.iter().chain(&self.earlier_tokens)
    }

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
            // With a shared id, which request (and stream) a message
            // belongs to is unknown.
            stream: self.stream.as_deref().filter(|_| !self.shares_id),
            named_version: self.named_version,
            modern: self.modern.as_deref(),
        }
    }

    /// The operation a 2026-07-28 request belongs to.
    pub fn operation(&self) -> OperationKey {
        let target = self.modern.as_ref().and_then(|m| m.target.clone());
        (self.method.clone(), target)
    }
}

impl Answered {
    fn view<'s>(
        &self,
        id: &'s RequestId,
        token: Option<&'s ProgressToken>,
        extras: Option<&'s AnsweredExtras>,
        source: u32,
    ) -> RequestView<'s> {
        let method = self.method.and_then(crate::protocol::methods::name_at);
        let unknown_method = extras.and_then(|e| e.method.as_deref());
        RequestView {
            id,
            method: method.or(unknown_method).unwrap_or_default(),
            location: self.request.at(source),
            state: RequestState::Completed,
            token,
            cancel: extras.and_then(|e| e.cancel.as_deref()),
            response: Some(self.response.at(source)),
            response_stream: extras.and_then(|e| e.response_stream.as_deref()),
            last_progress: None,
            last_progress_stream: None,
            stream: None,
            named_version: None,
            modern: None,
        }
    }
}

/// What one side has sent: its requests and tokens, and how far it has
/// provably read the other side's messages.
#[derive(Debug, Default)]
pub struct Registry {
    /// This side's requests that are not answered yet, by id. Boxed: the
    /// table then grows in steps of a few megabytes, not of hundreds.
    pub open: HashMap<RequestId, Box<Request>>,
    /// This side's cancelled requests never answered, past the latest few
    /// thousand, in compact form (counted in `cancelled_open`).
    retired: Lazy<RetiredRequests>,
    /// This side's answered requests, by id.
    answered: Lazy<IdBook<Answered>>,
    /// What some of them have beyond [`Answered`].
    answered_extras: Lazy<ColdMap<AnsweredExtras>>,
    /// The input the session is in (every location of it names that input).
    source: u32,
    /// The most requests of this side followed at once; `None` for
    /// [`DEFAULT_MAX_OPEN_REQUESTS`].
    pub(crate) max_open: Option<usize>,
    /// The first request of this side that was not followed because as many
    /// were open as it follows, and how many such requests there were:
    /// answers, cancellations and progress that name no known request may
    /// be theirs.
    pub untracked: Option<(Location, u64)>,
    /// This side's cancelled requests still in `open` (a late answer may
    /// come), oldest cancellation first; ids answered since are skipped.
    cancelled: Lazy<IdQueue>,
    /// How many requests in `open` are cancelled ones: they do not count
    /// against the running requests followed.
    cancelled_open: usize,
    /// The first cancelled request forgotten because as many cancelled
    /// requests were waiting as are followed, and how many were forgotten:
    /// answers and progress that name no known request may be theirs.
    pub forgotten: Option<(Location, u64)>,
    /// Tokens of this side's running requests; for a token several carry,
    /// the latest of them.
    pub active_tokens: HashMap<ProgressToken, RequestId>,
    /// For a token reused while active: the other open requests that carry
    /// it (running, or cancelled and not answered, whose progress may still
    /// cross the cancellation). Progress on it may be any of theirs, so
    /// nothing follows from it until only one of them is left.
    pub shared_tokens: HashMap<ProgressToken, Vec<RequestId>>,
    /// Running requests whose token is of the wrong type: while there are
    /// any, progress with such a token repeats theirs.
    pub invalid_token_requests: u32,
    /// For a token no longer active: the last request that carried it (for
    /// the latest released tokens only).
    released_tokens: Lazy<ReleasedTokens>,
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
    /// This side's 2026-07-28 operations the peer answered with an
    /// `InputRequiredResult`, waiting for their retry, oldest first (two
    /// calls of one tool may wait at once).
    pub awaiting_input: HashMap<OperationKey, Vec<InputRound>>,
}

impl Registry {
    /// The request with this id: the open one, or else the answered one.
    pub fn request<'s>(&'s self, id: &'s RequestId) -> Option<RequestView<'s>> {
        match self.open.get(id) {
            Some(open) => Some(open.view()),
            None => self
                .retired_view(id, None)
                .or_else(|| self.answered_view(id, None)),
        }
    }

    /// The retired request with this id, found by `token` when one is given.
    fn retired_view<'s>(
        &'s self,
        id: &'s RequestId,
        token: Option<&ProgressToken>,
    ) -> Option<RequestView<'s>> {
        let retired = self.retired.existing()?.get(id)?;
        let held = token.is_none_or(|token| retired.token() == Some(token));
        held.then(|| retired.view(id, self.source))
    }

    /// The method of this side's request `id` not answered yet.
    pub fn open_method(&self, id: &RequestId) -> Option<Method> {
        match self.open.get(id) {
            Some(request) => Some(request.method.clone()),
            None => (self.retired.existing()?.get(id)).map(|r| Method::Borrowed(r.method())),
        }
    }

    /// The last progress the peer sent for this side's request `id` not
    /// answered yet.
    pub fn last_progress(&self, id: &RequestId) -> Option<(f64, Location)> {
        match self.open.get(id) {
            Some(request) => request.last_progress,
            None => self.retired_view(id, None)?.last_progress,
        }
    }

    /// How many requests of this side are not answered yet: running, or
    /// cancelled and still followed.
    pub fn outstanding(&self) -> usize {
        self.open.len() + self.retired.existing().map_or(0, RetiredRequests::len)
    }

    fn answered_view<'s>(
        &'s self,
        id: &'s RequestId,
        token: Option<&'s ProgressToken>,
    ) -> Option<RequestView<'s>> {
        let answered = self.answered.existing()?.get(id)?;
        let extras = self
            .answered_extras
            .existing()
            .and_then(|extras| extras.get(id));
        Some(answered.view(id, token, extras, self.source))
    }

    /// This side's requests not answered yet, in no particular order.
    pub fn open_requests(&self) -> impl Iterator<Item = &Request> {
        self.open.values().map(|request| &**request)
    }

    /// The request that holds `token` now, or held it last.
    pub fn token_holder(&self, token: &ProgressToken) -> Option<RequestView<'_>> {
        if let Some(id) = self.active_tokens.get(token) {
            return self.open.get(id).map(|request| request.view());
        }
        let (token, id) = self.released_tokens.existing()?.get_key_value(token)?;
        match self.open.get(id) {
            Some(open) if open.token.as_ref() == Some(token) => Some(open.view()),
            _ => self
                .retired_view(id, Some(token))
                .or_else(|| self.answered_view(id, Some(token))),
        }
    }

    pub(crate) fn note_read(&mut self, request_stream: Option<Box<str>>, request_seq: u64) {
        let upto = self.read_upto.entry(request_stream).or_insert(0);
        *upto = (*upto).max(request_seq);
    }

    /// Request `id` gives up `token`: it was answered, or (`cancelled`) its
    /// requester cancelled it, after which its progress may still cross the
    /// cancellation until it is answered.
    fn release_token(&mut self, id: &RequestId, token: &ProgressToken, cancelled: bool) {
        if self.active_tokens.get(token) != Some(id) {
            // A sharer, or a token a later request took over: it stays with it.
            if !cancelled {
                self.drop_sharer(token, id);
            }
            return;
        }
        // Shared with a running request: the token is that one's now.
        match self.running_sharer(token) {
            Some(next) => self.active_tokens.insert(token.clone(), next),
            None => self.active_tokens.remove(token),
        };
        let free = !self.active_tokens.contains_key(token);
        match (cancelled, free) {
            (true, false) => self.share(token, id.clone()),
            (true, true) => {
                self.released_tokens
                    .make()
                    .insert(token.clone(), id.clone());
            }
            (false, true) => {
                // Later progress is a cancelled sharer's crossing, if any is left.
                let last = self
                    .shared_tokens
                    .get(token)
                    .and_then(|sharers| sharers.last())
                    .unwrap_or(id)
                    .clone();
                self.released_tokens.make().insert(token.clone(), last);
            }
            (false, false) => {}
        }
    }

    /// Request `id` takes `token`. It shares it with a running request
    /// that still holds it (a reuse), and with a cancelled one that is not
    /// answered yet: the token was free to reuse, but that request's
    /// progress may still cross its cancellation.
    fn take_token(&mut self, token: &ProgressToken, id: &RequestId) {
        let holder = self.active_tokens.insert(token.clone(), id.clone());
        let released = self.released_tokens.existing_mut();
        let cancelled = released.and_then(|r| r.remove(token)).filter(|last| {
            let open = self.open.get(last).is_some_and(|r| {
                r.state == RequestState::CancelRequested && r.token.as_ref() == Some(token)
            });
            open || self.retired_view(last, Some(token)).is_some()
        });
        if cancelled.is_some() {
            // Only the latest cancelled one's progress is still likely in
            // flight; the list stays as short as the running requests.
            let open = &self.open;
            if let Some(sharers) = self.shared_tokens.get_mut(token) {
                sharers.retain(|s| {
                    open.get(s)
                        .is_some_and(|r| r.state == RequestState::Running)
                });
            }
        }
        for other in holder.into_iter().chain(cancelled) {
            if &other != id {
                self.share(token, other);
            }
        }
    }

    fn share(&mut self, token: &ProgressToken, other: RequestId) {
        let sharers = self.shared_tokens.entry(token.clone()).or_default();
        if !sharers.contains(&other) {
            sharers.push(other);
        }
    }

    /// Takes a still running request out of the sharers of `token`.
    fn running_sharer(&mut self, token: &ProgressToken) -> Option<RequestId> {
        let sharers = self.shared_tokens.get_mut(token)?;
        let open = &self.open;
        let at = sharers.iter().rposition(|sharer| {
            open.get(sharer)
                .is_some_and(|r| r.state == RequestState::Running)
        })?;
        let next = sharers.remove(at);
        if sharers.is_empty() {
            self.shared_tokens.remove(token);
        }
        Some(next)
    }

    fn drop_sharer(&mut self, token: &ProgressToken, id: &RequestId) {
        if let Some(sharers) = self.shared_tokens.get_mut(token) {
            sharers.retain(|sharer| sharer != id);
            if sharers.is_empty() {
                self.shared_tokens.remove(token);
            }
        }
    }

    fn release_tokens(&mut self, request: &Request) {
        for token in request.tokens() {
            self.release_token(&request.id, token, false);
        }
        self.invalid_token_requests = self
            .invalid_token_requests
            .saturating_sub(request.invalid_tokens);
    }
}

impl Registry {
    /// This side sent a request with a valid id, at position `seq`.
    pub(crate) fn open(&mut self, request: Request) {
        self.source = request.location.source;
        self.restore(&request.id);
        if self.is_full_for(&request.id) {
            let untracked = self.untracked.get_or_insert((request.location, 0));
            untracked.1 += 1;
            return;
        }
        let id = request.id.clone();
        let earlier = self.open.get(&id);
        let unanswered_copies = earlier.map_or(0, |earlier| earlier.unanswered_copies + 1);
        let earlier_tokens = earlier.map_or_else(Vec::new, |e| e.tokens().cloned().collect());
        self.invalid_token_requests += request.invalid_tokens;
        let invalid_tokens = request.invalid_tokens + earlier.map_or(0, |e| e.invalid_tokens);
        let shares_id = earlier.is_some();
        if let Some(token) = &request.token {
            self.take_token(token, &id);
        }
        if self.is_cancelled_open(&id) {
            // Replaced by the reuse, which is running.
            self.cancelled_open -= 1;
        }
        self.open.insert(
            id,
            Box::new(Request {
                unanswered_copies,
                shares_id,
                earlier_tokens,
                invalid_tokens,
                ..request
            }),
        );
    }

    /// Whether a new request with this id would be one more than this side
    /// may have running and followed at once.
    pub fn is_full_for(&self, id: &RequestId) -> bool {
        let running = self.outstanding().saturating_sub(self.cancelled_open);
        running >= self.max_open() && !self.open.contains_key(id)
    }

    /// Whether cancelling one more request would make this side forget its
    /// oldest cancelled one.
    pub fn is_full_of_cancelled(&self) -> bool {
        self.cancelled_open >= self.max_open()
    }

    /// Whether every request of this side is followed: none was left out
    /// past the limits, so a message naming no known request is a finding.
    pub fn follows_all(&self) -> bool {
        self.untracked.is_none() && self.forgotten.is_none()
    }

    /// The most requests of this side followed at once.
    pub fn max_open(&self) -> usize {
        self.max_open.unwrap_or(DEFAULT_MAX_OPEN_REQUESTS)
    }

    /// This side cancelled its running request `id`.
    pub(crate) fn cancel(&mut self, id: &RequestId, cancel: Cancel) {
        self.restore(id);
        let Some(request) = self.open.get_mut(id) else {
            return;
        };
        let was_running = request.state == RequestState::Running;
        if was_running {
            self.cancelled_open += 1;
            self.cancelled.make().push_back(id.clone());
        }
        request.state = RequestState::CancelRequested;
        request.cancel = Some(Box::new(cancel));
        let tokens: Vec<ProgressToken> = request.tokens().cloned().collect();
        // Counted out once: the answer that may follow takes nothing more.
        let invalid = std::mem::take(&mut request.invalid_tokens);
        for token in &tokens {
            self.release_token(id, token, true);
        }
        self.invalid_token_requests = self.invalid_token_requests.saturating_sub(invalid);
        if was_running {
            self.retired.make().note_cancelled(id, &mut self.open);
        }
        self.forget_oldest_cancelled();
    }

    /// Brings the retired request `id`, if there is one, back whole into
    /// `open`, before a message changes it.
    fn restore(&mut self, id: &RequestId) {
        if let Some(retired) = self.retired.existing_mut() {
            retired.restore(id, self.source, &mut self.open);
        }
    }

    /// Past the limit of cancelled requests followed, forgets the oldest;
    /// and drops the ids of those answered since, once they are most of
    /// the queue.
    fn forget_oldest_cancelled(&mut self) {
        while self.cancelled_open > self.max_open() {
            let Some(id) = self.cancelled.existing_mut().and_then(IdQueue::pop_front) else {
                break;
            };
            self.restore(&id);
            if !self.is_cancelled_open(&id) {
                continue;
            }
            if let Some(request) = self.open.remove(&id) {
                self.cancelled_open -= 1;
                for token in request.tokens() {
                    self.drop_sharer(token, &id);
                    if let Some(released) = self.released_tokens.existing_mut() {
                        released.remove_if_held_by(token, &id);
                    }
                }
                self.forgotten.get_or_insert((request.location, 0)).1 += 1;
            }
        }
        let Some(cancelled) = self.cancelled.existing_mut() else {
            return;
        };
        if cancelled.len() > 2 * self.cancelled_open + 64 {
            let (open, retired) = (&self.open, self.retired.existing());
            cancelled
                .retain(|id| is_cancelled_in(open, id) || retired.is_some_and(|r| r.contains(id)));
        }
    }

    fn is_cancelled_open(&self, id: &RequestId) -> bool {
        is_cancelled_in(&self.open, id) || self.retired.existing().is_some_and(|r| r.contains(id))
    }

    /// `request` left `open`, answered.
    fn note_leaving(&mut self, request: &Request) {
        if request.state == RequestState::CancelRequested {
            self.cancelled_open = self.cancelled_open.saturating_sub(1);
        }
    }

    /// The peer answered this side's request `id`; returns where the request
    /// was (its stream and position), to note what the peer had read. An
    /// answer to a shared id proves nothing: it may be the earlier request's.
    pub(crate) fn answer(
        &mut self,
        id: &RequestId,
        response: Location,
        response_stream: Option<&str>,
    ) -> Option<(Option<Box<str>>, u64)> {
        self.restore(id);
        let request = self.open.get_mut(id)?;
        let read = (!request.shares_id).then(|| (request.stream.clone(), request.seq));
        if request.unanswered_copies > 0 {
            // The answer to an earlier request that reused this id.
            request.unanswered_copies -= 1;
        } else if let Some(request) = self.open.remove(id) {
            self.note_leaving(&request);
            self.release_tokens(&request);
            self.remember_answered(*request, response, response_stream);
        }
        read
    }

    fn remember_answered(&mut self, request: Request, response: Location, stream: Option<&str>) {
        let method = crate::protocol::methods::name_index(&request.method);
        let extras = AnsweredExtras {
            method: method.is_none().then(|| request.method.as_ref().into()),
            response_stream: stream.map(Into::into),
            cancel: request.cancel,
        };
        let answered = Answered {
            request: Spot::of(request.location),
            response: Spot::of(response),
            method,
        };
        let has_extras =
            extras.method.is_some() || extras.response_stream.is_some() || extras.cancel.is_some();
        match (has_extras, self.answered_extras.existing_mut()) {
            (true, _) => self
                .answered_extras
                .make()
                .insert(request.id.clone(), extras),
            (false, Some(earlier)) => earlier.remove(&request.id),
            (false, None) => {}
        }
        self.answered.make().insert(request.id, answered);
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
        self.restore(id);
        let request = self.open.get_mut(id)?;
        if let Some(value) = value {
            request.last_progress = Some((value, location));
            request.last_progress_stream = stream.map(Into::into);
        }
        Some((request.stream.clone(), request.seq))
    }
}

/// Whether `open` holds a request with this id that its requester cancelled.
fn is_cancelled_in(open: &HashMap<RequestId, Box<Request>>, id: &RequestId) -> bool {
    open.get(id)
        .is_some_and(|r| r.state == RequestState::CancelRequested)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answered_request_fits_in_40_bytes_and_with_its_id_in_64() {
        assert!(std::mem::size_of::<Option<Answered>>() <= 40);
        assert!(std::mem::size_of::<(RequestId, Answered)>() <= 64);
    }

    #[test]
    fn an_answered_request_reads_back_as_written() {
        use super::super::answered::Slot;
        let spot = |line| {
            Spot::of(Location {
                source: 0,
                line,
                offset: line * 9,
                len: 7,
            })
        };
        for method in [Some(0), Some(41), None] {
            let answered = Answered {
                request: spot(3),
                response: spot(1 << 39),
                method,
            };
            let mut bytes = [0; Answered::BYTES];
            answered.put(&mut bytes);
            let back = Answered::take(&bytes);
            assert_eq!(format!("{back:?}"), format!("{answered:?}"));
        }
    }

    #[test]
    fn a_spot_gives_back_its_location() {
        let location = Location {
            source: 3,
            line: 5_000_000_000,
            offset: 1 << 40,
            len: 70_000,
        };
        assert_eq!(Spot::of(location).at(3), location);
        let long = Location {
            len: u32::MAX,
            ..location
        };
        assert_eq!(Spot::of(long).at(3).len, (1 << 24) - 1);
    }

    fn at(line: u64) -> Location {
        Location {
            source: 1,
            line,
            offset: line * 10,
            len: 9,
        }
    }

    /// A running request of `method` with integer id `id`, at line `id`.
    fn request(id: i64, method: &str) -> Request {
        let id_key = RequestId(crate::event::Key::Int(id));
        Request::new(id_key, method.to_string().into(), at(id as u64), id as u64)
    }

    fn cancel_at(line: u64) -> Cancel {
        Cancel {
            location: at(line),
            seq: line,
            stream: None,
            by_receiver: false,
        }
    }

    #[test]
    fn cancelled_requests_answered_later_leave_no_trace_in_the_queue() {
        let mut registry = Registry::default();
        for id in 0..10_000 {
            let key = RequestId(crate::event::Key::Int(id));
            registry.open(request(id, "tools/call"));
            registry.cancel(&key, cancel_at(id as u64));
            registry.answer(&key, at(id as u64), None);
        }
        assert_eq!(registry.cancelled_open, 0);
        // Stale ids are dropped once they outnumber twice the live ones (one
        // at each cancellation) by 64.
        assert!(
            registry.cancelled.existing().unwrap().len() <= 66,
            "{}",
            registry.cancelled.existing().unwrap().len()
        );
        assert!(registry.open.is_empty() && registry.follows_all());
    }

    #[test]
    fn past_the_limit_the_oldest_cancelled_request_is_forgotten() {
        let mut registry = Registry {
            max_open: Some(2),
            ..Registry::default()
        };
        for id in 1..=3 {
            registry.open(request(id, "ping"));
            registry.cancel(
                &RequestId(crate::event::Key::Int(id)),
                cancel_at(10 + id as u64),
            );
        }
        // Three cancelled, none running: nothing is full for a new request.
        assert!(!registry.is_full_for(&RequestId(crate::event::Key::Int(4))));
        let one = RequestId(crate::event::Key::Int(1));
        assert!(registry.request(&one).is_none());
        assert_eq!(registry.forgotten, Some((at(1), 1)));
        assert!(!registry.follows_all());
        assert_eq!(registry.open.len(), 2);
    }

    #[test]
    fn an_answered_request_keeps_its_method_cancel_and_stream() {
        let mut registry = Registry::default();
        for (id, method) in [(1, "tools/call"), (2, "x/unknown")] {
            registry.open(request(id, method));
        }
        let cancel = Cancel {
            location: at(3),
            seq: 3,
            stream: None,
            by_receiver: false,
        };
        let two = RequestId(crate::event::Key::Int(2));
        registry.cancel(&two, cancel);
        registry.answer(&RequestId(crate::event::Key::Int(1)), at(4), None);
        registry.answer(&two, at(5), Some("s1"));
        let one = registry
            .request(&RequestId(crate::event::Key::Int(1)))
            .unwrap();
        assert_eq!(
            (one.method, one.location, one.response),
            ("tools/call", at(1), Some(at(4)))
        );
        assert!(one.cancel.is_none() && one.response_stream.is_none());
        let two = registry.request(&two).unwrap();
        assert_eq!((two.method, two.response_stream), ("x/unknown", Some("s1")));
        assert_eq!(two.cancel.map(|c| c.location), Some(at(3)));
    }
}
