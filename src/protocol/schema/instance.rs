//! A JSON value read from the trace's text for validation: strings are
//! ranges of the text (only strings with escapes are unescaped, into a
//! buffer), and the items of every array and the members of every object
//! lie in two vectors kept from one message to the next, so that reading a
//! message allocates nothing once the vectors have grown.
//!
//! It is read by a parser of its own rather than through serde: the text
//! has already been parsed once (it is a member of a decoded line), and the
//! schema family reads every message, so the visitor machinery and its
//! error paths cost more than the value.

use std::cell::RefCell;
use std::fmt;

use crate::json_text::same_bytes;

/// A value: a scalar, or where its string, items or members lie.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// A number written without fraction or exponent that fits 64 bits.
    Integer(f64),
    Number(f64),
    String(Str),
    /// Its items: a range of [`Parts::items`].
    Array(Span),
    /// Its members in the order written: a range of [`Parts::members`].
    Object(Span),
}

/// Where a string's value lies: a range of the text, or (past the text's
/// length) of the buffer of unescaped strings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Str {
    start: usize,
    end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    start: usize,
    len: usize,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Member {
    pub name: Str,
    pub value: Value,
}

/// The items and members of a value read, kept for the next one.
#[derive(Default)]
struct Parts {
    items: Vec<Value>,
    members: Vec<Member>,
    /// The items and members of the arrays and objects still open.
    open_items: Vec<Value>,
    open_members: Vec<Member>,
    unescaped: String,
}

/// Parts that grew past this many bytes for one large value are let go.
const KEPT_BYTES: usize = 1 << 20;

impl Parts {
    fn clear(&mut self) {
        let items = self.items.capacity() + self.open_items.capacity();
        let members = self.members.capacity() + self.open_members.capacity();
        let bytes =
            items * size_of::<Value>() + members * size_of::<Member>() + self.unescaped.capacity();
        if bytes > KEPT_BYTES {
            *self = Parts::default();
        }
        self.items.clear();
        self.members.clear();
        self.open_items.clear();
        self.open_members.clear();
        self.unescaped.clear();
    }
}

thread_local! {
    static PARTS: RefCell<Parts> = RefCell::default();
}

/// A value read from `text`, and where its parts lie.
#[derive(Clone, Copy)]
pub struct Doc<'a> {
    text: &'a str,
    parts: &'a Parts,
}

/// Reads `text` and gives `then` its value, or `None` when it is not JSON
/// (the decoder has already said so) or nests deeper than serde_json
/// allows. Numbers and strings are read as serde_json reads them.
pub fn with_parsed<R>(text: &str, then: impl FnOnce(Doc, Value) -> R) -> Option<R> {
    PARTS.with(|kept| match kept.try_borrow_mut() {
        Ok(mut parts) => parsed_into(&mut parts, text, then),
        // A value read while another is in use: parts of its own.
        Err(_) => parsed_into(&mut Parts::default(), text, then),
    })
}

fn parsed_into<R>(parts: &mut Parts, text: &str, then: impl FnOnce(Doc, Value) -> R) -> Option<R> {
    parts.clear();
    let mut reader = Reader {
        text,
        at: 0,
        depth: 0,
        parts,
    };
    let value = reader.value()?;
    reader.skip_space();
    if reader.at != text.len() {
        return None;
    }
    let doc = Doc { text, parts };
    Some(then(doc, value))
}

