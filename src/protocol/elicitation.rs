//! URL-mode elicitation of 2025-11-25 (client/elicitation): the request
//! that opens one, the notification that says it completed, and the mode
//! they share.

/// The request a server sends to elicit input.
pub const CREATE: &str = "elicitation/create";
/// The notification a server sends when a URL-mode elicitation completed.
pub const COMPLETE: &str = "notifications/elicitation/complete";
/// The mode whose elicitations carry an `elicitationId`.
pub const URL_MODE: &str = "url";
