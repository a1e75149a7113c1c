//! A reader of the JavaScript object notation Node's `util.inspect` writes
//! (what `console.log(obj)` prints), turned into JSON:
//!
//! ```text
//! { jsonrpc: '2.0', id: 0, result: { capabilities: { tools: [Object] }, content: [Array] } }
//! ```
//!
//! Keys are bare, strings are single-quoted, and the logger cuts what is too
//! deep (`[Object]`, `[Array]`), too long (`... 5 more items`,
//! `'abc'... 90 more characters`) or not data (`[Function: f]`,
//! `[Circular *1]`). A cut part becomes an empty object, an empty array or
//! null, and the result is marked incomplete: what the log shows is read as
//! far as it goes, and nothing is concluded from what it cut.

/// Nesting deeper than this is not a logged message (and would exhaust the stack).
const MAX_DEPTH: usize = 128;

/// The JSON text of one value and what was cut from it.
#[derive(Debug, PartialEq)]
pub(super) struct Converted {
    pub json: String,
    /// The logger cut some part of the value.
    pub incomplete: bool,
    /// The byte length of the value in the input.
    pub len: usize,
}

/// Why the input is not one value.
#[derive(Debug, PartialEq)]
pub(super) enum Error {
    /// The input ends inside the value: more lines may complete it.
    Eof,
    /// Something no inspect output holds, at this byte offset.
    At(usize),
}

