//! Primitives over JSON text that more than one stage reads: string
//! contents unescaped as serde_json reads them, where a string ends, the
//! members of an object already known to be valid JSON, and a scanner that
//! walks text not yet checked (`checked_*`), accepting exactly what
//! serde_json accepts when it skips a value, so decoders read a line in one
//! pass and leave to serde_json only what they do not read themselves.

use std::borrow::Cow;

/// The value of a JSON string's contents, as serde_json reads it (`None`
/// for a `\u` escape that is a lone surrogate), built in one copy: bodies
/// that are JSON inside JSON strings hold an escape every few bytes. The
/// contents come from a parsed document, so every other escape is well
/// formed; anything else also gives `None`, never a panic.
pub(crate) fn unescape(escaped: &str) -> Option<String> {
    let bytes = escaped.as_bytes();
    let mut value = Unescaped {
        // Never longer than the escaped text, and room to copy sixteen
        // bytes past its end.
        bytes: vec![0; bytes.len() + 16],
        len: 0,
    };
    let mut read = 0;
    // Escapes every few bytes: found 64 bytes at a time.
    let mut block = 0;
    while let Some(chunk) = bytes.get(block..block + 64) {
        let mut backslashes = SpecialBytes::of(chunk.try_into().expect("64 bytes")).backslashes;
        while backslashes != 0 {
            let at = block + backslashes.trailing_zeros() as usize;
            backslashes &= backslashes - 1;
            // A backslash before `read` was part of the last escape.
            if at >= read {
                read = value.push_escaped(bytes, read, at)?;
            }
        }
        block += 64;
    }
    while let Some(found) = memchr::memchr(b'\\', &bytes[read.max(block)..]) {
        read = value.push_escaped(bytes, read, read.max(block) + found)?;
    }
    value.push_run(bytes, read, bytes.len());
    value.bytes.truncate(value.len);
    String::from_utf8(value.bytes).ok()
}

/// A value being unescaped: its first `len` bytes.
struct Unescaped {
    bytes: Vec<u8>,
    len: usize,
}

impl Unescaped {
    /// Writes the text from `read` to the escape at `at`, then what the
    /// escape stands for; returns where the text goes on. Always inlined:
    /// a call per escape cost a quarter of the work.
    #[inline(always)]
    fn push_escaped(&mut self, text: &[u8], read: usize, at: usize) -> Option<usize> {
        self.push_run(text, read, at);
        let letter = *text.get(at + 1)?;
        let simple = SIMPLE_ESCAPES[letter as usize];
        if simple != 0 {
            self.bytes[self.len] = simple;
            self.len += 1;
            return Some(at + 2);
        }
        let (unescaped, len) = unicode_escape_at(text, at)?;
        self.len += unescaped.encode_utf8(&mut self.bytes[self.len..]).len();
        Some(at + len)
    }

    /// Writes `text[from..to]`. The runs between escapes are mostly short:
    /// sixteen bytes are copied at once where there are as many, those
    /// past the run to be written over.
    #[inline(always)]
    fn push_run(&mut self, text: &[u8], from: usize, to: usize) {
        let len = to - from;
        match text.get(from..from + 16) {
            Some(sixteen) if len <= 16 => {
                self.bytes[self.len..self.len + 16].copy_from_slice(sixteen)
            }
            _ => self.bytes[self.len..self.len + len].copy_from_slice(&text[from..to]),
        }
        self.len += len;
    }
}

/// The byte each simple escape's letter stands for (`\n`: a line feed),
/// 0 for the other bytes.
const SIMPLE_ESCAPES: [u8; 256] = {
    let mut table = [0; 256];
    let pairs = [
        (b'"', b'"'),
        (b'\\', b'\\'),
        (b'/', b'/'),
        (b'b', 0x8),
        (b'f', 0xc),
        (b'n', b'\n'),
        (b'r', b'\r'),
        (b't', b'\t'),
    ];
    let mut i = 0;
    while i < pairs.len() {
        table[pairs[i].0 as usize] = pairs[i].1;
        i += 1;
    }
    table
};

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
/// closed, holds a raw control character or a malformed escape. (A lone
/// surrogate passes, as it does in a string serde_json skips.)
pub(crate) fn string_end(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let at = at + plain_run(bytes.get(at..)?);
    match *bytes.get(at)? {
        b'"' => Some((at, false)),
        // JSON inside a JSON string holds an escape every few bytes: read
        // it in blocks rather than stop at each.
        b'\\' => escaped_string_end(bytes, at).map(|end| (end, true)),
        _ => None,
    }
}

