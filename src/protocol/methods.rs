//! The method table: every method of every revision, who may send it, and
//! the capability it needs. One row per method and span of revisions in
//! which its senders are the same.

use std::sync::LazyLock;

use foldhash::HashMap;

use super::version::{Version, Versions};
use super::Side;
use crate::json_text::same_bytes;

use Version::*;

/// A request expects a response; a notification does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Request,
    Notification,
}

/// Which side may send a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Senders {
    Client,
    Server,
    Both,
}

impl Senders {
    pub fn allows(self, side: Side) -> bool {
        matches!(
            (self, side),
            (Senders::Both, _) | (Senders::Client, Side::Client) | (Senders::Server, Side::Server)
        )
    }
}

/// A capability a method needs: for a request, one the receiver advertised;
/// for a notification, one the sender advertised for itself (`listChanged`,
/// `logging`). A dotted path in the side's `capabilities` object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    pub path: &'static str,
    /// The revisions in which the capability gates the method this way.
    pub versions: Versions,
}

#[derive(Debug, Clone, Copy)]
pub struct MethodRow {
    pub name: &'static str,
    pub kind: Kind,
    pub senders: Senders,
    pub versions: Versions,
    pub needs: Option<Needs>,
    /// An official extension that defines the method in revisions where the
    /// core does not (`io.modelcontextprotocol/tasks` in 2026-07-28).
    pub extension: Option<(&'static str, Versions)>,
    /// The receiver ends the request by cancelling it (a 2026-07-28 server
    /// tears a `subscriptions/listen` stream down with `notifications/cancelled`).
    pub receiver_cancels: bool,
    /// The server may answer it with an `InputRequiredResult` (2026-07-28).
    pub may_require_input: bool,
}

const fn row(name: &'static str, kind: Kind, senders: Senders, versions: Versions) -> MethodRow {
    MethodRow {
        name,
        kind,
        senders,
        versions,
        needs: None,
        extension: None,
        receiver_cancels: false,
        may_require_input: false,
    }
}

impl MethodRow {
    /// The capability the method needs in `version`, if it is gated there.
    pub fn needs_in(&self, version: Version) -> Option<&'static str> {
        self.needs
            .filter(|needs| needs.versions.contains(version))
            .map(|needs| needs.path)
    }

    /// The side whose capability gates the method when `sender` sends it:
    /// a request needs the receiver's, a notification the sender's own.
    pub fn capability_holder(&self, sender: Side) -> Side {
        match self.kind {
            Kind::Request => sender.peer(),
            Kind::Notification => sender,
        }
    }

    const fn needs(mut self, path: &'static str, versions: Versions) -> MethodRow {
        self.needs = Some(Needs { path, versions });
        self
    }

    const fn extension(mut self, id: &'static str, versions: Versions) -> MethodRow {
        self.extension = Some((id, versions));
        self
    }

    const fn receiver_cancels(mut self) -> MethodRow {
        self.receiver_cancels = true;
        self
    }

    const fn may_require_input(mut self) -> MethodRow {
        self.may_require_input = true;
        self
    }
}

use Kind::{Notification as N, Request as R};
use Senders::{Both, Client as C, Server as S};

