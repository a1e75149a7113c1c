//! Primitives over JSON text that more than one stage reads: string
//! contents unescaped as serde_json reads them.

/// The value of a JSON string's contents, as serde_json reads it (`None`
/// for a `\u` escape that is a lone surrogate), built in one copy: bodies
/// that are JSON inside JSON strings hold an escape every few bytes. The
/// contents come from a parsed document, so every other escape is well
/// formed; anything else also gives `None`, never a panic.
pub(crate) fn unescape(escaped: &str) -> Option<String> {
    let bytes = escaped.as_bytes();
    let mut value = String::with_capacity(escaped.len());
    let mut from = 0;
    while let Some(found) = memchr::memchr(b'\\', &bytes[from..]) {
        let at = from + found;
        value.push_str(&escaped[from..at]);
        let (unescaped, len) = escape_at(bytes, at)?;
        value.push(unescaped);
        from = at + len;
    }
    value.push_str(&escaped[from..]);
    Some(value)
}

/// The character that the escape starting at `at` stands for, and the
/// escape's length.
fn escape_at(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    let simple = match *bytes.get(at + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return unicode_escape_at(bytes, at),
        _ => return None,
    };
    Some((simple, 2))
}

/// A `\u` escape at `at`: one code point, or a surrogate pair of two escapes.
fn unicode_escape_at(bytes: &[u8], at: usize) -> Option<(char, usize)> {
    const LEADING: std::ops::Range<u32> = 0xD800..0xDC00;
    const TRAILING: std::ops::Range<u32> = 0xDC00..0xE000;
    let first = hex_escape_at(bytes, at)?;
    if !LEADING.contains(&first) {
        // A lone trailing surrogate is no char either.
        return char::from_u32(first).map(|c| (c, 6));
    }
    let second = hex_escape_at(bytes, at + 6).filter(|n| TRAILING.contains(n))?;
    char::from_u32(0x10000 + ((first - LEADING.start) << 10) + (second - TRAILING.start))
        .map(|c| (c, 12))
}

/// The number a `\uXXXX` escape at `at` spells.
fn hex_escape_at(bytes: &[u8], at: usize) -> Option<u32> {
    let escape = bytes.get(at..at + 6)?;
    let digits = escape.strip_prefix(b"\\u")?;
    digits.iter().try_fold(0, |n, &digit| {
        let value = (digit as char).to_digit(16)?;
        Some(n * 16 + value)
    })
}