/// [`string_end`] from `at`, which no escape has begun before, escape by
/// escape.
fn string_end_by_escapes(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        at += plain_run(bytes.get(at..)?);
        match *bytes.get(at)? {
            b'"' => return Some(at),
            b'\\' => at += escape_len(bytes, at)?,
            _ => return None,
        }
    }
}

/// [`string_end`] from an escape at `at`, 64 bytes at a time while there
/// are as many: which quotes are escaped follows from the runs of
/// backslashes before them (an odd run escapes the byte after it). Never
/// inlined: [`string_end`] stays small enough to save few registers on the
/// way in and out (most strings hold no escape).
#[inline(never)]
fn escaped_string_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    // Whether the block's first byte is escaped by the run ending the last.
    let mut carried = 0;
    while let Some(block) = bytes.get(at..at + 64) {
        let special = SpecialBytes::of(block.try_into().expect("64 bytes"));
        let escaped = escaped_bytes(special.backslashes, &mut carried);
        let ends = (special.quotes & !escaped) | special.controls;
        let upto = match ends {
            0 => u64::MAX,
            _ => (1 << ends.trailing_zeros()) - 1,
        };
        check_escapes(bytes, at, escaped & upto)?;
        if ends != 0 {
            let end = at + ends.trailing_zeros() as usize;
            return (bytes[end] == b'"').then_some(end);
        }
        at += 64;
    }
    // The rest, from the escape the last block left open, if any.
    string_end_by_escapes(bytes, at - carried as usize)
}

/// Whether each byte escaped in a block (bit `i` for byte `i`) is one an
/// escape may name, with four hex digits after a `u`.
fn check_escapes(bytes: &[u8], block: usize, mut escaped: u64) -> Option<()> {
    while escaped != 0 {
        let at = block + escaped.trailing_zeros() as usize;
        escaped &= escaped - 1;
        if SIMPLE_ESCAPES[bytes[at] as usize] == 0 {
            // A `\u` with four hex digits, or no escape at all.
            hex_escape_at(bytes, at - 1)?;
        }
    }
    Some(())
}

/// The bytes of a block escaped by the odd runs of backslashes that end
/// before them (bit `i` for byte `i`); `carried` is 1 when the run that
/// ends the block is odd, which escapes the next block's first byte (the
/// method of simdjson: Langdale and Lemire, "Parsing gigabytes of JSON per
/// second", 2019).
fn escaped_bytes(backslashes: u64, carried: &mut u64) -> u64 {
    const EVEN_BITS: u64 = 0x5555_5555_5555_5555;
    const ODD_BITS: u64 = !EVEN_BITS;
    let starts = backslashes & !(backslashes << 1);
    // A run that goes on from the last block starts escaped: its parity flips.
    let even_start_mask = EVEN_BITS ^ *carried;
    let even_starts = starts & even_start_mask;
    let odd_starts = starts & !even_start_mask;
    let even_carries = backslashes.wrapping_add(even_starts);
    let (mut odd_carries, ends_odd) = backslashes.overflowing_add(odd_starts);
    odd_carries |= *carried;
    *carried = u64::from(ends_odd);
    let even_carry_ends = even_carries & !backslashes;
    let odd_carry_ends = odd_carries & !backslashes;
    (even_carry_ends & ODD_BITS) | (odd_carry_ends & EVEN_BITS)
}

/// Where a block of 64 bytes holds quotes, backslashes and controls.
struct SpecialBytes {
    quotes: u64,
    backslashes: u64,
    controls: u64,
}

