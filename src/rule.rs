//! The rule interface: what a rule is ([`Rule`], [`RuleMeta`]), and what it
//! sees of one event ([`Ctx`]). The engine runs rules through this interface
//! alone; the library chooses which rules (`rules::ALL`).

use std::fmt;

use crate::diagnostic::{Diagnostic, Severity, Words};
use crate::engine::{Facts, Session};
use crate::event::{Event, Location, Message, Side};
use crate::protocol::{SpecPage, Version, Versions};

/// The part of the protocol a rule is about; users select rules by family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// The trace file itself: unreadable lines, records, unknown senders.
    Trace,
    /// JSON-RPC messages: their shape, ids, responses, batches and errors.
    Jsonrpc,
    Lifecycle,
    Capability,
    /// Which side may send a method, and in which revisions it exists.
    Method,
    Ping,
    Cancel,
    Progress,
    /// Tasks (2025-11-25): task-augmented requests and the task operations.
    Tasks,
    /// 2026-07-28 input requests inside results, and their retries.
    Input,
    /// 2026-07-28 `subscriptions/listen` streams.
    Subscription,
    Http,
    Stdio,
    /// Messages against the official JSON schema, tool calls against the tools' own.
    Schema,
}

impl Family {
    pub const ALL: [Family; 14] = [
        Family::Trace,
        Family::Jsonrpc,
        Family::Lifecycle,
        Family::Capability,
        Family::Method,
        Family::Ping,
        Family::Cancel,
        Family::Progress,
        Family::Tasks,
        Family::Input,
        Family::Subscription,
        Family::Http,
        Family::Stdio,
        Family::Schema,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Family::Trace => "trace",
            Family::Jsonrpc => "jsonrpc",
            Family::Lifecycle => "lifecycle",
            Family::Capability => "capability",
            Family::Method => "method",
            Family::Ping => "ping",
            Family::Cancel => "cancel",
            Family::Progress => "progress",
            Family::Tasks => "tasks",
            Family::Input => "input",
            Family::Subscription => "subscription",
            Family::Http => "http",
            Family::Stdio => "stdio",
            Family::Schema => "schema",
        }
    }

    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The kinds of event a rule asks to see; the engine calls a rule for no other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wants(u8);

impl Wants {
    /// A line or record that could not be read.
    pub const UNREADABLE: Wants = Wants(1);
    /// Something that happened to the transport (an HTTP exchange, a closed stream).
    pub const TRANSPORT: Wants = Wants(1 << 1);
    pub const REQUEST: Wants = Wants(1 << 2);
    pub const NOTIFICATION: Wants = Wants(1 << 3);
    pub const RESPONSE: Wants = Wants(1 << 4);
    /// A message that is neither request, notification nor response.
    pub const UNCLASSIFIABLE: Wants = Wants(1 << 5);
    pub const MESSAGES: Wants = Wants(0b11_1100);
    /// Each kind of event, one bit each.
    pub const KINDS: [Wants; 6] = [
        Wants::UNREADABLE,
        Wants::TRANSPORT,
        Wants::REQUEST,
        Wants::NOTIFICATION,
        Wants::RESPONSE,
        Wants::UNCLASSIFIABLE,
    ];
    pub const NOTHING: Wants = Wants(0);

    /// The position of a single kind among [`Wants::KINDS`].
    pub fn kind_index(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    pub const fn and(self, other: Wants) -> Wants {
        Wants(self.0 | other.0)
    }

    pub fn includes(self, other: Wants) -> bool {
        self.0 & other.0 != 0
    }

    /// The kind of one event.
    pub fn of(event: &Event) -> Wants {
        use crate::event::{Body, Payload};
        match &event.payload {
            Payload::Unreadable(_) => Wants::UNREADABLE,
            Payload::Transport(_) => Wants::TRANSPORT,
            Payload::Message(message) => match message.body {
                Body::Request { .. } => Wants::REQUEST,
                Body::Notification { .. } => Wants::NOTIFICATION,
                Body::Response { .. } => Wants::RESPONSE,
                Body::Unclassifiable => Wants::UNCLASSIFIABLE,
            },
        }
    }
}

/// The fixed description of one rule.
#[derive(Debug)]
pub struct RuleMeta {
    /// The user-facing, stable kebab-case id.
    pub id: &'static str,
    pub family: Family,
    pub default_severity: Severity,
    /// The revisions the rule applies to. The engine runs it for a message
    /// only when every revision the session may speak is among them.
    pub versions: Versions,
    /// The events the rule checks.
    pub wants: Wants,
    /// Its findings rest on which of two messages came first, so they say
    /// when the trace's timestamps disagree with that order.
    pub order_dependent: bool,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// The spec sentence the finding breaks, verbatim.
    pub quote: &'static str,
    /// `None` for rules about the trace file itself rather than the protocol.
    pub spec: Option<SpecPage>,
    /// What to do about it.
    pub help: &'static str,
}

impl RuleMeta {
    /// The spec page for a session of the given protocol version.
    pub fn spec_url(&self, version: Option<Version>) -> Option<String> {
        // A rule links a revision it applies to: the session's, else the
        // newest handshake revision, else its newest (a rule of 2024-11-05
        // alone, or of 2026-07-28 alone, links that revision's page).
        let version = version.filter(|v| self.versions.contains(*v)).or_else(|| {
            let latest = Version::LATEST_HANDSHAKE;
            match self.versions.contains(latest) {
                true => Some(latest),
                false => self.versions.iter().last(),
            }
        });
        Some(self.spec?.url(version))
    }

