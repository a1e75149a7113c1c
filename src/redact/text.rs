//! Text around messages: a log line (a prefix the decoder reads, a sentence,
//! maybe a printed message), a sentence held in a JSON string, an HTTP body.

use base64::Engine as _;

use super::context::Context;
use super::scan::{Scanner, PLACEHOLDER};
use super::walk::{walk, Continues, Layout};

/// What of a log's text is free: the server's own output, which the
/// decoders skip or only count, and never read.
#[derive(Debug)]
pub(super) struct TextLog {
    /// Markers after which a line's text is the server's: it starts after
    /// the marker, and after the separator that follows it when one is
    /// given (`Child stderr (session s): text`).
    pub free_after: &'static [(&'static str, &'static str)],
    /// The decoder's own test of where a line's text is the server's: a
    /// line the client did not write (stderr going on), a sentence the
    /// decoder does not read (Cursor logs stderr as its own sentences).
    pub server_output: Option<fn(&str) -> Option<usize>>,
}

/// A log without free text of its own (an HTTP body's SSE lines).
static NOTHING_FREE: TextLog = TextLog {
    free_after: &[],
    server_output: None,
};

/// One line of a log. Returns the scanner of a printed value that goes on
/// in the next line.
pub(super) fn line(text: &str, log: &TextLog, out: &mut String) -> Option<Scanner> {
    if let Some(at) = free_start(text, log) {
        out.push_str(&text[..at]);
        push_free(&text[at..], out);
        return None;
    }
    payloads(text, out)
}

fn free_start(text: &str, log: &TextLog) -> Option<usize> {
    if let Some(at) = log
        .server_output
        .and_then(|server_output| server_output(text))
    {
        return Some(at);
    }
    log.free_after.iter().find_map(|(marker, separator)| {
        let after = text.find(marker)? + marker.len();
        Some(match text[after..].find(separator) {
            Some(at) if !separator.is_empty() => after + at + separator.len(),
            _ => after,
        })
    })
}

/// Free text replaced, its indentation kept.
fn push_free(text: &str, out: &mut String) {
    let words = text.trim_start();
    if words.trim_end().is_empty() {
        out.push_str(text);
    } else {
        out.push_str(&text[..text.len() - words.len()]);
        out.push_str(PLACEHOLDER);
    }
}

/// Copies `text`, redacting every value printed in it as a message.
/// Returns the scanner of one that goes on in the next line.
pub(super) fn payloads(mut text: &str, out: &mut String) -> Option<Scanner> {
    while let Some(start) = payload_start(text) {
        out.push_str(&text[..start]);
        let mut scanner = Scanner::new(Context::Message);
        match scanner.feed(&text[start..], out) {
            Some(len) => text = &text[start + len..],
            None => return Some(scanner),
        }
    }
    out.push_str(text);
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
/// lines; free text after a marker goes on to its end.
pub(super) fn sentence(text: &str, log: &'static TextLog) -> String {
    if let Some(at) = free_start(text, log) {
        let mut out = text[..at].to_string();
        push_free(&text[at..], &mut out);
        return out;
    }
    walk(
        text,
        &Layout {
            record: None,
            text: Some(log),
            continues: Continues::Indented,
        },
    )
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
            text: Some(&NOTHING_FREE),
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
        free_after: &[("[server stderr] ", ""), ("Child stderr", ": ")],
        server_output: Some(|line| (!line.starts_with(|c: char| c.is_ascii_digit())).then_some(0)),
    };

    fn redacted(text: &str) -> String {
        let mut out = String::new();
        assert!(line(text, &LOG, &mut out).is_none());
        out
    }

    #[test]
    fn log_lines_keep_their_prefix_and_lose_messages_and_stderr() {
        assert_eq!(
            redacted(
                r#"2025-07-12T05:51:44.601Z [c] [info] Message from client: {"method":"initialize","params":{"clientInfo":{"name":"me"}},"id":0} { metadata: undefined }"#
            ),
            r#"2025-07-12T05:51:44.601Z [c] [info] Message from client: {"method":"initialize","params":{"clientInfo":{"name":"redacted"}},"id":0} { metadata: undefined }"#
        );
        assert_eq!(
            redacted("2026-07-24 02:03:14.102 [warning] [server stderr] loaded /home/me/secret"),
            "2026-07-24 02:03:14.102 [warning] [server stderr] redacted"
        );
        assert_eq!(
            redacted("1 [supergateway] Child stderr (session a): boom"),
            "1 [supergateway] Child stderr (session a): redacted"
        );
        assert_eq!(redacted("npm warn exec a secret path"), "redacted");
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
            free_after: &[("Server stderr:", "")],
            server_output: None,
        };
        assert_eq!(
            sentence("Server stderr: a\nb", &SENTENCE),
            "Server stderr: redacted"
        );
        assert_eq!(
            sentence(
                "Received: {\"id\":1,\"error\":{\"message\":\"x\"}}\nnext",
                &SENTENCE
            ),
            "Received: {\"id\":1,\"error\":{\"message\":\"redacted\"}}\nnext"
        );
    }
}
