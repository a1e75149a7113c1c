//! Findings that rest on the order of the messages say so when the
//! timestamps of the trace disagree with that order.

use crate::diagnostic::Diagnostic;

/// Adds a note to the order findings on a message whose timestamp `time`
/// is earlier than `previous`, that of the session's message before it.
pub(super) fn note_disorder(found: &mut [Diagnostic], time: Option<f64>, previous: Option<f64>) {
    let (Some(time), Some(previous)) = (time, previous) else {
        return;
    };
    if time >= previous {
        return;
    }
    let note = words!(
        "this message's timestamp is {} ms earlier than that of the message before it: \
         the timestamps disagree with the order of the messages in the trace, which this finding follows",
        (previous - time).round()
    );
    for diagnostic in found.iter_mut().filter(|d| d.rule.order_dependent) {
        diagnostic.note = Some(match diagnostic.note.take() {
            Some(own) => words!("{}; {}", own, note.clone()),
            None => note.clone(),
        });
    }
}
