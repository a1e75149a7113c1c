//! HAR 1.2 captures of Streamable HTTP (browser devtools, Playwright,
//! mitmproxy): every entry whose request or response carries JSON-RPC.
//!
//! The document is parsed once, borrowing every body from the input (no
//! second copy of a large capture); entries are then decoded in parallel,
//! and their events put in trace order: a request at the entry's start, its
//! response events at the entry's end, exchange by exchange. Events within
//! one entry keep their order; across entries the order is only as good as
//! the timestamps, and rules that depend on it take the stream into account.

use std::borrow::Cow;
use std::ops::Range;

use base64::Engine as _;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::document::{self, offset_of};
use super::entries::{self, Capture, EventSink, LineIndex, Reading};
use super::http::{
    is_event_stream, kept_headers, url_path, url_target, Body, EntryProblem, Exchange,
};
use super::json::{kind_of, string_of};
use super::timestamp::parse_rfc3339_ms;
use crate::event::{Event, JsonKind};

mod scan;

#[derive(Deserialize, Debug, PartialEq)]
struct Har<'a> {
    #[serde(borrow)]
    log: Log<'a>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Log<'a> {
    #[serde(borrow, deserialize_with = "texts")]
    entries: Vec<&'a str>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Entry<'a> {
    #[serde(borrow, rename = "startedDateTime")]
    started: Option<Cow<'a, str>>,
    time: Option<f64>,
    #[serde(borrow)]
    request: Request<'a>,
    #[serde(borrow)]
    response: Option<Response<'a>>,
    #[serde(borrow, default, rename = "_error", deserialize_with = "optional_text")]
    error: Option<&'a str>,
    #[serde(
        borrow,
        default,
        rename = "_failureText",
        deserialize_with = "optional_text"
    )]
    failure_text: Option<&'a str>,
    timings: Option<Timings>,
    #[serde(borrow, rename = "_eventSourceMessages")]
    event_source_messages: Option<Vec<EventSourceMessage<'a>>>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Timings {
    blocked: Option<f64>,
    dns: Option<f64>,
    connect: Option<f64>,
    ssl: Option<f64>,
    send: Option<f64>,
    wait: Option<f64>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Request<'a> {
    #[serde(borrow)]
    method: Cow<'a, str>,
    /// Raw, so that the exchange can be located at its request line.
    #[serde(borrow, deserialize_with = "text")]
    url: &'a str,
    #[serde(borrow, default)]
    headers: Vec<Header<'a>>,
    #[serde(borrow, rename = "postData")]
    post_data: Option<Content<'a>>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Response<'a> {
    status: Option<i64>,
    #[serde(borrow, default)]
    headers: Vec<Header<'a>>,
    #[serde(borrow)]
    content: Option<Content<'a>>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Content<'a> {
    #[serde(borrow, rename = "mimeType")]
    mime_type: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "optional_text")]
    text: Option<&'a str>,
    #[serde(borrow)]
    encoding: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Header<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    value: Cow<'a, str>,
}

#[derive(Deserialize, Debug, PartialEq)]
struct EventSourceMessage<'a> {
    #[serde(borrow, default, deserialize_with = "optional_text")]
    data: Option<&'a str>,
}

/// A required member's JSON text.
fn text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'de str, D::Error> {
    <&RawValue>::deserialize(d).map(RawValue::get)
}

/// The JSON texts of an array's items.
fn texts<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<&'de str>, D::Error> {
    let items = Vec::<&RawValue>::deserialize(d)?;
    Ok(items.into_iter().map(RawValue::get).collect())
}

/// An optional member's JSON text (`null` reads as absent, as it does for
/// any `Option` serde reads).
fn optional_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de str>, D::Error> {
    Option::<&RawValue>::deserialize(d).map(|raw| raw.map(RawValue::get))
}

/// Whether `bytes` look like a HAR document: an object whose first member is `log`.
pub(crate) fn sniff(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    let trimmed = text.trim_start();
    trimmed.starts_with('{') && trimmed[1..].trim_start().starts_with("\"log\"")
}

fn header<'h>(headers: &'h [Header], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case(name))
        .map(|h| h.value.as_ref())
}

const TEXT_NOT_A_STRING: &str = "the body \"text\" is not a string";

fn is_base64(encoding: Option<&str>) -> bool {
    encoding.is_some_and(|e| e.eq_ignore_ascii_case("base64"))
}

