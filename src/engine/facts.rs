//! What a message means against the session state before it: which request
//! it refers to and in what state that request is.
//!
//! The classification is made once per message, here; every rule reads it,
//! and [`Facts::transition`] tells the session what to change. Rules about
//! the same message therefore never disagree about what it refers to.

use crate::event::{
    Body, JsonKind, KeyField, Location, Message, Outcome, ProgressToken, RequestId, Side,
};

use super::operations::{InputRound, ModernRequest, RequestParams};
use super::requests::{Request, RequestState, RequestView};
use super::session::Session;
use super::subscriptions::Listen;
use super::tasks::Task;
use crate::protocol::{meta, subscriptions, Era, Version};

// Facts live on the stack for one event; boxing the request's would cost an
// allocation per request.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Facts<'s> {
    /// Nothing to look up (an unreadable line, a transport event, a plain notification).
    None,
    /// The sender of a bare JSON-RPC line could not be inferred.
    Ambiguous(String),
    Request(RequestFacts<'s>),
    Cancel(CancelTarget<'s>),
    Progress(ProgressTarget<'s>),
    Response(ResponseTarget<'s>),
    /// A server notification of the kind a 2026-07-28 listen stream carries.
    Listen(ListenTarget<'s>),
}

/// The listen stream a notification names in `_meta`.
#[derive(Debug)]
pub enum ListenTarget<'s> {
    /// It names none.
    Missing,
    /// It names something that is no listen request of the client.
    Unknown(serde_json::Value),
    /// A listen stream the client opened, as it stands before this message.
    Stream { id: RequestId, listen: &'s Listen },
}

#[derive(Debug, Default)]
pub struct RequestFacts<'s> {
    /// An earlier request of the same sender with the same id that makes
    /// this one a reuse (any earlier one; in 2026-07-28 only an unanswered one).
    pub earlier: Option<RequestView<'s>>,
    /// Another running request of the same sender that holds this request's token.
    pub token_holder: Option<RequestView<'s>>,
    /// The params of a request of a 2026-07-28 session.
    pub modern: Option<Box<RequestParams>>,
    /// The input round this request retries: it carries `inputResponses` or
    /// `requestState`, and the server asked for input on its operation.
    pub retried: Option<&'s InputRound>,
}

#[derive(Debug)]
pub enum CancelTarget<'s> {
    /// Not a valid cancellation; the text says why.
    Malformed(String),
    /// The client's own initialize request.
    Initialize(RequestView<'s>),
    /// A running request of the sender: the ordinary case.
    Running(RequestView<'s>),
    AlreadyCancelled(RequestView<'s>),
    AfterResponse(RequestView<'s>),
    /// No request of the sender has this id, but the peer issued one.
    WrongDirection(RequestView<'s>),
    /// The receiver of the peer's request ends it, as its method allows
    /// (a 2026-07-28 server ending a `subscriptions/listen`).
    ReceiverEnds(RequestView<'s>),
    Unknown(RequestId),
    /// No followed request has this id, but the sender has more requests
    /// open than are followed at once: it may be one of those.
    Untracked,
    /// The log does not show the requestId (Claude Desktop's payload-free
    /// lines), so the target is unknown and no rule may call the
    /// cancellation malformed. When the sender is the client and its
    /// initialize is its only open request, it is the probable target;
    /// cancel-initialize reports that, one severity lower.
    Unlogged {
        probable_initialize: Option<RequestView<'s>>,
    },
}

#[derive(Debug)]
pub enum ProgressTarget<'s> {
    /// No token, or one of the wrong type (other rules report those).
    Unusable,
    /// A token of the wrong type while a running request of the peer
    /// carries one: the progress repeats the token it was given, and the
    /// request's finding covers both.
    EchoedInvalidToken,
    /// A running request of the peer carries the token: the ordinary case.
    Active(RequestView<'s>),
    /// The peer's request that last carried the token was cancelled by it.
    Cancelled(RequestView<'s>),
    /// The peer's request that last carried the token was answered.
    Completed(RequestView<'s>),
    /// The peer's request that last carried the token was answered with a
    /// task, which has ended since (its progress may run until then).
    TaskEnded(RequestView<'s>, &'s Task),
    /// More than one running request of the peer carries the token (a
    /// reuse, reported once by its own rule): the progress may be any
    /// one's, so nothing follows from it until only one of them is left.
    Ambiguous(RequestView<'s>),
    /// Only a request of the sender itself carries the token.
    OwnToken(RequestView<'s>),
    Unknown(ProgressToken),
    /// No followed request carries the token, but the peer has more
    /// requests open than are followed at once: it may be one of those.
    Untracked,
}

#[derive(Debug)]
pub enum ResponseTarget<'s> {
    /// `"id": null`, or no id at all.
    NullId,
    /// A null-id error in an HTTP error response to a POST: the server
    /// rejected the body whole (a bad Host, a bad session), which the
    /// Streamable HTTP transport allows. It answers the requests of that
    /// body, oldest first.
    Rejection(Vec<RequestView<'s>>),
    InvalidId(JsonKind),
    /// An id of the wrong type while the peer has a request whose id was
    /// of the wrong type and is unanswered: the response repeats that id,
    /// as JSON-RPC requires, and the request's finding covers both.
    EchoedInvalidId {
        request: Location,
    },
    /// A running request of the peer: the ordinary case.
    Pending(RequestView<'s>),
    /// A request the peer had cancelled.
    AfterCancel(RequestView<'s>),
    /// A request that was already answered.
    Duplicate(RequestView<'s>),
    /// A `notifications/*` message the peer sent with an id.
    ToNotification(Location),
    /// No request of the peer has this id; `own` is a request of the
    /// responder itself with that id, if any.
    Unknown {
        own: Option<RequestView<'s>>,
    },
    /// No followed request of the peer has this id, but the peer has more
    /// requests open than are followed at once: it may be one of those.
    Untracked,
}

/// The state change a message causes, without borrowing the session.
#[derive(Debug, PartialEq)]
pub(crate) enum Transition {
    None,
    Cancel(RequestId),
    Progress(RequestId),
    Answer(RequestId),
    /// A rejection answers every request of the rejected body.
    Reject(Vec<RequestId>),
    /// A response answers the peer's request whose id was invalid.
    AnswerInvalidId,
    /// The receiver ends the peer's request itself (a listen stream).
    End(RequestId),
    /// A request opens, with what it declared if it is of 2026-07-28 (read
    /// once, here, for the rules and the requests tracker alike).
    Open(Option<Box<ModernRequest>>),
}

impl<'s> Facts<'s> {
    /// The request a response answers, running or cancelled: the ordinary
    /// answer, whose content rules about a method's result read.
    pub fn answered(&self) -> Option<&RequestView<'s>> {
        match self {
            Facts::Response(ResponseTarget::Pending(r) | ResponseTarget::AfterCancel(r)) => Some(r),
            _ => None,
        }
    }

    pub(crate) fn transition(&self) -> Transition {
        match self {
            Facts::Cancel(CancelTarget::Running(r)) => Transition::Cancel(r.id.clone()),
            Facts::Progress(ProgressTarget::Active(r)) => Transition::Progress(r.id.clone()),
            Facts::Response(ResponseTarget::Pending(r) | ResponseTarget::AfterCancel(r)) => {
                Transition::Answer(r.id.clone())
            }
            Facts::Response(ResponseTarget::Rejection(requests)) => {
                Transition::Reject(requests.iter().map(|r| r.id.clone()).collect())
            }
            Facts::Response(ResponseTarget::EchoedInvalidId { .. }) => Transition::AnswerInvalidId,
            Facts::Cancel(CancelTarget::ReceiverEnds(r)) => Transition::End(r.id.clone()),
            Facts::Request(request) => {
                let modern = request.modern.as_deref().map(|params| ModernRequest {
                    retried: request.retried.map(|round| round.id.clone()),
                    ..ModernRequest::of(params)
                });
                Transition::Open(modern.map(Box::new))
            }
            _ => Transition::None,
        }
    }
}

/// `stream`: the one the message travelled on, if the trace names streams.
pub(crate) fn classify<'s>(
    session: &'s Session,
    from: Side,
    message: &'s Message,
    stream: Option<&str>,
) -> Facts<'s> {
    match &message.body {
        Body::Request {
            id: KeyField::Valid(id),
            method,
            params,
        } if !method.starts_with("notifications/") => {
            let sender = session.side(from);
            let earlier = sender.request(id).filter(|r| {
                session.era() != Some(crate::protocol::Era::Stateless) || r.is_outstanding()
            });
            let token_holder = match &params.meta_progress_token {
                Some(KeyField::Valid(token)) => sender
                    .active_tokens
                    .get(token)
                    .and_then(|holder| sender.open.get(holder))
                    .map(|request| request.view())
                    // A request answered with a task holds its token until the task ends.
                    .or_else(|| {
                        let task = session.tasks.running_with_token(from.peer(), token)?;
                        let request = sender.request(&task.request_id)?;
                        Some(RequestView {
                            token: task.token.as_ref(),
                            ..request
                        })
                    }),
                _ => None,
            };
            // Params that are absent or no object hold no _meta either.
            let modern = is_modern(session, method, params)
                .then(|| Box::new(RequestParams::of(message).unwrap_or_default()));
            let retried = modern
                .as_ref()
                .filter(|p| from == Side::Client && p.is_retry())
                .and_then(|p| {
                    let key = (method.clone(), p.target());
                    p.retried(sender.awaiting_input.get(&key)?)
                });
            Facts::Request(RequestFacts {
                earlier,
                token_holder,
                modern,
                retried,
            })
        }
        Body::Notification { method, .. } if method == "notifications/cancelled" => {
            Facts::Cancel(cancel_target(session, from, message))
        }
        Body::Notification { method, params } if method == "notifications/progress" => {
            Facts::Progress(match &params.progress_token {
                Some(KeyField::Valid(token)) => progress_target(session, from, token),
                Some(KeyField::Invalid(_))
                    if session.side(from.peer()).invalid_token_requests > 0 =>
                {
                    ProgressTarget::EchoedInvalidToken
                }
                _ => ProgressTarget::Unusable,
            })
        }
        Body::Response { id, outcome } => Facts::Response(match id {
            None | Some(KeyField::Invalid(JsonKind::Null)) => {
                match (
                    from,
                    outcome,
                    stream.and_then(|s| rejected_body(session, s)),
                ) {
                    (Side::Server, Outcome::Error { .. }, Some(requests)) => {
                        ResponseTarget::Rejection(requests)
                    }
                    _ => ResponseTarget::NullId,
                }
            }
            Some(KeyField::Invalid(kind)) => match session.side(from.peer()).unreadable.last() {
                Some(request) => ResponseTarget::EchoedInvalidId { request },
                None => ResponseTarget::InvalidId(*kind),
            },
            Some(KeyField::Valid(id)) => response_target(session, from, id),
        }),
        Body::Notification { method, .. }
            if from == Side::Server
                && session.version().map(Version::era) == Some(Era::Stateless)
                && subscriptions::rides_listen_stream(method) =>
        {
            Facts::Listen(listen_target(session, message))
        }
        _ => Facts::None,
    }
}

/// Whether a request is read as one of 2026-07-28: a method of that
/// revision, naming its version or sent in a session that speaks it (a
/// client that probes with `server/discover` and falls back to
/// `initialize` speaks the handshake's).
pub(crate) fn is_modern(session: &Session, method: &str, params: &crate::event::Params) -> bool {
    let stateless = Some(Era::Stateless);
    let named = params.meta_protocol_version.is_some();
    let exists = crate::protocol::methods::method(method, Version::V2026_07_28).is_some();
    exists && (named || session.version().map(Version::era) == stateless)
}

fn listen_target<'s>(session: &'s Session, message: &Message) -> ListenTarget<'s> {
    let Some(named) = super::operations::MetaOnly::value(message, meta::SUBSCRIPTION_ID) else {
        return ListenTarget::Missing;
    };
    let id = crate::event::Key::from_json(&named).map(RequestId);
    match id.and_then(|id| session.subscriptions.listens.get_key_value(&id)) {
        Some((id, listen)) => ListenTarget::Stream {
            id: id.clone(),
            listen,
        },
        None => ListenTarget::Unknown(named),
    }
}

/// The client's open requests on `stream`, oldest first, when it is a POST
/// the server rejected: with an HTTP error status, or (wrongly, which
/// `http-reject-error-status` reports) with a success status when the POST
/// held no request to answer.
fn rejected_body<'s>(session: &'s Session, stream: &str) -> Option<Vec<RequestView<'s>>> {
    let info = session.http.streams.get(stream)?;
    let only_input = info.requests == 0 && info.input > 0;
    if !((info.rejected || only_input) && info.method == "POST") {
        return None;
    }
    let mut requests: Vec<&Request> = session
        .side(Side::Client)
        .open_requests()
        .filter(|r| r.stream.as_deref() == Some(stream))
        .collect();
    requests.sort_by_key(|r| r.seq);
    Some(requests.into_iter().map(|request| request.view()).collect())
}

fn cancel_target<'s>(session: &'s Session, from: Side, message: &'s Message) -> CancelTarget<'s> {
    let params = message.params().expect("a notification has params");
    if message.incomplete && params.request_id.is_none() {
        return CancelTarget::Unlogged {
            probable_initialize: probable_initialize(session, from),
        };
    }
    if params.not_object {
        return CancelTarget::Malformed("its params are not an object".into());
    }
    let id = match &params.request_id {
        None => return CancelTarget::Malformed("it has no requestId".into()),
        Some(KeyField::Invalid(kind)) => {
            return CancelTarget::Malformed(format!(
                "its requestId is {}, not a string or integer",
                kind.describe()
            ))
        }
        Some(KeyField::Valid(id)) => id,
    };
    if let Some(kind) = params.reason_invalid {
        return CancelTarget::Malformed(format!("its reason is {}, not a string", kind.describe()));
    }
    if from == Side::Client {
        if let Some((init, _)) = &session.lifecycle.initialize {
            if init == id {
                if let Some(request) = session.side(from).request(id) {
                    return CancelTarget::Initialize(request);
                }
            }
        }
    }
    match session.side(from).request(id) {
        Some(request) => match request.state {
            RequestState::Running => CancelTarget::Running(request),
            _ if request.cancel.is_some() => CancelTarget::AlreadyCancelled(request),
            _ => CancelTarget::AfterResponse(request),
        },
        None => match session.side(from.peer()).request(id) {
            Some(request) if receiver_may_cancel(session, request.method) => {
                CancelTarget::ReceiverEnds(request)
            }
            Some(request) => CancelTarget::WrongDirection(request),
            None if !session.side(from).follows_all() => CancelTarget::Untracked,
            None => CancelTarget::Unknown(id.clone()),
        },
    }
}

/// Whether the receiver of a `method` request may end it by cancelling it.
fn receiver_may_cancel(session: &Session, method: &str) -> bool {
    session
        .version()
        .and_then(|version| crate::protocol::methods::method(method, version))
        .is_some_and(|row| row.receiver_cancels)
}

/// The client's initialize request, when it is the client's only open
/// request and still running: the one target a cancellation could have had.
fn probable_initialize(session: &Session, from: Side) -> Option<RequestView<'_>> {
    let (init, _) = session.lifecycle.initialize.as_ref()?;
    let registry = session.side(from);
    match (from, registry.outstanding(), registry.open.get(init)) {
        (Side::Client, 1, Some(request)) if request.state == RequestState::Running => {
            Some(request.view())
        }
        _ => None,
    }
}

fn progress_target<'s>(
    session: &'s Session,
    from: Side,
    token: &ProgressToken,
) -> ProgressTarget<'s> {
    let peer = session.side(from.peer());
    if let Some(request) = peer.token_holder(token) {
        if token_ambiguous(session, from.peer(), token) {
            return ProgressTarget::Ambiguous(request);
        }
        return match request.state {
            RequestState::Running => ProgressTarget::Active(request),
            RequestState::CancelRequested => ProgressTarget::Cancelled(request),
            RequestState::Completed => after_response(session, from, request),
        };
    }
    let own = session.side(from);
    match own.active_tokens.get(token).and_then(|id| own.request(id)) {
        Some(request) => ProgressTarget::OwnToken(request),
        None if !peer.follows_all() => ProgressTarget::Untracked,
        None => ProgressTarget::Unknown(token.clone()),
    }
}

/// Progress `from` sends for a request it answered: one it answered with a
/// task runs on until the task ends ("even after the `CreateTaskResult` has
/// been returned").
fn after_response<'s>(
    session: &'s Session,
    from: Side,
    request: RequestView<'s>,
) -> ProgressTarget<'s> {
    match session.tasks.task_of_request(from, request.id) {
        Some(task) if task.ended.is_none() => ProgressTarget::Active(RequestView {
            state: RequestState::Running,
            last_progress: task.last_progress,
            ..request
        }),
        Some(task) => ProgressTarget::TaskEnded(request, task),
        None => ProgressTarget::Completed(request),
    }
}

/// Whether progress on `requester`'s `token` may belong to more than one
/// of its requests: the token, or the id of the request holding it, was
/// reused while active (reported once, by its own rule), or it was taken
/// over from a cancelled request whose progress may still cross the
/// cancellation (not once the receiver has provably read it).
fn token_ambiguous(session: &Session, requester: Side, token: &ProgressToken) -> bool {
    let registry = session.side(requester);
    let may_still_send = |id: &RequestId| {
        registry
            .request(id)
            .is_some_and(|r| match (&r.state, &r.cancel) {
                (RequestState::Running, _) => true,
                (RequestState::CancelRequested, Some(cancel)) => {
                    !session.cancel_reached(requester.peer(), cancel)
                }
                _ => false,
            })
    };
    let shared = registry
        .shared_tokens
        .get(token)
        .is_some_and(|sharers| sharers.iter().any(may_still_send));
    let holder_shares_id = registry
        .active_tokens
        .get(token)
        .and_then(|id| registry.open.get(id))
        .is_some_and(|holder| holder.shares_id);
    shared || holder_shares_id
}

fn response_target<'s>(session: &'s Session, from: Side, id: &'s RequestId) -> ResponseTarget<'s> {
    let requester = session.side(from.peer());
    match requester.request(id) {
        Some(request) => match request.state {
            RequestState::Running => ResponseTarget::Pending(request),
            RequestState::CancelRequested => ResponseTarget::AfterCancel(request),
            RequestState::Completed => ResponseTarget::Duplicate(request),
        },
        None => match requester.id_notifications.get(id) {
            Some(location) => ResponseTarget::ToNotification(*location),
            None if !requester.follows_all() => ResponseTarget::Untracked,
            None => ResponseTarget::Unknown {
                own: session.side(from).request(id),
            },
        },
    }
}
