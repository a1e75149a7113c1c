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

/// The revisions whose text (not only the schema) allows an error response
/// without its request's id, "in error cases where the ID could not be read
/// due a malformed request": there, an error with a null id that no
/// unreadable message explains breaks that sentence and is a warning (the
/// oracle's error-response-missing-id); before, the schema's required `id`
/// makes it an error.
pub const ERROR_ID_EXCEPTION: Versions = Versions::from(Version::V2025_11_25);
