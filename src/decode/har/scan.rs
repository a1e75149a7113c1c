//! A HAR entry read by [`json_text`](crate::json_text) in one pass, where
//! every member has the type the entry's structs want; serde_json reads
//! the rest (an array where an object is expected, a member twice, a
//! missing `request`) and words why it cannot be read. Numbers are read by
//! serde_json itself, so every time is the double serde_json makes of it.

use serde::de::DeserializeOwned;

use super::{Content, Entry, EventSourceMessage, Header, Request, Response, Timings};
use crate::json_text::{checked_array, checked_object, checked_value_end, read_whole, string_at};

/// A value read from the text, and where it ends.
type Read<T> = Option<(T, usize)>;

impl<'a> Entry<'a> {
    pub(super) fn read(text: &'a str) -> serde_json::Result<Self> {
        match read_whole(text, entry) {
            Some(entry) => Ok(entry),
            None => serde_json::from_str(text),
        }
    }
}

/// Keeps the first value of a member; `None` (refused) for a second.
fn once<T>(slot: &mut Option<T>, (value, end): (T, usize)) -> Option<usize> {
    slot.replace(value).is_none().then_some(end)
}

/// The members of the object at `at`, each read by `member` from its name
/// and where its value starts.
fn object(
    text: &str,
    at: usize,
    mut member: impl FnMut(&str, usize) -> Option<usize>,
) -> Option<usize> {
    checked_object(text, at, |name, start| member(&name.value()?, start))
}

/// A member no field reads, checked and skipped.
fn skip(text: &str, at: usize) -> Option<usize> {
    checked_value_end(text.as_bytes(), at)
}

/// `read`'s value, or `None` for `null` (an `Option` member).
fn or_null<'a, T>(
    text: &'a str,
    at: usize,
    read: impl FnOnce(&'a str, usize) -> Read<T>,
) -> Read<Option<T>> {
    match text[at..].starts_with("null") {
        true => Some((None, at + 4)),
        false => read(text, at).map(|(value, end)| (Some(value), end)),
    }
}

/// Any value, as its text.
fn raw(text: &str, at: usize) -> Read<&str> {
    let end = checked_value_end(text.as_bytes(), at)?;
    Some((&text[at..end], end))
}

/// A number (or `null`), as serde_json reads it.
fn number<T: DeserializeOwned>(text: &str, at: usize) -> Read<Option<T>> {
    let (raw, end) = raw(text, at)?;
    Some((serde_json::from_str(raw).ok()?, end))
}

/// An array of what `item` reads.
fn array<'a, T>(
    text: &'a str,
    at: usize,
    mut item: impl FnMut(&'a str, usize) -> Read<T>,
) -> Read<Vec<T>> {
    // Room for the usual list of headers: growing to it took 0.6% of a
    // capture's instructions.
    let mut items = Vec::with_capacity(16);
    let end = checked_array(text, at, |start| {
        let (value, end) = item(text, start)?;
        items.push(value);
        Some(end)
    })?;
    Some((items, end))
}

/// The entries of a HAR document: `log.entries`, each as its text.
pub(super) fn document<'a>(
    text: &'a str,
    at: usize,
    each: &mut dyn FnMut(&'a str),
) -> Read<Vec<&'a str>> {
    let mut log = None;
    let end = object(text, at, |name, start| match name {
        "log" => once(&mut log, log_at(text, start, each)?),
        _ => skip(text, start),
    })?;
    Some((log?, end))
}

/// The `log` object's entries, each handed to `each` as it is read.
fn log_at<'a>(text: &'a str, at: usize, each: &mut dyn FnMut(&'a str)) -> Read<Vec<&'a str>> {
    let mut entries = None;
    let end = object(text, at, |name, start| match name {
        "entries" => {
            let read = array(text, start, |text, start| {
                let (entry, end) = raw(text, start)?;
                each(entry);
                Some((entry, end))
            });
            once(&mut entries, read?)
        }
        _ => skip(text, start),
    })?;
    Some((entries?, end))
}

fn entry(text: &str, at: usize) -> Read<Entry<'_>> {
    let (mut started, mut time, mut request, mut response) = (None, None, None, None);
    let (mut error, mut failure_text, mut timings, mut messages) = (None, None, None, None);
    let end = object(text, at, |name, start| match name {
        "startedDateTime" => once(&mut started, or_null(text, start, string_at)?),
        "time" => once(&mut time, number(text, start)?),
        "request" => once(&mut request, request_at(text, start)?),
        "response" => once(&mut response, or_null(text, start, response_at)?),
        "_error" => once(&mut error, or_null(text, start, raw)?),
        "_failureText" => once(&mut failure_text, or_null(text, start, raw)?),
        "timings" => once(&mut timings, or_null(text, start, timings_at)?),
        "_eventSourceMessages" => once(&mut messages, or_null(text, start, event_messages)?),
        _ => skip(text, start),
    })?;
    let entry = Entry {
        started: started.flatten(),
        time: time.flatten(),
        request: request?,
        response: response.flatten(),
        error: error.flatten(),
        failure_text: failure_text.flatten(),
        timings: timings.flatten(),
        event_source_messages: messages.flatten(),
    };
    Some((entry, end))
}