impl SpecialBytes {
    #[cfg(target_arch = "x86_64")]
    fn of(block: &[u8; 64]) -> Self {
        let mut special = SpecialBytes {
            quotes: 0,
            backslashes: 0,
            controls: 0,
        };
        for (k, part) in block.chunks_exact(16).enumerate() {
            let [quotes, backslashes, controls] =
                special_in_sixteen(part.try_into().expect("16 bytes")).map(u64::from);
            special.quotes |= quotes << (16 * k);
            special.backslashes |= backslashes << (16 * k);
            special.controls |= controls << (16 * k);
        }
        special
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn of(block: &[u8; 64]) -> Self {
        let mask = |wanted: fn(u8) -> bool| {
            (block.iter().enumerate()).fold(0, |mask, (i, &b)| mask | u64::from(wanted(b)) << i)
        };
        SpecialBytes {
            quotes: mask(|b| b == b'"'),
            backslashes: mask(|b| b == b'\\'),
            controls: mask(|b| b < 0x20),
        }
    }
}

/// The length of the well-formed escape at `at`.
fn escape_len(bytes: &[u8], at: usize) -> Option<usize> {
    match SIMPLE_ESCAPES[*bytes.get(at + 1)? as usize] {
        0 => hex_escape_at(bytes, at).map(|_| 6),
        _ => Some(2),
    }
}

/// How many bytes from the start are none of `"`, `\` and the controls,
/// read sixteen at a time (most strings end in the first sixteen).
#[cfg(target_arch = "x86_64")]
fn plain_run(bytes: &[u8]) -> usize {
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 16) {
        let [quotes, backslashes, controls] =
            special_in_sixteen(chunk.try_into().expect("16 bytes"));
        let special = quotes | backslashes | controls;
        if special != 0 {
            return at + special.trailing_zeros() as usize;
        }
        at += 16;
    }
    at + plain_run_by_words(&bytes[at..])
}

/// Where sixteen bytes hold quotes, backslashes and controls (bit `i` for
/// byte `i`), with SSE2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn special_in_sixteen(chunk: &[u8; 16]) -> [u16; 3] {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_set1_epi8,
    };
    // SAFETY: SSE2 is part of x86_64, and the load reads the sixteen bytes
    // of `chunk` (unaligned loads are allowed).
    unsafe {
        let word = _mm_loadu_si128(chunk.as_ptr().cast());
        // A byte is a control when the unsigned max with 0x1f leaves 0x1f.
        let last_control = _mm_set1_epi8(0x1f);
        [
            _mm_cmpeq_epi8(word, _mm_set1_epi8(b'"' as i8)),
            _mm_cmpeq_epi8(word, _mm_set1_epi8(b'\\' as i8)),
            _mm_cmpeq_epi8(_mm_max_epu8(word, last_control), last_control),
        ]
        .map(|mask| _mm_movemask_epi8(mask) as u16)
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn plain_run(bytes: &[u8]) -> usize {
    plain_run_by_words(bytes)
}

/// [`plain_run`], eight bytes at a time in a machine word.
fn plain_run_by_words(bytes: &[u8]) -> usize {
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

/// `bytes` as text, checked with SIMD instructions (simdutf8: the standard
/// check took 1.3% of a trace's instructions); the standard check runs only
/// on failure, for where the first invalid byte is.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(_) => std::str::from_utf8(bytes),
    }
}

/// The value of a JSON string written with its quotes (`None` for other
/// text, or a lone surrogate).
pub(crate) fn string_value(text: &str) -> Option<Cow<'_, str>> {
    contents(text.strip_prefix('"')?.strip_suffix('"')?)
}

/// The string whose opening quote is at `at`, and where it ends (past its
/// closing quote); `None` where no valid string starts there. Its contents
/// are borrowed unless they hold an escape.
pub(crate) fn string_at(text: &str, at: usize) -> Option<(Cow<'_, str>, usize)> {
    if text.as_bytes().get(at) != Some(&b'"') {
        return None;
    }
    let (end, escaped) = string_end(text.as_bytes(), at + 1)?;
    let inside = &text[at + 1..end];
    let value = match escaped {
        false => Cow::Borrowed(inside),
        true => Cow::Owned(unescape(inside)?),
    };
    Some((value, end + 1))
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
        keep(&mut found, index_in(names, name)?, value)?;
    }
    Some(found)
}

