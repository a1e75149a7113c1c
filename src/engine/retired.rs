//! Cancelled requests that were never answered, past the latest few
//! thousand of a side: each waits in a compact record until its session
//! ends, since a late answer or progress may still cross the cancellation
//! (a race the spec allows), in about half an open request's memory.
//!
//! A record holds only what a plain request has (no stream, no shared id,
//! no 2026-07-28 declarations); a request with more stays whole. A message
//! that changes a retired request (its answer, progress, a second
//! cancellation, a reuse of its id) first brings it back whole, so the
//! registry's rules for open requests serve it unchanged.

use std::collections::VecDeque;

use foldhash::HashMap;

use super::cold::{ColdMap, Record};
use super::requests::{Cancel, Request, RequestState, RequestView, Spot};
use crate::event::{ProgressToken, RequestId};
use crate::packed::{Packer, Unpacker};

/// Cancelled requests kept whole per side, the latest ones: the ones whose
/// late messages are the likeliest, and all of them on a normal trace.
pub const CANCELLED_KEPT_WHOLE: usize = 512;

/// [`CANCELLED_KEPT_WHOLE`], or the number a test set on its thread.
fn kept_whole() -> usize {
    crate::limits::limit(CANCELLED_KEPT_WHOLE, |o| o.kept_whole)
}

/// A cancelled request in compact form.
#[derive(Debug)]
pub struct Retired {
    request: Spot,
    seq: u64,
    /// The method's number in the method table.
    method: u16,
    token: Option<ProgressToken>,
    cancel: Cancel,
    last_progress: Option<(f64, Spot)>,
}

impl Retired {
    /// The compact record of a cancelled request, unless it has something
    /// a record does not hold.
    fn of(request: &Request) -> Option<Retired> {
        let plain = request.state == RequestState::CancelRequested
            && request.stream.is_none()
            && request.last_progress_stream.is_none()
            && !request.shares_id
            && request.unanswered_copies == 0
            && request.earlier_tokens.is_empty()
            && request.invalid_tokens == 0
            && request.named_version.is_none()
            && request.modern.is_none();
        let cancel = request.cancel.as_deref().filter(|c| c.stream.is_none())?;
        Some(Retired {
            request: Spot::of(request.location),
            seq: request.seq,
            method: crate::protocol::methods::name_index(&request.method)?,
            token: request.token.clone(),
            cancel: cancel.clone(),
            last_progress: request.last_progress.map(|(v, at)| (v, Spot::of(at))),
        })
        .filter(|_| plain)
    }

    pub fn method(&self) -> &'static str {
        crate::protocol::methods::name_at(self.method).unwrap_or_default()
    }

    /// The request whole again, as it was when it retired.
    fn restore(self, id: RequestId, source: u32) -> Request {
        let method = std::borrow::Cow::Borrowed(self.method());
        Request {
            token: self.token,
            state: RequestState::CancelRequested,
            cancel: Some(Box::new(self.cancel)),
            last_progress: self.last_progress.map(|(v, at)| (v, at.at(source))),
            ..Request::new(id, method, self.request.at(source), self.seq)
        }
    }

    pub fn view<'s>(&'s self, id: &'s RequestId, source: u32) -> RequestView<'s> {
        RequestView {
            id,
            method: self.method(),
            location: self.request.at(source),
            state: RequestState::CancelRequested,
            token: self.token.as_ref(),
            cancel: Some(&self.cancel),
            response: None,
            response_stream: None,
            last_progress: self.last_progress.map(|(v, at)| (v, at.at(source))),
            last_progress_stream: None,
            stream: None,
            named_version: None,
            modern: None,
        }
    }

    pub fn token(&self) -> Option<&ProgressToken> {
        self.token.as_ref()
    }
}

impl Record for Retired {
    fn pack(&self, packer: &mut Packer) {
        self.request.pack(packer);
        packer.uint(self.seq);
        packer.uint(self.method.into());
        packer.byte(self.token.is_some().into());
        self.token.iter().for_each(|token| packer.key(&token.0));
        self.cancel.pack(packer);
        packer.byte(self.last_progress.is_some().into());
        if let Some((value, spot)) = self.last_progress {
            packer.float(value);
            spot.pack(packer);
        }
    }

    fn unpack(unpacker: &mut Unpacker) -> Self {
        Retired {
            request: Spot::unpack(unpacker),
            seq: unpacker.uint(),
            method: unpacker.uint() as u16,
            token: (unpacker.byte() != 0).then(|| ProgressToken(unpacker.key())),
            cancel: Cancel::unpack(unpacker),
            last_progress: (unpacker.byte() != 0)
                .then(|| (unpacker.float(), Spot::unpack(unpacker))),
        }
    }
}

/// One side's retired requests, and the latest cancellations, whose
/// requests stay whole.
#[derive(Debug, Default)]
pub struct RetiredRequests {
    records: ColdMap<Retired>,
    /// Requests cancelled latest, oldest first (some answered since).
    kept_whole: VecDeque<RequestId>,
}

impl RetiredRequests {
    pub fn get(&self, id: &RequestId) -> Option<&Retired> {
        self.records.get(id)
    }

