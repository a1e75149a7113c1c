//! Text from a trace is untrusted: it must never reach a terminal raw.

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

fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A lossy, escaped, length-limited rendering of raw bytes for display.
pub fn display_bytes(bytes: &[u8], max_chars: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let escaped = escape_controls(&text);
    match escaped.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{} …", &escaped[..cut]),
        None => escaped.into_owned(),
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
        assert!(matches!(escape_controls("plain é"), Cow::Borrowed(_)));
    }

    #[test]
    fn display_is_cut_and_lossy() {
        assert_eq!(display_bytes(b"abcdef", 3), "abc …");
        assert_eq!(display_bytes(b"a\xffb", 10), "a\u{fffd}b");
    }
}
