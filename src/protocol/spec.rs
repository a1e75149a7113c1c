//! Where the specification says a thing: page paths per revision.

use super::version::{Era, Version};

pub const SPEC_BASE: &str = "https://modelcontextprotocol.io/specification";

/// A page of the specification, under `SPEC_BASE/<version>/`.
#[derive(Debug, Clone, Copy)]
pub struct SpecPage {
    /// The page in the handshake era (2024-11-05 to 2025-11-25).
    pub legacy: &'static str,
    /// The page in 2026-07-28, where it moved or exists.
    pub modern: Option<&'static str>,
    /// The sentence in 2026-07-28, where it differs from the rule's quote.
    pub modern_quote: Option<&'static str>,
}

impl SpecPage {
    /// A page of the handshake era only: it has no 2026-07-28 counterpart.
    pub const fn handshake(legacy: &'static str) -> SpecPage {
        SpecPage {
            legacy,
            modern: None,
            modern_quote: None,
        }
    }

    /// A page at the same path in every revision.
    pub const fn everywhere(path: &'static str) -> SpecPage {
        SpecPage {
            legacy: path,
            modern: Some(path),
            modern_quote: None,
        }
    }

    /// The page for a session of `version` (the newest handshake revision's
    /// page when the version is not known, or the page does not exist in it).
    pub fn url(&self, version: Option<Version>) -> String {
        let version = version.unwrap_or(Version::LATEST_HANDSHAKE);
        let (version, page) = match (version.era(), self.modern) {
            (Era::Stateless, Some(modern)) => (version, modern),
            (Era::Stateless, None) => (Version::LATEST_HANDSHAKE, self.legacy),
            (Era::Handshake, _) => (version, self.legacy),
        };
        format!("{SPEC_BASE}/{version}/{page}")
    }
}

/// The transports page (Streamable HTTP, the HTTP+SSE transport, stdio),
/// and its 2026-07-28 Streamable HTTP page.
pub const STREAMABLE_HTTP: SpecPage = SpecPage {
    legacy: "basic/transports",
    modern: Some("basic/transports/streamable-http"),
    modern_quote: None,
};

/// The transports page of the handshake era only (sessions, resumption and
/// the GET stream are gone in 2026-07-28).
pub const TRANSPORTS: SpecPage = SpecPage::handshake("basic/transports");
