//! JSON-RPC error codes the protocol defines, reserves, discourages or
//! retired, per revision (2026-07-28 `basic/index#error-codes`).

use super::version::{Version, Versions};

/// What the protocol says of one error code in one revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeUse {
    /// Defined by the spec in the sub-range reserved for it.
    Defined(&'static str),
    /// The revision forbids emitting it; what it meant and what replaces it.
    Retired {
        meaning: &'static str,
        instead: &'static str,
    },
    /// In the sub-range reserved for the spec, but not defined by it.
    ReservedUndefined,
    /// In the sub-range new implementations should not use at all.
    Legacy,
    /// Anything else: JSON-RPC's own codes, application codes.
    Unregulated,
}

const STATELESS: Versions = Versions::only(Version::V2026_07_28);

/// The sub-range reserved for codes the specification defines.
const RESERVED: (i64, i64, Versions) = (-32099, -32020, STATELESS);
/// The sub-range left to legacy implementation-defined errors.
const LEGACY: (i64, i64, Versions) = (-32019, -32000, STATELESS);

const DEFINED: &[(i64, &str, Versions)] = &[
    (-32020, "HeaderMismatch", STATELESS),
    (-32021, MISSING_CLIENT_CAPABILITY.name, STATELESS),
    (-32022, UNSUPPORTED_VERSION.name, STATELESS),
    (
        URL_ELICITATION_REQUIRED.code,
        URL_ELICITATION_REQUIRED.name,
        URL_ELICITATION_REQUIRED.versions,
    ),
];

/// An error the specification defines with a `data` object of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefinedError {
    pub code: i64,
    pub name: &'static str,
    /// What the error means: when a server must answer with it.
    pub meaning: &'static str,
    /// The members `error.data` must hold.
    pub data: &'static [&'static str],
    pub versions: Versions,
}

/// -32021: the request needs a client capability the request did not declare.
pub const MISSING_CLIENT_CAPABILITY: DefinedError = DefinedError {
    code: -32021,
    name: "MissingRequiredClientCapability",
    meaning: "processing the request needs a capability the client did not declare in io.modelcontextprotocol/clientCapabilities",
    data: &["requiredCapabilities"],
    versions: STATELESS,
};

/// The code of [`UNSUPPORTED_VERSION`], for patterns.
pub const UNSUPPORTED_VERSION_CODE: i64 = -32022;

/// -32022: the server does not implement the version the request names.
pub const UNSUPPORTED_VERSION: DefinedError = DefinedError {
    code: UNSUPPORTED_VERSION_CODE,
    name: "UnsupportedProtocolVersion",
    meaning: "the server does not implement the protocol version the request names",
    data: &["requested", "supported"],
    versions: STATELESS,
};

/// -32042: the request needs the user to complete URL-mode elicitations first.
pub const URL_ELICITATION_REQUIRED: DefinedError = DefinedError {
    code: -32042,
    name: "URLElicitationRequired",
    meaning: "the request cannot proceed until the user completes the URL-mode elicitations listed in data.elicitations",
    data: &["elicitations"],
    versions: Versions::only(Version::V2025_11_25),
};

const RETIRED: &[(i64, &str, &str, Versions)] = &[
    (
        -32002,
        "resource not found",
        "-32602 (Invalid params)",
        STATELESS,
    ),
    (
        -32042,
        "URL elicitation required",
        "an InputRequiredResult carrying the elicitation",
        STATELESS,
    ),
];

/// What `version` says of `code`.
pub fn classify(code: i64, version: Version) -> CodeUse {
    let within = |(first, last, versions): (i64, i64, Versions)| {
        versions.contains(version) && (first..=last).contains(&code)
    };
    if let Some((_, meaning, instead, _)) = RETIRED
        .iter()
        .find(|(c, _, _, versions)| *c == code && versions.contains(version))
    {
        return CodeUse::Retired { meaning, instead };
    }
    if let Some((_, name, _)) = DEFINED
        .iter()
        .find(|(c, _, versions)| *c == code && versions.contains(version))
    {
        return CodeUse::Defined(name);
    }
    match () {
        _ if within(RESERVED) => CodeUse::ReservedUndefined,
        _ if within(LEGACY) => CodeUse::Legacy,
        _ => CodeUse::Unregulated,
    }
}

/// The JSON-RPC error "Method not found".
pub const METHOD_NOT_FOUND: i64 = -32601;
/// The JSON-RPC error "Invalid params".
pub const INVALID_PARAMS: i64 = -32602;

#[cfg(test)]
mod tests {
    use super::*;
    use Version::*;

    #[test]
    fn codes_are_classified_per_revision() {
        assert_eq!(
            classify(-32021, V2026_07_28),
            CodeUse::Defined("MissingRequiredClientCapability")
        );
        assert_eq!(classify(-32050, V2026_07_28), CodeUse::ReservedUndefined);
        assert!(matches!(
            classify(-32002, V2026_07_28),
            CodeUse::Retired { .. }
        ));
        assert_eq!(classify(-32001, V2026_07_28), CodeUse::Legacy);
        assert_eq!(classify(-32602, V2026_07_28), CodeUse::Unregulated);
        assert_eq!(classify(-32002, V2025_11_25), CodeUse::Unregulated);
        assert_eq!(classify(-32050, V2025_11_25), CodeUse::Unregulated);
        assert_eq!(
            classify(-32042, V2025_11_25),
            CodeUse::Defined("URLElicitationRequired")
        );
        assert_eq!(classify(-32042, V2025_06_18), CodeUse::Unregulated);
    }
}
