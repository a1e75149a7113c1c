//! Members of messages that some revisions define and others do not: where
//! a revision does not define a member, it is an extra member, and extra
//! members are legal.

use super::version::{Version, Versions};

/// `params.message` of `notifications/progress` (added in 2025-03-26).
pub const PROGRESS_MESSAGE: Versions = Versions::from(Version::V2025_03_26);
