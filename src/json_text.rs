//! Primitives over JSON text that more than one stage reads: string
//! contents unescaped as serde_json reads them, where a string ends, and
//! the members of an object already known to be valid JSON.

use std::borrow::Cow;

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

/// The closing quote of the string whose contents start at `at`, and
/// whether the contents hold an escape; `None` when the string is not
/// closed or holds a raw control character.
pub(crate) fn string_end(bytes: &[u8], mut at: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        at += plain_run(bytes.get(at..)?);
        match *bytes.get(at)? {
            b'"' => return Some((at, escaped)),
            b'\\' => {
                // The escaped byte is skipped here and checked by unescape.
                escaped = true;
                at += 2;
            }
            _ => return None,
        }
    }
}

/// How many bytes from the start are none of `"`, `\` and the controls,
/// read eight at a time.
fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    // The lowest byte flagged is exact (a borrow only spoils bytes above it).
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS;
    let equal = |word: u64, n: u8| below(word ^ (ONES * u64::from(n)), 1);
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let special = equal(word, b'"') | equal(word, b'\\') | below(word, 0x20);
        if special != 0 {
            return at + (special.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let rest = bytes[at..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20);
    at + rest.unwrap_or(bytes.len() - at)
}

/// The value of a JSON string written with its quotes (`None` for other
/// text, or a lone surrogate).
pub(crate) fn string_value(text: &str) -> Option<Cow<'_, str>> {
    contents(text.strip_prefix('"')?.strip_suffix('"')?)
}

/// The value of a string's contents as written: valid JSON without a
/// backslash holds its value as it is, so most ids, methods and names are
/// read without a parser.
pub(crate) fn contents(inside: &str) -> Option<Cow<'_, str>> {
    match memchr::memchr(b'\\', inside.as_bytes()) {
        None => Some(Cow::Borrowed(inside)),
        Some(_) => unescape(inside).map(Cow::Owned),
    }
}

/// The values of the members `names` of an object's valid text (`None`
/// for one absent), or `None` when one of them is written twice or a
/// member's name cannot be read, as serde_json refuses such an object.
pub(crate) fn find_members<'a, const N: usize>(
    object: &'a str,
    names: [&str; N],
) -> Option<[Option<&'a str>; N]> {
    let mut found = [None; N];
    for (name, value) in members(object) {
        let name = contents(name)?;
        if let Some(index) = names.iter().position(|wanted| *wanted == name) {
            if found[index].replace(value).is_some() {
                return None;
            }
        }
    }
    Some(found)
}

/// The members of an object, as written: each name without its quotes
/// (escapes kept) and the text of its value. The text must be valid JSON,
/// such as a member of a line that parsed: values are skipped without
/// being checked. Text that is not valid gives members that end early,
/// never a panic.
pub(crate) fn members(object: &str) -> Members<'_> {
    // Text that is not an object has no member.
    let at = if object.starts_with('{') {
        1
    } else {
        object.len()
    };
    Members { text: object, at }
}

pub(crate) struct Members<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.text.as_bytes();
        self.at = skip_space(bytes, self.at);
        if bytes.get(self.at) == Some(&b',') {
            self.at = skip_space(bytes, self.at + 1);
        }
        if bytes.get(self.at) != Some(&b'"') {
            self.at = bytes.len();
            return None;
        }
        let (name_end, _) = string_end(bytes, self.at + 1)?;
        let name = &self.text[self.at + 1..name_end];
        let colon = skip_space(bytes, name_end + 1);
        if bytes.get(colon) != Some(&b':') {
            self.at = bytes.len();
            return None;
        }
        let start = skip_space(bytes, colon + 1);
        let end = value_end(bytes, start)?;
        self.at = end;
        Some((name, &self.text[start..end]))
    }
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// Where the valid JSON value that starts at `at` ends.
fn value_end(bytes: &[u8], at: usize) -> Option<usize> {
    match *bytes.get(at)? {
        b'"' => string_end(bytes, at + 1).map(|(end, _)| end + 1),
        b'{' | b'[' => container_end(bytes, at),
        _ => {
            let scalar = bytes[at..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'));
            Some(at + scalar.unwrap_or(bytes.len() - at))
        }
    }
}

/// Where the object or array that opens at `at` closes, past its bracket.
fn container_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
    loop {
        match *bytes.get(at)? {
            b'"' => at = string_end(bytes, at + 1)?.0,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
        at += 1;
    }
}