const ALL: Versions = Versions::ALL;
const HANDSHAKE: Versions = Versions::HANDSHAKE;
const TASKS: Versions = Versions::only(V2025_11_25);
const STATELESS: Versions = Versions::only(V2026_07_28);
const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Every method of every revision (from the official schemas).
pub static METHODS: &[MethodRow] = &[
    row("initialize", R, C, HANDSHAKE),
    row("notifications/initialized", N, C, HANDSHAKE),
    row("ping", R, Both, HANDSHAKE),
    row("notifications/cancelled", N, Both, ALL),
    row("notifications/progress", N, Both, HANDSHAKE),
    row("notifications/progress", N, S, STATELESS),
    row("resources/list", R, C, ALL).needs("resources", ALL),
    row("resources/templates/list", R, C, ALL).needs("resources", ALL),
    row("resources/read", R, C, HANDSHAKE).needs("resources", HANDSHAKE),
    row("resources/read", R, C, STATELESS)
        .needs("resources", STATELESS)
        .may_require_input(),
    row("resources/subscribe", R, C, HANDSHAKE).needs("resources.subscribe", HANDSHAKE),
    row("resources/unsubscribe", R, C, HANDSHAKE).needs("resources.subscribe", HANDSHAKE),
    row("prompts/list", R, C, ALL).needs("prompts", ALL),
    row("prompts/get", R, C, HANDSHAKE).needs("prompts", HANDSHAKE),
    row("prompts/get", R, C, STATELESS)
        .needs("prompts", STATELESS)
        .may_require_input(),
    row("tools/list", R, C, ALL).needs("tools", ALL),
    row("tools/call", R, C, HANDSHAKE).needs("tools", HANDSHAKE),
    row("tools/call", R, C, STATELESS)
        .needs("tools", STATELESS)
        .may_require_input(),
    row("completion/complete", R, C, ALL).needs("completions", Versions::from(V2025_03_26)),
    row("logging/setLevel", R, C, HANDSHAKE).needs("logging", HANDSHAKE),
    row("sampling/createMessage", R, S, HANDSHAKE).needs("sampling", HANDSHAKE),
    row("roots/list", R, S, HANDSHAKE).needs("roots", HANDSHAKE),
    row(
        "elicitation/create",
        R,
        S,
        Versions::range(V2025_06_18, V2025_11_25),
    )
    .needs("elicitation", Versions::range(V2025_06_18, V2025_11_25)),
    row("tasks/get", R, Both, TASKS).extension(TASKS_EXTENSION, STATELESS),
    row("tasks/result", R, Both, TASKS),
    row("tasks/list", R, Both, TASKS).needs("tasks.list", TASKS),
    row("tasks/cancel", R, Both, TASKS)
        .needs("tasks.cancel", TASKS)
        .extension(TASKS_EXTENSION, STATELESS),
    row("tasks/update", R, C, Versions::NONE).extension(TASKS_EXTENSION, STATELESS),
    row("notifications/tasks/status", N, Both, TASKS).extension(TASKS_EXTENSION, STATELESS),
    row("server/discover", R, C, STATELESS),
    row("subscriptions/listen", R, C, STATELESS).receiver_cancels(),
    row("notifications/message", N, S, ALL).needs("logging", HANDSHAKE),
    row("notifications/resources/list_changed", N, S, ALL)
        .needs("resources.listChanged", HANDSHAKE),
    row("notifications/resources/updated", N, S, ALL).needs("resources.subscribe", HANDSHAKE),
    row("notifications/prompts/list_changed", N, S, ALL).needs("prompts.listChanged", HANDSHAKE),
    row("notifications/tools/list_changed", N, S, ALL).needs("tools.listChanged", HANDSHAKE),
    row("notifications/roots/list_changed", N, C, HANDSHAKE).needs("roots.listChanged", HANDSHAKE),
    row("notifications/elicitation/complete", N, S, TASKS),
    row("notifications/subscriptions/acknowledged", N, S, STATELESS),
];

/// The requests a 2026-07-28 server may embed in an `InputRequiredResult`
/// (`inputRequests`), with the client capability each needs.
pub static INPUT_REQUESTS: &[(&str, &str)] = &[
    ("elicitation/create", "elicitation"),
    ("sampling/createMessage", "sampling"),
    ("roots/list", "roots"),
];

/// The capability the client must declare for an input request `method`;
/// `None` when `method` may not be an input request.
pub fn input_request_needs(method: &str) -> Option<&'static str> {
    INPUT_REQUESTS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(_, needs)| *needs)
}

/// The rows of each method name: every message looks its method up, several
/// times, so a lookup is one hash rather than a scan of the table.
static BY_NAME: LazyLock<HashMap<&'static str, Vec<&'static MethodRow>>> = LazyLock::new(|| {
    let mut index: HashMap<&'static str, Vec<&'static MethodRow>> = HashMap::default();
    for row in METHODS {
        index.entry(row.name).or_default().push(row);
    }
    index
});

/// The row of `name` in `version`, if the method exists there.
pub fn method(name: &str, version: Version) -> Option<&'static MethodRow> {
    rows(name).find(|row| row.versions.contains(version))
}

/// Every row of `name`, in any revision.
pub fn rows(name: &str) -> impl Iterator<Item = &'static MethodRow> + '_ {
    rows_of(name).iter().copied()
}

thread_local! {
    /// The last known method looked up, and its rows: a message's method
    /// is looked up by the decoder and again by several rules, so most
    /// lookups compare a name instead of hashing it.
    static LAST_LOOKED_UP: std::cell::Cell<Option<&'static [&'static MethodRow]>> =
        const { std::cell::Cell::new(None) };
}

fn rows_of(name: &str) -> &'static [&'static MethodRow] {
    LAST_LOOKED_UP.with(|last| {
        match (last.get()).filter(|rows| same_bytes(rows[0].name.as_bytes(), name.as_bytes())) {
            Some(rows) => rows,
            None => looked_up(name, last),
        }
    })
}

/// The rows of `name`, hashed, kept as the last looked up when it is a
/// known method. Never inlined: the usual lookup, of the last method,
/// then saves few registers on the way in and out.
#[inline(never)]
fn looked_up(
    name: &str,
    last: &std::cell::Cell<Option<&'static [&'static MethodRow]>>,
) -> &'static [&'static MethodRow] {
    let rows = BY_NAME.get(name).map_or(&[][..], Vec::as_slice);
    if !rows.is_empty() {
        last.set(Some(rows));
    }
    rows
}

