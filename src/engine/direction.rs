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
                            // The canceller is the side with that request
                            // outstanding, else the one side that ever issued it.
                            if let Some(side) =
                                only_side(session, |r| r.request(id).is_some_and(|q| q.is_outstanding()))
                                    .or_else(|| only_side(session, |r| r.request(id).is_some()))
                            {
                                return Ok(side);
                            }
                        }
                    } else if method == "notifications/progress" {
                        if let Some(KeyField::Valid(token)) = &params.progress_token {
                            // Progress comes from the receiver of the request
                            // holding the token, else of the one side's request
                            // that last carried it.
                            if let Some(side) = only_side(session, |r| r.active_tokens.contains_key(token))
                                .or_else(|| only_side(session, |r| r.token_holder(token).is_some()))
                            {
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

#[cfg(test)]
mod tests {
    /// Rule ids of the findings on a bare capture.
    fn rules_of(lines: &[&str]) -> Vec<(u64, &'static str)> {
        let trace = lines.join("\n");
        crate::lint_with(
            &trace,
            Some(crate::decode::Format::Bare),
            crate::rules::engine(),
        )
        .iter()
        .map(|d| (d.location.line, d.rule.id))
        .collect()
    }

    const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"t"}}}"#;
    const RESULT: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#;

    #[test]
    fn late_progress_comes_from_the_receiver_of_the_one_request_that_carried_the_token() {
        let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2}}"#;
        assert_eq!(
            rules_of(&[CALL, RESULT, progress]),
            [(3, "progress-after-terminal")]
        );
    }

    #[test]
    fn a_late_cancellation_comes_from_the_one_side_that_issued_the_id() {
        let cancel =
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
        assert_eq!(
            rules_of(&[CALL, RESULT, cancel]),
            [(3, "cancel-after-response")]
        );
    }

    #[test]
    fn a_method_either_side_may_send_with_nothing_to_tell_is_ambiguous() {
        let ping = r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
        assert_eq!(rules_of(&[ping]), [(1, "direction-ambiguous")]);
    }
}