    pub fn contains(&self, id: &RequestId) -> bool {
        self.records.contains_key(id)
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// `id` was just cancelled: the request cancelled
    /// [`CANCELLED_KEPT_WHOLE`] cancellations ago retires from `open`, if it
    /// is still there, cancelled, and plain.
    pub fn note_cancelled(&mut self, id: &RequestId, open: &mut HashMap<RequestId, Box<Request>>) {
        self.kept_whole.push_back(id.clone());
        if self.kept_whole.len() <= kept_whole() {
            return;
        }
        let Some(oldest) = self.kept_whole.pop_front() else {
            return;
        };
        let Some(record) = open.get(&oldest).and_then(|r| Retired::of(r)) else {
            return;
        };
        open.remove(&oldest);
        self.records.insert(oldest, record);
    }

    /// Brings the retired request `id` back whole into `open`, if there is one.
    pub fn restore(
        &mut self,
        id: &RequestId,
        source: u32,
        open: &mut HashMap<RequestId, Box<Request>>,
    ) {
        if let Some((id, record)) = self.records.remove_entry(id) {
            let request = record.restore(id.clone(), source);
            open.insert(id, Box::new(request));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Key, Location};

    fn at(line: u64) -> Location {
        Location {
            source: 2,
            line,
            offset: line * 100,
            len: 90,
        }
    }

    fn cancelled(id: i64, method: &str) -> Request {
        let cancel = Cancel {
            location: at(3),
            seq: 9,
            stream: None,
            by_receiver: false,
        };
        Request {
            token: Some(ProgressToken(Key::Str("t".into()))),
            state: RequestState::CancelRequested,
            cancel: Some(Box::new(cancel)),
            last_progress: Some((0.5, at(2))),
            ..Request::new(RequestId(Key::Int(id)), method.to_string().into(), at(1), 7)
        }
    }

    #[test]
    fn a_record_takes_about_half_the_memory_of_an_open_request() {
        let record = std::mem::size_of::<(RequestId, Retired)>();
        let open = std::mem::size_of::<(RequestId, Box<Request>)>()
            + std::mem::size_of::<Request>()
            + std::mem::size_of::<Cancel>();
        assert!(record * 3 < open * 2, "{record} against {open}");
    }

    #[test]
    fn a_plain_cancelled_request_comes_back_as_it_retired() {
        let request = cancelled(5, "tools/call");
        let record = Retired::of(&request).expect("a plain request retires");
        let view = record.view(&request.id, 2);
        assert_eq!(
            (view.method, view.location, view.last_progress),
            ("tools/call", at(1), Some((0.5, at(2))))
        );
        let back = record.restore(request.id.clone(), 2);
        assert_eq!(format!("{back:?}"), format!("{request:?}"));
    }

    #[test]
    fn a_request_with_more_than_a_record_holds_stays_whole() {
        let unknown_method = cancelled(1, "x/custom");
        let on_a_stream = Request {
            stream: Some("s1".into()),
            ..cancelled(2, "tools/call")
        };
        let running = Request {
            state: RequestState::Running,
            ..cancelled(3, "tools/call")
        };
        for request in [unknown_method, on_a_stream, running] {
            assert!(Retired::of(&request).is_none(), "{request:?}");
        }
    }

    #[test]
    fn only_cancellations_older_than_the_latest_kept_whole_retire() {
        let mut open: HashMap<RequestId, Box<Request>> = HashMap::default();
        let mut retired = RetiredRequests::default();
        let count = CANCELLED_KEPT_WHOLE as i64 + 10;
        for n in 0..count {
            let request = cancelled(n, "tools/call");
            let id = request.id.clone();
            open.insert(id.clone(), Box::new(request));
            retired.note_cancelled(&id, &mut open);
        }
        assert_eq!((retired.len(), open.len()), (10, CANCELLED_KEPT_WHOLE));
        let first = RequestId(Key::Int(0));
        assert!(retired.get(&first).is_some() && !open.contains_key(&first));
        retired.restore(&first, 2, &mut open);
        assert!(retired.get(&first).is_none() && open.contains_key(&first));
    }

    /// The findings on the lines after `from`, as `rule severity` per line.
    fn late_findings(trace: &str, from: u64) -> Vec<Vec<String>> {
        let format = crate::decode::Format::Canonical;
        let events = crate::decode::decode_chunk(trace.as_bytes(), 0, 0, format).events;
        let mut engine = crate::rules::engine();
        engine.feed_all(&events);
        let (diagnostics, _) = engine.finish();
        let lines = events.len() as u64;
        (from..=lines)
            .map(|line| {
                let on_line = diagnostics.iter().filter(|d| d.location.line == line);
                on_line
                    .map(|d| format!("{} {}", d.rule.id, d.severity))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn late_messages_for_a_retired_request_find_what_they_find_for_a_whole_one() {
        let cancelled = CANCELLED_KEPT_WHOLE as u64 + 10;
        let mut trace = String::new();
        let mut line = |text: String| {
            trace.push_str(&text);
            trace.push('\n');
        };
        for id in 0..cancelled {
            line(format!(
                r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"x","_meta":{{"progressToken":"t{id}"}}}}}}}}"#
            ));
            line(format!(
                r#"{{"from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}}}"#
            ));
        }
        // The same late messages for the first request (retired) and the
        // last (whole): progress, a second cancellation, the answer, a
        // reuse of its id.
        for id in [0, cancelled - 1] {
            line(format!(
                r#"{{"from":"server","msg":{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"t{id}","progress":1}}}}}}"#
            ));
            line(format!(
                r#"{{"from":"client","msg":{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}}}"#
            ));
            line(format!(
                r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":{id},"result":{{"content":[]}}}}}}"#
            ));
            line(format!(
                r#"{{"from":"client","msg":{{"jsonrpc":"2.0","id":{id},"method":"ping"}}}}"#
            ));
        }
        let found = late_findings(&trace, 2 * cancelled + 1);
        let (retired, whole) = found.split_at(4);
        assert_eq!(retired, &whole[..4]);
        let rules: Vec<&String> = retired.iter().flatten().collect();
        for expected in [
            "progress-after-terminal",
            "cancel-duplicate",
            "response-after-cancel",
        ] {
            assert!(rules.iter().any(|r| r.starts_with(expected)), "{found:?}");
        }
    }
}