impl<'a> Doc<'a> {
    pub fn str(self, s: Str) -> &'a str {
        match s.start.checked_sub(self.text.len()) {
            None => &self.text[s.start..s.end],
            Some(start) => &self.parts.unescaped[start..s.end - self.text.len()],
        }
    }

    /// A string's bytes (a slice of bytes, unlike one of a `str`, is taken
    /// without checking where its characters start).
    pub fn bytes(self, s: Str) -> &'a [u8] {
        match s.start.checked_sub(self.text.len()) {
            None => &self.text.as_bytes()[s.start..s.end],
            Some(start) => &self.parts.unescaped.as_bytes()[start..s.end - self.text.len()],
        }
    }

    pub fn member_slice(self, span: Span) -> &'a [Member] {
        &self.parts.members[span.start..span.start + span.len]
    }

    pub fn items(self, span: Span) -> &'a [Value] {
        &self.parts.items[span.start..span.start + span.len]
    }

    /// The members of an object, each name with its value.
    pub fn members(self, span: Span) -> impl Iterator<Item = (&'a str, Value)> + Clone {
        let members = &self.parts.members[span.start..span.start + span.len];
        members.iter().map(move |m| (self.str(m.name), m.value))
    }

    pub fn as_str(self, value: Value) -> Option<&'a str> {
        match value {
            Value::String(s) => Some(self.str(s)),
            _ => None,
        }
    }

    pub fn get(self, value: Value, name: &str) -> Option<Value> {
        match value {
            Value::Object(span) => self
                .member_slice(span)
                .iter()
                .find(|m| same_bytes(self.bytes(m.name), name.as_bytes()))
                .map(|m| m.value),
            _ => None,
        }
    }

    /// Whether `value` equals a value of the schema (`const`, `enum`).
    pub fn equals(self, value: Value, other: &serde_json::Value) -> bool {
        use serde_json::Value as J;
        match (value, other) {
            (Value::Null, J::Null) => true,
            (Value::Bool(a), J::Bool(b)) => a == *b,
            (Value::Integer(a) | Value::Number(a), J::Number(b)) => b.as_f64() == Some(a),
            (Value::String(a), J::String(b)) => self.str(a) == b,
            (Value::Array(a), J::Array(b)) => {
                let items = self.items(a);
                items.len() == b.len() && items.iter().zip(b).all(|(a, b)| self.equals(*a, b))
            }
            (Value::Object(a), J::Object(b)) => {
                a.len == b.len()
                    && self
                        .members(a)
                        .all(|(name, v)| b.get(name).is_some_and(|b| self.equals(v, b)))
            }
            _ => false,
        }
    }

    /// A short rendering of `value` for a finding.
    pub fn show(self, value: Value) -> Shown<'a> {
        Shown { doc: self, value }
    }
}

/// A value as a finding shows it: scalars as JSON (long strings cut),
/// containers by kind.
pub struct Shown<'a> {
    doc: Doc<'a>,
    value: Value,
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Integer(n) | Value::Number(n) => write!(f, "{n}"),
            Value::String(s) => {
                const SHOWN: usize = 40;
                let s = self.doc.str(s);
                match s.char_indices().nth(SHOWN) {
                    Some((at, _)) => write!(f, "{:?}...", &s[..at]),
                    None => write!(f, "{s:?}"),
                }
            }
            Value::Array(items) => write!(f, "an array of {}", items.len),
            Value::Object(_) => f.write_str("an object"),
        }
    }
}

/// Moves the parts of a container that closes (those of `open` from
/// `first` on) to the end of `kept`, side by side; where they now lie.
fn close<T>(open: &mut Vec<T>, first: usize, kept: &mut Vec<T>) -> Span {
    let span = Span {
        start: kept.len(),
        len: open.len() - first,
    };
    kept.extend(open.drain(first..));
    span
}

/// serde_json's nesting limit: a value may nest 127 levels deep.
const MAX_DEPTH: u32 = 128;

/// A cursor over JSON text, and where the parts read go.
struct Reader<'a, 'p> {
    text: &'a str,
    at: usize,
    depth: u32,
    parts: &'p mut Parts,
}

