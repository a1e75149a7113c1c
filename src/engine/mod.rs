//! The engine: events in trace order -> per-session state machines -> rules.
//!
//! It is a streaming API: [`Engine::feed`] one event at a time, in the order
//! of the trace, and collect diagnostics with [`Engine::take_diagnostics`]
//! as they are found, or all at once from [`Engine::finish`]. A proxy or a
//! recorder can lint live this way; the CLI uses the same calls.

mod answered;
pub mod capped;
mod cold;
pub mod direction;
pub mod elicitations;
pub mod facts;
mod id_queue;
mod lazy;
pub mod lifecycle;
pub mod operations;
mod places;
pub mod requests;
mod retired;
pub mod session;
pub mod streams;
pub mod subscriptions;
pub mod tasks;
mod time_order;
pub mod tool_schema;
pub mod tools;

use std::sync::OnceLock;

use foldhash::HashMap;

use crate::diagnostic::Diagnostic;
use crate::findings::Findings;
use crate::packed::PackedFindings;
use compact_str::CompactString;

use crate::event::{
    Body, Event, KeyField, Location, Message, Outcome, Payload, RequestId, Side, Transport,
};
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Needs, Out, Rule, Wants};

pub use elicitations::Elicitations;
pub use facts::{CancelTarget, Facts, ListenTarget, ProgressTarget, RequestFacts, ResponseTarget};
pub use lifecycle::{Capabilities, Lifecycle};
pub use requests::{Answered, Cancel, Registry, Request, RequestState, RequestView, Unreadable};
pub use session::Session;
pub use streams::{EventIdSeen, HttpStreams, SessionEnd, StreamInfo};
pub use subscriptions::{Listen, Subscriptions};
pub use tasks::{Tasks, WireTask};
use tools::ToolsRead;
pub use tools::{ListState, Listing, Tool, Tools};

/// Counts for the summary line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub events: u64,
    pub sessions: u64,
}

/// The sessions of one input that live in one shard, and what every shard
/// knows of the input itself.
#[derive(Default)]
struct SourceSessions {
    default: Option<usize>,
    named: HashMap<Box<str>, usize>,
    /// The lines of this input that could not be read at all: one may
    /// justify an error response with a null id from either side, once per
    /// session.
    unreadable: Unreadable,
    /// HTTP session ids the server assigned in this input, and where.
    assigned_sessions: Vec<(CompactString, Location)>,
    /// Its unreadable lines, reported up to a cap (by the shard that owns
    /// the input's default session).
    capped: capped::Capped,
}

/// Sessions are spread over this many shards by input and name, so that a
/// batch of events is applied by several threads at once. The number is
/// fixed, not the number of threads, so that findings never depend on it.
const SHARDS: usize = 8;

/// Some of the sessions, with their findings so far.
#[derive(Default)]
struct Shard {
    sources: HashMap<u32, SourceSessions>,
    /// Sessions by index; `None` once their input has ended.
    slots: Vec<Option<Session>>,
    /// The findings of the event being applied, packed once it is done.
    diagnostics: Vec<Diagnostic>,
    packed: PackedFindings,
    sessions: u64,
}

pub struct Engine {
    rules: Rules,
    shards: Vec<Shard>,
    events: u64,
    setup: Setup,
}

/// How every session of an engine starts.
#[derive(Debug, Clone, Copy, Default)]
struct Setup {
    /// The version to assume until a session shows its own.
    assumed_version: Option<Version>,
    /// The most open requests followed at once per side (`None`: the default).
    max_open_requests: Option<usize>,
    /// What the rules read beyond what every session follows.
    needs: Needs,
}

impl Setup {
    fn session(self, source: u32, name: Option<&str>) -> Session {
        let mut session = Session::new(source, name.map(Into::into), self.assumed_version);
        session.follow_at_most(self.max_open_requests);
        session.tools.unread = !self.needs.tools;
        session
    }
}

impl Engine {
    /// An engine running the given rules (`rules::ALL` for every rule).
    pub fn new(rules: Vec<&'static Rule>) -> Self {
        let needs = rules
            .iter()
            .fold(Needs::NOTHING, |needs, r| needs.and(r.needs));
        Engine {
            rules: Rules::new(rules),
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
            events: 0,
            setup: Setup {
                needs,
                ..Setup::default()
            },
        }
    }

