//! Text around messages: a log line (a prefix the decoder reads, a sentence,
//! maybe a printed message), a sentence held in a JSON string, an HTTP body.

use base64::Engine as _;

use super::context::Context;
use super::scan::{Scanner, PLACEHOLDER};
use super::sentence::{self, Names};
use super::walk::{walk, Continues, Layout};
use crate::decode::LineParts;

/// How a log's lines are read: which lines its client wrote, and the
/// sentences it writes (see [`sentence`]).
#[derive(Debug)]
pub(super) struct TextLog {
    /// The decoder's reading of a line's prefix (`None`: a line the client
    /// did not write, such as the server's stderr going on, replaced whole).
    /// Without it, every line is a sentence.
    pub parts: Option<fn(&str) -> Option<LineParts>>,
    /// The client's sentences, as templates. `None`: the lines are an HTTP
    /// body's (SSE fields around messages), kept but for the messages.
    pub sentences: Option<&'static [&'static str]>,
}

/// The text of an HTTP body: SSE fields and messages.
static BODY: TextLog = TextLog {
    parts: None,
    sentences: None,
};

impl TextLog {
    /// What stays of the text around a message on a line of this log.
    pub fn glue(&self) -> fn(&str, &mut String) {
        match self.sentences {
            Some(_) => sentence::words,
            None => |text, out| out.push_str(text),
        }
    }
}

/// One line of a log. Returns the scanner of a printed value that goes on
/// in the next line.
pub(super) fn line(
    text: &str,
    log: &TextLog,
    names: &mut Names,
    out: &mut String,
) -> Option<Scanner> {
    let Some(sentences) = log.sentences else {
        return payloads(text, log.glue(), names, out);
    };
    let start = match log.parts.map(|parts| parts(text)) {
        None => 0,
        Some(None) => {
            push_free(text, out);
            return None;
        }
        Some(Some(parts)) => {
            sentence::prefix(text, &parts, names, out);
            parts.sentence
        }
    };
    sentence::sentence(&text[start..], sentences, names, out)
}

/// Free text replaced, its indentation kept.
pub(super) fn push_free(text: &str, out: &mut String) {
    let words = text.trim_start();
    if words.trim_end().is_empty() {
        out.push_str(text);
    } else {
        out.push_str(&text[..text.len() - words.len()]);
        out.push_str(PLACEHOLDER);
    }
}

/// Copies `text`, redacting every value printed in it as a message and the
/// text around them by `glue`. Returns the scanner of one that goes on in
/// the next line.
pub(super) fn payloads(
    mut text: &str,
    glue: fn(&str, &mut String),
    names: &mut Names,
    out: &mut String,
) -> Option<Scanner> {
    while let Some(start) = payload_start(text) {
        glue(&text[..start], out);
        let mut scanner = Scanner::new(Context::Message);
        match scanner.feed(&text[start..], names, out) {
            Some(len) => text = &text[start + len..],
            None => return Some(scanner),
        }
    }
    glue(text, out);
    None
}

/// Where a printed value starts.
fn payload_start(text: &str) -> Option<usize> {
    text.char_indices()
        .find_map(|(at, _)| opens_value(&text[at..]).then_some(at))
}

/// Whether `text` starts with a printed value: an object, or an array of
/// values (not a bracketed tag such as `[info]`).
pub(super) fn opens_value(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(b'{') => true,
        Some(b'[') => text[1..].trim_start().starts_with(['{', '[', '"', '\'']),
        _ => false,
    }
}

/// A sentence held in a JSON string (a record's text), possibly of several
/// lines.
pub(super) fn sentence(text: &str, log: &'static TextLog, names: &mut Names) -> String {
    let mut out = String::new();
    match log.sentences {
        Some(sentences) => {
            sentence::sentence(text, sentences, names, &mut out);
        }
        None => push_free(text, &mut out),
    }
    out
}

/// The text of an HTTP body: JSON or SSE, redacted inside; base64 of
/// either, decoded, redacted and encoded again; any other text replaced.
pub(super) fn body(text: &str) -> String {
    if text.trim().is_empty() {
        return text.to_string();
    }
    if is_json_or_sse(text) {
        let layout = Layout {
            record: None,
            text: Some(&BODY),
            continues: Continues::Always,
        };
        return walk(text, &layout);
    }
    let engine = base64::engine::general_purpose::STANDARD;
    let decoded = engine
        .decode(text.trim())
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .filter(|decoded| is_json_or_sse(decoded));
    match decoded {
        Some(decoded) => engine.encode(body(&decoded)),
        None => PLACEHOLDER.to_string(),
    }
}

