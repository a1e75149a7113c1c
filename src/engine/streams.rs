//! The HTTP streams of a session: which exchange each stream belongs to,
//! which ended early, and what the transport says of the versions.

use foldhash::HashMap;

use crate::event::{HttpExchange, Location};
use crate::protocol::{Version, Versions};

/// An HTTP exchange's stream, as far as rules need it.
#[derive(Debug, Clone)]
pub struct StreamInfo {
    /// The HTTP method that opened it (`GET` streams carry no responses).
    pub method: compact_str::CompactString,
    /// It resumes an earlier stream (`Last-Event-ID`).
    pub resumes: bool,
    /// The stream of the 2024-11-05 HTTP+SSE transport, which carries every
    /// server message, responses included.
    pub legacy_sse: bool,
    /// The response has an HTTP error status (4xx, 5xx): the server rejected
    /// the request body whole, and may say so with a null-id error.
    pub rejected: bool,
}

/// What the session's HTTP exchanges have shown.
#[derive(Debug)]
pub struct HttpStreams {
    /// HTTP streams (exchanges) of the session, by stream name.
    pub streams: HashMap<Box<str>, StreamInfo>,
    /// HTTP streams that ended before their exchange did, by stream name.
    pub aborted: HashMap<Box<str>, Location>,
    /// The transport narrows the versions a session can speak (Streamable
    /// HTTP came with 2025-03-26; the HTTP+SSE transport is 2024-11-05's).
    pub versions: Versions,
}

impl Default for HttpStreams {
    fn default() -> Self {
        HttpStreams {
            streams: HashMap::default(),
            aborted: HashMap::default(),
            versions: Versions::ALL,
        }
    }
}

impl HttpStreams {
    /// An exchange shows the transport: the 2024-11-05 HTTP+SSE transport
    /// (its stream opens with an `endpoint` event) or, from the first
    /// exchange that is not, Streamable HTTP. Noted before rules see the
    /// exchange, since it is a fact of the exchange itself.
    pub(crate) fn note_transport(&mut self, http: &HttpExchange) {
        if http.sse_endpoint {
            self.versions = Versions::only(Version::V2024_11_05);
        } else if self.versions == Versions::ALL {
            self.versions = Versions::from(Version::V2025_03_26);
        }
    }

    /// An exchange began on `stream`.
    pub(crate) fn open(&mut self, stream: &str, http: &HttpExchange) {
        self.streams.insert(
            stream.into(),
            StreamInfo {
                method: http.method.clone(),
                resumes: http.resumes,
                legacy_sse: http.sse_endpoint,
                rejected: http.status.is_some_and(|s| s >= 400),
            },
        );
    }

    /// `stream` ended before its exchange did.
    pub(crate) fn abort(&mut self, stream: &str, location: Location) {
        self.aborted.insert(stream.into(), location);
    }
}
