//! The engine: events in trace order -> per-session state machines -> rules.
//!
//! It is a streaming API: [`Engine::feed`] one event at a time, in the order
//! of the trace, and collect diagnostics with [`Engine::take_diagnostics`]
//! as they are found, or all at once from [`Engine::finish`]. A proxy or a
//! recorder can lint live this way; the CLI uses the same calls.

pub mod direction;
pub mod facts;
pub mod session;

use foldhash::{HashMap, HashMapExt};

use crate::diagnostic::Diagnostic;
use compact_str::CompactString;

use crate::event::{Body, Event, KeyField, Location, Outcome, Payload, Transport};
use crate::rules::{Ctx, Rule};

pub use facts::{CancelTarget, Facts, ProgressTarget, RequestFacts, ResponseTarget};
pub use session::{
    Answered, Cancel, Era, Registry, Request, RequestState, RequestView, Session, StreamInfo,
    Unreadable,
};

/// Counts for the summary line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub events: u64,
    pub sessions: u64,
}

/// The sessions of one input.
#[derive(Default)]
struct SourceSessions {
    default: Option<usize>,
    named: HashMap<Box<str>, usize>,
    /// The last line of this input that could not be read at all: it may
    /// justify an error response with a null id from either side.
    unreadable: Unreadable,
    /// HTTP session ids the server assigned in this input, and where.
    assigned_sessions: Vec<(CompactString, Location)>,
}

pub struct Engine {
    rules: Vec<&'static dyn Rule>,
    sources: HashMap<u32, SourceSessions>,
    /// Sessions by index; `None` once their input has ended.
    slots: Vec<Option<Session>>,
    diagnostics: Vec<Diagnostic>,
    stats: Stats,
}

impl Engine {
    /// An engine running the given rules.
    pub fn new(rules: Vec<&'static dyn Rule>) -> Self {
        Engine {
            rules,
            sources: HashMap::new(),
            slots: Vec::new(),
            diagnostics: Vec::new(),
            stats: Stats::default(),
        }
    }

    /// An engine running every rule.
    pub fn with_all_rules() -> Self {
        Engine::new(crate::rules::ALL.to_vec())
    }

    fn slot_index(&mut self, source: u32, name: Option<&str>) -> usize {
        let sessions = self.sources.entry(source).or_default();
        let existing = match name {
            None => sessions.default,
            Some(name) => sessions.named.get(name).copied(),
        };
        if let Some(index) = existing {
            return index;
        }
        let index = self.slots.len();
        self.slots
            .push(Some(Session::new(source, name.map(Into::into))));
        match name {
            None => sessions.default = Some(index),
            Some(name) => {
                sessions.named.insert(name.into(), index);
            }
        }
        self.stats.sessions += 1;
        index
    }

