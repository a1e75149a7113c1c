//! The state of one session, as trackers: the lifecycle (era, version,
//! handshake, capabilities), per direction the registry of requests, ids,
//! progress tokens and cancellations, the HTTP streams, the tasks, the
//! server's tools and its URL-mode elicitations.
//!
//! Only [`Session::apply`] changes it, after the rules have looked at an
//! event against the state before it; each tracker applies its own part.

use std::sync::Arc;

use foldhash::HashSet;

use crate::event::{
    Body, KeyField, Location, Message, Method, NumberField, Params, RequestId, Side,
};
use crate::protocol::{tasks, Era, Version, Versions};

use super::elicitations::Elicitations;
use super::facts::Transition;
use super::lifecycle::Lifecycle;
use super::operations::{InputRound, ModernRequest, ResultView, Served};
use super::requests::{Cancel, Registry, Request};
use super::streams::HttpStreams;
use super::subscriptions::Subscriptions;
use super::tasks::Tasks;
use super::tools::{Tools, ToolsRead};

/// Where a message is: its line, its place in the session, its stream.
#[derive(Clone, Copy)]
struct Position<'a> {
    location: Location,
    seq: u64,
    stream: Option<&'a str>,
}

#[derive(Debug)]
pub struct Session {
    pub source: u32,
    /// Shared with the session's findings.
    pub name: Option<Arc<str>>,
    /// Whether the trace holds the start of the session: it opens with
    /// `initialize` or `server/discover`, or only messages that refer to
    /// nothing before the trace come before its `initialize`. When it does not, ids and tokens issued
    /// before the excerpt are unknown, not absent.
    pub complete: bool,
    pub lifecycle: Lifecycle,
    pub http: HttpStreams,
    pub tasks: Tasks,
    /// The server's tools, as its `tools/list` results show them.
    pub tools: Tools,
    /// The 2026-07-28 listen streams.
    pub subscriptions: Subscriptions,
    /// How the server answered 2026-07-28 requests.
    pub served: Served,
    /// The URL-mode elicitations the server opened (2025-11-25).
    pub elicitations: Elicitations,
    /// Messages seen so far; a message's position in the session's order.
    pub messages: u64,
    /// Whether every message so far refers to nothing before the trace: a
    /// request, a notification that names no request or token, an answer,
    /// cancellation or progress of a request the trace holds.
    pub self_contained: bool,
    /// Ids of bare requests whose sender could not be inferred; their
    /// responses are part of the same reported ambiguity.
    pub ambiguous_requests: HashSet<RequestId>,
    /// Ids of bare responses whose sender could not be inferred: the
    /// request they answer is unknown, so none of those may be called unanswered.
    pub ambiguous_responses: HashSet<RequestId>,
    sides: [Registry; 2],
    /// When the session ends: the last line of its input that could not be
    /// read, wherever it was (an unreadable line names no session).
    pub unreadable_line: Option<Location>,
    /// How many of its input's unreadable lines null-id errors of this
    /// session have answered.
    pub(crate) answered_input_unreadable: u32,
    /// The timestamp of the session's last message that had one.
    pub last_time_ms: Option<f64>,
}

impl Session {
    /// A session of `source`; `version` is the one to assume until the
    /// trace shows another (`--protocol-version`).
    pub fn new(source: u32, name: Option<Arc<str>>, version: Option<Version>) -> Self {
        Session {
            source,
            name,
            complete: false,
            lifecycle: Lifecycle::assuming(version),
            http: HttpStreams::default(),
            tasks: Tasks::default(),
            tools: Tools::default(),
            subscriptions: Subscriptions::default(),
            served: Served::default(),
            elicitations: Elicitations::default(),
            messages: 0,
            self_contained: true,
            ambiguous_requests: HashSet::default(),
            ambiguous_responses: HashSet::default(),
            sides: Default::default(),
            unreadable_line: None,
            answered_input_unreadable: 0,
            last_time_ms: None,
        }
    }

    /// The protocol version, when known.
    pub fn version(&self) -> Option<Version> {
        self.lifecycle.version
    }

    pub fn era(&self) -> Option<Era> {
        self.lifecycle.era
    }

