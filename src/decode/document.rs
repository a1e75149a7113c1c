//! Inputs that are one JSON document (a HAR file, an MCP Inspector export):
//! parsed once, borrowing from the input, with problems located at a line.

use serde::Deserialize;

use super::http::LineMap;
use super::json::JsonText;
use crate::event::{Event, Unreadable};

/// Byte offset of a borrowed value inside the document it was parsed from.
pub(crate) fn offset_of<'a>(document: &[u8], raw: impl JsonText<'a>) -> usize {
    (raw.text().as_ptr() as usize).saturating_sub(document.as_ptr() as usize)
}

/// Bytes before a problem that its quote shows.
const PROBLEM_CONTEXT: usize = 60;

/// Byte offset where 1-based `line` starts.
fn offset_of_line(bytes: &[u8], line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    memchr::memchr_iter(b'\n', bytes)
        .nth(line - 2)
        .map_or(bytes.len(), |p| p + 1)
}

/// Parses a whole document as `T`. When it cannot be read, the error is the
/// one event to report, at the line of the problem: `what` names the file
/// ("the HAR file") and `shape` what it should have been ("a valid HAR 1.2
/// file"). A blank input gives no event: there is nothing in it to report.
pub(crate) fn parse<'a, T: Deserialize<'a>>(
    bytes: &'a [u8],
    source: u32,
    what: &str,
    shape: &str,
) -> Result<T, Vec<Event>> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Vec::new());
    }
    let at = |offset: usize, why: Unreadable| {
        // A quote of a long line starts at the offset it locates: start a
        // little before the problem, in its line, to show what leads to it.
        let line_start = memchr::memrchr(b'\n', &bytes[..offset]).map_or(0, |p| p + 1);
        let offset = offset.saturating_sub(PROBLEM_CONTEXT).max(line_start);
        let lines = LineMap::new(bytes, source, vec![offset]);
        vec![Event::unreadable(lines.locate(offset), why)]
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        at(
            e.valid_up_to(),
            Unreadable::Json(format!(
                "{what} is not valid UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            )),
        )
    })?;
    serde_json::from_str(text).map_err(|e| {
        let why = match e.classify() {
            serde_json::error::Category::Data => Unreadable::Envelope(format!("not {shape}: {e}")),
            _ => Unreadable::Json(format!("{what} is not valid JSON: {e}")),
        };
        // The column too: in a one-line document the line is the whole file.
        let offset = offset_of_line(bytes, e.line()) + e.column().saturating_sub(1);
        at(offset.min(bytes.len()), why)
    })
}
