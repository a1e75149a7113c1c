//! HTML: one self-contained page (no network, no external script, style or
//! font): a summary, per session a timeline of client and server lanes with
//! each operation a bar, and the findings with their evidence lines, with
//! filters by severity, rule and session.
//!
//! Every piece of trace text is escaped here, once, for HTML, and never goes
//! into a URL or a script. The page's Content-Security-Policy allows only its
//! own script (by nonce) and no event-handler attributes, so even an escaping
//! bug could not run a trace's `<script>` or `onerror`.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use super::junit::xml as esc;
use super::timeline::{self, Operation, Timeline, MAX_OPERATIONS, MAX_POINTS, MAX_RAW_LINES};
use super::{Report, Sink, SourceInfo};
use crate::diagnostic::{Diagnostic, Severity};
use crate::event::{Location, Side};
use crate::sanitize::display_bytes;

/// Characters of a quoted line.
const MAX_LINE_CHARS: usize = 200;
/// Findings listed with their evidence lines; the rest are listed without,
/// so a trace with thousands of findings still gives a page a browser opens
/// quickly.
const MAX_QUOTED: usize = 500;
const WIDTH: f64 = 1000.0;
const LANE: f64 = 70.0;

pub(super) fn write(report: &Report, out: &mut dyn Sink) -> std::io::Result<()> {
    let nonce = nonce();
    // The page reads the findings several times, by session and by rule.
    let all = report.findings.to_vec();
    let timelines = timelines(report, &all);
    let mut page = String::new();
    head(&mut page, &nonce);
    summary(report, &all, &mut page);
    filters(&all, &mut page);
    for timeline in &timelines {
        session(report, &all, timeline, &mut page);
        hand_on(&mut page, out)?;
    }
    findings(report, &all, &mut page, out)?;
    script(&mut page, &nonce);
    hand_on(&mut page, out)
}

/// Writes what the page has so far and empties it: a page of many findings
/// is never whole in memory.
fn hand_on(page: &mut String, out: &mut dyn Sink) -> std::io::Result<()> {
    out.write_all(page.as_bytes())?;
    page.clear();
    Ok(())
}

/// A value the page's script must carry to run; it changes every run, so a
/// script injected into a report could not know it.
fn nonce() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{:016x}", hasher.finish())
}

/// The sessions of every input whose text is still at hand.
fn timelines(report: &Report, diagnostics: &[Diagnostic]) -> Vec<Timeline> {
    let mut all = Vec::new();
    for (source, info) in report.sources.iter().enumerate() {
        let marked = diagnostics
            .iter()
            .filter(|d| d.location.source as usize == source)
            .map(|d| d.location.line)
            .collect();
        let mut builder = timeline::Builder::new(source as u32, marked);
        let replayed = info.text.map(|text| {
            let reader = text.reader()?;
            crate::decode::replay(reader, source as u32, &mut |event| builder.take(&event))
        });
        if let Some(Ok(())) = replayed {
            all.extend(builder.finish());
        }
    }
    all
}