fn request_at(text: &str, at: usize) -> Read<Request<'_>> {
    let (mut method, mut url, mut headers, mut post_data) = (None, None, None, None);
    let end = object(text, at, |name, start| match name {
        "method" => once(&mut method, string_at(text, start)?),
        "url" => once(&mut url, raw(text, start)?),
        "headers" => once(&mut headers, array(text, start, header)?),
        "postData" => once(&mut post_data, or_null(text, start, content)?),
        _ => skip(text, start),
    })?;
    let request = Request {
        method: method?,
        url: url?,
        headers: headers.unwrap_or_default(),
        post_data: post_data.flatten(),
    };
    Some((request, end))
}

fn response_at(text: &str, at: usize) -> Read<Response<'_>> {
    let (mut status, mut headers, mut content_slot) = (None, None, None);
    let end = object(text, at, |name, start| match name {
        "status" => once(&mut status, number(text, start)?),
        "headers" => once(&mut headers, array(text, start, header)?),
        "content" => once(&mut content_slot, or_null(text, start, content)?),
        _ => skip(text, start),
    })?;
    let response = Response {
        status: status.flatten(),
        headers: headers.unwrap_or_default(),
        content: content_slot.flatten(),
    };
    Some((response, end))
}

fn content(text: &str, at: usize) -> Read<Content<'_>> {
    let (mut mime_type, mut body, mut encoding) = (None, None, None);
    let end = object(text, at, |name, start| match name {
        "mimeType" => once(&mut mime_type, or_null(text, start, string_at)?),
        "text" => once(&mut body, or_null(text, start, raw)?),
        "encoding" => once(&mut encoding, or_null(text, start, string_at)?),
        _ => skip(text, start),
    })?;
    let content = Content {
        mime_type: mime_type.flatten(),
        text: body.flatten(),
        encoding: encoding.flatten(),
    };
    Some((content, end))
}

fn header(text: &str, at: usize) -> Read<Header<'_>> {
    let (mut name_slot, mut value) = (None, None);
    let end = object(text, at, |name, start| match name {
        "name" => once(&mut name_slot, string_at(text, start)?),
        "value" => once(&mut value, string_at(text, start)?),
        _ => skip(text, start),
    })?;
    Some((
        Header {
            name: name_slot?,
            value: value?,
        },
        end,
    ))
}

fn timings_at(text: &str, at: usize) -> Read<Timings> {
    const PHASES: [&str; 6] = ["blocked", "dns", "connect", "ssl", "send", "wait"];
    let mut phases: [Option<Option<f64>>; 6] = [None; 6];
    let end = object(text, at, |name, start| {
        match PHASES.iter().position(|phase| *phase == name) {
            Some(index) => once(&mut phases[index], number(text, start)?),
            None => skip(text, start),
        }
    })?;
    let [blocked, dns, connect, ssl, send, wait] = phases.map(Option::flatten);
    let timings = Timings {
        blocked,
        dns,
        connect,
        ssl,
        send,
        wait,
    };
    Some((timings, end))
}