    /// Assumes `version` for sessions whose trace starts after the handshake.
    pub fn assuming_version(mut self, version: Option<Version>) -> Self {
        self.setup.assumed_version = version;
        self
    }

    /// Follows at most `max` open requests per side of a session (`None`:
    /// [`requests::DEFAULT_MAX_OPEN_REQUESTS`]).
    pub fn following_at_most(mut self, max: Option<usize>) -> Self {
        self.setup.max_open_requests = max;
        self
    }

    /// Feeds the next event of the trace.
    pub fn feed(&mut self, event: &Event) {
        self.events += 1;
        let owner = shard_of(event);
        let (rules, setup) = (&self.rules, self.setup);
        if is_for_every_shard(event) {
            for (index, shard) in self.shards.iter_mut().enumerate() {
                shard.feed(rules, setup, event, index == owner);
            }
        } else {
            self.shards[owner].feed(rules, setup, event, true);
        }
    }

    /// Feeds the next events of the trace, in order: each shard applies its
    /// sessions' events, in parallel with the others.
    pub fn feed_all(&mut self, events: &[Event]) {
        use rayon::prelude::*;
        self.events += events.len() as u64;
        let mut lists: Vec<Vec<(&Event, bool)>> = vec![Vec::new(); SHARDS];
        for event in events {
            let owner = shard_of(event);
            if is_for_every_shard(event) {
                for (index, list) in lists.iter_mut().enumerate() {
                    list.push((event, index == owner));
                }
            } else {
                lists[owner].push((event, true));
            }
        }
        let (rules, setup) = (&self.rules, self.setup);
        self.shards
            .par_iter_mut()
            .zip(lists)
            .filter(|(_, list)| !list.is_empty())
            .for_each(|(shard, list)| {
                for (event, owner) in list {
                    shard.feed(rules, setup, event, owner);
                }
            });
    }

    /// Ends every session of one input: end-of-session rules run, and the
    /// sessions' state is freed. The unreadable lines left out are counted
    /// in one finding per kind.
    pub fn end_source(&mut self, source: u32) {
        use rayon::prelude::*;
        let (rules, setup) = (&self.rules, self.setup);
        self.shards
            .par_iter_mut()
            .for_each(|shard| shard.end_source(rules, setup, source));
    }

    /// Diagnostics found so far, in the order they were found, in one
    /// vector of the exact size: growing it shard by shard would hold
    /// copies of the findings while it moves them.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        let mut all = Vec::with_capacity(self.findings());
        for shard in &mut self.shards {
            shard.packed.unpack_into(&mut all);
            all.append(&mut std::mem::take(&mut shard.diagnostics));
        }
        all
    }

    pub fn stats(&self) -> Stats {
        Stats {
            events: self.events,
            sessions: self.shards.iter().map(|s| s.sessions).sum(),
        }
    }

    /// How many diagnostics were found so far (for progress reports).
    pub fn findings(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.packed.len() + s.diagnostics.len())
            .sum()
    }

    /// Ends all sessions and returns the sorted diagnostics.
    pub fn finish(self) -> (Vec<Diagnostic>, Stats) {
        let (packs, stats) = self.finish_packed();
        (Findings::new(packs).to_vec(), stats)
    }

    /// Ends all sessions and returns the findings as packed, shard by
    /// shard: a large run's report unpacks them one at a time ([`Findings`]).
    pub fn finish_packed(mut self) -> (Vec<PackedFindings>, Stats) {
        let mut sources: Vec<u32> = self
            .shards
            .iter()
            .flat_map(|s| s.sources.keys().copied())
            .collect();
        sources.sort_unstable();
        sources.dedup();
        for source in sources {
            self.end_source(source);
        }
        let stats = self.stats();
        let packs = self.shards.iter_mut().map(|shard| {
            shard.packed.pack_from(&mut shard.diagnostics);
            std::mem::take(&mut shard.packed)
        });
        (packs.collect(), stats)
    }
}

