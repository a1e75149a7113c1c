//! `subscriptions/listen` streams of 2026-07-28, per session: what each
//! listen request asked for, whether the server acknowledged it, and whether
//! it has ended (basic/patterns/subscriptions).

use foldhash::HashMap;
use serde::Deserialize;

use crate::event::{Location, Message, RequestId};
use crate::protocol::subscriptions::OptIn;

/// The `notifications` filter of a listen request (schema `SubscriptionFilter`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Filter(serde_json::Map<String, serde_json::Value>);

impl Filter {
    /// Whether the filter opts in to a notification; `uri` is the
    /// `params.uri` of a `notifications/resources/updated`.
    pub fn allows(&self, opt_in: OptIn, uri: Option<&str>) -> bool {
        let value = self.0.get(opt_in.member());
        match opt_in {
            OptIn::Flag(_) => value == Some(&serde_json::Value::Bool(true)),
            OptIn::Uris(_) => {
                let uris = value.and_then(|v| v.as_array());
                uris.is_some_and(|uris| uris.iter().any(|u| u.as_str() == uri && uri.is_some()))
            }
        }
    }
}

/// One listen stream.
#[derive(Debug, Clone)]
pub struct Listen {
    /// Where the client opened it.
    pub location: Location,
    pub filter: Filter,
    /// Where the server acknowledged it.
    pub acknowledged: Option<Location>,
    /// Where it ended: the server's final response or its cancellation.
    pub ended: Option<Location>,
}

/// The listen streams of a session, by the id of the request that opened them.
#[derive(Debug, Default)]
pub struct Subscriptions {
    pub listens: HashMap<RequestId, Listen>,
}

#[derive(Deserialize)]
struct ListenParams {
    notifications: Option<Filter>,
}

impl Subscriptions {
    /// The client opened a listen stream with request `id`.
    pub(crate) fn open(&mut self, id: &RequestId, message: &Message, location: Location) {
        let params = message.members.params.as_ref();
        let filter = params
            .and_then(|p| p.parse::<ListenParams>())
            .and_then(|p| p.notifications)
            .unwrap_or_default();
        let listen = Listen {
            location,
            filter,
            acknowledged: None,
            ended: None,
        };
        self.listens.insert(id.clone(), listen);
    }

    pub(crate) fn acknowledge(&mut self, id: &RequestId, location: Location) {
        if let Some(listen) = self.listens.get_mut(id) {
            listen.acknowledged.get_or_insert(location);
        }
    }

    /// The server ended listen stream `id` (a final response or a cancellation).
    pub(crate) fn end(&mut self, id: &RequestId, location: Location) {
        if let Some(listen) = self.listens.get_mut(id) {
            listen.ended.get_or_insert(location);
        }
    }
}
