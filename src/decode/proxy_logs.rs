//! Logs of hosts and proxies that embed the TypeScript SDK but log no
//! message stream that can be checked, only the failures the SDK reports
//! (see [`client_report`]):
//!
//! ```text
//! 2025-04-28T00:00:19.555Z debug: [MCP][everything] Transport sending: {"method":"initialize",...,"clientInfo":{"name":"librechat... [truncated]
//! 2025-05-02T10:11:12.000Z error: [MCP][User: 6650][github] Received a response for an unknown message ID: {...}
//! [4227] [Local→Remote] notifications/cancelled
//! [63643] [Remote→Local] 1
//! ```
//!
//! LibreChat logs what it sends (before its PR #12004, cut at ~250
//! characters) but not what it receives, and mcp-remote logs a request's
//! method without its id and a response's id without anything else: neither
//! pairs requests with responses, and checking one direction alone would
//! call every request unanswered. So only the reported failures are read;
//! the session is the server (LibreChat) or the process (mcp-remote).

use super::client_report;
use super::logline::{LineParts, Tag};
use crate::event::Event;

/// `<ISO> <level>: [MCP]...`, after Docker Compose's `LibreChat  | `: the
/// server, and the sentence.
fn librechat_sentence(line: &str) -> Option<(Option<&str>, &str)> {
    let (tags, sentence) = librechat_tags(line)?;
    let server = tags
        .iter()
        .find_map(|(tag, kind)| (*kind == Tag::Server).then_some(*tag));
    Some((server, sentence))
}

/// The tags of a LibreChat line (Docker Compose's service, the user, the
/// server, then a tool), and its sentence.
fn librechat_tags(line: &str) -> Option<(Vec<(&str, Tag)>, &str)> {
    let mut named = Vec::new();
    let line = match line.split_once(" | ") {
        Some((service, rest)) if rest.contains(": [MCP]") => {
            named.push((service.trim_end(), Tag::Other));
            rest
        }
        _ => line,
    };
    let (stamp, rest) = line.split_once(' ')?;
    super::timestamp::parse_rfc3339_ms(stamp)?;
    let (_level, rest) = rest.split_once(": ")?;
    let mut tags = rest.strip_prefix("[MCP]")?;
    while let Some((tag, rest)) = tags.strip_prefix('[').and_then(|t| t.split_once(']')) {
        let server_seen = named.iter().any(|(_, kind)| *kind == Tag::Server);
        named.push(match tag.strip_prefix("User: ") {
            Some(user) => (user, Tag::User),
            None if server_seen => (tag, Tag::Other),
            None => (tag, Tag::Server),
        });
        tags = rest;
    }
    Some((named, tags.trim_start()))
}

/// The parts of a LibreChat line (for `mcp-lint redact`).
pub(crate) fn librechat_line_parts(line: &str) -> Option<LineParts> {
    let (tags, sentence) = librechat_tags(line)?;
    Some(LineParts::of(line, &tags, sentence))
}

/// The parts of an mcp-remote line (for `mcp-lint redact`): its process id
/// says nothing private.
pub(crate) fn mcp_remote_line_parts(line: &str) -> Option<LineParts> {
    let (_, sentence) = mcp_remote_sentence(line)?;
    Some(LineParts::of(line, &[], sentence))
}

/// `[<pid>] text` of mcp-remote.
fn mcp_remote_sentence(line: &str) -> Option<(Option<&str>, &str)> {
    let (pid, text) = line.strip_prefix('[')?.split_once("] ")?;
    pid.bytes()
        .all(|c| c.is_ascii_digit())
        .then_some((Some(pid), text))
}

pub(super) fn is_librechat_marker(line: &[u8]) -> bool {
    librechat_sentence(&String::from_utf8_lossy(line)).is_some()
}

/// Only mcp-remote's own arrows: `[pid] text` alone is too common a shape.
pub(super) fn is_mcp_remote_marker(line: &[u8]) -> bool {
    mcp_remote_sentence(&String::from_utf8_lossy(line)).is_some_and(|(_, text)| {
        text.starts_with("[Local→Remote] ") || text.starts_with("[Remote→Local] ")
    })
}

pub(crate) fn decode_librechat(bytes: &[u8], source: u32) -> Vec<Event> {
    client_report::decode_reports(bytes, source, "LibreChat", librechat_sentence)
}

pub(crate) fn decode_mcp_remote(bytes: &[u8], source: u32) -> Vec<Event> {
    client_report::decode_reports(bytes, source, "mcp-remote", mcp_remote_sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn librechat_tags() {
        assert_eq!(
            librechat_sentence(
                "2025-05-02T10:11:12.000Z error: [MCP][User: 6650][github] Request timed out"
            ),
            Some((Some("github"), "Request timed out"))
        );
        assert_eq!(
            librechat_sentence("LibreChat  | 2025-04-28T00:00:19.555Z debug: [MCP][everything] Transport sending: {}"),
            Some((Some("everything"), "Transport sending: {}"))
        );
        assert_eq!(
            librechat_sentence("2025-04-28T00:00:19.555Z info: Server listening"),
            None
        );
    }

    #[test]
    fn mcp_remote_lines() {
        assert!(is_mcp_remote_marker(
            "[4227] [Local→Remote] notifications/cancelled".as_bytes()
        ));
        assert!(!is_mcp_remote_marker(b"[4227] Connecting to remote server"));
        assert_eq!(mcp_remote_sentence("[12] x"), Some((Some("12"), "x")));
        assert_eq!(mcp_remote_sentence("[ab] x"), None);
    }
}