    /// What `side` issued and has read.
    /// Follows at most `max` open requests of each side (`None`: the default).
    pub(crate) fn follow_at_most(&mut self, max: Option<usize>) {
        for side in &mut self.sides {
            side.max_open = max;
        }
    }

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
        self.era() == Some(Era::Handshake) && self.complete
    }

    /// Every revision the session may speak, as far as the trace shows:
    /// the known version, else the era's revisions, narrowed by the transport.
    pub fn possible_versions(&self) -> Versions {
        let shown = match (self.version(), self.era()) {
            (Some(version), _) => Versions::only(version),
            (None, Some(era)) => era.versions(),
            (None, None) => Versions::ALL,
        };
        match shown.intersect(self.http.versions) {
            none if none.is_empty() => shown,
            narrowed => narrowed,
        }
    }

    /// An error with a null id answers one unreadable message `side` sent.
    pub(crate) fn consume_unreadable(&mut self, side: Side) -> bool {
        self.side_mut(side).unreadable.consume()
    }

    /// `from` closed its end; the first close is where it did (a client
    /// log may say so again as the connection winds down).
    pub(crate) fn note_closed(&mut self, from: Side, location: Location) {
        self.side_mut(from).closed.get_or_insert(location);
    }

    /// Applies a message after the rules have seen it.
    pub(crate) fn apply(
        &mut self,
        from: Side,
        message: &Message,
        location: Location,
        stream: Option<&str>,
        transition: &Transition,
        tools: ToolsRead,
    ) {
        let seq = self.next_position(message, transition);
        self.note_batch(from, message, location);
        if let Some(stream) = stream {
            self.http.note_message(from, message, stream);
        }
        let answered_id = match transition {
            Transition::Answer(id) => Some(id),
            // initialize is never batched: when a rejected body holds it,
            // it is the only request there.
            Transition::Reject(ids) => ids.first(),
            _ => None,
        };
        let answered_method = answered_id.and_then(|id| self.side(from.peer()).open_method(id));
        let answered = answered_id.zip(answered_method.as_deref());
        self.lifecycle.apply(from, message, location, answered);
        if !self
            .possible_versions()
            .intersect(tasks::FOLLOWED)
            .is_empty()
        {
            self.tasks.apply(from, message, location, stream, answered);
        }
        self.tools.apply(from, message, answered, tools);
        self.elicitations.apply(from, message, location);
        match (&message.body, transition) {
            (Body::Request { id, method, params }, transition) => {
                let at = Position {
                    location,
                    seq,
                    stream,
                };
                let modern = match transition {
                    Transition::Open(modern) => modern.clone(),
                    _ => None,
                };
                self.note_request(from, (id, method, params), modern, message, at)
            }
            (Body::Notification { .. }, Transition::Cancel(id) | Transition::End(id)) => {
                let by_receiver = matches!(transition, Transition::End(_));
                let cancel = Cancel {
                    location,
                    seq,
                    stream: stream.map(Into::into),
                    by_receiver,
                };
                let requester = if by_receiver { from.peer() } else { from };
                self.side_mut(requester).cancel(id, cancel);
                if by_receiver {
                    self.subscriptions.end(id, location);
                }
            }
            (Body::Notification { method, .. }, _)
                if method == crate::protocol::subscriptions::ACKNOWLEDGED =>
            {
                self.note_acknowledged(message, location);
            }
            (Body::Notification { params, .. }, Transition::Progress(id)) => {
                let value = match params.progress {
                    NumberField::Number(value) => Some(value),
                    _ => None,
                };
                let read = self
                    .side_mut(from.peer())
                    .progress(id, value, location, stream);
                self.note_read(from, read);
                if let Some(value) = value {
                    // Progress for a request answered with a task goes on
                    // until the task ends.
                    self.tasks.note_progress(from, id, value, location);
                }
            }
            (Body::Response { .. }, Transition::AnswerInvalidId) => {
                self.side_mut(from.peer()).unreadable.consume();
            }
            (Body::Response { .. }, Transition::Answer(id)) => {
                let last = self.side(from.peer()).last_progress(id);
                self.tasks.carry_progress(from, id, last);
                self.note_operation_answer(from, id, message, location);
                let read = self.side_mut(from.peer()).answer(id, location, stream);
                self.note_read(from, read);
            }
            // A rejection answers every request of the rejected body.
            (Body::Response { .. }, Transition::Reject(ids)) => {
                for id in ids {
                    let read = self.side_mut(from.peer()).answer(id, location, stream);
                    self.note_read(from, read);
                }
            }
            _ => {}
        }
    }

    /// A request (or a notification sent with an id) of `from`.
    fn note_request(
        &mut self,
        from: Side,
        (id, method, params): (&KeyField<RequestId>, &Method, &Params),
        modern: Option<Box<ModernRequest>>,
        message: &Message,
        at: Position,
    ) {
        if from == Side::Client {
            self.served.client_moved_on();
        }
        let KeyField::Valid(id) = id else {
            self.side_mut(from).unreadable.note(at.location);
            return;
        };
        if method.starts_with("notifications/") {
            self.side_mut(from)
                .id_notifications
                .insert(id.clone(), at.location);
            return;
        }
        let token = match &params.meta_progress_token {
            Some(KeyField::Valid(token)) => Some(token.clone()),
            _ => None,
        };
        let modern = modern.filter(|_| from == Side::Client);
        if let Some(modern) = &modern {
            self.note_modern_request(id, method, modern, message, at.location);
        }
        self.side_mut(from).open(Request {
            token,
            stream: at.stream.map(Into::into),
            invalid_tokens: u32::from(matches!(
                params.meta_progress_token,
                Some(KeyField::Invalid(_))
            )),
            named_version: params
                .meta_protocol_version
                .as_deref()
                .map(Version::nearest),
            modern,
            ..Request::new(id.clone(), method.clone(), at.location, at.seq)
        });
    }

    /// A 2026-07-28 request of the client: a listen request opens its
    /// stream, and a retry takes its operation's input round.
    fn note_modern_request(
        &mut self,
        id: &RequestId,
        method: &Method,
        modern: &ModernRequest,
        message: &Message,
        location: Location,
    ) {
        if method == "subscriptions/listen" {
            self.subscriptions.open(id, message, location);
        }
        if let Some(retried) = &modern.retried {
            let key = (method.clone(), modern.target.clone());
            let awaiting = &mut self.side_mut(Side::Client).awaiting_input;
            if let Some(rounds) = awaiting.get_mut(&key) {
                rounds.retain(|round| &round.id != retried);
                if rounds.is_empty() {
                    awaiting.remove(&key);
                }
            }
        }
    }

    /// The server answers a client request of 2026-07-28: a result that
    /// asks for input leaves its operation waiting for the retry, and an
    /// answer to a listen request ends its stream.
    fn note_operation_answer(
        &mut self,
        from: Side,
        id: &RequestId,
        message: &Message,
        location: Location,
    ) {
        // The registry alone, so that the other trackers may change meanwhile.
        let Some(request) = self.sides[from.peer().index()].open.get(id) else {
            return;
        };
        if from != Side::Server || request.modern.is_none() {
            return;
        }
        self.served.note(id, &request.method, message, location);
        if request.method == "subscriptions/listen" {
            return self.subscriptions.end(id, location);
        }
        let view = ResultView::of(message.members.result.as_ref());
        let round = view.and_then(|v| InputRound::of(id, request.location, location, &v));
        if let Some(round) = round {
            let key = request.operation();
            let awaiting = &mut self.side_mut(Side::Client).awaiting_input;
            awaiting.entry(key).or_default().push(round);
        }
    }

    /// The server acknowledged the listen stream its `_meta` names.
    fn note_acknowledged(&mut self, message: &Message, location: Location) {
        let named =
            super::operations::MetaOnly::value(message, crate::protocol::meta::SUBSCRIPTION_ID);
        if let Some(key) = named.as_ref().and_then(crate::event::Key::from_json) {
            self.subscriptions.acknowledge(&RequestId(key), location);
        }
    }

    /// The message's position in the session, noting whether the trace
    /// holds the session's start.
    fn next_position(&mut self, message: &Message, transition: &Transition) -> u64 {
        let seq = self.messages;
        self.messages += 1;
        let is_request = matches!(message.body, Body::Request { .. });
        let opens =
            is_request && matches!(message.method(), Some("initialize" | "server/discover"));
        // A session whose initialize comes after messages that refer to
        // nothing earlier (a raw client that pings or lists tools first, a
        // server that logs while it starts) still starts in the trace.
        if opens && self.self_contained && !self.complete {
            self.complete = true;
        }
        let refers_back = match (&message.body, message.method()) {
            (Body::Response { .. }, _)
            | (_, Some("notifications/cancelled" | "notifications/progress")) => {
                *transition == Transition::None
            }
            _ => false,
        };
        self.self_contained &= !refers_back;
        seq
    }

    /// A batch waits for its first answer; any response of the peer ends
    /// the wait (every element of a batch shares its location).
    fn note_batch(&mut self, from: Side, message: &Message, location: Location) {
        if message
            .batch
            .as_ref()
            .is_some_and(|b| b.requests + b.notifications > 0)
        {
            self.side_mut(from).unanswered_batch = Some(location);
        }
        if matches!(message.body, Body::Response { .. }) {
            self.side_mut(from.peer()).unanswered_batch = None;
        }
    }

    /// `reader` answered (or sent progress for) a request that travelled at
    /// `read`: it had read its peer's messages up to there.
    fn note_read(&mut self, reader: Side, read: Option<(Option<Box<str>>, u64)>) {
        if let Some((stream, seq)) = read {
            self.side_mut(reader).note_read(stream, seq);
        }
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    /// A trace may hold a million sessions, most of them short: what a
    /// session keeps before it has used a part counts a million times
    /// (5,400 bytes when every part was made with the session).
    #[test]
    fn a_new_session_is_small() {
        let size = std::mem::size_of::<Session>();
        assert!(
            size <= 2304,
            "a session takes {size} bytes before its first message"
        );
    }
}
