//! Every capture format decodes to the same events as its canonical twin:
//! for each `testdata/**/NAME.<ext>` with a `NAME.canonical.jsonl` beside it,
//! the engine must see the same messages, senders, sessions, streams and
//! order. Transport events the canonical format cannot express (the HTTP
//! facts of an exchange, an aborted HTTP stream) are left out of the comparison.

use std::path::{Path, PathBuf};

use mcp_lint::decode::{decode_document, detect};
use mcp_lint::event::{Payload, Transport};

fn twins(dir: &Path, out: &mut Vec<(PathBuf, PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            twins(&path, out);
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        if name.ends_with(".canonical.jsonl") {
            continue;
        }
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        let canonical = path.with_file_name(format!("{stem}.canonical.jsonl"));
        if canonical.is_file() {
            out.push((path, canonical));
        }
    }
}

/// What the engine sees of a trace, one line per event.
fn seen(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    decode_document(&bytes, 0, detect(&bytes))
        .into_iter()
        .filter(|e| {
            !matches!(
                e.payload,
                Payload::Transport(Transport::StreamAborted(_) | Transport::Http(_))
            )
        })
        .map(|e| {
            let payload = match &e.payload {
                Payload::Message(m) => format!("{:?} {:?}", m.body, m.problems),
                other => format!("{other:?}"),
            };
            format!("{:?} {:?} {:?} {payload}", e.session, e.from, e.stream)
        })
        .collect()
}

#[test]
fn captures_decode_like_their_canonical_twins() {
    let mut pairs = Vec::new();
    twins(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"),
        &mut pairs,
    );
    assert!(
        !pairs.is_empty(),
        "no capture with a canonical twin in testdata/"
    );
    for (capture, canonical) in pairs {
        let (got, want) = (seen(&capture), seen(&canonical));
        assert!(!want.is_empty(), "{} is empty", canonical.display());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g,
                w,
                "{}: event {} differs from {}",
                capture.display(),
                i + 1,
                canonical.display()
            );
        }
        assert_eq!(
            got.len(),
            want.len(),
            "{}: event count differs from {}",
            capture.display(),
            canonical.display()
        );
    }
}

/// The real recordings (the official Python SDK behind mitmproxy, see
/// testdata/har/record/) decode completely: one session, every exchange of
/// the scenario, JSON and SSE bodies, and no unreadable body.
#[test]
fn real_sdk_recordings_decode_completely() {
    use mcp_lint::event::{Body, Side};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/har");
    for (file, sse) in [
        ("python-sdk-streamable-http.har", true),
        ("python-sdk-json-response.har", false),
    ] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let events = decode_document(&bytes, 0, detect(&bytes));
        let mut sessions: Vec<_> = events.iter().filter_map(|e| e.session.clone()).collect();
        sessions.dedup();
        assert_eq!(sessions.len(), 1, "{file}: one session");
        let mut seen = Vec::new();
        for event in &events {
            match &event.payload {
                Payload::Message(m) => {
                    let what = match (&m.body, event.from) {
                        (
                            Body::Request { method, .. } | Body::Notification { method, .. },
                            Some(Side::Client),
                        ) => format!("client {method}"),
                        (Body::Request { method, .. } | Body::Notification { method, .. }, _) => {
                            format!("server {method}")
                        }
                        (Body::Response { .. }, Some(side)) => format!("{side} response"),
                        other => panic!("{file}: {other:?}"),
                    };
                    if !seen.contains(&what) {
                        seen.push(what);
                    }
                }
                Payload::Unreadable(why) => panic!("{file}: unreadable: {why:?}"),
                Payload::Transport(_) => {}
            }
        }
        let mut expected = vec![
            "client initialize",
            "server response",
            "client notifications/initialized",
            "client tools/list",
            "client tools/call",
            "server sampling/createMessage",
            "client response",
        ];
        if sse {
            // The SSE session reports progress and cancels a call; JSON mode drops progress.
            expected.extend([
                "server notifications/progress",
                "client notifications/cancelled",
            ]);
        }
        for what in expected {
            assert!(
                seen.iter().any(|s| s == what),
                "{file}: no {what} in {seen:?}"
            );
        }
    }
}
