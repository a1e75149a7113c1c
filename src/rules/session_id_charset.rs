//! `session-id-charset`: a session id with characters other than visible ASCII.

use crate::diagnostic::Severity;
use crate::protocol::headers::{session_id_is_visible_ascii, Header};
use crate::protocol::spec::TRANSPORTS;
use crate::protocol::{Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "session-id-charset",
    family: Family::Http,
    default_severity: Severity::Error,
    versions: Versions::range(Version::V2025_03_26, Version::V2025_11_25),
    wants: Wants::TRANSPORT,
    order_dependent: false,
    summary:
        "the Mcp-Session-Id a server assigns holds a character outside visible ASCII (0x21 to 0x7E)",
    quote: "The session ID MUST only contain visible ASCII characters (ranging from 0x21 to 0x7E).",
    spec: Some(TRANSPORTS),
    help: "mint session ids from visible ASCII only (a UUID, a JWT, a base64url string)",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let Some(http) = super::streamable_exchange(ctx) else {
        return;
    };
    let Some(id) = http.response_header(Header::McpSessionId) else {
        return;
    };
    if session_id_is_visible_ascii(id) {
        return;
    }
    out.push(
        ctx.diagnostic(
            &META,
            words!("the server assigns the session id {}, which holds characters outside visible ASCII", crate::words::Arg::quoted(id)),
        )
        .with_label("the response"),
    );
}

#[cfg(test)]
mod tests {

    use crate::diagnostic::Severity::Error;
    use crate::rules::testing::{findings, har, initialize_assigning};

    #[test]
    fn fires_on_a_space_in_the_id() {
        assert_eq!(
            findings("session-id-charset", &har(&[initialize_assigning("a b")])),
            [(2, Error)]
        );
    }

    #[test]
    fn silent_on_a_uuid() {
        let trace = har(&[initialize_assigning("1868a90c-4b1a-4d5f-9c57-6d3c0e6c8a11")]);
        assert_eq!(findings("session-id-charset", &trace), []);
    }
}