/// Reads the value at the start of `text`.
pub(super) fn to_json(text: &str) -> Result<Converted, Error> {
    let mut reader = Reader {
        text: text.as_bytes(),
        at: 0,
        out: String::with_capacity(text.len() + 16),
        incomplete: false,
    };
    reader.blank();
    reader.value(0)?;
    Ok(Converted {
        json: reader.out,
        incomplete: reader.incomplete,
        len: reader.at,
    })
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    out: String,
    incomplete: bool,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn rest(&self) -> &[u8] {
        &self.text[self.at.min(self.text.len())..]
    }

    fn fail<T>(&self) -> Result<T, Error> {
        Err(if self.at >= self.text.len() {
            Error::Eof
        } else {
            Error::At(self.at)
        })
    }

    fn blank(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        let found = self.rest().starts_with(word.as_bytes());
        if found {
            self.at += word.len();
        }
        found
    }

    fn value(&mut self, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(Error::At(self.at));
        }
        // `<ref *1> {...}` marks an object that a cycle points back to.
        if self.eat("<ref *") {
            self.skip_past(b'>')?;
            self.blank();
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.bracketed(depth),
            Some(b'\'' | b'"' | b'`') => self.string(),
            Some(c) if c == b'-' || c.is_ascii_digit() => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' || c == b'$' => self.word(depth),
            _ => self.fail(),
        }
    }

    fn skip_past(&mut self, end: u8) -> Result<(), Error> {
        match self.rest().iter().position(|c| *c == end) {
            Some(n) => {
                self.at += n + 1;
                Ok(())
            }
            None => {
                self.at = self.text.len();
                Err(Error::Eof)
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<(), Error> {
        self.at += 1;
        self.out.push('{');
        let mut first = true;
        loop {
            self.blank();
            if self.eat("}") {
                self.out.push('}');
                return Ok(());
            }
            if !first {
                self.out.push(',');
            }
            first = false;
            self.key()?;
            self.blank();
            if !self.eat(":") {
                return self.fail();
            }
            self.out.push(':');
            self.blank();
            self.value(depth + 1)?;
            self.after_item(b'}')?;
        }
    }

    /// After a member or an item: a comma, or the closing bracket (left to the caller).
    fn after_item(&mut self, close: u8) -> Result<(), Error> {
        self.blank();
        if self.eat(",") || self.peek() == Some(close) {
            return Ok(());
        }
        self.fail()
    }

    fn key(&mut self) -> Result<(), Error> {
        match self.peek() {
            Some(b'\'' | b'"' | b'`') => self.string(),
            Some(b'[') => {
                // `[Symbol(foo)]: ...`: not data a message carries.
                let start = self.at;
                self.skip_past(b']')?;
                self.incomplete = true;
                let name = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
                self.push_string(&name);
                Ok(())
            }
            _ => {
                let start = self.at;
                while self.peek().is_some_and(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$') || c >= 0x80
                }) {
                    self.at += 1;
                }
                if self.at == start {
                    return self.fail();
                }
                let name = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
                self.push_string(&name);
                Ok(())
            }
        }
    }

    /// An array, or a bracketed placeholder for what the logger cut.
    fn bracketed(&mut self, depth: usize) -> Result<(), Error> {
        for (placeholder, json) in [("[Object]", "{}"), ("[Array]", "[]")] {
            if self.eat(placeholder) {
                self.incomplete = true;
                self.out.push_str(json);
                return Ok(());
            }
        }
        let next = self.text.get(self.at + 1).copied();
        if next.is_some_and(|c| c.is_ascii_alphabetic()) {
            // `[Function: f]`, `[Circular *1]`, `[Getter]`, `[class X]`.
            self.skip_past(b']')?;
            self.incomplete = true;
            self.out.push_str("null");
            return Ok(());
        }
        self.array(depth)
    }

    fn array(&mut self, depth: usize) -> Result<(), Error> {
        self.at += 1;
        self.out.push('[');
        let mut first = true;
        loop {
            self.blank();
            if self.eat("]") {
                self.out.push(']');
                return Ok(());
            }
            if self.eat("... ") {
                // `... 12 more items`: the logger's limit on array length.
                self.skip_past(b's')?;
                self.incomplete = true;
                self.after_item(b']')?;
                continue;
            }
            if !first {
                self.out.push(',');
            }
            first = false;
            self.value(depth + 1)?;
            self.after_item(b']')?;
        }
    }

    fn string(&mut self) -> Result<(), Error> {
        let mut text = String::new();
        loop {
            text.push_str(&self.quoted()?);
            // Long strings may be split into `'...' +` pieces over lines.
            let save = self.at;
            self.blank();
            if self.eat("+") {
                self.blank();
                if matches!(self.peek(), Some(b'\'' | b'"' | b'`')) {
                    continue;
                }
            }
            self.at = save;
            break;
        }
        if self.rest().starts_with(b"... ") {
            // `'abc'... 90 more characters`: cut at the logger's limit.
            self.at += 4;
            while self
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b' ')
            {
                self.at += 1;
            }
            self.incomplete = true;
        }
        self.push_string(&text);
        Ok(())
    }

    /// One quoted piece, unescaped.
    fn quoted(&mut self) -> Result<String, Error> {
        let quote = self.text[self.at];
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(Error::Eof);
            };
            self.at += 1;
            match c {
                _ if c == quote => return Ok(String::from_utf8_lossy(&bytes).into_owned()),
                b'\\' => self.escape(&mut bytes)?,
                b'\n' if quote != b'`' => return Err(Error::At(self.at - 1)),
                _ => bytes.push(c),
            }
        }
    }

    fn escape(&mut self, bytes: &mut Vec<u8>) -> Result<(), Error> {
        let Some(c) = self.peek() else {
            return Err(Error::Eof);
        };
        self.at += 1;
        let unescaped = match c {
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'v' => '\u{b}',
            b'0' => '\0',
            b'x' => self.hex(2)?,
            b'u' => self.hex(4)?,
            other => {
                bytes.push(other);
                return Ok(());
            }
        };
        let mut buffer = [0u8; 4];
        bytes.extend_from_slice(unescaped.encode_utf8(&mut buffer).as_bytes());
        Ok(())
    }

    fn hex(&mut self, digits: usize) -> Result<char, Error> {
        let Some(hex) = self.text.get(self.at..self.at + digits) else {
            return Err(Error::Eof);
        };
        let code = std::str::from_utf8(hex)
            .ok()
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or(Error::At(self.at))?;
        self.at += digits;
        // A lone surrogate half is not a character: keep its place.
        Ok(char::from_u32(code).unwrap_or('\u{fffd}'))
    }

    fn push_string(&mut self, text: &str) {
        // Writing a string to JSON cannot fail.
        self.out
            .push_str(&serde_json::to_string(text).unwrap_or_default());
    }

    fn number(&mut self) -> Result<(), Error> {
        let start = self.at;
        if self.eat("-Infinity") {
            return self.not_json();
        }
        while self.peek().is_some_and(|c| {
            c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'_')
        }) {
            self.at += 1;
        }
        let digits: String = String::from_utf8_lossy(&self.text[start..self.at]).replace('_', "");
        // A BigInt (`12n`) keeps its digits; JSON numbers have no size limit.
        self.eat("n");
        if serde_json::from_str::<serde::de::IgnoredAny>(&digits).is_err() {
            self.at = start;
            return self.fail();
        }
        self.out.push_str(&digits);
        Ok(())
    }

    /// A value JSON cannot hold (`NaN`, `-Infinity`): null, and incomplete.
    fn not_json(&mut self) -> Result<(), Error> {
        self.incomplete = true;
        self.out.push_str("null");
        Ok(())
    }

    fn word(&mut self, depth: usize) -> Result<(), Error> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$'))
        {
            self.at += 1;
        }
        match &self.text[start..self.at] {
            b"true" | b"false" | b"null" => {
                self.out
                    .push_str(std::str::from_utf8(&self.text[start..self.at]).unwrap_or("null"));
                Ok(())
            }
            b"undefined" => {
                self.out.push_str("null");
                Ok(())
            }
            b"NaN" | b"Infinity" => self.not_json(),
            _ => {
                // A class name before its object (`Foo { a: 1 }`, `Map(1) {...}`).
                if self.peek() == Some(b'(') {
                    self.skip_past(b')')?;
                }
                self.blank();
                match self.peek() {
                    Some(b'{' | b'[') => self.value(depth),
                    _ => self.fail(),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> (String, bool) {
        let c = to_json(text).expect(text);
        (c.json, c.incomplete)
    }

    #[test]
    fn inspect_output_becomes_json() {
        assert_eq!(
            json("{ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2024-11-05', capabilities: { tools: {} } } }"),
            (r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05","capabilities":{"tools":{}}}}"#.into(), false)
        );
        assert_eq!(
            json("{\n  jsonrpc: '2.0',\n  method: 'notifications/progress',\n  params: { progressToken: 'a\\'b', progress: -1.5e3, total: 2n }\n}"),
            (r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"a'b","progress":-1.5e3,"total":2}}"#.into(), false)
        );
        assert_eq!(
            json(r#"{ 'x-y': "it's", z: undefined, a: [ 1, 2 ] }"#).0,
            r#"{"x-y":"it's","z":null,"a":[1,2]}"#
        );
        assert_eq!(json("'ab' +\n  'cd'").0, r#""abcd""#);
    }

    #[test]
    fn cut_parts_are_marked() {
        for (text, want) in [
            (
                "{ result: { capabilities: { tools: [Object] }, content: [Array] } }",
                r#"{"result":{"capabilities":{"tools":{}},"content":[]}}"#,
            ),
            ("[ 1, 2, ... 98 more items ]", "[1,2]"),
            (
                "{ text: 'abc'... 9000 more characters }",
                r#"{"text":"abc"}"#,
            ),
            (
                "{ f: [Function: go], c: [Circular *1], n: NaN }",
                r#"{"f":null,"c":null,"n":null}"#,
            ),
            ("<ref *1> Foo { self: [Circular *1] }", r#"{"self":null}"#),
        ] {
            assert_eq!(json(text), (want.to_string(), true), "{text}");
        }
    }

    #[test]
    fn unfinished_and_foreign_text() {
        assert_eq!(to_json("{ jsonrpc: '2.0',\n  id: 1,"), Err(Error::Eof));
        assert_eq!(to_json("{ a: 'unterminated"), Err(Error::Eof));
        assert_eq!(to_json("{ a: 1 b: 2 }"), Err(Error::At(7)));
        assert_eq!(to_json("hello world"), Err(Error::At(6)));
        assert_eq!(to_json(&"[".repeat(1000)), Err(Error::At(129)));
        assert_eq!(to_json("{ a: 1 } trailing").unwrap().len, 8);
        assert!(to_json("").is_err());
    }
}
