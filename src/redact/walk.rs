//! The one walk over an input, line by line, for every format: a line is a
//! record (a JSON value in the format's shape), a line of text (a log's), or
//! the continuation of a value left open by the line before. Line endings
//! and line numbers stay as they were.

use super::context::Context;
use super::scan::{Scanner, PLACEHOLDER};
use super::sentence::Names;
use super::text::{self, TextLog};

/// What replaces a line that is not JSON in a JSON-lines trace: still not JSON.
pub(super) const NOT_JSON: &str = "<a line that is not JSON, redacted>";

/// Whether a value left open at the end of a line goes on in the next.
#[derive(Debug, Clone, Copy)]
pub(super) enum Continues {
    /// One JSON document.
    Always,
    /// A log's multi-line printout: its next lines are indented or close it.
    Indented,
    /// JSON lines: a value cut at the end of its line stays cut.
    Never,
}

/// How an input of one format is laid out.
#[derive(Debug)]
pub(super) struct Layout {
    /// The context of a JSON value that starts a line; `None`: such a line
    /// is text like any other.
    pub record: Option<Context>,
    /// The log a line of text belongs to; `None`: a line that is not a
    /// record is replaced whole.
    pub text: Option<&'static TextLog>,
    pub continues: Continues,
}

impl Layout {
    fn goes_on(&self, line: &str) -> bool {
        match self.continues {
            Continues::Always => true,
            Continues::Indented => line.starts_with([' ', '\t', '}', ']']),
            Continues::Never => false,
        }
    }
}

struct Walker<'a> {
    layout: &'a Layout,
    open: Option<Scanner>,
    names: Names,
}

impl Walker<'_> {
    fn line(&mut self, line: &str, out: &mut String) {
        if let Some(mut scanner) = self.open.take() {
            if self.layout.goes_on(line) {
                match scanner.feed(line, &mut self.names, out) {
                    Some(len) => self.after_value(&line[len..], out),
                    None => self.open = Some(scanner),
                }
                return;
            }
        }
        let indent = line.len() - line.trim_start().len();
        // In a log, a record is a printed value, not a line's `[tag]`.
        let is_record = match self.layout.text {
            Some(_) => text::opens_value(&line[indent..]),
            None => line[indent..].starts_with(['{', '[']),
        };
        match self.layout.record {
            Some(context) if is_record => {
                out.push_str(&line[..indent]);
                let mut scanner = Scanner::new(context);
                match scanner.feed(&line[indent..], &mut self.names, out) {
                    Some(len) => self.after_value(&line[indent + len..], out),
                    None => self.keep_open(scanner),
                }
            }
            _ => match self.layout.text {
                Some(log) => self.open = text::line(line, log, &mut self.names, out),
                None if line.trim().is_empty() => out.push_str(line),
                None => out.push_str(NOT_JSON),
            },
        }
    }

    /// The value a document starts with, read whole, so that a member can be
    /// seen before its sibling (a header's name before its value); its
    /// newlines are copied. Returns where the lines after it start (0 when
    /// the document does not start with a value), `None` when it never ends.
    fn document(&mut self, text: &str, out: &mut String) -> Option<usize> {
        let indent = text.len() - text.trim_start().len();
        let context = self
            .layout
            .record
            .filter(|_| text[indent..].starts_with(['{', '[']));
        let Some(context) = context else {
            return Some(0);
        };
        out.push_str(&text[..indent]);
        let end = indent + Scanner::new(context).feed(&text[indent..], &mut self.names, out)?;
        let line_end = text[end..]
            .find(['\r', '\n'])
            .map_or(text.len(), |at| end + at);
        self.after_value(&text[end..line_end], out);
        Some(line_end)
    }

    fn keep_open(&mut self, scanner: Scanner) {
        if !matches!(self.layout.continues, Continues::Never) {
            self.open = Some(scanner);
        }
    }

    /// The rest of a line after a value: a log's text, or (in JSON lines)
    /// text that keeps the line from being JSON, without its words.
    fn after_value(&mut self, rest: &str, out: &mut String) {
        match self.layout.text {
            Some(log) => self.open = text::payloads(rest, log.glue(), &mut self.names, out),
            None if rest.trim().is_empty() => out.push_str(rest),
            None => {
                out.push(' ');
                out.push_str(PLACEHOLDER);
            }
        }
    }
}