/// The shard that holds an event's session (and that runs the rules on an
/// unreadable line of an input, which names no session).
fn shard_of(event: &Event) -> usize {
    use std::hash::{BuildHasher, Hash, Hasher};
    // A fixed seed: the same session lands in the same shard on every run.
    let mut hasher = foldhash::fast::FixedState::with_seed(0x6d63_702d_6c69_6e74).build_hasher();
    event.location.source.hash(&mut hasher);
    event.session.as_deref().hash(&mut hasher);
    hasher.finish() as usize % SHARDS
}

/// Whether every shard must see the event: it tells something about its
/// whole input (a line that could not be read, an HTTP session id assigned).
fn is_for_every_shard(event: &Event) -> bool {
    match &event.payload {
        Payload::Unreadable(_) => true,
        Payload::Transport(Transport::Http(http)) => http.assigned_session.is_some(),
        _ => false,
    }
}

impl Shard {
    fn slot_index(&mut self, source: u32, name: Option<&str>, setup: Setup) -> usize {
        let sessions = self.sources.entry(source).or_default();
        let existing = match name {
            None => sessions.default,
            Some(name) => sessions.named.get(name).copied(),
        };
        if let Some(index) = existing {
            return index;
        }
        let index = self.slots.len();
        self.slots.push(Some(setup.session(source, name)));
        match name {
            None => sessions.default = Some(index),
            Some(name) => {
                sessions.named.insert(name.into(), index);
            }
        }
        self.sessions += 1;
        index
    }

    /// Applies an event, and packs what it found.
    fn feed(&mut self, rules: &Rules, setup: Setup, event: &Event, owns: bool) {
        self.apply(rules, setup, event, owns);
        if !self.diagnostics.is_empty() {
            self.packed.pack_from(&mut self.diagnostics);
        }
    }

    /// Applies an event: all of it in the shard that `owns` its session;
    /// in the others, only what it tells of its input.
    fn apply(&mut self, rules: &Rules, setup: Setup, event: &Event, owns: bool) {
        if let Payload::Unreadable(_) = &event.payload {
            return self.feed_unreadable(rules, setup, event, owns);
        }
        if !owns {
            return note_assignment(
                self.sources.entry(event.location.source).or_default(),
                event,
            );
        }
        let source = event.location.source;
        let index = self.slot_index(source, event.session.as_deref(), setup);
        let sessions = self.sources.get_mut(&source).expect("slot_index made it");
        let Some(session) = self.slots[index].as_mut() else {
            return;
        };
        feed_session(rules, session, sessions, event, &mut self.diagnostics);
    }

    /// Notes a line that could not be read; the shard that owns it runs the
    /// rules on it, unless its input has had too many of its kind already.
    fn feed_unreadable(&mut self, rules: &Rules, setup: Setup, event: &Event, owns: bool) {
        let sessions = self.sources.entry(event.location.source).or_default();
        if owns && sessions.capped.admit(event) {
            self.run_on_unreadable(rules, setup, event);
        }
        if let Some(sessions) = self.sources.get_mut(&event.location.source) {
            sessions.unreadable.note(event.location);
        }
    }

    /// Runs the rules on an unreadable line. It names no session it could
    /// belong to: its rules see an empty session.
    fn run_on_unreadable(&mut self, rules: &Rules, setup: Setup, event: &Event) {
        let sessions = self.sources.entry(event.location.source).or_default();
        let scratch = setup.session(event.location.source, None);
        let ctx = Ctx {
            event,
            message: None,
            from: None,
            session: &scratch,
            versions: scratch.possible_versions(),
            version: scratch.version(),
            facts: Facts::None,
            tool_list: None,
            called_tool: None,
            called_arguments: None,
            source_unreadable: sessions.unreadable.last(),
            assigned_sessions: &sessions.assigned_sessions,
        };
        rules.run(&ctx, &mut self.diagnostics);
    }

    /// Ends this shard's sessions of one input (and, in the shard that owns
    /// the input's unreadable lines, counts those left out).
    fn end_source(&mut self, rules: &Rules, setup: Setup, source: u32) {
        let Some(sessions) = self.sources.get(&source) else {
            return;
        };
        for summary in &sessions.capped.summaries() {
            self.run_on_unreadable(rules, setup, summary);
        }
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
            if let Some(mut session) = self.slots[index].take() {
                session.unreadable_line = sessions.unreadable.last_seen();
                for rule in &rules.all {
                    (rule.session_end)(&session, &mut self.diagnostics);
                }
            }
            self.packed.pack_from(&mut self.diagnostics);
        }
    }
}

