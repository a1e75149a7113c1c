//! The protocol's revisions, ordered, with their era, and sets of them.

use std::fmt;

/// A published revision of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    V2024_11_05,
    V2025_03_26,
    V2025_06_18,
    V2025_11_25,
    V2026_07_28,
}

/// How a session is set up and how its requests carry their version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2024-11-05 to 2025-11-25: a session opens with `initialize`, which fixes the version.
    Handshake,
    /// 2026-07-28 on: no handshake; each request names its version in `_meta`.
    Stateless,
}

impl Version {
    pub const ALL: [Version; 5] = [
        Version::V2024_11_05,
        Version::V2025_03_26,
        Version::V2025_06_18,
        Version::V2025_11_25,
        Version::V2026_07_28,
    ];
    /// The newest revision of the handshake era: its pages are linked when a
    /// session's version is not known.
    pub const LATEST_HANDSHAKE: Version = Version::V2025_11_25;

    pub fn as_str(self) -> &'static str {
        match self {
            Version::V2024_11_05 => "2024-11-05",
            Version::V2025_03_26 => "2025-03-26",
            Version::V2025_06_18 => "2025-06-18",
            Version::V2025_11_25 => "2025-11-25",
            Version::V2026_07_28 => "2026-07-28",
        }
    }

    pub fn era(self) -> Era {
        match self {
            Version::V2026_07_28 => Era::Stateless,
            _ => Era::Handshake,
        }
    }

    /// The revision a version string names exactly.
    pub fn parse(text: &str) -> Option<Version> {
        Version::ALL.into_iter().find(|v| v.as_str() == text)
    }

    /// The revision to lint an unknown version string with: the newest one
    /// not after it (versions are dates, so they order as strings), or the
    /// oldest for a string before every revision.
    pub fn nearest(text: &str) -> Version {
        Version::nearest_in(text, Versions::ALL)
    }

    /// The revision of `among` to lint an unknown version string with: the
    /// newest one not after it, or the oldest. An initialize result is read
    /// in the handshake era whatever date it names.
    pub fn nearest_in(text: &str, among: Versions) -> Version {
        let oldest = among.iter().next().unwrap_or(Version::V2024_11_05);
        among
            .iter()
            .filter(|v| v.as_str() <= text)
            .last()
            .unwrap_or(oldest)
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Era {
    /// Every revision of the era.
    pub fn versions(self) -> Versions {
        match self {
            Era::Handshake => Versions::range(Version::V2024_11_05, Version::V2025_11_25),
            Era::Stateless => Versions::from(Version::V2026_07_28),
        }
    }
}

/// A set of revisions: where a rule applies, where a method exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Versions(u8);

impl Versions {
    pub const ALL: Versions = Versions(0b1_1111);
    pub const NONE: Versions = Versions(0);
    /// The handshake era, 2024-11-05 to 2025-11-25.
    pub const HANDSHAKE: Versions = Versions(0b0_1111);

    pub const fn only(version: Version) -> Versions {
        Versions(1 << version as u8)
    }

    /// `from` and every revision after it.
    pub const fn from(from: Version) -> Versions {
        Versions(Versions::ALL.0 & !((1 << from as u8) - 1))
    }

    /// `first` to `last`, both included.
    pub const fn range(first: Version, last: Version) -> Versions {
        Versions(Versions::from(first).0 & ((1 << (last as u8 + 1)) - 1))
    }

    pub fn contains(self, version: Version) -> bool {
        self.0 & version.bit() != 0
    }

    /// Whether every revision of `other` is in this set.
    pub fn covers(self, other: Versions) -> bool {
        other.0 & !self.0 == 0
    }

    pub const fn union(self, other: Versions) -> Versions {
        Versions(self.0 | other.0)
    }

    pub const fn intersect(self, other: Versions) -> Versions {
        Versions(self.0 & other.0)
    }

    /// The one revision of the set, if it has exactly one.
    pub fn single(self) -> Option<Version> {
        // Asked for every event: a bit count, not an iteration.
        (self.0.count_ones() == 1).then(|| Version::ALL[self.0.trailing_zeros() as usize])
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many sets of revisions there are: every set's [`Versions::index`]
    /// is below it.
    pub const SETS: usize = 1 << Version::ALL.len();

    /// The set as a number below [`Versions::SETS`], to index a table by.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn iter(self) -> impl Iterator<Item = Version> {
        Version::ALL.into_iter().filter(move |v| self.contains(*v))
    }

    /// The set as a reader would say it: "every protocol version",
    /// "2025-03-26", "2025-06-18 on", "2024-11-05 to 2025-11-25",
    /// or a list when it has gaps.
    pub fn describe(self) -> String {
        let members: Vec<Version> = self.iter().collect();
        let (Some(first), Some(last)) = (members.first(), members.last()) else {
            return "no protocol version".into();
        };
        let contiguous = Versions::range(*first, *last) == self;
        match () {
            _ if self == Versions::ALL => "every protocol version".into(),
            _ if first == last => first.to_string(),
            _ if contiguous && *last == Version::V2026_07_28 => format!("{first} and later"),
            _ if contiguous => format!("{first} to {last}"),
            _ => members
                .iter()
                .map(|v| v.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Version::*;
    use super::*;

    #[test]
    fn versions_order_as_their_dates() {
        let mut sorted = Version::ALL;
        sorted.sort_by_key(|v| v.as_str());
        assert_eq!(sorted, Version::ALL);
    }

    #[test]
    fn unknown_strings_lint_with_the_nearest_earlier_revision() {
        assert_eq!(Version::parse("2025-06-18"), Some(V2025_06_18));
        assert_eq!(Version::parse("2025-06-19"), None);
        assert_eq!(Version::nearest("2025-06-19"), V2025_06_18);
        assert_eq!(Version::nearest("2099-01-01"), V2026_07_28);
        assert_eq!(Version::nearest("1.0"), V2024_11_05);
        assert_eq!(
            Version::nearest_in("2099-01-01", Versions::HANDSHAKE),
            V2025_11_25
        );
    }

    #[test]
    fn sets_describe_themselves() {
        assert_eq!(Versions::ALL.describe(), "every protocol version");
        assert_eq!(Versions::only(V2025_03_26).describe(), "2025-03-26");
        assert_eq!(
            Versions::from(V2025_06_18).describe(),
            "2025-06-18 and later"
        );
        assert_eq!(Versions::HANDSHAKE.describe(), "2024-11-05 to 2025-11-25");
        assert_eq!(Era::Handshake.versions(), Versions::HANDSHAKE);
        assert!(Versions::HANDSHAKE.covers(Versions::only(V2025_11_25)));
        assert!(!Versions::HANDSHAKE.covers(Versions::ALL));
    }
}