    /// Feeds the next event of the trace.
    pub fn feed(&mut self, event: &Event) {
        self.stats.events += 1;
        let source = event.location.source;
        if let Payload::Unreadable(_) = &event.payload {
            // An unreadable line names no session it could belong to.
            let scratch = Session::new(source, None);
            let sessions = self.sources.entry(source).or_default();
            let ctx = Ctx {
                event,
                message: None,
                from: None,
                session: &scratch,
                facts: Facts::None,
                source_unreadable: sessions.unreadable.last(),
                assigned_sessions: &sessions.assigned_sessions,
            };
            run_rules(&self.rules, &ctx, &mut self.diagnostics);
            sessions.unreadable.note(event.location);
            return;
        }
        let index = self.slot_index(source, event.session.as_deref());
        let sessions = self.sources.get_mut(&source).expect("slot_index made it");
        let Some(session) = self.slots[index].as_mut() else {
            return;
        };
        let mut ctx = Ctx {
            event,
            message: None,
            from: event.from,
            session,
            facts: Facts::None,
            source_unreadable: sessions.unreadable.last(),
            assigned_sessions: &sessions.assigned_sessions,
        };
        let message = match &event.payload {
            Payload::Message(message) => message,
            _ => {
                run_rules(&self.rules, &ctx, &mut self.diagnostics);
                match (&event.payload, event.from, &event.stream) {
                    (Payload::Transport(Transport::Closed), Some(from), _) => {
                        session.note_closed(from, event.location)
                    }
                    (Payload::Transport(Transport::StreamAborted(_)), _, Some(stream)) => {
                        session
                            .aborted_streams
                            .insert(stream.as_str().into(), event.location);
                    }
                    (Payload::Transport(Transport::Http(http)), _, stream) => {
                        if let Some(stream) = stream {
                            session.streams.insert(
                                stream.as_str().into(),
                                StreamInfo {
                                    method: http.method.clone(),
                                    resumes: http.resumes,
                                    legacy_sse: http.sse_endpoint,
                                    rejected: http.status.is_some_and(|s| s >= 400),
                                },
                            );
                        }
                        if let Some(id) = &http.assigned_session {
                            sessions
                                .assigned_sessions
                                .push((id.clone(), event.location));
                        }
                    }
                    _ => {}
                }
                return;
            }
        };
        ctx.message = Some(message);
        if matches!(message.body, Body::Unclassifiable) {
            ctx.from = None;
            run_rules(&self.rules, &ctx, &mut self.diagnostics);
            return;
        }
        let from = match event.from {
            Some(from) => from,
            None => match direction::infer_sender(session, message) {
                Ok(from) => from,
                Err(reason) => {
                    let (request_id, response_id) = match &message.body {
                        Body::Request {
                            id: KeyField::Valid(id),
                            ..
                        } => (Some(id), None),
                        Body::Response {
                            id: Some(KeyField::Valid(id)),
                            ..
                        } => (None, Some(id)),
                        _ => (None, None),
                    };
                    // The response to an ambiguous request was announced with it.
                    let announced =
                        response_id.is_some_and(|id| session.ambiguous_requests.contains(id));
                    if !announced {
                        let ctx = Ctx {
                            facts: Facts::Ambiguous(reason),
                            ..ctx
                        };
                        run_rules(&self.rules, &ctx, &mut self.diagnostics);
                    }
                    if let Some(id) = request_id {
                        session.ambiguous_requests.insert(id.clone());
                    }
                    if let Some(id) = response_id {
                        session.ambiguous_requests.remove(id);
                        session.ambiguous_responses.insert(id.clone());
                    }
                    return;
                }
            },
        };
        ctx.from = Some(from);
        ctx.facts = facts::classify(session, from, message, event.stream.as_deref());
        run_rules(&self.rules, &ctx, &mut self.diagnostics);
        let transition = ctx.facts.transition();
        if let (
            Facts::Response(ResponseTarget::NullId),
            Body::Response {
                outcome: Outcome::Error { .. },
                ..
            },
        ) = (&ctx.facts, &message.body)
        {
            // A null-id error answers one unreadable message of the peer.
            if !session.consume_unreadable(from.peer()) {
                sessions.unreadable.consume();
            }
        }
        session.apply(
            from,
            message,
            event.location,
            event.stream.as_deref(),
            &transition,
        );
    }

    /// Ends every session of one input: end-of-session rules run, and the
    /// sessions' state is freed.
    pub fn end_source(&mut self, source: u32) {
        let Some(sessions) = self.sources.remove(&source) else {
            return;
        };
        let mut indices: Vec<usize> = sessions
            .default
            .into_iter()
            .chain(sessions.named.into_values())
            .collect();
        indices.sort_unstable();
        for index in indices {
            if let Some(session) = self.slots[index].take() {
                for rule in &self.rules {
                    rule.session_end(&session, &mut self.diagnostics);
                }
            }
        }
    }

    /// Diagnostics found so far, in the order they were found.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Ends all sessions and returns the sorted diagnostics.
    pub fn finish(mut self) -> (Vec<Diagnostic>, Stats) {
        let mut sources: Vec<u32> = self.sources.keys().copied().collect();
        sources.sort_unstable();
        for source in sources {
            self.end_source(source);
        }
        let mut diagnostics = self.diagnostics;
        Diagnostic::sort(&mut diagnostics);
        (diagnostics, self.stats)
    }
}

fn run_rules(rules: &[&'static dyn Rule], ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for rule in rules {
        rule.check(ctx, out);
    }
}