fn head(page: &mut String, nonce: &str) {
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'\">\
<meta name=\"viewport\" content=\"width=device-width\"><title>mcp-lint report</title><style>{STYLE}</style></head><body>\n"
    );
}

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:1em 2em;color:#222}\
pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.3em;margin:.2em 0}\
.error{color:#b00}.warning{color:#a60}.info{color:#06a}\
svg{border:1px solid #ddd;background:#fcfcfc}.lane{font:11px sans-serif;fill:#666}\
rect.op{fill:#7a9cc6}rect.op.open{fill:#c9a0a0}.tick{stroke:#234;stroke-width:1.5}\
.cancel{stroke:#c00;stroke-width:2}.late{fill:#e80}.point{fill:#999}\
path.error{fill:#d00}path.warning{fill:#e90}path.info{fill:#39c}\
li.finding{margin:.6em 0}table{border-collapse:collapse}td,th{padding:.1em .6em;text-align:left}";

fn summary(report: &Report, diagnostics: &[Diagnostic], page: &mut String) {
    let _ = write!(
        page,
        "<h1>mcp-lint report</h1><p id=\"summary\">{}</p>",
        esc(&report.summary_line())
    );
    let mut by_rule: BTreeMap<(&str, Severity), usize> = BTreeMap::new();
    for d in diagnostics.iter() {
        *by_rule.entry((d.rule.id, d.severity)).or_default() += 1;
    }
    page.push_str("<table id=\"by-rule\"><tr><th>rule</th><th>severity</th><th>findings</th></tr>");
    for ((rule, severity), count) in by_rule {
        let _ = write!(
            page,
            "<tr><td>{rule}</td><td class=\"{severity}\">{severity}</td><td>{count}</td></tr>"
        );
    }
    page.push_str("</table>\n");
}

/// The severity, rule and session selects; the script applies them.
fn filters(diagnostics: &[Diagnostic], page: &mut String) {
    let rules: std::collections::BTreeSet<&str> = diagnostics.iter().map(|d| d.rule.id).collect();
    let sessions: std::collections::BTreeSet<String> = diagnostics
        .iter()
        .map(|d| session_key(d.location.source, d.session.as_deref()))
        .collect();
    page.push_str("<p id=\"filters\">Severity <select id=\"f-severity\"><option value=\"\">all</option>\
<option>error</option><option>warning</option><option>info</option></select> Rule <select id=\"f-rule\"><option value=\"\">all</option>");
    for rule in rules {
        let _ = write!(page, "<option>{rule}</option>");
    }
    page.push_str("</select> Session <select id=\"f-session\"><option value=\"\">all</option>");
    for session in sessions {
        let _ = write!(page, "<option value=\"{0}\">{0}</option>", esc(&session));
    }
    page.push_str("</select></p>\n");
}

/// A session's name in the page: unique across inputs.
fn session_key(source: u32, session: Option<&str>) -> String {
    format!("{}#{}", source, session.unwrap_or("(default)"))
}

fn in_session(d: &Diagnostic, timeline: &Timeline) -> bool {
    d.location.source == timeline.source && d.session.as_deref() == timeline.session.as_deref()
}

fn session(report: &Report, diagnostics: &[Diagnostic], timeline: &Timeline, page: &mut String) {
    let key = session_key(timeline.source, timeline.session.as_deref());
    let found: Vec<(usize, &Diagnostic)> = diagnostics
        .iter()
        .enumerate()
        .filter(|(_, d)| in_session(d, timeline))
        .collect();
    let name = &report.sources[timeline.source as usize].name;
    let _ = write!(
        page,
        "<section class=\"session\" data-session=\"{}\"><h2>{} — session {}</h2><p>{} events, {} operations, {} findings{}.</p>",
        esc(&key),
        esc(name),
        esc(timeline.session.as_deref().unwrap_or("(default)")),
        timeline.events,
        timeline.operation_count,
        found.len(),
        if timeline.timed { "" } else { "; no times in the trace, so events are evenly spaced" }
    );
    // Sessions without findings are only counted: big traces stay small.
    if !found.is_empty() {
        svg(timeline, &found, page);
        raw_lines(&report.sources[timeline.source as usize], timeline, page);
    }
    page.push_str("</section>\n");
}

/// The anchor of a line's raw message.
fn raw_anchor(source: u32, line: u64) -> String {
    format!("r{source}-l{line}")
}

/// The session's lines as recorded, folded away, each with its anchor: the
/// timeline's bars and points link to them.
fn raw_lines(source: &SourceInfo, timeline: &Timeline, page: &mut String) {
    let _ = write!(
        page,
        "<details class=\"raw\"><summary>The session's {} lines, as recorded</summary>",
        timeline.line_count
    );
    for at in timeline.lines.iter().take(MAX_RAW_LINES) {
        let _ = write!(
            page,
            "<div id=\"{}\">line {}<pre>{}</pre></div>",
            raw_anchor(at.source, at.line),
            at.line,
            esc_text(&quoted(source, *at))
        );
    }
    if timeline.line_count > timeline.lines.len() {
        let _ = write!(page, "<p>The first {MAX_RAW_LINES} lines are listed.</p>");
    }
    page.push_str("</details>");
}

/// Text between tags: only `&`, `<` and `>` need escaping there, and a
/// quoted JSON line keeps its quotes as they are (a third of its size).
/// Control characters are already escaped (`display_bytes`).
fn esc_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// A line of the trace as the page quotes it.
fn quoted(source: &SourceInfo, at: Location) -> String {
    source
        .text
        .and_then(|text| text.line(at.offset, at.len))
        .map_or_else(
            || "(line not available)".to_string(),
            |bytes| display_bytes(&bytes, MAX_LINE_CHARS),
        )
}

fn svg(timeline: &Timeline, found: &[(usize, &Diagnostic)], page: &mut String) {
    let _ = write!(
        page,
        "<svg class=\"timeline\" viewBox=\"0 0 {WIDTH} {}\" width=\"100%\"><text class=\"lane\" x=\"2\" y=\"12\">client</text><text class=\"lane\" x=\"2\" y=\"{}\">server</text>",
        LANE * 2.0 + 10.0,
        LANE + 12.0
    );
    let scale = Scale::of(timeline);
    let mut rows = [Vec::new(), Vec::new()];
    for operation in timeline.operations.iter().take(MAX_OPERATIONS) {
        let _ = write!(
            page,
            "<a href=\"#{}\">",
            raw_anchor(timeline.source, operation.line)
        );
        bar(operation, &scale, &mut rows, page);
        page.push_str("</a>");
    }
    for point in &timeline.points {
        let y = lane_top(point.from) + LANE - 8.0;
        let _ = write!(
            page,
            "<a href=\"#{}\"><circle class=\"point\" cx=\"{:.1}\" cy=\"{y}\" r=\"2.5\"><title>line {}: {}</title></circle></a>",
            raw_anchor(timeline.source, point.line),
            scale.x(point.at),
            point.line,
            esc(&point.what)
        );
    }
    for (index, d) in found.iter().take(MAX_OPERATIONS) {
        marker(*index, d, timeline, &scale, page);
    }
    page.push_str("</svg>");
    if timeline.operation_count.max(found.len()) > MAX_OPERATIONS {
        let _ = write!(
            page,
            "<p>The first {MAX_OPERATIONS} operations and findings are drawn; the list has every finding.</p>"
        );
    }
    if timeline.point_count > MAX_POINTS {
        let _ = write!(
            page,
            "<p>The first {MAX_POINTS} notifications and other messages outside operations are drawn.</p>"
        );
    }
}

/// Positions on the axis to x coordinates.
struct Scale {
    first: f64,
    per_unit: f64,
}

impl Scale {
    fn of(timeline: &Timeline) -> Scale {
        let span = (timeline.last - timeline.first).max(1.0);
        Scale {
            first: timeline.first,
            per_unit: (WIDTH - 60.0) / span,
        }
    }

    fn x(&self, at: f64) -> f64 {
        50.0 + (at - self.first) * self.per_unit
    }
}

fn lane_top(side: Option<Side>) -> f64 {
    match side {
        Some(Side::Server) => LANE + 4.0,
        _ => 4.0,
    }
}

/// An operation as a bar in its sender's lane, on the first row free at its start.
fn bar(operation: &Operation, scale: &Scale, rows: &mut [Vec<f64>; 2], page: &mut String) {
    let lane = usize::from(operation.from == Some(Side::Server));
    let (start, end) = (
        scale.x(operation.start),
        scale.x(operation.end.unwrap_or(operation.start)),
    );
    let end = end.max(start + 3.0);
    let row = match rows[lane].iter().position(|free| *free <= start) {
        Some(row) => row,
        None if rows[lane].len() < 6 => {
            rows[lane].push(0.0);
            rows[lane].len() - 1
        }
        None => rows[lane].len() - 1,
    };
    rows[lane][row] = end + 1.0;
    let y = lane_top(operation.from) + 14.0 + row as f64 * 8.0;
    let open = if operation.end.is_none() { " open" } else { "" };
    let _ = write!(
        page,
        "<rect class=\"op{open}\" x=\"{start:.1}\" y=\"{y}\" width=\"{:.1}\" height=\"6\"><title>line {}: {} {}{}</title></rect>",
        end - start,
        operation.line,
        esc(&operation.method),
        esc(&operation.id),
        if operation.end.is_none() { " (no response)" } else { "" }
    );
    for at in &operation.progress {
        let x = scale.x(*at);
        let _ = write!(
            page,
            "<line class=\"tick\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{y}\" y2=\"{}\"/>",
            y + 6.0
        );
    }
    if let Some(at) = operation.cancel {
        let x = scale.x(at);
        let _ = write!(
            page,
            "<path class=\"cancel\" d=\"M{:.1} {y}l6 6m0 -6l-6 6\"><title>cancelled</title></path>",
            x - 3.0
        );
    }
    for at in &operation.late {
        let _ = write!(page, "<circle class=\"late\" cx=\"{:.1}\" cy=\"{}\" r=\"3\"><title>late message</title></circle>", scale.x(*at), y + 3.0);
    }
}

/// A finding as a triangle at its line, in its sender's lane, linking to its entry.
fn marker(index: usize, d: &Diagnostic, timeline: &Timeline, scale: &Scale, page: &mut String) {
    let Some(at) = timeline.line_at.get(&d.location.line) else {
        return;
    };
    let (x, y) = (scale.x(*at), lane_top(d.from) + 2.0);
    let _ = write!(
        page,
        "<a href=\"#f{index}\" class=\"finding\" data-severity=\"{sev}\" data-rule=\"{rule}\" data-session=\"{session}\"><path class=\"{sev}\" d=\"M{:.1} {y}l5 9h-10z\"><title>line {}: {sev}[{rule}]</title></path></a>",
        x,
        d.location.line,
        sev = d.severity,
        rule = d.rule.id,
        session = esc(&session_key(d.location.source, d.session.as_deref())),
    );
}

fn findings(
    report: &Report,
    diagnostics: &[Diagnostic],
    page: &mut String,
    out: &mut dyn Sink,
) -> std::io::Result<()> {
    let _ = write!(page, "<h2>Findings</h2><ol id=\"findings\">");
    let mut anchored = HashSet::new();
    for (index, d) in diagnostics.iter().enumerate() {
        let source = &report.sources[d.location.source as usize];
        let _ = write!(
            page,
            "<li class=\"finding\" id=\"f{index}\" data-severity=\"{sev}\" data-rule=\"{rule}\" data-session=\"{}\"><span class=\"{sev}\">{sev}</span> <a href=\"{}\">{rule}</a> {}:{}: {}",
            esc(&session_key(d.location.source, d.session.as_deref())),
            d.rule.doc_path(),
            esc(&source.name),
            d.location.line,
            esc(&d.text(&|t| t.into())),
            sev = d.severity,
            rule = d.rule.id,
        );
        if let Some(url) = &d.spec_url() {
            let _ = write!(page, " (<a href=\"{}\">spec</a>)", esc(url));
        }
        if index < MAX_QUOTED {
            evidence(source, d.location, "", &mut anchored, page);
            for related in &d.related {
                evidence(
                    source,
                    related.location,
                    &related.message.to_string(),
                    &mut anchored,
                    page,
                );
            }
        }
        page.push_str("</li>\n");
        if index % 1024 == 1023 {
            hand_on(page, out)?;
        }
    }
    page.push_str("</ol>\n");
    if diagnostics.len() > MAX_QUOTED {
        let _ = write!(
            page,
            "<p>The first {MAX_QUOTED} findings quote their evidence; the human report quotes all.</p>"
        );
    }
    Ok(())
}

/// A quoted line of the trace; the first quote of each line is its anchor.
fn evidence(
    source: &SourceInfo,
    at: Location,
    note: &str,
    anchored: &mut HashSet<(u32, u64)>,
    page: &mut String,
) {
    let line = quoted(source, at);
    let id = match anchored.insert((at.source, at.line)) {
        true => format!(" id=\"s{}-l{}\"", at.source, at.line),
        false => String::new(),
    };
    let note = match note {
        "" => String::new(),
        note => format!(" — {}", esc(note)),
    };
    let _ = write!(
        page,
        "<div{id}>line {}{note}<pre>{}</pre></div>",
        at.line,
        esc_text(&line)
    );
}

/// Filters: an element shows when it matches every select.
fn script(page: &mut String, nonce: &str) {
    let _ = write!(
        page,
        "<script nonce=\"{nonce}\">{SCRIPT}</script></body></html>"
    );
    page.push('\n');
}

/// It marks the page as scripted (`data-ready`), which the browser test checks
/// to know the policy let this script, and only this one, run. The filters
/// live in the address too (`#severity=error&rule=…&session=…`), so a
/// filtered view can be shared and opened again.
const SCRIPT: &str = "(function(){\
document.body.dataset.ready='1';\
var rank={info:0,warning:1,error:2};\
var f={severity:document.getElementById('f-severity'),rule:document.getElementById('f-rule'),session:document.getElementById('f-session')};\
function apply(){\
var sev=f.severity.value,rule=f.rule.value,ses=f.session.value;\
document.querySelectorAll('.finding').forEach(function(e){\
var ok=(!sev||rank[e.dataset.severity]>=rank[sev])&&(!rule||e.dataset.rule===rule)&&(!ses||e.dataset.session===ses);\
e.style.display=ok?'':'none';});\
document.querySelectorAll('section.session').forEach(function(s){s.style.display=(!ses||s.dataset.session===ses)?'':'none';});}\
function remember(){\
var h=[];Object.keys(f).forEach(function(k){if(f[k].value)h.push(k+'='+encodeURIComponent(f[k].value));});\
try{history.replaceState(null,'',h.length?'#'+h.join('&'):location.pathname+location.search);}catch(e){}}\
if(location.hash.indexOf('=')>0){location.hash.slice(1).split('&').forEach(function(p){\
var kv=p.split('=');if(f[kv[0]])f[kv[0]].value=decodeURIComponent(kv[1]||'');});apply();}\
Object.keys(f).forEach(function(k){f[k].addEventListener('change',function(){apply();remember();});});})();";
