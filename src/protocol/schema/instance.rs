//! A JSON value that borrows its strings from the trace: a message is
//! validated without copying its text, base64 blobs and long strings
//! included (only strings with escapes are unescaped into a copy).
//!
//! It is read by a parser of its own rather than through serde: the text
//! has already been parsed once (it is a member of a decoded line), and the
//! schema family reads every message, so the visitor machinery and its
//! error paths cost more than the value.

use std::borrow::Cow;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// A number written without fraction or exponent that fits 64 bits.
    Integer(f64),
    Number(f64),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    /// Members in the order written.
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

impl<'a> Value<'a> {
    /// Parses `text`, or `None` when it is not JSON (the decoder has already
    /// said so) or nests deeper than serde_json allows. Numbers and strings
    /// are read as serde_json reads them.
    pub fn parse(text: &'a str) -> Option<Value<'a>> {
        let mut reader = Reader {
            text,
            at: 0,
            depth: 0,
        };
        let value = reader.value()?;
        reader.skip_space();
        (reader.at == text.len()).then_some(value)
    }

    pub fn get(&self, name: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(members) => members.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Whether it equals a value of the schema (`const`, `enum`).
    pub fn equals(&self, other: &serde_json::Value) -> bool {
        use serde_json::Value as J;
        match (self, other) {
            (Value::Null, J::Null) => true,
            (Value::Bool(a), J::Bool(b)) => a == b,
            (Value::Integer(a) | Value::Number(a), J::Number(b)) => b.as_f64() == Some(*a),
            (Value::String(a), J::String(b)) => a == b,
            (Value::Array(a), J::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a.equals(b))
            }
            (Value::Object(a), J::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(name, v)| b.get(name.as_ref()).is_some_and(|b| v.equals(b)))
            }
            _ => false,
        }
    }
}

impl fmt::Display for Value<'_> {
    /// A short rendering for a finding: scalars as JSON (long strings cut),
    /// containers by kind.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Integer(n) | Value::Number(n) => write!(f, "{n}"),
            Value::String(s) => {
                const SHOWN: usize = 40;
                match s.char_indices().nth(SHOWN) {
                    Some((at, _)) => write!(f, "{:?}...", &s[..at]),
                    None => write!(f, "{s:?}"),
                }
            }
            Value::Array(items) => write!(f, "an array of {}", items.len()),
            Value::Object(_) => f.write_str("an object"),
        }
    }
}

/// serde_json's nesting limit: a value may nest 127 levels deep.
const MAX_DEPTH: u32 = 128;

/// A cursor over JSON text.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    depth: u32,
}

impl<'a> Reader<'a> {
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

    fn value(&mut self) -> Option<Value<'a>> {
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

    fn literal(&mut self, word: &str, value: Value<'a>) -> Option<Value<'a>> {
        self.at = crate::json_text::literal_end(self.text.as_bytes(), self.at, word.as_bytes())?;
        Some(value)
    }

    /// An object or array: `read` after its opening bracket, one level deeper.
    fn nested(&mut self, read: fn(&mut Self) -> Option<Value<'a>>) -> Option<Value<'a>> {
        self.depth += 1;
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.at += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn array(&mut self) -> Option<Value<'a>> {
        let mut items = Vec::new();
        self.skip_space();
        if self.eat(b']') {
            return Some(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            if !self.more(b']')? {
                return Some(Value::Array(items));
            }
        }
    }

    fn object(&mut self) -> Option<Value<'a>> {
        let mut members = Vec::new();
        self.skip_space();
        if self.eat(b'}') {
            return Some(Value::Object(members));
        }
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
            members.push((name, self.value()?));
            if !self.more(b'}')? {
                return Some(Value::Object(members));
            }
        }
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
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let (value, end) = crate::json_text::string_at(self.text, self.at)?;
        self.at = end;
        Some(value)
    }

    /// A number as JSON writes it: an integer that fits 64 bits, else a
    /// finite double (serde_json refuses a number out of range).
    fn number(&mut self) -> Option<Value<'a>> {
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
    use super::Value;
    use std::borrow::Cow;

    #[test]
    fn strings_are_borrowed_unless_escaped() {
        let value = Value::parse(r#"{"blob":"QUJD","text":"a\nb"}"#).unwrap();
        assert!(matches!(
            value.get("blob"),
            Some(Value::String(Cow::Borrowed("QUJD")))
        ));
        assert!(matches!(
            value.get("text"),
            Some(Value::String(Cow::Owned(_)))
        ));
    }

    #[test]
    fn integers_and_fractions_differ() {
        let value = Value::parse(r#"[1, 1.5, -3]"#).unwrap();
        assert_eq!(
            value,
            Value::Array(vec![
                Value::Integer(1.0),
                Value::Number(1.5),
                Value::Integer(-3.0)
            ])
        );
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
                Value::parse(&text).is_some(),
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
            let ours = Value::parse(text);
            match serde(text) {
                None => assert_eq!(ours, None, "{text}"),
                Some(theirs) => {
                    let ours = ours.unwrap_or_else(|| panic!("{text} not read"));
                    assert!(ours.equals(&theirs), "{text}: {ours:?} against {theirs}");
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
            assert_eq!(Value::parse(text), None, "{text:?}");
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
                None => proptest::prop_assert_eq!(Value::parse(&text), None),
                Some(theirs) => {
                    let ours = Value::parse(&text);
                    proptest::prop_assert!(ours.as_ref().is_some_and(|v| v.equals(&theirs)));
                }
            }
        }

        #[test]
        fn any_double_reads_as_serde_json_reads_it(n in proptest::num::f64::NORMAL) {
            let text = serde_json::to_string(&n).unwrap();
            let theirs = serde(&text).unwrap();
            proptest::prop_assert!(Value::parse(&text).is_some_and(|v| v.equals(&theirs)));
        }
    }
}
