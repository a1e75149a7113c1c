//! A rewriter of JSON, and of the JSON-like notations logs print (JavaScript
//! object literals, Python reprs), that copies every byte of structure and
//! whitespace and replaces scalars by their context. A message therefore
//! stays where it was, on its line, with its members in their order (repeated
//! ones included) and its numbers as written.
//!
//! It is fed a line at a time: a value left open at the end of one line (a
//! pretty-printed document, a multi-line printout) goes on in the next.

use std::borrow::Cow;

use serde::Deserialize;

use super::context::{child, is_kept_header, Context, Shape};
use super::sentence::Names;
use super::text;

/// The string every piece of free text becomes.
pub(super) const PLACEHOLDER: &str = "redacted";

/// The bare words of JavaScript and Python printouts.
const LITERALS: &[&str] = &[
    "true",
    "false",
    "null",
    "undefined",
    "NaN",
    "Infinity",
    "None",
    "True",
    "False",
    "Object",
    "Array",
    "length",
    "Circular",
];

/// A header object whose value is not the protocol's: its name stays.
static HEADER_NAMED: Shape = Shape {
    members: &[("name", Context::Keep)],
    others: Context::Free,
};

#[derive(Clone, Copy)]
struct Frame {
    object: bool,
    context: Context,
    expects_key: bool,
    /// The context of the current member's value.
    member: Context,
}

/// A string cut by the end of a line (a log that wraps long lines).
enum Cut {
    /// The part of a key read so far.
    Key(String),
    Value {
        kept: bool,
    },
}

pub(super) struct Scanner {
    top: Context,
    stack: Vec<Frame>,
    cut: Option<(u8, Cut)>,
}

impl Scanner {
    pub fn new(top: Context) -> Self {
        Scanner {
            top,
            stack: Vec::new(),
            cut: None,
        }
    }

    /// Rewrites the value at the start of `text`, or goes on with the one
    /// left open, into `out`. Returns the length of `text` it took once the
    /// value is complete, `None` when `text` ended inside it.
    pub fn feed(&mut self, text: &str, names: &mut Names, out: &mut String) -> Option<usize> {
        let bytes = text.as_bytes();
        let mut at = 0;
        if let Some((quote, cut)) = self.cut.take() {
            at = self.resume(text, quote, cut, out)?;
            if self.stack.is_empty() {
                return Some(at);
            }
        }
        while at < bytes.len() {
            match bytes[at] {
                b' ' | b'\t' | b'\r' | b'\n' => {
                    out.push(bytes[at] as char);
                    at += 1;
                    continue;
                }
                open @ (b'{' | b'[') => {
                    self.open(open == b'{', &text[at..]);
                    out.push(open as char);
                    at += 1;
                    continue;
                }
                close @ (b'}' | b']') => {
                    if self.stack.pop().is_none() {
                        return Some(at);
                    }
                    out.push(close as char);
                    at += 1;
                }
                separator @ (b':' | b',') => {
                    if let Some(frame) = self.stack.last_mut().filter(|f| f.object) {
                        frame.expects_key = separator == b',';
                    }
                    out.push(separator as char);
                    at += 1;
                    continue;
                }
                quote @ (b'"' | b'\'') => match string_end(bytes, at + 1, quote) {
                    Some(end) => {
                        self.string(&text[at..=end], quote, names, out);
                        at = end + 1;
                    }
                    None => {
                        self.cut_string(&text[at..], quote, out);
                        return None;
                    }
                },
                _ => {
                    let end = token_end(bytes, at);
                    self.bare(&text[at..end], out);
                    at = end;
                }
            }
            if self.stack.is_empty() {
                return Some(at);
            }
        }
        None
    }

    fn value_context(&self) -> Context {
        match self.stack.last() {
            None => self.top,
            Some(frame) if frame.object => frame.member,
            Some(frame) => frame.context,
        }
    }

    fn expects_key(&self) -> bool {
        self.stack.last().is_some_and(|f| f.object && f.expects_key)
    }

    fn open(&mut self, object: bool, text: &str) {
        let mut context = self.value_context();
        if object && matches!(context, Context::Headers) {
            // `{"name": …, "value": …}`: the name decides the value's fate.
            if let Some(name) = header_name(text) {
                context = match is_kept_header(&name) {
                    true => Context::Keep,
                    false => Context::Shape(&HEADER_NAMED),
                };
            }
        }
        self.stack.push(Frame {
            object,
            context,
            expects_key: object,
            member: context,
        });
    }

