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

    /// Applies a message; `answered` is the method of the request a
    /// response answers, when it answers one.
    pub(crate) fn apply(
        &mut self,
        from: Side,
        message: &Message,
        location: Location,
        answered: Option<(&RequestId, &str)>,
    ) {
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
                        self.note_capabilities(Side::Server, result.capabilities, location);
                    }
                }
                _ => {}
            },
            _ => {}
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
            self.note_capabilities(Side::Client, params.capabilities, location);
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
            self.version = Some(Version::nearest(version));
        }
        if let Some(result) = announcement(message.members.result.as_ref()) {
            self.note_capabilities(Side::Server, result.capabilities, location);
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
        self.note_capabilities(Side::Client, capabilities, location);
    }

    fn note_capabilities(
        &mut self,
        side: Side,
        value: Option<serde_json::Value>,
        location: Location,
    ) {
        if let Some(value) = value.filter(serde_json::Value::is_object) {
            self.capabilities[side.index()] = Some(Capabilities { value, location });
        }
    }
}

fn announcement(member: Option<&Json>) -> Option<Announcement> {
    member.and_then(Json::parse)
}