/// The revisions in which `sender` may send `name`.
pub fn versions_sent_by(name: &str, sender: Side) -> Versions {
    rows(name)
        .filter(|row| row.senders.allows(sender))
        .fold(Versions::NONE, |all, row| all.union(row.versions))
}

/// The row of `name` that an official extension defines in `version`, with
/// the extension's id.
pub fn extension_method(
    name: &str,
    version: Version,
) -> Option<(&'static MethodRow, &'static str)> {
    rows(name).find_map(|row| match row.extension {
        Some((id, versions)) if versions.contains(version) => Some((row, id)),
        _ => None,
    })
}

/// Whether a method no revision defines is named like a deliberate
/// extension: a domain-like prefix (`com.example/search`), `experimental/`,
/// or an `x-` name, rather than a misspelling of an MCP method.
pub fn looks_like_extension(name: &str) -> bool {
    let prefix = name.split_once('/').map(|(prefix, _)| prefix);
    prefix.is_some_and(|p| p.contains('.') || p == "experimental") || name.starts_with("x-")
}

/// Whether `name` is a method of some revision or of an official extension.
pub fn is_known(name: &str) -> bool {
    rows(name).next().is_some()
}

/// The revisions in which `name` exists.
pub fn versions_of(name: &str) -> Versions {
    rows(name).fold(Versions::NONE, |all, row| all.union(row.versions))
}

/// Who may send `name` in some revision: the union of its rows.
pub fn senders_in_any_version(name: &str) -> Option<Senders> {
    rows(name)
        .map(|row| row.senders)
        .reduce(|a, b| if a == b { a } else { Senders::Both })
}

/// The name as a `'static` string when the method is known, so events need
/// not allocate for it.
pub fn static_name(name: &str) -> Option<&'static str> {
    rows(name).next().map(|row| row.name)
}

/// A known method's name as a number (its first row in the table), for
/// state kept per request in as few bytes as possible.
pub fn name_index(name: &str) -> Option<u16> {
    NAME_INDEX.get(name).copied()
}

/// Each method name's first row in the table, by name (one hash per answer).
static NAME_INDEX: LazyLock<HashMap<&'static str, u16>> = LazyLock::new(|| {
    let mut index: HashMap<&'static str, u16> = HashMap::default();
    for (at, row) in METHODS.iter().enumerate() {
        let at = u16::try_from(at).expect("the method table has fewer than 65536 rows");
        index.entry(row.name).or_insert(at);
    }
    index
});

/// The name that [`name_index`] numbered.
pub fn name_at(index: u16) -> Option<&'static str> {
    METHODS.get(usize::from(index)).map(|row| row.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::capabilities;

    #[test]
    fn the_last_lookup_kept_never_answers_for_another_name() {
        let names = |name: &str| rows(name).map(|row| row.name).collect::<Vec<_>>();
        for name in [
            "ping",
            "tools/call",
            "tools/call",
            "ping",
            "no/such",
            "ping",
        ] {
            let expected: Vec<&str> = METHODS
                .iter()
                .filter(|row| row.name == name)
                .map(|row| row.name)
                .collect();
            assert_eq!(names(name), expected, "{name}");
        }
        // A name that is a prefix of the last one looked up.
        assert!(rows("tools/call").next().is_some());
        assert!(rows("tools/cal").next().is_none());
    }

    #[test]
    fn rows_of_one_method_never_overlap_in_versions() {
        for (i, a) in METHODS.iter().enumerate() {
            for b in &METHODS[i + 1..] {
                if a.name == b.name {
                    assert!(a.versions.intersect(b.versions).is_empty(), "{}", a.name);
                }
            }
        }
    }

    #[test]
    fn every_needed_capability_exists_where_it_gates() {
        for row in METHODS {
            let Some(needs) = row.needs else { continue };
            assert!(row.versions.covers(needs.versions), "{}", row.name);
            // A request needs the receiver's capability, a notification the sender's.
            let holder = match (row.kind, row.senders) {
                (Kind::Request, Senders::Client) | (Kind::Notification, Senders::Server) => {
                    Side::Server
                }
                (Kind::Request, Senders::Server) | (Kind::Notification, Senders::Client) => {
                    Side::Client
                }
                (_, Senders::Both) => continue,
            };
            for version in needs.versions.iter() {
                assert!(
                    capabilities::exists(holder, needs.path, version),
                    "{} needs {holder} {} in {version}",
                    row.name,
                    needs.path
                );
            }
        }
    }

    #[test]
    fn direction_changes_between_eras() {
        let progress = |v| method("notifications/progress", v).unwrap().senders;
        assert_eq!(progress(V2025_11_25), Senders::Both);
        assert_eq!(progress(V2026_07_28), Senders::Server);
        assert!(method("ping", V2026_07_28).is_none());
        assert_eq!(
            senders_in_any_version("notifications/progress"),
            Some(Senders::Both)
        );
        assert_eq!(senders_in_any_version("tools/call"), Some(Senders::Client));
    }
}
