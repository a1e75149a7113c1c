//! `--format html` from the real binary: one self-contained page whose
//! trace text shows as text and never runs.

use std::path::Path;
use std::process::{Command, Stdio};

/// A session whose every free-text field is an attack on the page.
const HOSTILE: &str = r#"{"ts":"2026-11-30T07:00:00.000Z","from":"client","session":"\"><img src=x onerror=alert(0)>","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"<script>alert(1)</script>","version":"1"}}}}
{"ts":"2026-11-30T07:00:00.100Z","from":"server","session":"\"><img src=x onerror=alert(0)>","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}}
{"ts":"2026-11-30T07:00:00.200Z","from":"client","session":"\"><img src=x onerror=alert(0)>","msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}
{"ts":"2026-11-30T07:00:01.000Z","from":"client","session":"\"><img src=x onerror=alert(0)>","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"open","arguments":{"url":"javascript:alert(2)"}}}}
{"ts":"2026-11-30T07:00:02.000Z","from":"server","session":"\"><img src=x onerror=alert(0)>","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"<img src=x onerror=alert(3)><a href='javascript:alert(4)'>x</a>"}]}}}
{"ts":"2026-11-30T07:00:03.000Z","from":"server","session":"\"><img src=x onerror=alert(0)>","msg":{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"<script>alert(5)</script>"}]}}}
{"ts":"2026-11-30T07:00:04.000Z","from":"client","session":"\"><img src=x onerror=alert(0)>","msg":{"jsonrpc":"2.0","id":2,"method":"<svg onload=alert(6)>"}}
"#;

/// The tags the report itself writes; a trace must add none.
const OUR_TAGS: &[&str] = &[
    "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "table", "tr",
    "th", "td", "select", "option", "section", "svg", "text", "rect", "line", "path", "circle",
    "a", "ol", "li", "span", "div", "pre", "script", "details", "summary",
];

fn report(trace: &str) -> (String, std::process::Output) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("hostile.jsonl");
    std::fs::write(&input, trace).unwrap();
    let output = dir.path().join("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", "html", "-o"])
        .arg(&output)
        .arg(&input)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (std::fs::read_to_string(&output).unwrap(), out)
}

/// Every tag of the page: the text between each `<` and the next `>`.
fn tags(page: &str) -> Vec<&str> {
    page.split('<')
        .skip(1)
        .map(|rest| rest.split('>').next().unwrap_or(rest))
        .collect()
}

#[test]
fn trace_text_shows_as_text_and_never_runs() {
    let (page, out) = report(HOSTILE);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for tag in tags(&page) {
        let name = tag
            .trim_start_matches('/')
            .split([' ', '/'])
            .next()
            .unwrap();
        assert!(
            OUR_TAGS.contains(&name),
            "a tag the report does not write: <{tag}>"
        );
        // Outside its quoted values (where `"` is always escaped), a tag
        // holds only the report's own attribute names.
        let outside: String = tag.split('"').step_by(2).collect();
        for bad in ["onerror", "onload", "javascript:", " src="] {
            assert!(!outside.contains(bad), "{bad} in <{tag}>");
        }
    }
    assert!(!page.contains("=\"javascript:"), "a javascript: URL");
    // The attacks are there, as text.
    for shown in [
        "&lt;script&gt;alert(5)&lt;/script&gt;",
        "&lt;img src=x onerror=alert(3)&gt;",
        "&lt;svg onload=alert(6)&gt;",
        "&quot;&gt;&lt;img src=x onerror=alert(0)&gt;",
    ] {
        assert!(page.contains(shown), "{shown} not shown");
    }
    // One script, the report's, allowed by the policy's nonce.
    assert_eq!(page.matches("<script").count(), 1);
    let nonce = page
        .split("'nonce-")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap();
    assert!(page.contains(&format!("<script nonce=\"{nonce}\">")));
}

#[test]
fn the_page_holds_the_summary_the_timeline_and_every_finding() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let trace =
        std::fs::read_to_string(root.join("testdata/races/cancel-crossing-final-result.jsonl"))
            .unwrap();
    let (page, _) = report(&trace);
    let expected = mcp_lint::lint_str(&trace);
    assert!(!expected.is_empty());
    assert_eq!(
        page.matches("<li class=\"finding\"").count(),
        expected.len()
    );
    for d in &expected {
        assert!(page.contains(&format!("data-rule=\"{}\"", d.rule.id)));
    }
    assert!(page.contains("<svg class=\"timeline\""));
    assert!(page.contains("<rect class=\"op"), "an operation bar");
    assert!(page.contains("<line class=\"tick\""), "progress on the bar");
    assert!(page.contains("<path class=\"cancel\""), "the cancellation");
    assert!(
        page.contains("class=\"late\""),
        "the response after the cancellation"
    );
    assert!(
        page.contains("id=\"f-severity\"")
            && page.contains("id=\"f-rule\"")
            && page.contains("id=\"f-session\"")
    );
    // Self-contained: nothing is fetched.
    assert!(!page.contains("<link") && !page.contains(" src="));
    // Every line of the session is there as recorded, and every link to a
    // line's raw message lands on one.
    for number in 1..=trace.lines().count() {
        assert!(
            page.contains(&format!("<div id=\"r0-l{number}\">line {number}<pre>")),
            "line {number} is not listed"
        );
    }
    let links: Vec<&str> = page
        .split("<a href=\"#r")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert!(links.len() >= 3, "the timeline links no line");
    for link in links {
        assert!(
            page.contains(&format!("id=\"r{link}\"")),
            "#r{link} leads nowhere"
        );
    }
}