/// Applies an event to its session: the rules that want it run first, on
/// the session as it was; then the trackers move on.
fn feed_session(
    rules: &Rules,
    session: &mut Session,
    sessions: &mut SourceSessions,
    event: &Event,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Payload::Transport(Transport::Http(http)) = &event.payload {
        // The exchange shows the transport, and so the versions it allows.
        session.http.note_transport(http);
    }
    let versions = versions_of(session, event);
    let mut ctx = Ctx {
        event,
        message: None,
        from: event.from,
        session,
        versions,
        version: versions.single(),
        facts: Facts::None,
        tool_list: None,
        called_tool: None,
        called_arguments: None,
        source_unreadable: sessions
            .unreadable
            .last_after(session.answered_input_unreadable),
        assigned_sessions: &sessions.assigned_sessions,
    };
    let Payload::Message(message) = &event.payload else {
        rules.run(&ctx, diagnostics);
        return apply_transport(session, sessions, event);
    };
    ctx.message = Some(message);
    if matches!(message.body, Body::Unclassifiable) {
        ctx.from = None;
        return rules.run(&ctx, diagnostics);
    }
    let sender = match event.from {
        Some(from) => Ok(from),
        None => direction::infer_sender(session, message),
    };
    let from = match sender {
        Ok(from) => from,
        Err(reason) => {
            // The response to an ambiguous request was announced with it.
            let (_, response_id) = ambiguous_ids(message);
            if !response_id.is_some_and(|id| session.ambiguous_requests.contains(id)) {
                let ctx = Ctx {
                    facts: Facts::Ambiguous(reason),
                    ..ctx
                };
                rules.run(&ctx, diagnostics);
            }
            return note_ambiguous(session, message);
        }
    };
    ctx.from = Some(from);
    ctx.facts = facts::classify(session, from, message, event.stream.as_deref());
    // An answer is read in the revision its request named, if it named one.
    if let Some(named) = ctx.facts.answered().and_then(|r| r.named_version) {
        ctx.versions = Versions::only(named);
        ctx.version = Some(named);
    }
    let (called, called_arguments) = match session.tools.called_by(from, message) {
        Some(call) => (Some(call.name), call.arguments),
        None => (None, None),
    };
    let tools_read = ToolsRead {
        listing: read_listing(session, &ctx, message, from),
        called,
    };
    ctx.tool_list = tools_read.listing.as_ref();
    ctx.called_tool = tools_read.called.as_deref();
    ctx.called_arguments = called_arguments;
    let found = diagnostics.len();
    rules.run(&ctx, diagnostics);
    let previous = session.last_time_ms;
    time_order::note_disorder(&mut diagnostics[found..], event.time_ms, previous);
    let transition = ctx.facts.transition();
    if is_null_id_error(&ctx.facts, message) && !session.consume_unreadable(from.peer()) {
        // A null-id error answers one unreadable message of the peer (or,
        // failing that, a line of the input that could not be read: each
        // session may take one such line, as no line names its session).
        let answered = session.answered_input_unreadable;
        if sessions.unreadable.last_after(answered).is_some() {
            session.answered_input_unreadable += 1;
        }
    }
    let stream = event.stream.as_deref();
    session.tasks.now_ms = event.time_ms;
    session.apply(
        from,
        message,
        event.location,
        stream,
        &transition,
        tools_read,
    );
    session.last_time_ms = event.time_ms.or(previous);
}

/// Notes, in a shard that does not hold its session, what an event tells of
/// its whole input.
fn note_assignment(sessions: &mut SourceSessions, event: &Event) {
    if let Payload::Transport(Transport::Http(http)) = &event.payload {
        if let Some(id) = &http.assigned_session {
            sessions
                .assigned_sessions
                .push((id.clone(), event.location));
        }
    }
}

/// Applies a transport event to its session and input.
fn apply_transport(session: &mut Session, sessions: &mut SourceSessions, event: &Event) {
    match (&event.payload, event.from, &event.stream) {
        (Payload::Transport(Transport::Closed), Some(from), _) => {
            session.note_closed(from, event.location)
        }
        (Payload::Transport(Transport::StreamAborted(_)), _, Some(stream)) => {
            session.http.abort(stream, event.location);
        }
        (Payload::Transport(Transport::Http(http)), _, stream) => {
            if let Some(stream) = stream {
                session.http.open(stream, http, event.location);
            }
            note_assignment(sessions, event);
        }
        _ => {}
    }
}