    /// The spec sentence in the wording of the given protocol version.
    pub fn quote_for(&self, version: Option<Version>) -> &'static str {
        match (version, self.spec.and_then(|s| s.modern_quote)) {
            (Some(Version::V2026_07_28), Some(modern)) => modern,
            _ => self.quote,
        }
    }

    /// The documentation page of the rule in this repository.
    pub fn doc_path(&self) -> String {
        format!("rules/{}.md", self.id)
    }

    /// The rule's page on the web, when the package declares its repository
    /// (`repository` in Cargo.toml); `None` when it does not.
    pub fn help_url(&self) -> Option<String> {
        help_url_in(env!("CARGO_PKG_REPOSITORY"), self)
    }
}

/// The rule's page in `repository` (a GitHub-style address), on its default
/// branch; `None` when no repository is declared.
fn help_url_in(repository: &str, meta: &RuleMeta) -> Option<String> {
    let repository = repository.trim().trim_end_matches('/');
    let repository = repository.strip_suffix(".git").unwrap_or(repository);
    (!repository.is_empty()).then(|| format!("{repository}/blob/HEAD/{}", meta.doc_path()))
}

/// Findings are pushed here.
pub type Out = Vec<Diagnostic>;

/// One check: its description, and what it does for each event it wants and
/// at the end of each session.
pub struct Rule {
    pub meta: &'static RuleMeta,
    pub check: fn(&Ctx, &mut Out),
    pub session_end: fn(&Session, &mut Out),
    /// Session state it reads that the engine keeps only on request.
    pub needs: Needs,
}

/// Session state that costs time on every message and that few rules read:
/// the engine follows it only when a rule it runs needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Needs {
    /// The server's tool list (`Session::tools`, `Ctx::tool_list`).
    pub tools: bool,
}

impl Needs {
    pub const NOTHING: Needs = Needs { tools: false };
    pub const TOOLS: Needs = Needs { tools: true };

    /// What either needs.
    pub fn and(self, other: Needs) -> Needs {
        Needs {
            tools: self.tools || other.tools,
        }
    }
}

impl Rule {
    /// A rule that checks events.
    pub const fn on_events(meta: &'static RuleMeta, check: fn(&Ctx, &mut Out)) -> Rule {
        Rule {
            meta,
            check,
            session_end: |_, _| {},
            needs: Needs::NOTHING,
        }
    }

    /// A rule that looks at each session once, when it ends.
    pub const fn on_session_end(meta: &'static RuleMeta, end: fn(&Session, &mut Out)) -> Rule {
        Rule {
            meta,
            check: |_, _| {},
            session_end: end,
            needs: Needs::NOTHING,
        }
    }

    /// This rule, also looking at each session once, when it ends.
    pub const fn and_session_end(self, end: fn(&Session, &mut Out)) -> Rule {
        Rule {
            session_end: end,
            ..self
        }
    }

    /// This rule, reading session state the engine keeps only on request.
    pub const fn needing(self, needs: Needs) -> Rule {
        Rule { needs, ..self }
    }

    pub fn meta(&self) -> &'static RuleMeta {
        self.meta
    }
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
    /// Every revision this event may be read in, as far as the trace shows.
    pub versions: Versions,
    /// The revision this event is read in, when it is known (the only one
    /// of `versions`): the negotiated one, or the one a 2026-07-28 request names.
    pub version: Option<Version>,
    pub facts: Facts<'a>,
    /// The tools a server's `tools/list` result lists, schemas compiled.
    pub tool_list: Option<&'a crate::engine::Listing>,
    /// The tool a client's `tools/call` names (a string `params.name`);
    /// read only for rules that declare `Needs::TOOLS`.
    pub called_tool: Option<&'a str>,
    /// That call's `arguments` as written: `Some(None)` where absent, `None`
    /// where written twice (or where no tool is named).
    pub called_arguments: Option<Option<&'a str>>,
    /// The last line of this input that could not be read at all.
    pub source_unreadable: Option<Location>,
    /// HTTP session ids the server assigned earlier in this input, and where.
    pub assigned_sessions: &'a [(compact_str::CompactString, Location)],
}

impl Ctx<'_> {
    /// A diagnostic of `meta` at this event, with the session's context filled in.
    pub fn diagnostic(&self, meta: &'static RuleMeta, message: impl Into<Words>) -> Diagnostic {
        // Where in a multi-message line (an HTTP body) the message sits.
        let message = match &self.event.place {
            Some(place) => crate::words!("{} ({})", message.into(), place),
            None => message.into(),
        };
        let mut diagnostic = Diagnostic::new(
            meta,
            self.session.name.clone(),
            self.version,
            self.event.location,
            message,
        );
        diagnostic.from = self.from;
        diagnostic.with_batch_index(self.message.and_then(Message::batch_index))
    }
}

#[cfg(test)]
mod tests {
    use super::help_url_in;

    #[test]
    fn help_urls_name_the_declared_repository_only() {
        let meta = crate::rules::ALL
            .iter()
            .map(|r| r.meta)
            .find(|m| m.id == "invalid-json");
        let meta = meta.expect("the rule");
        let page = "https://github.com/o/r/blob/HEAD/rules/invalid-json.md";
        for repository in [
            "https://github.com/o/r",
            "https://github.com/o/r/",
            "https://github.com/o/r.git",
        ] {
            assert_eq!(help_url_in(repository, meta).as_deref(), Some(page));
        }
        assert_eq!(help_url_in("", meta), None);
        assert_eq!(help_url_in("  ", meta), None);
    }
}