fn event_messages(text: &str, at: usize) -> Read<Vec<EventSourceMessage<'_>>> {
    array(text, at, |text, at| {
        let mut data = None;
        let end = object(text, at, |name, start| match name {
            "data" => once(&mut data, or_null(text, start, raw)?),
            _ => skip(text, start),
        })?;
        let data = data.flatten();
        Some((EventSourceMessage { data }, end))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::select;

    /// Values of every type, valid for some members and not for others.
    const SCALARS: &[&str] = &[
        "1",
        "-2.5",
        "1e400",
        "200",
        "200.0",
        "null",
        "true",
        r#""s""#,
        r#""a\"b""#,
        r#""\ud800""#,
        r#""base64""#,
        "[]",
        "{}",
        "[1]",
    ];

    /// An object with each of `fields` present or not, mostly of its
    /// type (`mostly`), sometimes any value; a member may come twice.
    fn object_of(fields: Vec<(&'static str, BoxedStrategy<String>)>) -> BoxedStrategy<String> {
        let members: Vec<_> = fields
            .into_iter()
            .map(|(name, value)| {
                let value = prop_oneof![6 => value, 1 => scalar()];
                proptest::option::weighted(0.7, value.prop_map(move |v| format!("\"{name}\": {v}")))
            })
            .collect();
        (members, proptest::option::of(0..2usize))
            .prop_map(|(members, twice)| {
                let mut members: Vec<String> = members.into_iter().flatten().collect();
                if let Some(again) = twice.and_then(|i| members.get(i).cloned()) {
                    members.push(again);
                }
                format!("{{{}}}", members.join(", "))
            })
            .boxed()
    }

    fn scalar() -> BoxedStrategy<String> {
        select(SCALARS).prop_map(String::from).boxed()
    }

    fn of(values: &'static [&'static str]) -> BoxedStrategy<String> {
        select(values).prop_map(String::from).boxed()
    }

    fn array_of(item: BoxedStrategy<String>) -> BoxedStrategy<String> {
        proptest::collection::vec(item, 0..3)
            .prop_map(|items| format!("[{}]", items.join(",")))
            .boxed()
    }

    fn har_entry() -> BoxedStrategy<String> {
        const STRINGS: &[&str] = &[r#""POST""#, r#""a\"b""#, r#""G\u0045T""#, r#""""#];
        const NUMBERS: &[&str] = &["1", "-2.5", "0.1234567890123456789", "200", "null"];
        let header = object_of(vec![
            ("name", of(STRINGS)),
            ("value", of(STRINGS)),
            ("x", scalar()),
        ]);
        let content = object_of(vec![
            ("mimeType", of(STRINGS)),
            ("text", scalar()),
            ("encoding", of(STRINGS)),
            ("size", scalar()),
        ]);
        let request = object_of(vec![
            ("method", of(STRINGS)),
            ("url", scalar()),
            ("headers", array_of(header.clone())),
            ("postData", content.clone()),
        ]);
        let response = object_of(vec![
            ("status", of(NUMBERS)),
            ("headers", array_of(header)),
            ("content", content),
        ]);
        let timings = object_of(vec![("blocked", of(NUMBERS)), ("wait", of(NUMBERS))]);
        let messages = array_of(object_of(vec![("data", scalar()), ("x", scalar())]));
        object_of(vec![
            ("startedDateTime", of(STRINGS)),
            ("time", of(NUMBERS)),
            ("request", request),
            ("response", response),
            ("_error", scalar()),
            ("_failureText", scalar()),
            ("timings", timings),
            ("_eventSourceMessages", messages),
            ("cache", scalar()),
        ])
    }

    proptest! {
        // Entries nest deep enough that a rare shape needs more cases.
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// Whatever entry the scanner reads, serde_json reads the same way.
        #[test]
        fn scanned_entries_read_as_serde_json_reads_them(text in har_entry()) {
            let serde = serde_json::from_str::<Entry>(&text);
            if let Some(scanned) = read_whole(&text, entry) {
                prop_assert_eq!(serde.ok(), Some(scanned), "{}", text);
            }
        }
    }

    proptest! {
        /// Whatever document the scanner reads, serde_json reads the same
        /// entries from it.
        #[test]
        fn scanned_documents_read_as_serde_json_reads_them(
            entries in array_of(prop_oneof![scalar(), har_entry()].boxed()),
            log in object_of(vec![("version", of(&[r#""1.2""#])), ("entries", of(&["[]"]))]),
            noise in proptest::option::of((any::<prop::sample::Index>(), of(&[",", "]", "}", "\"", " "]))),
            twice in any::<bool>(),
        ) {
            let log = log.replacen("[]", &entries, 1);
            let again = if twice { r#", "log": {"entries": []}"# } else { "" };
            let mut text = format!(r#"{{"log": {log}, "x": [{{}}]{again}}}"#);
            if let Some((at, fragment)) = noise {
                let at = at.index(text.len() + 1);
                if text.is_char_boundary(at) {
                    text.insert_str(at, &fragment);
                }
            }
            let mut handed = Vec::new();
            let each = &mut |entry| handed.push(entry);
            if let Some(scanned) = read_whole(&text, |text, at| document(text, at, each)) {
                prop_assert_eq!(&handed, &scanned, "every entry is handed on as it is read");
                let serde = serde_json::from_str::<super::super::Har>(&text);
                prop_assert_eq!(serde.ok().map(|har| har.log.entries), Some(scanned), "{}", text);
            }
        }
    }

    #[test]
    fn a_generated_capture_is_scanned_without_serde() {
        let config = crate::generate::GeneratorConfig {
            target_bytes: 1 << 18,
            ..Default::default()
        };
        let mut capture = Vec::new();
        crate::generate::generate_har(&config, &mut capture).unwrap();
        let har: serde_json::Value = serde_json::from_slice(&capture).unwrap();
        let entries = har["log"]["entries"].as_array().unwrap();
        assert!(entries.len() > 10);
        for value in entries {
            let text = value.to_string();
            assert!(read_whole(&text, entry).is_some(), "{text}");
        }
    }
}
