//! URL-mode elicitations of 2025-11-25, per session: the ids a server gave
//! them, from its `elicitation/create` requests in URL mode and from the
//! `elicitations` of its URLElicitationRequired (-32042) errors
//! (client/elicitation), so that a completion can be matched to one.

use foldhash::HashMap;
use serde::Deserialize;

use crate::event::{Body, Location, Message, Outcome, Side};
use crate::protocol::elicitation::{CREATE, URL_MODE};
use crate::protocol::errors::URL_ELICITATION_REQUIRED;

/// The URL-mode elicitations a server opened, by `elicitationId`, with
/// where it first did.
#[derive(Debug, Default)]
pub struct Elicitations {
    pub url_ids: HashMap<String, Location>,
}

/// What the tracker reads of an elicitation.
#[derive(Deserialize)]
struct Elicitation {
    mode: Option<String>,
    #[serde(rename = "elicitationId")]
    elicitation_id: Option<String>,
}

#[derive(Deserialize)]
struct RequiredError {
    data: Option<RequiredData>,
}

#[derive(Deserialize)]
struct RequiredData {
    elicitations: Vec<serde_json::Value>,
}

impl Elicitations {
    /// Where the server opened URL-mode elicitation `id`, if it did.
    pub fn opened(&self, id: &str) -> Option<Location> {
        self.url_ids.get(id).copied()
    }

    pub(crate) fn apply(&mut self, from: Side, message: &Message, location: Location) {
        if from != Side::Server {
            return;
        }
        match &message.body {
            Body::Request { method, .. } if method == CREATE => {
                let params = message.members.params.as_ref();
                let request = params.and_then(|p| p.parse::<Elicitation>());
                let url_id = request
                    .filter(|e| e.mode.as_deref() == Some(URL_MODE))
                    .and_then(|e| e.elicitation_id);
                self.note(url_id, location);
            }
            Body::Response {
                outcome: Outcome::Error { code: Some(code) },
                ..
            } if *code == URL_ELICITATION_REQUIRED.code => {
                // Every id listed counts, whatever its mode:
                // cap-url-elicitation-error reports a listed one that is not URL mode.
                let error = message.members.error.as_ref();
                let data = error
                    .and_then(|e| e.parse::<RequiredError>())
                    .and_then(|e| e.data);
                for listed in data.map(|d| d.elicitations).unwrap_or_default() {
                    let elicitation = serde_json::from_value::<Elicitation>(listed).ok();
                    self.note(elicitation.and_then(|e| e.elicitation_id), location);
                }
            }
            _ => {}
        }
    }

    fn note(&mut self, id: Option<String>, location: Location) {
        if let Some(id) = id {
            self.url_ids.entry(id).or_insert(location);
        }
    }
}
