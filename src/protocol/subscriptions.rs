//! `subscriptions/listen` (2026-07-28): the notifications a listen stream
//! carries, and the member of the request's `notifications` filter that
//! opts in to each (basic/patterns/subscriptions, schema `SubscriptionFilter`).

/// How a filter member opts in to a notification type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptIn {
    /// `true` turns the notification type on.
    Flag(&'static str),
    /// A list of resource URIs; the notification's `params.uri` must be one.
    Uris(&'static str),
}

impl OptIn {
    pub fn member(self) -> &'static str {
        match self {
            OptIn::Flag(member) | OptIn::Uris(member) => member,
        }
    }
}

/// Each notification type a listen stream delivers, and its opt-in.
pub static LISTEN_NOTIFICATIONS: &[(&str, OptIn)] = &[
    (
        "notifications/tools/list_changed",
        OptIn::Flag("toolsListChanged"),
    ),
    (
        "notifications/prompts/list_changed",
        OptIn::Flag("promptsListChanged"),
    ),
    (
        "notifications/resources/list_changed",
        OptIn::Flag("resourcesListChanged"),
    ),
    (
        "notifications/resources/updated",
        OptIn::Uris("resourceSubscriptions"),
    ),
];

/// The notification the server sends first on every listen stream.
pub const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// The opt-in of a notification type that travels on listen streams.
pub fn opt_in(method: &str) -> Option<OptIn> {
    LISTEN_NOTIFICATIONS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(_, opt_in)| *opt_in)
}

/// Whether `method` is delivered on a listen stream (and so carries the
/// subscription's id in `_meta`).
pub fn rides_listen_stream(method: &str) -> bool {
    method == ACKNOWLEDGED || opt_in(method).is_some()
}
