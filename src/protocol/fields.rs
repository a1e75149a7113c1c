//! Members of messages that some revisions define and others do not: where
//! a revision does not define a member, it is an extra member, and extra
//! members are legal.

use super::version::{Version, Versions};

/// `params.message` of `notifications/progress` (added in 2025-03-26).
pub const PROGRESS_MESSAGE: Versions = Versions::from(Version::V2025_03_26);

/// The `resultType` values 2026-07-28 defines (`Result.resultType`): a
/// client must treat any other value as invalid.
pub const RESULT_TYPES: &[&str] = &["complete", "input_required"];

/// The `resultType` of a result that asks the client for input first.
pub const INPUT_REQUIRED: &str = "input_required";

/// The revisions whose results carry `resultType`.
pub const RESULT_TYPE: Versions = Versions::only(Version::V2026_07_28);