/// The text of a body member, unescaped and, for `"encoding":"base64"`, decoded.
fn body_text<'a>(raw: &'a str, encoding: Option<&str>) -> Result<Cow<'a, str>, String> {
    let text = string_of(raw).ok_or(TEXT_NOT_A_STRING)?;
    if is_base64(encoding) {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text.trim())
            .map_err(|e| format!("the base64 body cannot be decoded: {e}"))?;
        return String::from_utf8(bytes).map(Cow::Owned).map_err(|e| {
            format!(
                "the body is not UTF-8 (invalid byte at {})",
                e.utf8_error().valid_up_to()
            )
        });
    }
    Ok(text)
}

/// Built once: building a searcher costs more than most searches.
static ESCAPED_METHOD: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(br#"\"method\""#));
static ESCAPED_ID: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(br#"\"id\""#));
static UNICODE_ESCAPE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(br"\u"));

/// Whether a JSON string member, unescaped, can hold a request (a
/// `"method"` and an `"id"` member name): its quotes are escaped `\"` and
/// no escape but `\u` spells a quote or a letter. Without a `\u`, the
/// string also unescapes without fail (the document parsed, so its
/// escapes are well formed; only a `\u` can name a lone surrogate).
fn raw_may_hold_request(raw: &str) -> bool {
    let text = raw.as_bytes();
    UNICODE_ESCAPE.find(text).is_some() || names_method_and_id(text)
}

/// Whether escaped JSON text has both a `"method"` and an `"id"` member name.
fn names_method_and_id(text: &[u8]) -> bool {
    ESCAPED_METHOD.find(text).is_some() && ESCAPED_ID.find(text).is_some()
}

/// Like [`raw_may_hold_request`], for an SSE body: a request is the data
/// of one event, so both member names must lie between the same two
/// blank lines.
fn raw_sse_may_hold_request(raw: &str) -> bool {
    let text = raw.as_bytes();
    UNICODE_ESCAPE.find(text).is_some() || method_and_id_in_one_part(text)
}

/// Whether a `"method"` and an `"id"` member name of a JSON string without
/// `\u` escapes lie in one part of it that blank lines separate, as
/// [`super::sse::parse`] reads lines: a line ends with CR LF, LF or CR, each
/// written as an escape (`\r`, `\n`), so two line ends in a row (LF LF,
/// LF CR, CR CR) make a blank line. Where some method and id names share a
/// part, two of them next to each other in the text do: only the text
/// between such neighbours is searched for blank lines, not the whole body.
fn method_and_id_in_one_part(text: &[u8]) -> bool {
    let methods: Vec<usize> = ESCAPED_METHOD.find_iter(text).collect();
    if methods.is_empty() {
        return false;
    }
    let ids = ESCAPED_ID.find_iter(text).map(|at| (at, false));
    let mut names: Vec<(usize, bool)> = methods.into_iter().map(|at| (at, true)).collect();
    names.extend(ids);
    names.sort_unstable();
    names.windows(2).any(|next| {
        let ((first, is_method), (second, other_is_method)) = (next[0], next[1]);
        is_method != other_is_method
            && !blank_lines_in(text, first..second).any(|blank| (first..second).contains(&blank))
    })
}

/// Built once: building a searcher costs more than most searches.
static BLANK_LINES: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 3]> =
    std::sync::LazyLock::new(|| [br"\n\n", br"\n\r", br"\r\r"].map(memchr::memmem::Finder::new));

/// Where the blank lines of escaped text start whose two line ends start
/// at `pairs_from` (a range of the text): the second of the two line ends,
/// LF LF pairs first, then LF CR, then CR CR. Bodies hold an escape every
/// few bytes, so the pairs are searched for, and each kept where its
/// backslash starts an escape (not the escaped half of a `\\`).
fn blank_lines_in(text: &[u8], pairs_from: Range<usize>) -> impl Iterator<Item = usize> + '_ {
    let searched = pairs_from.start..(pairs_from.end + 3).min(text.len());
    BLANK_LINES.iter().flat_map(move |pair| {
        let mut from = searched.start;
        std::iter::from_fn(move || loop {
            let at = from + pair.find(text.get(from..searched.end)?)?;
            // Pairs overlap: a third line end makes another blank line.
            from = at + 2;
            let backslashes_before = text[..at].iter().rev().take_while(|b| **b == b'\\');
            if backslashes_before.count() % 2 == 0 {
                return Some(at + 2);
            }
        })
    })
}