/// Which of `names` a member's name is (`Some(None)` for none of them);
/// `None` for a name that cannot be read.
fn index_in<const N: usize>(names: [&str; N], name: Name<'_>) -> Option<Option<usize>> {
    match name.escaped {
        false => Some(position_in(names, name.written)),
        true => escaped_index_in(names, name),
    }
}

/// [`index_in`] for a name written with an escape; never inlined, so that
/// reading the usual name saves few registers on the way in and out.
#[inline(never)]
fn escaped_index_in<const N: usize>(names: [&str; N], name: Name<'_>) -> Option<Option<usize>> {
    Some(position_in(names, &name.value()?))
}

fn position_in<const N: usize>(names: [&str; N], name: &str) -> Option<usize> {
    (names.iter()).position(|wanted| same_bytes(wanted.as_bytes(), name.as_bytes()))
}

/// Whether two byte strings are equal. Names (of members, methods) are
/// short: up to sixteen bytes are compared in two machine words that may
/// overlap, not by a call to `memcmp` (which cost 4% of a lint's time).
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let eight = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8"));
    let four = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().expect("4"));
    match n {
        8..=16 => eight(a, 0) == eight(b, 0) && eight(a, n - 8) == eight(b, n - 8),
        4..=7 => four(a, 0) == four(b, 0) && four(a, n - 4) == four(b, n - 4),
        _ => a == b,
    }
}

/// Keeps the value of the member at `index` of the names, if any; `None`
/// when that member was already found (serde_json refuses it twice).
fn keep<'a, const N: usize>(
    found: &mut [Option<&'a str>; N],
    index: Option<usize>,
    value: &'a str,
) -> Option<()> {
    match index {
        Some(index) if found[index].replace(value).is_some() => None,
        _ => Some(()),
    }
}

/// A member's name as written, without its quotes.
#[derive(Clone, Copy)]
pub(crate) struct Name<'a> {
    written: &'a str,
    escaped: bool,
}

impl<'a> Name<'a> {
    /// The name, unescaped; `None` for a name serde_json cannot read (a
    /// lone surrogate).
    pub(crate) fn value(self) -> Option<Cow<'a, str>> {
        match self.escaped {
            false => Some(Cow::Borrowed(self.written)),
            true => unescape(self.written).map(Cow::Owned),
        }
    }
}

/// The members of an object, as written: each name and the text of its
/// value. The text must be valid JSON,
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
    type Item = (Name<'a>, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.text.as_bytes();
        self.at = skip_space(bytes, self.at);
        if bytes.get(self.at) == Some(&b',') {
            self.at = skip_space(bytes, self.at + 1);
        }
        let Some(head) = member_head(bytes, self.at) else {
            self.at = bytes.len();
            return None;
        };
        let name = name_of(self.text, self.at, &head);
        let start = skip_space(bytes, head.colon + 1);
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

/// Where the number that starts at `at` ends, written as JSON writes
/// numbers (its value is not read: serde_json skips a number of any size).
pub(crate) fn number_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut at = at + usize::from(bytes.get(at) == Some(&b'-'));
    at = match bytes.get(at)? {
        b'0' => at + 1,
        b'1'..=b'9' => digits_end(bytes, at),
        _ => return None,
    };
    if bytes.get(at) == Some(&b'.') {
        at = digits_after(bytes, at + 1)?;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        at += usize::from(matches!(bytes.get(at), Some(b'+' | b'-')));
        at = digits_after(bytes, at)?;
    }
    Some(at)
}

/// Where the run of digits from `at` ends.
fn digits_end(bytes: &[u8], at: usize) -> usize {
    let run = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    at + run
}

/// Like [`digits_end`], for a run that must hold a digit.
fn digits_after(bytes: &[u8], at: usize) -> Option<usize> {
    let end = digits_end(bytes, at.min(bytes.len()));
    (end > at).then_some(end)
}

/// How deep [`checked_value_end`] follows containers; deeper text is left
/// to serde_json, which skips values of any depth.
const CHECKED_DEPTH: u32 = u128::BITS;