    fn set_key(&mut self, key: &str) {
        if let Some(frame) = self.stack.last_mut() {
            frame.member = child(frame.context, key);
        }
    }

    fn string(&mut self, raw: &str, quote: u8, names: &mut Names, out: &mut String) {
        if self.expects_key() {
            self.set_key(&key_text(raw, quote));
            out.push_str(raw);
        } else {
            out.push_str(&redact_string(raw, quote, self.value_context(), names));
        }
    }

    /// A bare word: a JavaScript key, a number, or a literal such as `true`,
    /// `undefined` or `[Object]`'s `Object`, which say nothing private; any
    /// other word (a class name, or text that is not a printout at all, in a
    /// line that seemed to go on with one) is replaced.
    fn bare(&mut self, token: &str, out: &mut String) {
        if self.expects_key() {
            self.set_key(token);
            out.push_str(token);
        } else if matches!(self.value_context(), Context::Keep | Context::Label(_))
            || LITERALS.contains(&token)
        {
            out.push_str(token);
        } else if token.starts_with(|c: char| c.is_ascii_digit() || "-+.".contains(c)) {
            out.push('0');
        } else {
            out.push_str(PLACEHOLDER);
        }
    }

    fn cut_string(&mut self, rest: &str, quote: u8, out: &mut String) {
        let cut = if self.expects_key() {
            out.push_str(rest);
            Cut::Key(rest[1..].to_string())
        } else {
            let kept = matches!(self.value_context(), Context::Keep);
            match kept {
                true => out.push_str(rest),
                false => push_placeholder_start(quote, out),
            }
            Cut::Value { kept }
        };
        self.cut = Some((quote, cut));
    }

    /// Goes on with a string cut at the end of the previous line; the
    /// continuation's indentation is the log's, and stays.
    fn resume(&mut self, text: &str, quote: u8, cut: Cut, out: &mut String) -> Option<usize> {
        let end = string_end(text.as_bytes(), 0, quote);
        let part = &text[..end.unwrap_or(text.len())];
        let indent = &text[..text.len() - text.trim_start().len()];
        match &cut {
            Cut::Key(_) | Cut::Value { kept: true } => out.push_str(part),
            Cut::Value { kept: false } => out.push_str(&indent[..indent.len().min(part.len())]),
        }
        let Some(end) = end else {
            let cut = match cut {
                Cut::Key(key) => Cut::Key(key + part),
                value => value,
            };
            self.cut = Some((quote, cut));
            return None;
        };
        out.push(quote as char);
        if let Cut::Key(key) = cut {
            self.set_key(&format!("{}{}", key.trim_end(), part.trim_start()));
        }
        Some(end + 1)
    }
}

fn push_placeholder_start(quote: u8, out: &mut String) {
    out.push(quote as char);
    out.push_str(PLACEHOLDER);
}

/// The index of the quote that closes a string whose text starts at `from`.
fn string_end(bytes: &[u8], from: usize, quote: u8) -> Option<usize> {
    let mut at = from;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b if b == quote => return Some(at),
            _ => at += 1,
        }
    }
    None
}

/// Where a bare word ends: at white space or punctuation of the notation.
fn token_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|b| b.is_ascii_whitespace() || b"{}[]:,\"'".contains(b))
        .map_or(bytes.len(), |len| from + len)
}

/// A key's text, unescaped when it is JSON.
fn key_text(raw: &str, quote: u8) -> Cow<'_, str> {
    let inner = &raw[1..raw.len() - 1];
    if quote == b'"' && inner.contains('\\') {
        if let Ok(key) = serde_json::from_str::<String>(raw) {
            return Cow::Owned(key);
        }
    }
    Cow::Borrowed(inner)
}

/// The name of a `{"name": …, "value": …}` header at the start of `text`.
fn header_name(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Pair {
        name: String,
        #[allow(dead_code)]
        value: serde::de::IgnoredAny,
    }
    let pair = serde_json::Deserializer::from_str(text)
        .into_iter::<Pair>()
        .next()?;
    pair.ok().map(|pair| pair.name)
}

