//! The protocol's facts as data, in one place: its revisions, its methods
//! (who sends them, where they exist, what capability they need), the
//! capabilities of each side, and where the specification says so.
//! Nothing here knows about traces; rules ask these tables.

pub mod capabilities;
pub mod elicitation;
pub mod errors;
pub mod fields;
pub mod headers;
pub mod meta;
pub mod methods;
pub mod schema;
pub mod spec;
pub mod subscriptions;
pub mod tasks;
pub mod version;

pub use methods::{Kind, MethodRow, Senders};
pub use spec::SpecPage;
pub use version::{Era, Version, Versions};

use std::fmt;

/// Which peer sends a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Client,
    Server,
}

impl Side {
    pub fn peer(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