/// The tools a server's `tools/list` result lists, read (and their schemas
/// compiled) once, for the rules and then the session's tools tracker.
fn read_listing(session: &Session, ctx: &Ctx, message: &Message, from: Side) -> Option<Listing> {
    let request = ctx.facts.answered()?;
    let result = message.members.result.as_ref()?;
    if from != Side::Server || request.method != "tools/list" || message.incomplete {
        return None;
    }
    session.tools.read(result, ctx.version, ctx.event.location)
}

/// The valid id of a bare message whose sender is ambiguous: (request, response).
fn ambiguous_ids(message: &Message) -> (Option<&RequestId>, Option<&RequestId>) {
    match &message.body {
        Body::Request {
            id: KeyField::Valid(id),
            ..
        } => (Some(id), None),
        Body::Response {
            id: Some(KeyField::Valid(id)),
            ..
        } => (None, Some(id)),
        _ => (None, None),
    }
}

/// Notes an ambiguous message's id: its response is part of the same
/// ambiguity, and an ambiguous response may answer any request.
fn note_ambiguous(session: &mut Session, message: &Message) {
    match ambiguous_ids(message) {
        (Some(id), _) => {
            session.ambiguous_requests.insert(id.clone());
        }
        (_, Some(id)) => {
            session.ambiguous_requests.remove(id);
            session.ambiguous_responses.insert(id.clone());
        }
        _ => {}
    }
}

/// An error response with a null id.
fn is_null_id_error(facts: &Facts, message: &Message) -> bool {
    matches!(
        (facts, &message.body),
        (
            Facts::Response(ResponseTarget::NullId),
            Body::Response {
                outcome: Outcome::Error { .. },
                ..
            },
        )
    )
}

/// The rules of an engine, and for each kind of event the ones that want it,
/// so an event reaches only the rules that asked for its kind.
struct Rules {
    all: Vec<&'static Rule>,
    /// Indexed by [`Wants::kind_index`]: each rule's revisions and check,
    /// side by side, so choosing the rules for a message reads no rule's
    /// metadata (a load per rule that missed the cache on every message).
    by_kind: Vec<Vec<(Versions, Check)>>,
    /// Indexed by kind and then [`Versions::index`]: the checks of the rules
    /// that want the kind and apply to every revision of the set, chosen
    /// the first time a message of that kind is read in those revisions.
    chosen: Vec<OnceLock<Box<[Check]>>>,
}

/// A rule's check of one event.
type Check = fn(&Ctx, &mut Out);

impl Rules {
    fn new(all: Vec<&'static Rule>) -> Rules {
        let by_kind: Vec<_> = Wants::KINDS
            .iter()
            .map(|kind| {
                let wanting = all.iter().filter(|r| r.meta.wants.includes(*kind));
                wanting.map(|r| (r.meta.versions, r.check)).collect()
            })
            .collect();
        let chosen = (0..by_kind.len() * Versions::SETS).map(|_| OnceLock::new());
        Rules {
            all,
            by_kind,
            chosen: chosen.collect(),
        }
    }

    /// Runs the rules that want this kind of event and apply to every
    /// revision the message may be read in.
    fn run(&self, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
        let kind = Wants::of(ctx.event).kind_index();
        let chosen = self.chosen[kind * Versions::SETS + ctx.versions.index()].get_or_init(|| {
            let applying = self.by_kind[kind]
                .iter()
                .filter(|(v, _)| v.covers(ctx.versions));
            applying.map(|(_, check)| *check).collect()
        });
        for check in chosen.iter() {
            check(ctx, out);
        }
    }
}

/// The exchange's MCP-Protocol-Version header names 2026-07-28.
fn names_stateless_version(http: &crate::event::HttpExchange) -> bool {
    let header = http.protocol_version_header.as_deref().map(str::trim);
    header.and_then(Version::parse) == Some(Version::V2026_07_28)
}