/// Every line of `bytes` with its ending (LF or CRLF).
fn lines_with_endings(bytes: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    bytes
        .split_inclusive(|b| *b == b'\n')
        .map(|piece| match piece {
            [line @ .., b'\r', b'\n'] => (line, &b"\r\n"[..]),
            [line @ .., b'\n'] => (line, &b"\n"[..]),
            line => (line, &b""[..]),
        })
}

/// An input redacted line for line. A line that is not UTF-8 is replaced
/// whole: it is reported as unreadable either way.
pub(super) fn walk_bytes(bytes: &[u8], layout: &Layout) -> Vec<u8> {
    let mut walker = Walker {
        layout,
        open: None,
        names: Names::default(),
    };
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    if let (Continues::Always, Ok(text)) = (layout.continues, std::str::from_utf8(bytes)) {
        match walker.document(text, &mut out) {
            Some(len) => rest = &bytes[len..],
            None => return out.into_bytes(),
        }
    }
    for (line, ending) in lines_with_endings(rest) {
        match std::str::from_utf8(line) {
            Ok(line) => walker.line(line, &mut out),
            Err(_) => {
                walker.open = None;
                out.push_str(NOT_JSON);
            }
        }
        out.push_str(std::str::from_utf8(ending).unwrap_or("\n"));
    }
    out.into_bytes()
}

/// A text redacted line for line.
pub(super) fn walk(text: &str, layout: &Layout) -> String {
    String::from_utf8(walk_bytes(text.as_bytes(), layout)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::context::Shape;

    static ENVELOPE: Shape = Shape {
        members: &[("msg", Context::Message)],
        others: Context::Keep,
    };

    fn walked(text: &str, continues: Continues) -> String {
        let layout = Layout {
            record: Some(Context::Shape(&ENVELOPE)),
            text: None,
            continues,
        };
        walk(text, &layout)
    }

    #[test]
    fn json_lines_keep_their_lines_and_broken_ones_stay_broken() {
        assert_eq!(
            walked(
                "{\"ts\":\"x\",\"msg\":{\"id\":1,\"result\":{\"a\":\"b\"}}}\r\nnot json\n{\"msg\":{\"id\":2,\"x\":\"cut\n{\"msg\":1} tail\n",
                Continues::Never
            ),
            "{\"ts\":\"x\",\"msg\":{\"id\":1,\"result\":{\"a\":\"redacted\"}}}\r\n<a line that is not JSON, redacted>\n{\"msg\":{\"id\":2,\"x\":\"redacted\n{\"msg\":0} redacted\n"
        );
    }

    #[test]
    fn a_document_goes_on_over_its_lines() {
        assert_eq!(
            walked(
                "{\n  \"ts\": 1,\n  \"msg\": {\n    \"name\": \"s\"\n  }\n}\n",
                Continues::Always
            ),
            "{\n  \"ts\": 1,\n  \"msg\": {\n    \"name\": \"redacted\"\n  }\n}\n"
        );
        assert_eq!(
            walked("{\n  \"ts\": 1\n} junk\r\nmore\n", Continues::Always),
            "{\n  \"ts\": 1\n} redacted\r\n<a line that is not JSON, redacted>\n"
        );
        assert_eq!(
            walked("# not a document\n\n{\"ts\":1}\n", Continues::Always),
            "<a line that is not JSON, redacted>\n\n{\"ts\":1}\n"
        );
    }
}
