use super::{of, Expected, Types, Violation};
use crate::protocol::Version;

fn names(version: Version, violations: &[Violation]) -> Vec<(String, String)> {
    violations
        .iter()
        .map(|v| {
            let definition = of(version).definition(v).map(|d| d.name.to_string());
            (v.pointer.clone(), definition.unwrap_or_default())
        })
        .collect()
}

#[test]
fn every_reference_resolves_and_every_method_has_its_params() {
    for version in Version::ALL {
        let schema = of(version);
        assert_eq!(
            schema.compiled.unresolved,
            Vec::<Box<str>>::new(),
            "{version}"
        );
        assert!(schema.params.contains_key("tools/call"), "{version}");
        assert!(schema.results.contains_key("tools/call"), "{version}");
        assert!(schema.error.is_some(), "{version}");
    }
}

#[test]
fn a_missing_name_is_one_violation_at_its_pointer() {
    let version = Version::V2025_11_25;
    let violations = of(version).check_params("tools/call", Some(r#"{"arguments":{}}"#));
    assert_eq!(
        names(version, &violations),
        [("/params/name".into(), "CallToolRequestParams".into())]
    );
    assert_eq!(violations[0].expected, Expected::Member);
}

#[test]
fn valid_params_and_results_have_none() {
    let schema = of(Version::V2025_06_18);
    let call =
        r#"{"name":"x","arguments":{"a":[1,{"b":null}]},"_meta":{"progressToken":3,"any":{}}}"#;
    assert_eq!(schema.check_params("tools/call", Some(call)), []);
    let result = r#"{"content":[{"type":"text","text":"hi"},{"type":"image","data":"QUJD","mimeType":"image/png"}],"isError":false,"extra":1}"#;
    assert_eq!(schema.check_result("tools/call", result), []);
    assert_eq!(schema.check_error(r#"{"code":-32601,"message":"no"}"#), []);
    assert_eq!(schema.check_result("ping", "{}"), []);
    assert_eq!(schema.check_params("no/such/method", Some("[]")), []);
}

#[test]
fn an_unknown_content_type_names_the_allowed_ones() {
    let version = Version::V2025_06_18;
    let result = r#"{"content":[{"type":"txt","text":"hi"}]}"#;
    let violations = of(version).check_result("tools/call", result);
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].pointer, "/result/content/0/type");
    let Expected::OneOf(allowed) = &violations[0].expected else {
        panic!("{violations:?}")
    };
    assert!(allowed.contains(&r#""text""#.to_string()), "{allowed:?}");
}

#[test]
fn a_content_block_of_a_known_type_reports_its_own_missing_member() {
    let version = Version::V2025_06_18;
    let result = r#"{"content":[{"type":"text"}]}"#;
    let violations = of(version).check_result("tools/call", result);
    assert_eq!(
        names(version, &violations),
        [("/result/content/0/text".into(), "TextContent".into())]
    );
}

#[test]
fn a_token_of_no_allowed_type_is_one_violation() {
    let violations =
        of(Version::V2025_03_26).check_params("ping", Some(r#"{"_meta":{"progressToken":true}}"#));
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].pointer, "/params/_meta/progressToken");
    assert_eq!(
        violations[0].expected,
        Expected::Types(Types(Types::STRING.0 | Types::INTEGER.0))
    );
}

#[test]
fn wrong_types_and_errors() {
    let schema = of(Version::V2024_11_05);
    let violations = schema.check_params("tools/call", Some(r#"{"name":7}"#));
    assert_eq!(violations[0].expected, Expected::Types(Types::STRING));
    assert_eq!(violations[0].found, "an integer");
    let violations = schema.check_error(r#"{"code":1.5,"message":"m"}"#);
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].pointer, "/error/code");
    let violations = schema.check_params("logging/setLevel", Some(r#"{"level":"loud"}"#));
    assert_eq!(violations.len(), 1);
    assert!(matches!(violations[0].expected, Expected::OneOf(_)));
}

#[test]
fn results_of_2026_are_read_with_their_result_type() {
    let schema = of(Version::V2026_07_28);
    let violations = schema.check_result("tools/call", r#"{"content":[]}"#);
    assert!(!violations.is_empty());
    let result = r#"{"resultType":"complete","content":[]}"#;
    assert_eq!(schema.check_result("tools/call", result), []);
}

#[test]
fn a_2026_result_is_its_method_s_unless_it_asks_for_input() {
    let schema = of(Version::V2026_07_28);
    let broken = r#"{"resultType":"complete","content":[{"type":"txt","text":"x"}]}"#;
    let violations = schema.check_result("tools/call", broken);
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert_eq!(violations[0].pointer, "/result/content/0/type");
    let asks = r#"{"resultType":"input_required","inputRequests":{}}"#;
    assert_eq!(schema.check_result("tools/call", asks), []);
}
