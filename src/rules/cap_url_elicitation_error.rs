//! `cap-url-elicitation-error`: a URLElicitationRequired (-32042) error whose
//! data does not list URL-mode elicitations with ids.

use serde::Deserialize;

use super::check_defined_error;
use crate::diagnostic::Severity;
use crate::protocol::elicitation::URL_MODE;
use crate::protocol::errors::URL_ELICITATION_REQUIRED;
use crate::protocol::{SpecPage, Version, Versions};
use crate::rule::{Ctx, Family, Out, Rule, RuleMeta, Wants};
use crate::words::Words;

pub static META: RuleMeta = RuleMeta {
    id: "cap-url-elicitation-error",
    family: Family::Capability,
    default_severity: Severity::Warning,
    versions: Versions::only(Version::V2025_11_25),
    wants: Wants::RESPONSE,
    order_dependent: false,
    summary: "a URLElicitationRequired error (-32042) whose data.elicitations is missing, not a list, or holds an elicitation that is not URL mode or has no elicitationId",
    quote: "Any elicitations returned in the error MUST be URL mode elicitations and have an `elicitationId` property.",
    spec: Some(SpecPage {
        legacy: "client/elicitation",
        modern: None,
        modern_quote: None,
    }),
    help: "put in error.data.elicitations the list of URL-mode elicitation params (mode \"url\", elicitationId, url, message) the user must complete",
};

pub static RULE: Rule = Rule::on_events(&META, check);

#[derive(Deserialize)]
struct ErrorObject {
    data: Option<serde_json::Value>,
}

fn check(ctx: &Ctx, out: &mut Out) {
    // A missing data.elicitations is the shared check's.
    check_defined_error(ctx, out, &META, &URL_ELICITATION_REQUIRED);
    let Some((listed, pointer)) = misshapen(ctx) else {
        return;
    };
    let from = ctx.from.map_or(words!("a side"), |s| words!("{}", s));
    let diagnostic = ctx.diagnostic(
        &META,
        words!(
            "{} answers with error {} ({}), but {}",
            from,
            URL_ELICITATION_REQUIRED.code,
            URL_ELICITATION_REQUIRED.name,
            listed
        ),
    );
    out.push(diagnostic.with_pointer(&pointer));
}

/// What is wrong with the `elicitations` of a -32042 error that has them,
/// and where.
fn misshapen(ctx: &Ctx) -> Option<(Words, String)> {
    let message = ctx.message.filter(|m| !m.incomplete)?;
    let code = super::error_code_use(ctx).map(|(code, _)| code);
    if code != Some(URL_ELICITATION_REQUIRED.code) {
        return None;
    }
    let error = message.members.error.as_ref()?.parse::<ErrorObject>()?;
    let listed = error.data?.get("elicitations")?.clone();
    let Some(list) = listed.as_array() else {
        let what = words!("its data.elicitations is not a list");
        return Some((what, "/error/data/elicitations".into()));
    };
    list.iter().enumerate().find_map(|(index, elicitation)| {
        let at = format!("/error/data/elicitations/{index}");
        let member = |name: &str| elicitation.get(name).and_then(|v| v.as_str());
        if member("mode") != Some(URL_MODE) {
            let what = words!("elicitation {} of its data is not URL mode", index);
            return Some((what, at + "/mode"));
        }
        member("elicitationId").is_none().then(|| {
            let what = words!("elicitation {} of its data has no elicitationId", index);
            (what, at)
        })
    })
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity::Warning;
    use crate::rules::testing::{findings, trace, HANDSHAKE};

    const CALL: &str = r#"{"from":"client","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pay"}}}"#;
    const URL: &str =
        r#"{"mode":"url","elicitationId":"e1","url":"https://example.com/pay","message":"Pay"}"#;

    fn answered(data: &str) -> Vec<(u64, crate::diagnostic::Severity)> {
        let error = format!(
            r#"{{"from":"server","msg":{{"jsonrpc":"2.0","id":1,"error":{{"code":-32042,"message":"needs the user"{data}}}}}}}"#
        );
        let lines = trace(&[CALL, &error]);
        findings("cap-url-elicitation-error", &format!("{HANDSHAKE}{lines}"))
    }

    #[test]
    fn fires_without_a_list_of_url_elicitations_with_ids() {
        assert_eq!(answered(""), [(5, Warning)]);
        assert_eq!(answered(r#","data":{"elicitations":{}}"#), [(5, Warning)]);
        let form =
            r#","data":{"elicitations":[{"mode":"form","elicitationId":"e1","message":"Name?"}]}"#;
        assert_eq!(answered(form), [(5, Warning)]);
        let no_id = format!(
            r#","data":{{"elicitations":[{URL},{{"mode":"url","url":"https://example.com","message":"Go"}}]}}"#
        );
        assert_eq!(answered(&no_id), [(5, Warning)]);
    }

    #[test]
    fn silent_on_url_elicitations_with_ids_and_an_empty_list() {
        assert_eq!(
            answered(&format!(r#","data":{{"elicitations":[{URL}]}}"#)),
            []
        );
        assert_eq!(answered(r#","data":{"elicitations":[]}"#), []);
    }
}