impl Reader<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Consumes `byte` if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.skip_space();
        match self.peek()? {
            b'{' => self.nested(Self::object),
            b'[' => self.nested(Self::array),
            b'"' => self.string().map(Value::String),
            b't' => self.literal("true", Value::Bool(true)),
            b'f' => self.literal("false", Value::Bool(false)),
            b'n' => self.literal("null", Value::Null),
            _ => self.number(),
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Option<Value> {
        self.at = crate::json_text::literal_end(self.text.as_bytes(), self.at, word.as_bytes())?;
        Some(value)
    }

    /// An object or array: `read` after its opening bracket, one level deeper.
    fn nested(&mut self, read: fn(&mut Self) -> Option<Value>) -> Option<Value> {
        self.depth += 1;
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.at += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn array(&mut self) -> Option<Value> {
        // Items are held open until the array closes, then moved together:
        // an array's items lie side by side, whatever they hold.
        let first = self.parts.open_items.len();
        self.skip_space();
        if !self.eat(b']') {
            loop {
                let item = self.value()?;
                self.parts.open_items.push(item);
                if !self.more(b']')? {
                    break;
                }
            }
        }
        let parts = &mut *self.parts;
        Some(Value::Array(close(
            &mut parts.open_items,
            first,
            &mut parts.items,
        )))
    }

    fn object(&mut self) -> Option<Value> {
        let first = self.parts.open_members.len();
        self.skip_space();
        if !self.eat(b'}') {
            loop {
                self.skip_space();
                if self.peek()? != b'"' {
                    return None;
                }
                let name = self.string()?;
                self.skip_space();
                if !self.eat(b':') {
                    return None;
                }
                let value = self.value()?;
                self.parts.open_members.push(Member { name, value });
                if !self.more(b'}')? {
                    break;
                }
            }
        }
        let parts = &mut *self.parts;
        Some(Value::Object(close(
            &mut parts.open_members,
            first,
            &mut parts.members,
        )))
    }

    /// After an element: whether another follows (a comma), or the
    /// container ends (`close`); `None` for anything else.
    fn more(&mut self, close: u8) -> Option<bool> {
        self.skip_space();
        match self.peek()? {
            b',' => {
                self.at += 1;
                Some(true)
            }
            byte if byte == close => {
                self.at += 1;
                Some(false)
            }
            _ => None,
        }
    }

    /// The string that starts at the cursor's quote.
    fn string(&mut self) -> Option<Str> {
        let bytes = self.text.as_bytes();
        let start = self.at + 1;
        let (end, escaped) = crate::json_text::string_end(bytes, start)?;
        self.at = end + 1;
        if !escaped {
            return Some(Str { start, end });
        }
        let value = crate::json_text::unescape(&self.text[start..end])?;
        let unescaped = &mut self.parts.unescaped;
        let start = self.text.len() + unescaped.len();
        unescaped.push_str(&value);
        Some(Str {
            start,
            end: start + value.len(),
        })
    }

    /// A number as JSON writes it: an integer that fits 64 bits, else a
    /// finite double (serde_json refuses a number out of range).
    fn number(&mut self) -> Option<Value> {
        let start = self.at;
        self.at = crate::json_text::number_end(self.text.as_bytes(), start)?;
        let text = &self.text[start..self.at];
        let integer = !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
        // serde_json reads `-0` as the double -0.0.
        if integer && text != "-0" {
            let exact = text.parse::<i64>().map(|n| n as f64);
            if let Ok(n) = exact.or_else(|_| text.parse::<u64>().map(|n| n as f64)) {
                return Some(Value::Integer(n));
            }
        }
        let n = text.parse::<f64>().ok().filter(|n| n.is_finite())?;
        Some(Value::Number(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `text` reads as a value that equals serde_json's `theirs`.
    fn reads_as(text: &str, theirs: &serde_json::Value) -> bool {
        with_parsed(text, |doc, value| doc.equals(value, theirs)) == Some(true)
    }

    #[test]
    fn strings_lie_in_the_text_unless_escaped() {
        let text = r#"{"blob":"QUJD","text":"a\nb"}"#;
        let read = with_parsed(text, |doc, value| {
            let string = |name| match doc.get(value, name) {
                Some(Value::String(s)) => (s.start < text.len(), doc.str(s).to_string()),
                other => panic!("{other:?}"),
            };
            (string("blob"), string("text"))
        });
        let in_text = (true, "QUJD".to_string());
        assert_eq!(read, Some((in_text, (false, "a\nb".to_string()))));
    }

    #[test]
    fn integers_and_fractions_differ() {
        let items = with_parsed("[1, 1.5, -3]", |doc, value| match value {
            Value::Array(span) => doc.items(span).to_vec(),
            other => panic!("{other:?}"),
        });
        let expected = [
            Value::Integer(1.0),
            Value::Number(1.5),
            Value::Integer(-3.0),
        ];
        assert_eq!(items.as_deref(), Some(&expected[..]));
    }

    #[test]
    fn the_items_and_members_of_nested_values_lie_side_by_side() {
        let text = r#"{"a":[1,[2,3],{"b":4}],"c":{"d":[]},"e":"f"}"#;
        assert!(reads_as(text, &serde(text).unwrap()));
        let shown = with_parsed(text, |doc, root| {
            let Value::Object(span) = root else {
                panic!("not an object")
            };
            let names: Vec<_> = doc
                .members(span)
                .map(|(name, _)| name.to_string())
                .collect();
            let Some(Value::Array(a)) = doc.get(root, "a") else {
                panic!("no array")
            };
            let items: Vec<_> = doc
                .items(a)
                .iter()
                .map(|v| doc.show(*v).to_string())
                .collect();
            let e = doc
                .get(root, "e")
                .and_then(|e| doc.as_str(e))
                .map(str::to_string);
            (names, items, e)
        });
        let owned = |texts: &[&str]| texts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let (names, items) = (
            owned(&["a", "c", "e"]),
            owned(&["1", "an array of 2", "an object"]),
        );
        assert_eq!(shown, Some((names, items, Some("f".to_string()))));
    }

    #[test]
    fn a_value_read_while_another_is_in_use_has_parts_of_its_own() {
        let inner = r#"{"b":[true]}"#;
        let both = with_parsed(r#"["a"]"#, |doc, outer| {
            let inner_read = reads_as(inner, &serde(inner).unwrap());
            (inner_read, doc.show(outer).to_string())
        });
        assert_eq!(both, Some((true, "an array of 1".to_string())));
    }

    #[test]
    fn parts_kept_for_the_next_value_do_not_leak_into_it() {
        let long = format!("[{}]", vec!["\"x\\ty\""; 40_000].join(","));
        assert!(with_parsed(&long, |_, _| ()).is_some());
        let text = r#"{"k":["\u00e9"]}"#;
        assert!(reads_as(text, &serde(text).unwrap()));
        // The parts of the long array were let go rather than kept.
        PARTS.with_borrow(|parts| assert!(parts.items.capacity() < 40_000));
    }

    /// serde_json's reading of `text`, which the parser must agree with.
    fn serde(text: &str) -> Option<serde_json::Value> {
        serde_json::from_str(text).ok()
    }

    #[test]
    fn nesting_stops_where_serde_json_stops() {
        for depth in [126, 127, 128, 129] {
            let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(
                with_parsed(&text, |_, _| ()).is_some(),
                serde(&text).is_some(),
                "{depth}"
            );
        }
    }

    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        for text in [
            "0",
            "-0",
            "12",
            "-12",
            "1.5",
            "1e3",
            "1E-3",
            "-2.5e+2",
            "9223372036854775807",
            "9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
            "1e400",
            "01",
            "1.",
            ".5",
            "+1",
            "-",
            "1e",
            "1e+",
            "--1",
        ] {
            let ours = with_parsed(text, |doc, value| {
                (doc.equals(value, &serde(text).unwrap()), value)
            });
            match serde(text) {
                None => assert_eq!(ours, None, "{text}"),
                Some(theirs) => {
                    let (equal, ours) = ours.unwrap_or_else(|| panic!("{text} not read"));
                    assert!(equal, "{text}: {ours:?} against {theirs}");
                    let integer = theirs.is_i64() || theirs.is_u64();
                    assert_eq!(matches!(ours, Value::Integer(_)), integer, "{text}");
                }
            }
        }
    }

    #[test]
    fn malformed_text_is_none() {
        for text in [
            "",
            " ",
            "{",
            "[1,]",
            "{\"a\"}",
            "{\"a\":1,}",
            "{a:1}",
            "\"\u{1}\"",
            "\"a",
            "\"\\x\"",
            "\"\\ud800\"",
            "tru",
            "nul",
            "[1 2]",
            "{} {}",
            "\"\\",
        ] {
            assert_eq!(with_parsed(text, |_, value| value), None, "{text:?}");
            assert_eq!(serde(text), None, "{text:?}");
        }
    }

    proptest::proptest! {
        /// Any text over JSON's alphabet is read, or refused, as serde_json
        /// reads it; what is read has serde_json's values.
        #[test]
        fn any_text_reads_as_serde_json_reads_it(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "{", "}", "[", "]", ",", ":", " ", "\n", "\"", "\"a\"", "\"b\\n\"",
                "\\", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "0", "-1", "1.5e3",
                "true", "null", "\u{1}", "é", "x",
            ]), 0..24)
        ) {
            let text = parts.concat();
            match serde(&text) {
                None => proptest::prop_assert_eq!(with_parsed(&text, |_, value| value), None),
                Some(theirs) => proptest::prop_assert!(reads_as(&text, &theirs)),
            }
        }

        #[test]
        fn any_double_reads_as_serde_json_reads_it(n in proptest::num::f64::NORMAL) {
            let text = serde_json::to_string(&n).unwrap();
            let theirs = serde(&text).unwrap();
            proptest::prop_assert!(reads_as(&text, &theirs));
        }
    }
}