/// Where the JSON value that starts at `at` ends, checked as serde_json
/// checks a value it skips: `None` when the text is not valid JSON there
/// (or nests deeper than [`CHECKED_DEPTH`]). Strings are skipped sixteen
/// bytes at a time and nothing is built, so a member no one reads costs a
/// scan.
pub(crate) fn checked_value_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    // A bit per open container, the innermost lowest: set for an object.
    let mut objects = 0u128;
    let mut depth = 0;
    loop {
        at = skip_space(bytes, at);
        let first = *bytes.get(at)?;
        match first {
            b'{' | b'[' if depth == CHECKED_DEPTH => return None,
            b'{' | b'[' => {
                let object = first == b'{';
                at = skip_space(bytes, at + 1);
                if bytes.get(at) != Some(if object { &b'}' } else { &b']' }) {
                    objects = objects << 1 | u128::from(object);
                    depth += 1;
                    if object {
                        at = member_value_start(bytes, at)?;
                    }
                    continue;
                }
                at += 1;
            }
            b'"' => at = string_end(bytes, at + 1)?.0 + 1,
            b't' => at = literal_end(bytes, at, b"true")?,
            b'f' => at = literal_end(bytes, at, b"false")?,
            b'n' => at = literal_end(bytes, at, b"null")?,
            _ => at = number_end(bytes, at)?,
        }
        // After a value: close what it ends, or go on past a comma.
        loop {
            if depth == 0 {
                return Some(at);
            }
            at = skip_space(bytes, at);
            let object = objects & 1 == 1;
            match *bytes.get(at)? {
                b',' if object => {
                    at = member_value_start(bytes, skip_space(bytes, at + 1))?;
                    break;
                }
                b',' => {
                    at += 1;
                    break;
                }
                b'}' if object => {}
                b']' if !object => {}
                _ => return None,
            }
            at += 1;
            objects >>= 1;
            depth -= 1;
        }
    }
}

/// Past the name and colon of the member that starts at `at`.
fn member_value_start(bytes: &[u8], at: usize) -> Option<usize> {
    member_head(bytes, at).map(|head| head.colon + 1)
}

/// Where a member's name ends and its colon is.
struct Head {
    /// The name's closing quote.
    name_end: usize,
    escaped: bool,
    colon: usize,
}

/// The head of the member that starts at `at` (the name's opening quote).
fn member_head(bytes: &[u8], at: usize) -> Option<Head> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let (name_end, escaped) = string_end(bytes, at + 1)?;
    let colon = skip_space(bytes, name_end + 1);
    (bytes.get(colon) == Some(&b':')).then_some(Head {
        name_end,
        escaped,
        colon,
    })
}

/// The name of the member whose head, at `at`, is `head`.
fn name_of<'a>(text: &'a str, at: usize, head: &Head) -> Name<'a> {
    Name {
        written: &text[at + 1..head.name_end],
        escaped: head.escaped,
    }
}

/// Past the literal `word` (`true`, `false`, `null`) at `at`, if it is there.
pub(crate) fn literal_end(bytes: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    bytes[at..].starts_with(word).then_some(at + word.len())
}

/// Walks the object that opens at `at`, checked as [`checked_value_end`]
/// checks it: `value` is given each member's name as written and where its
/// value starts, reads the value and says where it ends. Where the object
/// ends, past its `}`.
pub(crate) fn checked_object<'a>(
    text: &'a str,
    at: usize,
    mut value: impl FnMut(Name<'a>, usize) -> Option<usize>,
) -> Option<usize> {
    let bytes = text.as_bytes();
    checked_items(bytes, at, *b"{}", |at| {
        let head = member_head(bytes, at)?;
        value(name_of(text, at, &head), skip_space(bytes, head.colon + 1))
    })
}

/// [`checked_object`] for an array: `element` is given where each
/// element starts.
pub(crate) fn checked_array(
    text: &str,
    at: usize,
    element: impl FnMut(usize) -> Option<usize>,
) -> Option<usize> {
    checked_items(text.as_bytes(), at, *b"[]", element)
}