/// Whether the outline can leave out the response: no part of it can hold
/// a request, and its body can be told a string without reading it.
fn response_holds_no_request(
    content: Option<&Content>,
    is_sse: bool,
    messages: Option<&[EventSourceMessage]>,
) -> bool {
    let may_hold_request = match is_sse {
        true => raw_sse_may_hold_request,
        false => raw_may_hold_request,
    };
    let body_holds_none = content.is_none_or(|c| {
        c.text
            .is_none_or(|raw| !is_base64(c.encoding.as_deref()) && !may_hold_request(raw))
    });
    let messages_hold_none = messages
        .unwrap_or_default()
        .iter()
        .filter_map(|m| m.data)
        .all(|raw| !raw_may_hold_request(raw));
    body_holds_none && messages_hold_none
}

fn exchange<'a>(
    document: &'a [u8],
    number: usize,
    raw: &'a str,
    reading: Reading,
) -> Result<Exchange<'a>, EntryProblem> {
    let offset = offset_of(document, raw);
    let problem = |why: String| EntryProblem { offset, why };
    let entry = Entry::read(raw)
        .map_err(|e| problem(format!("entry {number} is not a valid HAR entry: {e}")))?;
    let started_ms = entry.started.as_deref().and_then(parse_rfc3339_ms);
    // Time to first byte: every phase before the response body (-1 = n/a).
    let before_body: f64 = entry
        .timings
        .as_ref()
        .map(|t| [t.blocked, t.dns, t.connect, t.ssl, t.send, t.wait])
        .into_iter()
        .flatten()
        .flatten()
        .filter(|ms| *ms > 0.0)
        .sum();
    let first_byte_ms = started_ms.map(|start| start + before_body);
    let ended_ms = started_ms.map(|start| start + entry.time.filter(|t| *t > 0.0).unwrap_or(0.0));
    let response_headers: &[Header] = entry.response.as_ref().map_or(&[], |r| &r.headers);
    let request_headers = &entry.request.headers;
    let body_problem = |raw: &str, why: &str| EntryProblem {
        offset: offset_of(document, raw),
        why: format!("entry {number}: {why}"),
    };
    let body = |content: Option<&Content<'a>>| -> Result<Option<Body<'a>>, EntryProblem> {
        let Some(content) = content else {
            return Ok(None);
        };
        let Some(raw) = content.text else {
            return Ok(None);
        };
        let text =
            body_text(raw, content.encoding.as_deref()).map_err(|why| body_problem(raw, &why))?;
        Ok(Some(Body {
            text,
            offset: offset_of(document, raw),
        }))
    };
    let response_content = entry.response.as_ref().and_then(|r| r.content.as_ref());
    let response_content_type = response_content
        .and_then(|c| c.mime_type.as_deref())
        .or_else(|| header(response_headers, "content-type"))
        .map(|t| t.to_ascii_lowercase());
    let leave_out_response = reading == Reading::Outline
        && response_holds_no_request(
            response_content,
            is_event_stream(response_content_type.as_deref()),
            entry.event_source_messages.as_deref(),
        );
    let failure = [entry.error, entry.failure_text]
        .into_iter()
        .flatten()
        .map(|raw| string_of(raw).map_or_else(|| raw.to_string(), Cow::into_owned))
        .find(|text| !text.is_empty());
    let sse_messages = entry
        .event_source_messages
        .as_ref()
        .filter(|_| !leave_out_response)
        .map(|messages| {
            messages
                .iter()
                .filter_map(|m| m.data)
                .filter_map(|raw| {
                    let text = string_of(raw)?;
                    Some(Body {
                        text,
                        offset: offset_of(document, raw),
                    })
                })
                .collect()
        });
    let url = string_of(entry.request.url).ok_or_else(|| {
        problem(format!(
            "entry {number}: the request \"url\" is not a string"
        ))
    })?;
    // Only the events name the exchange and carry the headers rules read.
    let for_events = reading == Reading::Whole;
    let (path, target) = match for_events {
        true => (url_path(&url), url_target(&url)),
        false => Default::default(),
    };
    let kept = |headers: &[Header]| match for_events {
        true => kept_headers(headers.iter().map(|h| (h.name.as_ref(), h.value.as_ref()))),
        false => Vec::new(),
    };
    let request_body = body(entry.request.post_data.as_ref())?;
    let response_body = match leave_out_response {
        // Read or not, a body that is a string reads without fail.
        true => match response_content.and_then(|c| c.text) {
            Some(raw) if kind_of(raw) != JsonKind::String => {
                return Err(body_problem(raw, TEXT_NOT_A_STRING))
            }
            _ => None,
        },
        false => body(response_content)?.filter(|b| !b.text.is_empty()),
    };
    Ok(Exchange {
        number,
        method: entry.request.method.clone(),
        path,
        target,
        request_headers: kept(request_headers),
        response_headers: kept(response_headers),
        started_ms,
        first_byte_ms,
        ended_ms,
        status: entry.response.as_ref().and_then(|r| r.status),
        request_session: header(request_headers, "mcp-session-id").map(Into::into),
        response_session: header(response_headers, "mcp-session-id").map(Into::into),
        protocol_version: header(request_headers, "mcp-protocol-version").map(Into::into),
        resumes: header(request_headers, "last-event-id").is_some(),
        request_body,
        response_content_type,
        response_body,
        sse_messages,
        failure,
        // The request line (its "url"), not the entry's bare `{`.
        offset: offset_of(document, entry.request.url),
    })
}