/// The revisions an event may be read in: a 2026-07-28 request names its
/// own; an HTTP exchange is of that revision when it carries one and of the
/// handshake era when it does not (2026-07-28 requests must name theirs);
/// anything else is read in the session's.
fn versions_of(session: &Session, event: &Event) -> Versions {
    let named = match &event.payload {
        Payload::Message(message) => message
            .params()
            .and_then(|p| p.meta_protocol_version.as_deref()),
        _ => None,
    };
    if let Some(named) = named {
        return Versions::only(Version::nearest(named));
    }
    match &event.payload {
        Payload::Message(message) => {
            // A method that exists only in some revisions says the message is
            // of one of them (`initialize` opens a handshake-era session),
            // unless the session is known to speak none of them.
            let possible = session.possible_versions();
            if possible.single().is_some() {
                return possible; // the usual case: nothing left to narrow
            }
            let exists = message
                .method()
                .map_or(Versions::NONE, crate::protocol::methods::versions_of);
            match possible.intersect(exists) {
                narrowed if narrowed.is_empty() => possible,
                narrowed => narrowed,
            }
        }
        // An exchange without a body (a GET) shows its revision only by its
        // MCP-Protocol-Version header.
        Payload::Transport(Transport::Http(http))
            if http.modern || names_stateless_version(http) =>
        {
            Versions::only(Version::V2026_07_28)
        }
        Payload::Transport(Transport::Http(_)) => {
            let handshake = session.possible_versions().intersect(Versions::HANDSHAKE);
            if handshake.is_empty() {
                Versions::HANDSHAKE
            } else {
                handshake
            }
        }
        _ => session.possible_versions(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four interleaved sessions with cancellations, progress and a late
    /// response, and a line that cannot be read.
    const TRACE: &str = concat!(
        r#"{"from":"client","session":"a","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":1}}}}"#,
        "\n",
        r#"{"from":"client","session":"b","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}}"#,
        "\n",
        r#"{"from":"client","session":"a","msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}}"#,
        "\n",
        "not json\n",
        r#"{"from":"server","session":"c","msg":{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}}"#,
        "\n",
        r#"{"from":"server","session":"d","msg":{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}}"#,
        "\n",
        r#"{"from":"server","session":"b","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}"#,
        "\n",
        r#"{"from":"server","session":"b","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}"#,
        "\n",
        r#"{"from":"server","session":"a","msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}}"#,
        "\n",
    );

    fn findings(feed: impl Fn(&mut Engine, &[Event])) -> Vec<String> {
        findings_in(TRACE, feed)
    }

    fn findings_in(trace: &str, feed: impl Fn(&mut Engine, &[Event])) -> Vec<String> {
        let format = crate::decode::Format::Canonical;
        let events = crate::decode::decode_chunk(trace.as_bytes(), 0, 0, format).events;
        let mut engine = crate::rules::engine();
        feed(&mut engine, &events);
        let (diagnostics, _) = engine.finish();
        let text = diagnostics.iter().map(|d| {
            format!(
                "{} {} {}",
                d.location.line,
                d.rule.id,
                d.text(&|t| t.into())
            )
        });
        text.collect()
    }

    #[test]
    fn sharded_batches_find_what_one_event_at_a_time_finds() {
        let one_by_one = findings(|engine, events| events.iter().for_each(|e| engine.feed(e)));
        let batched = findings(|engine, events| engine.feed_all(events));
        assert!(
            one_by_one.iter().any(|f| f.contains("duplicate-response")),
            "{one_by_one:#?}"
        );
        assert_eq!(one_by_one, batched);
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            assert_eq!(
                pool.install(|| findings(|engine, events| engine.feed_all(events))),
                batched
            );
        }
    }

    #[test]
    fn each_session_may_answer_an_unreadable_line_with_a_null_id_error() {
        let found = findings(|engine, events| engine.feed_all(events));
        let on_null_ids = |f: &&String| f.starts_with("5 ") || f.starts_with("6 ");
        assert_eq!(found.iter().filter(on_null_ids).count(), 0, "{found:#?}");
        // Without the unreadable line, both errors are unexplained.
        let readable = findings_in(&TRACE.replace("not json\n", "\n"), |e, events| {
            e.feed_all(events)
        });
        assert_eq!(
            readable.iter().filter(on_null_ids).count(),
            2,
            "{readable:#?}"
        );
    }
}