/// Walks the container that opens at `at` (with `open`, closed by `close`),
/// each item read by `item` from where it starts; where it ends.
fn checked_items(
    bytes: &[u8],
    at: usize,
    [open, close]: [u8; 2],
    mut item: impl FnMut(usize) -> Option<usize>,
) -> Option<usize> {
    if bytes.get(at) != Some(&open) {
        return None;
    }
    let mut at = skip_space(bytes, at + 1);
    if bytes.get(at) == Some(&close) {
        return Some(at + 1);
    }
    loop {
        at = skip_space(bytes, item(at)?);
        match *bytes.get(at)? {
            b',' => at = skip_space(bytes, at + 1),
            byte if byte == close => return Some(at + 1),
            _ => return None,
        }
    }
}

/// [`find_members`] for the object that opens at `at`, checked as
/// [`checked_value_end`] checks it, and where the object ends.
pub(crate) fn checked_members<'a, const N: usize>(
    text: &'a str,
    at: usize,
    names: [&str; N],
) -> Option<([Option<&'a str>; N], usize)> {
    checked_members_read_by(text, at, names, |_, start| {
        checked_value_end(text.as_bytes(), start)
    })
}

/// [`checked_members`], each value read by `read`: it is given the index
/// of the member's name in `names` (if any) and where the value starts,
/// and says where the value ends (checked), so that a member can be read
/// further in the same pass.
pub(crate) fn checked_members_read_by<'a, const N: usize>(
    text: &'a str,
    at: usize,
    names: [&str; N],
    mut read: impl FnMut(Option<usize>, usize) -> Option<usize>,
) -> Option<([Option<&'a str>; N], usize)> {
    let mut found = [None; N];
    let end = checked_object(text, at, |name, start| {
        let index = index_in(names, name)?;
        let end = read(index, start)?;
        keep(&mut found, index, &text[start..end])?;
        Some(end)
    })?;
    Some((found, end))
}

/// What `read` reads from the one value that `text` holds, white space
/// around it allowed: `read` is given where the value starts and says where
/// it ends.
pub(crate) fn read_whole<'a, T>(
    text: &'a str,
    read: impl FnOnce(&'a str, usize) -> Option<(T, usize)>,
) -> Option<T> {
    let bytes = text.as_bytes();
    let (value, end) = read(text, skip_space(bytes, 0))?;
    (skip_space(bytes, end) == bytes.len()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_tells_what_eq_tells_at_every_length_and_place() {
        let text: Vec<u8> = (0..40).map(|i| b'0' + i).collect();
        for n in 0..=36 {
            let a = &text[..n];
            assert!(same_bytes(a, a));
            assert!(!same_bytes(a, &text[..n + 1]));
            for at in 0..n {
                let mut b = a.to_vec();
                b[at] ^= 0x20;
                assert!(!same_bytes(a, &b), "{n} {at}");
            }
        }
    }

    #[test]
    fn utf8_tells_what_the_standard_check_tells_with_its_position() {
        let mut line = "{\"text\":\"caf\u{e9} \u{1f600}\"} ".repeat(9).into_bytes();
        assert_eq!(utf8(&line), std::str::from_utf8(&line));
        let valid = line.clone();
        // A stray continuation byte, a cut sequence and an overlong form, anywhere.
        for bad in [&[0x80][..], &[0xe2, 0x82], &[0xc0, 0xaf]] {
            for at in [0, 1, 31, 63, line.len() - bad.len()] {
                line.clone_from(&valid);
                line[at..at + bad.len()].copy_from_slice(bad);
                let expected = std::str::from_utf8(&line).map_err(|e| e.valid_up_to());
                assert_eq!(utf8(&line).map_err(|e| e.valid_up_to()), expected, "{at}");
                assert!(expected.is_err());
            }
        }
    }

    /// Whether serde_json reads `text` as one value when it skips it.
    fn serde_skips(text: &str) -> bool {
        serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
    }

    fn checked(text: &str) -> bool {
        read_whole(text, |text, at| {
            Some(((), checked_value_end(text.as_bytes(), at)?))
        })
        .is_some()
    }

    #[test]
    fn values_are_checked_as_serde_json_skips_them() {
        for text in [
            "0",
            "-0",
            "-",
            "01",
            "1.",
            "1.5e",
            "1e+5",
            "-1.5E-3",
            "\"\\ud800\"",
            "\"\\u00e\"",
            "\"\\a\"",
            "\"\u{1f}\"",
            "\"\u{7f}\"",
            "[1,]",
            "[,1]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "[[[]]]",
            "{\"a\":{\"b\":[true,false,null]}}",
            "nul",
            "truex",
            " [ ] ",
            "[1 2]",
            "{} {}",
            "",
        ] {
            assert_eq!(checked(text), serde_skips(text), "{text:?}");
        }
    }

    #[test]
    fn nesting_past_the_checked_depth_is_left_to_serde_json() {
        let deep = |n| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(checked(&deep(CHECKED_DEPTH as usize)));
        assert!(!checked(&deep(CHECKED_DEPTH as usize + 1)));
        assert!(serde_skips(&deep(CHECKED_DEPTH as usize + 1)));
    }

    /// Where a string ends, read escape by escape from its start.
    fn string_end_escape_by_escape(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
        let end = string_end_by_escapes(bytes, at)?;
        Some((end, bytes[at..end].contains(&b'\\')))
    }

    #[test]
    fn an_escaped_quote_at_a_block_boundary_does_not_end_the_string() {
        for len in 60..140 {
            for tail in ["\\\"x\"", "\\\\\"", "\\\\\\\"x\"", "\\u0041\"", "\\u00\""] {
                // Text after the string, so that a block can start past the boundary.
                let text = format!("\\n{}{tail}{}", "a".repeat(len), "b".repeat(64));
                let bytes = text.as_bytes();
                assert_eq!(
                    string_end(bytes, 0),
                    string_end_escape_by_escape(bytes, 0),
                    "{text:?}"
                );
            }
        }
    }

    proptest::proptest! {
        // An escape split by a block boundary is a few cases in a hundred.
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 4096,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Long strings dense with escapes unescape as serde_json reads them.
        #[test]
        fn escapes_unescape_as_serde_json_reads_them(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "a", "é", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u0041", "\\u00E9",
                "\\uD83D\\uDE00", "\\u2603", "sixteen or more bytes", "\\\\\\\"",
            ]), 0..120),
        ) {
            let inside = parts.concat();
            let serde = serde_json::from_str::<String>(&format!("\"{inside}\"")).ok();
            proptest::prop_assert_eq!(unescape(&inside), serde);
        }

        /// Strings dense with escapes end where reading them escape by
        /// escape ends them, in blocks or not, at every block boundary.
        #[test]
        fn strings_end_where_escape_by_escape_reading_ends_them(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "\\", "\\\\", "\\\\\\", "\\\"", "\\u00e9", "\\u12", "\\uD83D", "\\n",
                "u", "0", "a", "{", ":", " ", "é", "abcdefghijklmnopq",
            ]), 0..100),
            end in proptest::sample::select(vec!["\"", "\\x", "\u{1}", "\u{1f}", ""]),
            from in 0..64usize,
            after in 0..80usize,
        ) {
            // Text after the string: a block may start past its end.
            let text = format!("{}{end}{}", parts.concat(), "b".repeat(after));
            let bytes = text.as_bytes();
            let at = from.min(bytes.len());
            proptest::prop_assert_eq!(
                string_end(bytes, at),
                string_end_escape_by_escape(bytes, at),
                "{:?}", text
            );
        }
    }

    proptest::proptest! {
        /// Any text over JSON's alphabet is checked as serde_json checks a
        /// value it skips.
        #[test]
        fn any_text_is_checked_as_serde_json_skips_it(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "{", "}", "[", "]", ",", ":", " ", "\n", "\"", "\"a\"", "\"b\\n\"",
                "\\", "\\u00e9", "\\ud800", "\\u12", "0", "-1", "1.5e3", "01", ".", "e",
                "true", "null", "\u{1}", "é", "x",
            ]), 0..24)
        ) {
            let text = parts.concat();
            proptest::prop_assert_eq!(checked(&text), serde_skips(&text), "{:?}", text);
        }
    }
}
