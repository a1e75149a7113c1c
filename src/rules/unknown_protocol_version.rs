//! `unknown-protocol-version`: a protocol version string that names no revision.

use crate::diagnostic::Severity;
use crate::engine::lifecycle::named_versions;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};

pub static META: RuleMeta = RuleMeta {
    id: "unknown-protocol-version",
    family: Family::Lifecycle,
    default_severity: Severity::Info,
    versions: Versions::ALL,
    wants: Wants::MESSAGES,
    order_dependent: false,
    summary: "a protocol version string names no published revision; the session is linted with the nearest one",
    quote: "In the initialize request, the client MUST send a protocol version it supports. This SHOULD be the latest version supported by the client.",
    spec: Some(SpecPage::handshake("basic/lifecycle")),
    help: "use one of the published revisions (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28); a draft or made-up version is only understood by peers built for it",
};

pub static RULE: Rule = Rule::on_events(&META, check);

fn check(ctx: &Ctx, out: &mut Out) {
    let (Some(message), Some(from)) = (ctx.message, ctx.from) else {
        return;
    };
    let lifecycle = &ctx.session.lifecycle;
    let answers_initialize = ctx
        .facts
        .answered()
        .is_some_and(|r| lifecycle.is_initialize(r.id));
    for named in named_versions(message, from, answers_initialize) {
        // Once per session and string: the tracker keeps those already seen.
        if Version::parse(&named.text).is_some() || lifecycle.unknown_versions.contains(&named.text)
        {
            continue;
        }
        out.push(ctx.diagnostic(
            &META,
            words!(
                "{} names protocol version {}, which is no published revision; it is read as {}",
                from,
                crate::words::Arg::quoted(&named.text),
                named.read_as
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::{self, Info};
    use crate::rules::testing::{findings, HANDSHAKE};

    fn check(trace: &str) -> Vec<(u64, Severity)> {
        findings("unknown-protocol-version", trace)
    }

    #[test]
    fn info_once_per_string_in_initialize_and_its_result() {
        let trace = HANDSHAKE.replace("2025-11-25", "2025-09-01");
        // Request and result name the same string: reported at the request.
        assert_eq!(check(&trace), [(1, Info)]);
        let lines: Vec<&str> = HANDSHAKE.lines().collect();
        let result = lines[1].replace("2025-11-25", "draft");
        assert_eq!(check(&[lines[0], &result].join("\n")), [(2, Info)]);
    }

    #[test]
    fn info_on_a_modern_request_meta_version() {
        let request = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-12-01"}}}}"#;
        let again = request.replace("\"id\":1", "\"id\":2");
        assert_eq!(check(&[request, &again].join("\n")), [(1, Info)]);
    }

    #[test]
    fn silent_on_published_revisions() {
        assert_eq!(check(HANDSHAKE), []);
    }
}