/// A URL without a user's credentials, and with its query's values and its
/// fragment (where OAuth puts tokens) replaced.
pub(super) fn url(text: &str) -> String {
    let (text, fragment) = match text.split_once('#') {
        Some((text, fragment)) => (text, Some(fragment)),
        None => (text, None),
    };
    let (address, query) = text.split_once('?').unwrap_or((text, ""));
    let (scheme, rest) = address.split_once("://").unwrap_or(("", address));
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let mut out = match scheme {
        "" => String::new(),
        scheme => format!("{scheme}://"),
    };
    if host.len() < authority.len() {
        out.push_str(PLACEHOLDER);
        out.push('@');
    }
    out.push_str(host);
    out.push_str(path);
    if !query.is_empty() || text.ends_with('?') {
        let fields: Vec<String> = query
            .split('&')
            .map(|field| match field.split_once('=') {
                Some((name, _)) => format!("{name}={PLACEHOLDER}"),
                None => field.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&fields.join("&"));
    }
    if let Some(fragment) = fragment {
        out.push('#');
        if !fragment.is_empty() {
            out.push_str(PLACEHOLDER);
        }
    }
    out
}

fn is_json_or_sse(text: &str) -> bool {
    let start = text.trim_start();
    start.starts_with(['{', '['])
        || text.lines().any(|line| {
            ["data:", "event:", "id:", "retry:", ":"]
                .iter()
                .any(|field| line.starts_with(field))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    static LOG: TextLog = TextLog {
        parts: Some(|line| {
            let (tag, sentence) = line.split_once("] ")?;
            let server = tag.strip_prefix("1 [")?;
            Some(LineParts::of(
                line,
                &[(server, crate::decode::Tag::Server)],
                sentence,
            ))
        }),
        sentences: Some(&["Message from client: {json}", "[server stderr] {free}"]),
    };

    fn redacted(text: &str) -> String {
        let mut out = String::new();
        let names = &mut Names::default();
        assert!(line(text, &LOG, names, &mut out).is_none());
        out
    }

    #[test]
    fn log_lines_keep_their_prefix_and_known_sentences() {
        assert_eq!(
            redacted(
                r#"1 [c] Message from client: {"method":"initialize","params":{"clientInfo":{"name":"me"}},"id":0} { metadata: undefined }"#
            ),
            r#"1 [server-1] Message from client: {"method":"initialize","params":{"clientInfo":{"name":"redacted"}},"id":0} { metadata: undefined }"#
        );
        assert_eq!(
            redacted("1 [c] [server stderr] loaded /home/me/secret"),
            "1 [server-1] [server stderr] redacted"
        );
        assert_eq!(redacted("1 [c] Loading /home/me"), "1 [server-1] redacted");
        assert_eq!(redacted("npm warn exec a secret path"), "redacted");
        assert_eq!(redacted("   at /home/me/x.js:1"), "   redacted");
    }

    #[test]
    fn urls_keep_their_path_and_lose_credentials_and_query_values() {
        assert_eq!(
            url("https://me:pw@h.example:8443/mcp/x?key=s3cret&flag#frag"),
            "https://redacted@h.example:8443/mcp/x?key=redacted&flag#redacted"
        );
        assert_eq!(url("http://h/mcp"), "http://h/mcp");
        assert_eq!(url("/messages?sessionId=5"), "/messages?sessionId=redacted");
    }

    #[test]
    fn bodies_json_sse_base64_and_other_text() {
        assert_eq!(
            body("event: message\r\ndata: {\"id\":1,\"result\":{\"content\":[\"x\"]}}\r\n\r\n"),
            "event: message\r\ndata: {\"id\":1,\"result\":{\"content\":[\"redacted\"]}}\r\n\r\n"
        );
        assert_eq!(body("Cannot GET /secret"), "redacted");
        let engine = base64::engine::general_purpose::STANDARD;
        let encoded = engine.encode("{\"id\":1,\"params\":{\"name\":\"x\"}}");
        assert_eq!(
            engine.decode(body(&encoded)).unwrap(),
            b"{\"id\":1,\"params\":{\"name\":\"redacted\"}}"
        );
        static SENTENCE: TextLog = TextLog {
            parts: None,
            sentences: Some(&["Server stderr:{free}", "Received: {json}"]),
        };
        assert_eq!(
            sentence("Server stderr: a\nb", &SENTENCE, &mut Names::default()),
            "Server stderr: redacted"
        );
        assert_eq!(
            sentence(
                "Received: {\"id\":1,\"error\":{\"message\":\"x\"}}",
                &SENTENCE,
                &mut Names::default()
            ),
            "Received: {\"id\":1,\"error\":{\"message\":\"redacted\"}}"
        );
        assert_eq!(
            sentence("Said: a\nb", &SENTENCE, &mut Names::default()),
            "redacted"
        );
    }
}
