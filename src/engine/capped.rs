//! A file that is mostly not a trace must not bury its report: after
//! [`CAP`] unreadable lines of one kind in an input, the rest are counted,
//! and one line at the end says how many were left out.

use crate::event::{Event, Location, Payload, Unreadable};

/// Unreadable lines of one kind reported one by one, per input.
pub const CAP: u64 = 20;

/// The unreadable lines of one kind seen in an input.
#[derive(Default)]
struct Count {
    seen: u64,
    /// The first line left out.
    first_left_out: Option<Location>,
}

/// The unreadable lines of one input, by kind (not JSON; not a valid record).
#[derive(Default)]
pub struct Capped {
    json: Count,
    envelope: Count,
}

impl Capped {
    /// Counts an unreadable event, and says whether it is still to be reported.
    pub fn admit(&mut self, event: &Event) -> bool {
        let count = match &event.payload {
            Payload::Unreadable(Unreadable::Json(_)) => &mut self.json,
            Payload::Unreadable(Unreadable::Envelope(_)) => &mut self.envelope,
            _ => return true,
        };
        count.seen += 1;
        if count.seen > CAP && count.first_left_out.is_none() {
            count.first_left_out = Some(event.location);
        }
        count.seen <= CAP
    }

    /// One event per kind over the cap, at its first line left out, saying
    /// how many lines were left out.
    pub fn summaries(&self) -> Vec<Event> {
        let summary = |count: &Count, what: [&str; 2], kind: fn(String) -> Unreadable| {
            let location = count.first_left_out?;
            let more = count.seen - CAP;
            let what = what[usize::from(more != 1)];
            let why = format!("and {more} more {what} (only the first {CAP} are listed)");
            Some(Event::unreadable(location, kind(why)))
        };
        [
            summary(
                &self.json,
                ["line that is not JSON", "lines that are not JSON"],
                Unreadable::Json,
            ),
            // A record is a line, or an entry of a document (HAR, Inspector).
            summary(
                &self.envelope,
                ["record that is not valid", "records that are not valid"],
                Unreadable::Envelope,
            ),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}
