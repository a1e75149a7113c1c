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
///
/// Its cost is bounded by `max_chars`, not by the input: a long line is
/// quoted once per finding on it, and may hold thousands of findings.
pub fn display_bytes(bytes: &[u8], max_chars: usize) -> String {
    // Each shown character takes at most 4 bytes: the bytes past these
    // cannot change the result, and validating UTF-8 alone would read them.
    let bytes = &bytes[..bytes
        .len()
        .min(max_chars.saturating_add(1).saturating_mul(4))];
    let mut shown = String::new();
    let mut count = 0;
    'input: for chunk in bytes.utf8_chunks() {
        // Like `String::from_utf8_lossy`: one U+FFFD per invalid sequence.
        let replacement = (!chunk.invalid().is_empty()).then_some('\u{fffd}');
        for c in chunk.valid().chars().chain(replacement) {
            if count > max_chars {
                break 'input;
            }
            let before = shown.len();
            if is_unsafe(c) {
                let _ = write!(shown, "\\u{{{:x}}}", c as u32);
                count += shown.len() - before; // an escape is ASCII
            } else {
                shown.push(c);
                count += 1;
            }
        }
    }
    match shown.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{} …", &shown[..cut]),
        None => shown,
    }
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
        assert_eq!(display_bytes(b"abc", 3), "abc");
        assert_eq!(display_bytes(b"a\xffb", 10), "a\u{fffd}b");
        assert_eq!(
            display_bytes(b"a\xff\xfe\xe2\x82b", 10),
            "a\u{fffd}\u{fffd}\u{fffd}b"
        );
        // An escape counts by the characters it shows, and may be cut.
        assert_eq!(display_bytes(b"a\x1bbc", 4), "a\\u{ …");
        assert_eq!(display_bytes("é\u{202e}".as_bytes(), 20), "é\\u{202e}");
    }

    #[test]
    fn display_costs_what_it_shows_not_what_it_is_given() {
        // A line is quoted once per finding on it: 10,000 quotes of a 64 MiB
        // line would take minutes if each read the whole line.
        let line = "é".repeat(32 << 20);
        let shown = format!("{} …", "é".repeat(160));
        for _ in 0..10_000 {
            assert_eq!(display_bytes(line.as_bytes(), 160), shown);
        }
        // A cut inside a character past the width changes nothing.
        assert_eq!(display_bytes(&line.as_bytes()[..645], 160), shown);
    }

    #[test]
    fn display_is_the_lossy_escaped_text_cut() {
        let samples: [&[u8]; 4] = [
            b"plain text",
            b"\x1b[31mred\x1b[0m",
            b"\xc3\xa9\xff\x00z",
            "\u{202e}x\u{85}".as_bytes(),
        ];
        for bytes in samples {
            let whole = escape_controls(&String::from_utf8_lossy(bytes)).into_owned();
            for max in 0..whole.chars().count() + 2 {
                let expected = match whole.char_indices().nth(max) {
                    Some((cut, _)) => format!("{} …", &whole[..cut]),
                    None => whole.clone(),
                };
                assert_eq!(display_bytes(bytes, max), expected, "{bytes:?} {max}");
            }
        }
    }

    #[test]
    fn truncation_cuts_without_escaping() {
        assert_eq!(truncate("a\u{1b}bcd", 3), "a\u{1b}b …");
        assert!(matches!(truncate("abc", 3), Cow::Borrowed("abc")));
    }
}
