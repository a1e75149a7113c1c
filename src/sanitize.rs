//! Text from a trace is untrusted: it must never reach a terminal raw.
//!
//! Rules word findings with the trace's text as it is; each report format
//! neutralizes it once, with the one set of characters [`is_unsafe`] names:
//! terminal formats as visible `\u{..}` escapes, JSON formats as `\uXXXX`.

use std::borrow::Cow;
use std::fmt::Write;

/// Replaces control characters (C0, DEL, C1, and the bidi overrides that can
/// reorder what a terminal shows) with visible escapes such as `\u{1b}`.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Characters that can hide or reorder what a reader sees: controls (C0,
/// DEL, C1), zero-width and direction marks, bidi embeddings, overrides and
/// isolates, line and paragraph separators, and the byte-order mark.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// A lossy, escaped, length-limited rendering of raw bytes for display.
pub fn display_bytes(bytes: &[u8], max_chars: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    truncate(&escape_controls(&text), max_chars).into_owned()
}

/// The first `max_chars` characters of `text`, marked with ` …` when cut;
/// nothing is escaped (for findings, which the report escapes).
pub fn truncate(text: &str, max_chars: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => Cow::Owned(format!("{} …", &text[..cut])),
        None => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_controls() {
        assert_eq!(escape_controls("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(escape_controls("tab\there"), "tab\\u{9}here");
        assert_eq!(escape_controls("rtl\u{202e}x"), "rtl\\u{202e}x");
        assert_eq!(escape_controls("zero\u{200b}width"), "zero\\u{200b}width");
        assert_eq!(escape_controls("isolate\u{2067}"), "isolate\\u{2067}");
        assert!(matches!(escape_controls("plain é"), Cow::Borrowed(_)));
    }

    #[test]
    fn display_is_cut_and_lossy() {
        assert_eq!(display_bytes(b"abcdef", 3), "abc …");
        assert_eq!(display_bytes(b"a\xffb", 10), "a\u{fffd}b");
    }

    #[test]
    fn truncation_cuts_without_escaping() {
        assert_eq!(truncate("a\u{1b}bcd", 3), "a\u{1b}b …");
        assert!(matches!(truncate("abc", 3), Cow::Borrowed("abc")));
    }
}