/// A string value redacted for where it sits: kept, replaced, or (a string
/// holding a message, a body or a sentence) redacted inside and encoded again.
fn redact_string<'a>(raw: &'a str, quote: u8, context: Context, names: &mut Names) -> Cow<'a, str> {
    let inner = |text: &str, names: &mut Names| match context {
        Context::Message | Context::Body => Some(text::body(text)),
        Context::Sentence(log) => Some(text::sentence(text, log, names)),
        Context::Url => Some(text::url(text)),
        Context::Label(kind) => Some(names.pseudonym(kind, text)),
        _ => None,
    };
    if matches!(context, Context::Keep) {
        return Cow::Borrowed(raw);
    }
    let decoded = (quote == b'"')
        .then(|| serde_json::from_str::<String>(raw).ok())
        .flatten();
    match decoded.and_then(|text| inner(&text, names)) {
        Some(redacted) => Cow::Owned(serde_json::Value::String(redacted).to_string()),
        None => {
            let mut out = String::new();
            push_placeholder_start(quote, &mut out);
            out.push(quote as char);
            Cow::Owned(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str, context: Context) -> (String, Option<usize>) {
        let mut out = String::new();
        let end = Scanner::new(context).feed(text, &mut Names::default(), &mut out);
        (out, end)
    }

    #[test]
    fn structure_and_spacing_stay_and_scalars_follow_their_context() {
        let text = "{ \"id\": 12345678901234567890123, \"id\": 2,\n  \"params\": {\"name\": \"secret\", \"arguments\": {\"id\": \"x\", \"n\": 7.5}, \"_meta\": {\"progressToken\": \"p\", \"x/y\": \"private\"}}} tail";
        let (out, end) = scan(text, Context::Message);
        assert_eq!(
            out,
            "{ \"id\": 12345678901234567890123, \"id\": 2,\n  \"params\": {\"name\": \"redacted\", \"arguments\": {\"id\": \"redacted\", \"n\": 0}, \"_meta\": {\"progressToken\": \"p\", \"x/y\": \"redacted\"}}}"
        );
        assert_eq!(&text[end.unwrap()..], " tail");
    }

    #[test]
    fn javascript_and_python_notations_keep_their_quotes_and_words() {
        let (out, _) = scan(
            "{ jsonrpc: '2.0', result: { content: [ [Object] ], serverInfo: Info { name: 'x' } }, 'ok': False, k: hunter2 }",
            Context::Message,
        );
        assert_eq!(
            out,
            "{ jsonrpc: '2.0', result: { content: [ [Object] ], serverInfo: redacted { name: 'redacted' } }, 'ok': False, k: redacted }"
        );
    }

    impl Scanner {
        fn feed_alone(&mut self, text: &str, out: &mut String) -> Option<usize> {
            self.feed(text, &mut Names::default(), out)
        }
    }

    #[test]
    fn a_value_open_at_the_end_of_a_line_goes_on_in_the_next() {
        let mut scanner = Scanner::new(Context::Message);
        let mut out = String::new();
        assert_eq!(
            scanner.feed_alone("{\"result\": {\"protocolVer", &mut out),
            None
        );
        assert_eq!(
            scanner.feed_alone("   sion\": \"2025-06-18\", \"x\": \"se", &mut out),
            None
        );
        assert_eq!(scanner.feed_alone("   cret\"}} after", &mut out), Some(10));
        assert_eq!(
            out,
            "{\"result\": {\"protocolVer   sion\": \"2025-06-18\", \"x\": \"redacted   \"}}"
        );
    }

    #[test]
    fn headers_keep_the_protocol_s_values_only() {
        let (out, _) = scan(
            r#"[{"name":"Authorization","value":"Bearer s3cret"},{"name":"Mcp-Session-Id","value":"abc"}]"#,
            Context::Headers,
        );
        assert_eq!(
            out,
            r#"[{"name":"Authorization","value":"redacted"},{"name":"Mcp-Session-Id","value":"abc"}]"#
        );
        let (out, _) = scan(
            r#"{"cookie":"a=b","mcp-protocol-version":"2025-11-25"}"#,
            Context::Headers,
        );
        assert_eq!(
            out,
            r#"{"cookie":"redacted","mcp-protocol-version":"2025-11-25"}"#
        );
    }

    #[test]
    fn a_message_held_in_a_string_is_redacted_inside() {
        let (out, _) = scan(
            r#""{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"text\":\"secret\"}]}}""#,
            Context::Message,
        );
        assert_eq!(
            out,
            r#""{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"text\":\"redacted\"}]}}""#
        );
    }
}
