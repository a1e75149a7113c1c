//! The lifecycle of a session: its era and protocol version, the handshake,
//! and the capabilities each side advertised.

use serde::Deserialize;

use crate::event::{Body, Json, KeyField, Location, Message, Outcome, RequestId, Side};
use crate::protocol::{capabilities, Era, Version};

/// A side's `capabilities` object, and where it was advertised.
#[derive(Debug, Clone)]
pub struct Capabilities {
    pub value: serde_json::Value,
    pub location: Location,
}

#[derive(Debug, Default)]
pub struct Lifecycle {
    /// The era the session has shown: `initialize` (handshake) or a request
    /// naming its version in `_meta` (stateless); `None` before either.
    pub era: Option<Era>,
    /// The version of the initialize result (or of the last 2026-07-28
    /// request, or the one the user named); for a version string that is
    /// no revision, the nearest revision.
    pub version: Option<Version>,
    /// The client's initialize request.
    pub initialize: Option<(RequestId, Location)>,
    /// The version the client asked for in it.
    pub requested_version: Option<Box<str>>,
    /// The server's answer to it, and whether it succeeded.
    pub initialize_response: Option<(Location, bool)>,
    /// The client's `notifications/initialized`.
    pub initialized: Option<Location>,
    /// Before the client's first `initialize`: the first message that makes
    /// it not the first interaction (a request other than ping, or a server
    /// notification), its sender and method.
    pub before_initialize: Option<(Location, Side, Box<str>)>,
    /// The protocol version the successful initialize result names, as written.
    pub answered_version: Option<Box<str>>,
    /// The client's first message after the successful initialize result.
    pub client_went_on: Option<Location>,
    /// The client's first request other than ping after the successful
    /// initialize result and before `notifications/initialized`.
    pub request_before_initialized: Option<(Location, Box<str>)>,
    /// Version strings of this session that name no revision, once each.
    pub unknown_versions: Vec<Box<str>>,
    capabilities: [Option<Capabilities>; 2],
}

/// The members of initialize params and results, and of `server/discover`
/// results, that the lifecycle keeps.
#[derive(Deserialize)]
struct Announcement {
    #[serde(rename = "protocolVersion")]
    protocol_version: Option<String>,
    capabilities: Option<serde_json::Value>,
}

/// The client capabilities a 2026-07-28 request carries in its `_meta`.
#[derive(Deserialize)]
struct ModernParams {
    #[serde(rename = "_meta")]
    meta: Option<ModernMeta>,
}

#[derive(Deserialize)]
struct ModernMeta {
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<serde_json::Value>,
}

impl Lifecycle {
    /// A lifecycle that starts in `version` (a trace that begins after the handshake).
    pub fn assuming(version: Option<Version>) -> Lifecycle {
        Lifecycle {
            era: version.map(Version::era),
            version,
            ..Lifecycle::default()
        }
    }

    /// What `side` advertised, if the trace shows it.
    pub fn capabilities(&self, side: Side) -> Option<&Capabilities> {
        self.capabilities[side.index()].as_ref()
    }

    /// Whether `side` advertised the capability at `path`; `None` when the
    /// trace does not show what it advertised.
    pub fn advertises(&self, side: Side, path: &str) -> Option<bool> {
        self.capabilities(side)
            .map(|c| capabilities::advertised(&c.value, path))
    }

    /// Whether the client's `initialize` is `id`.
    pub fn is_initialize(&self, id: &RequestId) -> bool {
        self.initialize.as_ref().is_some_and(|(init, _)| init == id)
    }

    /// The version the client asked for, when the server answers `answered`
    /// instead (the client's string, as written). Only a published revision:
    /// answering another version to one that names none is what negotiation
    /// asks for (and unknown-protocol-version has said so).
    pub fn requested_other_than(&self, answered: &str) -> Option<&str> {
        self.requested_version
            .as_deref()
            .filter(|requested| *requested != answered && Version::parse(requested).is_some())
    }

    /// The version the client asked for and the other one the successful
    /// initialize result answered, when they differ.
    pub fn negotiated_other_version(&self) -> Option<(&str, &str)> {
        let answered = self.answered_version.as_deref()?;
        Some((self.requested_other_than(answered)?, answered))
    }