/// The text of each entry of a HAR document, scanned by `json_text`
/// (each also handed to `each` as it is read); `None` where the scanner
/// does not read the document.
fn scanned_entries<'a>(bytes: &'a [u8], each: &mut dyn FnMut(&'a str)) -> Option<Vec<&'a str>> {
    let text = crate::json_text::utf8(bytes).ok()?;
    crate::json_text::read_whole(text, |text, at| scan::document(text, at, each))
}

/// Decodes a HAR document into events in trace order.
pub(crate) fn decode(bytes: &[u8], source: u32) -> Vec<Event> {
    let mut events = Vec::new();
    stream(bytes, source, &mut |_| {}, &mut events);
    events
}

/// Gives `sink` a HAR document's events in trace order, entry by entry, so
/// memory does not grow with the capture; `release` is told byte ranges not
/// needed until read again. A document the scanner does not read is parsed
/// by serde_json, which locates what is wrong with it.
pub(crate) fn stream(
    bytes: &[u8],
    source: u32,
    release: &mut (dyn FnMut(std::ops::Range<usize>) + Send),
    sink: &mut dyn EventSink,
) {
    let read = |i, raw, reading| exchange(bytes, i + 1, raw, reading).map(Some);
    let batch = entries::batch();
    if let Some((entries, lines, outlined)) = outline_while_scanned(bytes, &read, batch, release) {
        let capture = Capture::new(bytes, source, &entries, read);
        return entries::stream_outlined(&capture, &lines, outlined, release, sink);
    }
    match document::parse::<Har>(bytes, source, "the HAR file", "a valid HAR 1.2 file") {
        Ok(har) => {
            let capture = Capture::new(bytes, source, &har.log.entries, read);
            entries::stream(&capture, release, sink);
        }
        Err(events) => {
            for event in events {
                sink.take(event);
            }
            sink.flush();
        }
    }
}

/// The first pass over a document's entries while they are still scanned
/// for: scanning the document is the one step that cannot be split between
/// threads, so one thread scans while the other outlines the entries found.
/// The scanner hands on the entries in batches of `batch`. `None` where it
/// does not read the document (what was outlined is dropped: no event was
/// made yet).
fn outline_while_scanned<'a>(
    bytes: &'a [u8],
    read: &impl entries::ReadEntry<'a>,
    batch: usize,
    release: &mut (dyn FnMut(std::ops::Range<usize>) + Send),
) -> Option<(Vec<&'a str>, LineIndex, entries::Outlined)> {
    // Unbounded: on one thread, the whole scan runs before the first pass.
    let (send, arriving) = std::sync::mpsc::channel::<Vec<&str>>();
    let scan = move || {
        let lines = LineIndex::new(bytes);
        let mut pending = Vec::with_capacity(batch);
        let mut each = |entry| {
            pending.push(entry);
            if pending.len() == batch {
                let full = std::mem::replace(&mut pending, Vec::with_capacity(batch));
                // Refused only once the first pass has stopped.
                let _ = send.send(full);
            }
        };
        let entries = scanned_entries(bytes, &mut each);
        let _ = send.send(pending);
        Some((entries?, lines))
    };
    let outline = || entries::outline(bytes, read, arriving, release);
    let (scanned, outlined) = rayon::join(scan, outline);
    scanned.map(|(entries, lines)| (entries, lines, outlined))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::entries::collected_order;
    use crate::generate::{generate_har, GeneratorConfig};

    /// Blank lines found escape by escape, each backslash read in turn:
    /// what [`blank_lines`] must find.
    fn blank_lines_escape_by_escape(text: &[u8]) -> Vec<usize> {
        let (mut blanks, mut from) = (Vec::new(), 0);
        // The end of the last line end's escape, and which it was.
        let mut last_line_end: Option<(usize, u8)> = None;
        while let Some(found) = memchr::memchr(b'\\', &text[from..]) {
            let at = from + found;
            let Some(&escaped) = text.get(at + 1) else {
                break;
            };
            if matches!(escaped, b'n' | b'r') {
                if last_line_end.is_some_and(|(end, before)| {
                    end == at && matches!((before, escaped), (b'n', b'n' | b'r') | (b'r', b'r'))
                }) {
                    blanks.push(at);
                }
                last_line_end = Some((at + 2, escaped));
            }
            from = at + 2;
        }
        blanks
    }

    /// Where every blank line of escaped text starts, in order.
    fn blank_lines(text: &[u8]) -> Vec<usize> {
        let mut blanks: Vec<usize> = blank_lines_in(text, 0..text.len()).collect();
        blanks.sort_unstable();
        blanks
    }

    /// Whether some part of escaped text that blank lines separate names
    /// both a method and an id, each part searched whole: what
    /// [`method_and_id_in_one_part`] must tell.
    fn method_and_id_in_some_part(text: &[u8]) -> bool {
        let mut part_start = 0;
        let mut part_ends = blank_lines(text).into_iter().chain([text.len()]);
        part_ends.any(|part_end| {
            let part = &text[part_start..part_end];
            part_start = part_end;
            names_method_and_id(part)
        })
    }

    proptest::proptest! {
        #[test]
        fn method_and_id_are_found_in_one_part_as_part_by_part(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                r"\n", r"\r", r"\\", r#"\\""#, r"\n\n", r"\r\n\r\n", "data: x", r#"\"method\""#,
                r#"\"id\""#, r#"\"id\":1"#,
            ]), 0..24)
        ) {
            let text = parts.concat();
            proptest::prop_assert_eq!(
                method_and_id_in_one_part(text.as_bytes()),
                method_and_id_in_some_part(text.as_bytes()),
                "{}", text
            );
        }

        #[test]
        fn blank_lines_are_found_as_escape_by_escape(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                r"\n", r"\r", r"\\", r#"\""#, r"\t", "n", "r", "data: x", r#"\"method\""#,
            ]), 0..24)
        ) {
            let text = format!("\"{}\"", parts.concat());
            proptest::prop_assert_eq!(
                blank_lines(text.as_bytes()),
                blank_lines_escape_by_escape(text.as_bytes()),
                "{}", text
            );
        }
    }

    /// The HAR captures of the test data, and a generated one with injected
    /// violations (answers before their requests) and many entries.
    fn captures() -> Vec<Vec<u8>> {
        let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let mut captures = Vec::new();
        for dir in ["har", "sessions"] {
            for entry in std::fs::read_dir(testdata.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "har") {
                    captures.push(std::fs::read(path).unwrap());
                }
            }
        }
        let config = GeneratorConfig {
            target_bytes: 1 << 20,
            ..GeneratorConfig::default()
        };
        let mut generated = Vec::new();
        generate_har(&config, &mut generated).unwrap();
        captures.push(generated);
        captures.push(SERVER_REQUESTS.as_bytes().to_vec());
        captures
    }

    /// Requests a server makes on its SSE stream after other events, one
    /// member name written with a `\u` escape, bodies that are not JSON,
    /// a body that is not a string, one in base64, one that cannot be
    /// unescaped (a lone surrogate), and SSE requests whose member names
    /// lie on two lines or around escaped line breaks.
    const SERVER_REQUESTS: &str = r#"{"log":{"entries":[
{"startedDateTime":"2026-01-01T00:00:00.000Z","time":9,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}],"postData":{"text":"[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"_meta\":{\"progressToken\":\"p\"}}}]"}},"response":{"status":200,"headers":[{"name":"Content-Type","value":"text/event-stream"}],"content":{"text":"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"p\",\"progress\":1}}\n\ndata: not json\n\ndata: [{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"},{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"sampling/createMessage\"}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"s2\",\"\\u006dethod\":\"ping\"}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n"}}},
{"startedDateTime":"2026-01-01T00:00:00.001Z","time":1,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}],"postData":{"text":"{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}"}},"response":{"status":202,"headers":[]}},
{"startedDateTime":"2026-01-01T00:00:00.002Z","time":1,"request":{"method":"GET","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}]},"response":{"status":200,"headers":[],"content":{"mimeType":"text/event-stream","text":"{}"},"_x":1},"_eventSourceMessages":[{"data":"nope"},{"data":"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"roots/list\"}"}]},
{"startedDateTime":"2026-01-01T00:00:00.003Z","time":2,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}],"postData":{"text":"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}"}},"response":{"status":200,"headers":[{"name":"Content-Type","value":"application/json"}],"content":{"text":"[{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}},{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}]"}}},
{"startedDateTime":"2026-01-01T00:00:00.004Z","time":2,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}]},"response":{"status":200,"headers":[],"content":{"text":5}}},
{"startedDateTime":"2026-01-01T00:00:00.005Z","time":2,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}]},"response":{"status":200,"headers":[],"content":{"encoding":"base64","text":"eyJqc29ucnBjIjoiMi4wIiwiaWQiOjQsIm1ldGhvZCI6InBpbmcifQ=="}}},
{"startedDateTime":"2026-01-01T00:00:00.006Z","time":2,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}]},"response":{"status":200,"headers":[],"content":{"text":"{\"jsonrpc\":\"2.0\",\"id\":\"\\uD800\",\"result\":{}}"}}},
{"startedDateTime":"2026-01-01T00:00:00.007Z","time":2,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}]},"response":{"status":200,"headers":[{"name":"Content-Type","value":"Text/Event-Stream"}],"content":{"text":"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\r\n\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"ping\",\r\ndata: \"id\":\"s9\"}\r\n\r\n"}}},
{"startedDateTime":"2026-01-01T00:00:00.008Z","time":2,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}]},"response":{"status":200,"headers":[{"name":"Content-Type","value":"text/event-stream"}],"content":{"text":"data: {\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"x\":\"a\\n\\nb\\r\\rc\"},\"id\":\"s10\"}\n\n"}}},
{"startedDateTime":"2026-01-01T00:00:00.009Z","time":2,"request":{"method":"POST","url":"http://h/mcp","headers":[{"name":"Mcp-Session-Id","value":"s"}]},"response":{"status":200,"headers":[{"name":"Content-Type","value":"text/event-stream"}],"content":{"text":"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\rdata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\r\r"}}}
]}}"#;

    #[test]
    fn the_outline_of_an_entry_is_what_its_events_give() {
        for bytes in captures() {
            let Ok(har) = document::parse::<Har>(&bytes, 0, "", "") else {
                panic!("a capture of the test data is not a HAR");
            };
            let read = |i, raw, reading| exchange(&bytes, i + 1, raw, reading).map(Some);
            let capture = Capture::new(&bytes, 0, &har.log.entries, read);
            for i in 0..har.log.entries.len() {
                let expected = entries::outline_of_events(&capture, i);
                assert!(
                    entries::folded_outline(&capture, i) == expected,
                    "entry {i}"
                );
            }
        }
    }

    #[test]
    fn streamed_entries_come_in_the_order_of_sorting_the_whole_capture() {
        for bytes in captures() {
            let Ok(har) = document::parse::<Har>(&bytes, 0, "", "") else {
                panic!("a capture of the test data is not a HAR");
            };
            let read = |i, raw, reading| exchange(&bytes, i + 1, raw, reading).map(Some);
            let expected = collected_order(&Capture::new(&bytes, 0, &har.log.entries, read));
            // Batches smaller than the capture: entries held across batches.
            for batch in [1, 2, 5, 64] {
                let mut capture = Capture::new(&bytes, 0, &har.log.entries, read);
                capture.batch = batch;
                let mut events = Vec::new();
                entries::stream(&capture, &mut |_| {}, &mut events);
                assert!(events == expected, "batches of {batch}");
                let release = &mut |_| {};
                let Some((scanned, lines, outlined)) =
                    outline_while_scanned(&bytes, &read, batch, release)
                else {
                    panic!("a capture of the test data is not scanned");
                };
                assert!(scanned == har.log.entries);
                let mut events = Vec::new();
                let capture = Capture::new(&bytes, 0, &scanned, read);
                entries::stream_outlined(&capture, &lines, outlined, release, &mut events);
                assert!(
                    events == expected,
                    "outlined while scanned, batches of {batch}"
                );
            }
        }
    }
}
