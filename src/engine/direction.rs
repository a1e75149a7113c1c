//! Who sent a bare JSON-RPC line: from the method table (`protocol`), and
//! for messages either side may send, from which side has the request the
//! message refers to. Never a guess: an undecidable line is reported as
//! ambiguous.

use crate::event::{Body, KeyField, Message, Side};
use crate::protocol::methods::senders_in_any_version;
use crate::protocol::Senders;

use super::requests::Registry;
use super::session::Session;

/// The one side for which `holds` is true, or an explanation.
fn only_side(session: &Session, holds: impl Fn(&Registry) -> bool) -> Option<Side> {
    match (
        holds(session.side(Side::Client)),
        holds(session.side(Side::Server)),
    ) {
        (true, false) => Some(Side::Client),
        (false, true) => Some(Side::Server),
        _ => None,
    }
}

/// Infers the sender of a bare message, or says why it cannot.
pub fn infer_sender(session: &Session, message: &Message) -> Result<Side, String> {
    match &message.body {
        Body::Request { method, .. } | Body::Notification { method, .. } => {
            match senders_in_any_version(method) {
                Some(Senders::Client) => Ok(Side::Client),
                Some(Senders::Server) => Ok(Side::Server),
                None => Err(format!(
                    "{method:?} is not in the method direction table, so either side may have sent it"
                )),
                Some(Senders::Both) => {
                    let params = message.params().expect("a method message has params");
                    if method == "notifications/cancelled" {
                        if let Some(KeyField::Valid(id)) = &params.request_id {
                            // The canceller is the side with that request outstanding.
                            if let Some(side) =
                                only_side(session, |r| r.request(id).is_some_and(|q| q.is_outstanding()))
                            {
                                return Ok(side);
                            }
                        }
                    } else if method == "notifications/progress" {
                        if let Some(KeyField::Valid(token)) = &params.progress_token {
                            // Progress comes from the receiver of the request holding the token.
                            if let Some(side) = only_side(session, |r| r.active_tokens.contains_key(token)) {
                                return Ok(side.peer());
                            }
                        }
                    }
                    Err(format!("either side may send {method:?}"))
                }
            }
        }
        Body::Response { id, .. } => {
            let Some(KeyField::Valid(id)) = id else {
                // An error about an unreadable message comes from its receiver.
                return only_side(session, |r| r.unreadable.last().is_some())
                    .map(Side::peer)
                    .ok_or_else(|| {
                        "a response without a usable id, and not exactly one side sent a message whose id could not be read".into()
                    });
            };
            only_side(session, |r| {
                r.request(id).is_some_and(|q| q.is_outstanding())
            })
            .or_else(|| only_side(session, |r| r.request(id).is_some()))
            .map(Side::peer)
            .ok_or_else(|| format!("response id {id} does not match a request of exactly one side"))
        }
        Body::Unclassifiable => {
            Err("the message is neither a request, a notification nor a response".into())
        }
    }
}