    /// Applies a message; `answered` is the method of the request a
    /// response answers, when it answers one.
    pub(crate) fn apply(
        &mut self,
        from: Side,
        message: &Message,
        location: Location,
        answered: Option<(&RequestId, &str)>,
    ) {
        self.note_order(from, message, location);
        let answers_initialize = answered.is_some_and(|(id, _)| self.is_initialize(id));
        for named in named_versions(message, from, answers_initialize) {
            if Version::parse(&named.text).is_none() && !self.unknown_versions.contains(&named.text)
            {
                self.unknown_versions.push(named.text);
            }
        }
        match &message.body {
            Body::Request { id, method, params } => {
                // A handshake session keeps its version when the endpoint also
                // serves 2026-07-28 requests: those are read in their own.
                if let (Some(version), false) = (
                    &params.meta_protocol_version,
                    self.era == Some(Era::Handshake),
                ) {
                    self.era = Some(Era::Stateless);
                    self.version = Some(Version::nearest(version));
                    self.note_modern_client_capabilities(message, location);
                }
                match (method.as_ref(), id, from) {
                    ("server/discover", _, _) => {
                        self.era.get_or_insert(Era::Stateless);
                    }
                    ("initialize", KeyField::Valid(id), Side::Client) => {
                        self.note_initialize(id, message, location)
                    }
                    // Sent with an id by mistake (notification-with-id says
                    // so); the client still meant it.
                    ("notifications/initialized", _, Side::Client) => {
                        self.initialized.get_or_insert(location);
                    }
                    _ => {}
                }
            }
            Body::Notification { method, .. }
                if method == "notifications/initialized" && from == Side::Client =>
            {
                self.initialized.get_or_insert(location);
            }
            Body::Response { outcome, .. } => match answered {
                Some((id, "initialize")) if from == Side::Server && self.is_initialize(id) => {
                    self.note_initialize_response(outcome, message, location)
                }
                Some((_, "server/discover")) if from == Side::Server => {
                    if let Some(result) = announcement(message.members.result.as_ref()) {
                        self.note_capabilities(
                            Side::Server,
                            result.capabilities,
                            message,
                            location,
                        );
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }

    /// Notes where a message falls in the handshake's order, against the
    /// state before it.
    fn note_order(&mut self, from: Side, message: &Message, location: Location) {
        let method = message.method();
        if self.era == Some(Era::Stateless) {
            return;
        }
        // A notifications/* method sent with an id is a notification meant.
        let notification = method.is_some_and(|m| m.starts_with("notifications/"));
        if self.initialize.is_none() {
            match (&message.body, from) {
                // Answers say nothing of the order (the session says
                // whether they show an excerpt).
                (Body::Response { .. }, _) => {}
                // Pings may come at any time; the spec is silent on client
                // notifications before the handshake.
                (_, Side::Client) if notification => {}
                _ if matches!(method, Some("ping" | "initialize")) => {}
                _ => {
                    let method = method.unwrap_or_default().into();
                    self.before_initialize
                        .get_or_insert((location, from, method));
                }
            }
            return;
        }
        let answered = matches!(self.initialize_response, Some((_, true)));
        if from != Side::Client || !answered || matches!(message.body, Body::Response { .. }) {
            return;
        }
        self.client_went_on.get_or_insert(location);
        let request =
            matches!(message.body, Body::Request { .. }) && !notification && method != Some("ping");
        if let (true, None, Some(method)) = (request, self.initialized, method) {
            self.request_before_initialized
                .get_or_insert((location, method.into()));
        }
    }

    fn note_initialize(&mut self, id: &RequestId, message: &Message, location: Location) {
        self.era.get_or_insert(Era::Handshake);
        // The first initialize, or a retry after a failed one.
        let failed = matches!(self.initialize_response, Some((_, false)));
        if self.initialize.is_some() && !failed {
            return;
        }
        self.initialize = Some((id.clone(), location));
        self.initialize_response = None;
        let params = announcement(message.members.params.as_ref());
        if let Some(params) = params {
            self.requested_version = params.protocol_version.map(Into::into);
            self.note_capabilities(Side::Client, params.capabilities, message, location);
        }
    }

    fn note_initialize_response(
        &mut self,
        outcome: &Outcome,
        message: &Message,
        location: Location,
    ) {
        if self.initialize_response.is_some() {
            return;
        }
        let ok = matches!(outcome, Outcome::Result { .. });
        self.initialize_response = Some((location, ok));
        if let Outcome::Result {
            protocol_version: Some(version),
        } = outcome
        {
            self.version = Some(Version::nearest_in(version, Era::Handshake.versions()));
            self.answered_version = Some(version.clone());
        }
        if let Some(result) = announcement(message.members.result.as_ref()) {
            self.note_capabilities(Side::Server, result.capabilities, message, location);
        }
    }

    fn note_modern_client_capabilities(&mut self, message: &Message, location: Location) {
        let capabilities = message
            .members
            .params
            .as_ref()
            .and_then(Json::parse::<ModernParams>)
            .and_then(|p| p.meta)
            .and_then(|m| m.client_capabilities);
        self.note_capabilities(Side::Client, capabilities, message, location);
    }

    /// Keeps what a side advertised; a message the trace shows only in part
    /// (cut at depth) leaves it unknown, as a missing member there proves
    /// nothing.
    fn note_capabilities(
        &mut self,
        side: Side,
        value: Option<serde_json::Value>,
        message: &Message,
        location: Location,
    ) {
        if message.incomplete {
            return;
        }
        if let Some(value) = value.filter(serde_json::Value::is_object) {
            self.capabilities[side.index()] = Some(Capabilities { value, location });
        }
    }
}

fn announcement(member: Option<&Json>) -> Option<Announcement> {
    member.and_then(Json::parse)
}

/// A protocol version string a message names, and the revision it is read as.
#[derive(Debug, PartialEq)]
pub struct NamedVersion {
    pub text: Box<str>,
    pub read_as: Version,
}

/// The protocol version strings a message names: the version an initialize
/// request asks for (`from` the client) and the one its result
/// (`answers_initialize`) answers, both read in the handshake era, and the
/// one a 2026-07-28 request names in its `_meta`.
pub fn named_versions(
    message: &Message,
    from: Side,
    answers_initialize: bool,
) -> Vec<NamedVersion> {
    let mut named = Vec::new();
    let member = match (&message.body, from) {
        (Body::Request { method, .. }, Side::Client) if method == "initialize" => {
            message.members.params.as_ref()
        }
        (Body::Response { .. }, Side::Server) if answers_initialize => {
            message.members.result.as_ref()
        }
        _ => None,
    };
    if let Some(text) = announcement(member).and_then(|a| a.protocol_version) {
        let read_as = Version::nearest_in(&text, Era::Handshake.versions());
        named.push(NamedVersion {
            text: text.into(),
            read_as,
        });
    }
    if let Some(text) = message
        .params()
        .and_then(|p| p.meta_protocol_version.as_ref())
    {
        if !named.iter().any(|n| &n.text == text) {
            let read_as = Version::nearest(text);
            named.push(NamedVersion {
                text: text.clone(),
                read_as,
            });
        }
    }
    named
}