/// Chromium, when installed (`.ci/run` installs it): the test is skipped, and
/// says so, where it is not.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

fn headless(browser: &str, profile: &Path, args: &[&str], page: &Path) -> std::process::Output {
    headless_at(
        browser,
        profile,
        args,
        &format!("file://{}", page.display()),
    )
}

fn headless_at(browser: &str, profile: &Path, args: &[&str], url: &str) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--window-size=1200,900",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_browser_renders_the_report_and_runs_only_its_script() {
    let Some(browser) = chromium() else {
        eprintln!("chromium is not installed: the browser test is skipped");
        return;
    };
    // Payloads that would change the page if they ran.
    let trace = HOSTILE
        .replace("alert(1)", "document.title='pwned'")
        .replace("alert(3)", "document.body.setAttribute('data-pwned','1')")
        .replace("alert(5)", "document.body.setAttribute('data-pwned','1')");
    let (html, _) = report(&trace);
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    std::fs::write(&page, &html).unwrap();
    let dom = headless(browser, &dir.path().join("profile"), &["--dump-dom"], &page);
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains("<body data-ready=\"1\">"),
        "the report's own script did not run:\n{dom}"
    );
    assert!(
        !dom.contains("pwned\"") && !dom.contains("<title>pwned"),
        "a trace's script ran"
    );
    assert!(!dom.contains("<img"), "a trace's tag became an element");
    assert_eq!(
        dom.matches("<li class=\"finding\"").count(),
        mcp_lint::lint_str(&trace).len()
    );
    assert!(dom.contains("<rect class=\"op"), "no timeline");
    // The screenshot is kept for people to look at.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-report.png");
    let shot_arg = format!("--screenshot={}", shot.display());
    headless(browser, &dir.path().join("profile"), &[&shot_arg], &page);
    assert!(
        std::fs::metadata(&shot).is_ok_and(|m| m.len() > 0),
        "no screenshot"
    );
}

/// The filters, in a real browser: opened with `#severity=…` or `#rule=…`
/// in its address, the page shows only the findings that match.
#[test]
fn a_browser_applies_the_filters_in_the_address() {
    let Some(browser) = chromium() else {
        eprintln!("chromium is not installed: the browser test is skipped");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Two errors and an info, of three rules.
    let trace = std::fs::read_to_string(
        root.join("testdata/races/two-unreadable-requests-two-null-id-errors.jsonl"),
    )
    .unwrap();
    let (html, _) = report(&trace);
    let expected = mcp_lint::lint_str(&trace);
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    std::fs::write(&page, &html).unwrap();
    let shown = |fragment: &str| -> Vec<(String, String)> {
        let url = format!("file://{}#{fragment}", page.display());
        let out = headless_at(browser, &dir.path().join("profile"), &["--dump-dom"], &url);
        let dom = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            dom.contains("data-ready=\"1\""),
            "the script did not run:\n{dom}"
        );
        // The findings list: each item, unless the filters hid it.
        dom.split("<li class=\"finding\"")
            .skip(1)
            .filter(|item| !item.split('>').next().unwrap().contains("display: none"))
            .map(|item| {
                let attribute = |name: &str| {
                    item.split(&format!("data-{name}=\""))
                        .nth(1)
                        .unwrap()
                        .split('"')
                        .next()
                        .unwrap()
                        .to_string()
                };
                (attribute("severity"), attribute("rule"))
            })
            .collect()
    };
    assert_eq!(shown("").len(), expected.len());
    let errors = shown("severity=error");
    assert_eq!(
        errors.len(),
        expected
            .iter()
            .filter(|d| d.severity == mcp_lint::diagnostic::Severity::Error)
            .count()
    );
    assert!(
        errors.len() < expected.len(),
        "the severity filter hid nothing"
    );
    assert!(!errors.is_empty() && errors.iter().all(|(severity, _)| severity == "error"));
    let rule = &expected[0].rule.id;
    let one_rule = shown(&format!("rule={rule}"));
    assert!(
        one_rule.len() < expected.len(),
        "the rule filter hid nothing"
    );
    assert!(
        !one_rule.is_empty() && one_rule.iter().all(|(_, r)| r == rule),
        "{one_rule:?}"
    );
}
