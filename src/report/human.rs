//! Human output: one miette report per diagnostic, quoting the offending line
//! of the trace and the earlier lines that make it a violation.

use std::collections::BTreeMap;
use std::fmt;

use miette::{
    Diagnostic as MietteDiagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan,
    MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

use super::{Report, Sink, SourceInfo};
use crate::diagnostic::{Diagnostic, Severity};
use crate::event::Location;
use crate::sanitize::{display_bytes, escape_controls};

/// Quoted lines are cut to this many characters.
const MAX_LINE_CHARS: usize = 160;

/// Where in a long line its message may start.
const HEAD_BYTES: usize = 1024;

/// The few lines of one input that a report quotes, laid out one after the
/// other; spans point into `text`, and each line keeps its real number.
struct Excerpt {
    name: String,
    text: String,
    /// Line number -> (start in `text`, length).
    lines: BTreeMap<u64, (usize, usize)>,
}

impl Excerpt {
    /// `wanted`: (line number, the line as quoted).
    fn new(name: String, mut wanted: Vec<(u64, String)>) -> Excerpt {
        let mut excerpt = Excerpt {
            name,
            text: String::new(),
            lines: BTreeMap::new(),
        };
        wanted.sort_by_key(|(line, _)| *line);
        wanted.dedup_by_key(|(line, _)| *line);
        for (line, shown) in wanted {
            let start = excerpt.text.len();
            excerpt.text.push_str(&shown);
            excerpt.lines.insert(line, (start, shown.len()));
            excerpt.text.push('\n');
        }
        excerpt
    }

    fn span(&self, line: u64) -> SourceSpan {
        let (start, len) = self.lines[&line];
        // An empty span would render as a point; a quoted line is never empty.
        SourceSpan::new(start.into(), len.max(1))
    }
}

/// The line at `location` as quoted.
fn quote(source: &SourceInfo, location: Location) -> String {
    let Some(text) = source.text else {
        return "(line not available)".to_string();
    };
    match text.line(location.offset, location.len) {
        // A location inside its line is a window on a line too long to
        // quote (an event of a one-line export): it starts at the event.
        Some(bytes)
            if location.offset > 0 && text.bytes()[location.offset as usize - 1] != b'\n' =>
        {
            format!("… {}", display_bytes(bytes, MAX_LINE_CHARS))
        }
        Some(bytes) => quote_line(bytes),
        None => "(line not available)".to_string(),
    }
}

/// A whole line as quoted. A long line starts where its message does: at the
/// `"msg"` member of a canonical envelope, or at the first `{` of a log line
/// (after its timestamp and markers), so the JSON-RPC message fills the width.
fn quote_line(bytes: &[u8]) -> String {
    if bytes.len() > MAX_LINE_CHARS {
        // Only the line's head is searched: the envelope's members and a log
        // line's prefix are short, and a line is quoted once per finding on it.
        let head = &bytes[..bytes.len().min(HEAD_BYTES)];
        let start = memchr::memmem::find(head, b"\"msg\":").or_else(|| memchr::memchr(b'{', head));
        if let Some(at) = start.filter(|at| *at > 0) {
            return format!("… {}", display_bytes(&bytes[at..], MAX_LINE_CHARS));
        }
    }
    display_bytes(bytes, MAX_LINE_CHARS)
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        _context_before: usize,
        _context_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        // Only the lines the span covers: neighbours in `text` are not
        // neighbours in the trace.
        let covered: Vec<(u64, (usize, usize))> = self
            .lines
            .iter()
            .filter(|(_, (start, len))| {
                *start + *len >= span.offset() && *start <= span.offset() + span.len()
            })
            .map(|(line, place)| (*line, *place))
            .collect();
        let (Some((first_line, (first_start, _))), Some((_, (last_start, last_len)))) =
            (covered.first(), covered.last())
        else {
            return Err(MietteError::OutOfBounds);
        };
        let data = &self.text.as_bytes()[*first_start..last_start + last_len];
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            data,
            SourceSpan::new((*first_start).into(), data.len()),
            (*first_line - 1) as usize,
            0,
            covered.len(),
        )))
    }
}

struct Rendered<'a> {
    diagnostic: &'a Diagnostic,
    /// The message, its trace text neutralized.
    message: String,
    code: String,
    help: String,
    excerpt: Excerpt,
}

impl fmt::Debug for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered<'_> {}

impl MietteDiagnostic for Rendered<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.help))
    }

    fn url<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic
            .spec_url
            .as_ref()
            .map(|url| Box::new(url) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.excerpt)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = self.diagnostic;
        let mut labels = vec![LabeledSpan::new_primary_with_span(
            Some(primary_label(d)),
            self.excerpt.span(d.location.line),
        )];
        labels.extend(
            d.related
                .iter()
                .filter(|r| r.location.line != d.location.line)
                .map(|r| {
                    LabeledSpan::new_with_span(
                        Some(r.message.render(&escape_controls)),
                        self.excerpt.span(r.location.line),
                    )
                }),
        );
        Some(Box::new(labels.into_iter()))
    }
}

fn primary_label(d: &Diagnostic) -> String {
    let mut label = match &d.label {
        Some(label) => label.to_string(),
        None => d
            .rule
            .summary
            .split([':', '('])
            .next()
            .unwrap_or("")
            .trim()
            .to_string(),
    };
    if let Some(place) = d.batch_place() {
        label = format!("{label} ({place})");
    }
    // Related facts on the offending line itself are folded into its label.
    for related in d
        .related
        .iter()
        .filter(|r| r.location.line == d.location.line)
    {
        label = format!("{label}; {}", related.message);
    }
    escape_controls(&label).into_owned()
}

pub(super) fn write(report: &Report, color: bool, out: &mut dyn Sink) -> std::io::Result<()> {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_context_lines(0)
        .with_width(100);
    for d in report.diagnostics {
        let source = &report.sources[d.location.source as usize];
        let wanted: Vec<(u64, String)> = std::iter::once(d.location)
            .chain(d.related.iter().map(|r| r.location))
            .map(|loc| (loc.line, quote(source, loc)))
            .collect();
        let mut help = d.rule.help.to_string();
        if let Some(note) = &d.note {
            help = format!("{help}\nnote: {}", note.render(&escape_controls));
        }
        if !d.quote.is_empty() {
            help = format!("{help}\nspec: \"{}\"", d.quote);
        }
        if let Some(session) = &d.session {
            help = format!("{help}\nsession: {}", escape_controls(session));
        }
        let rendered = Rendered {
            diagnostic: d,
            message: d.text(&escape_controls),
            code: format!("{}[{}]", d.severity, d.rule.id),
            help,
            excerpt: Excerpt::new(source.name.clone(), wanted),
        };
        let mut text = String::new();
        handler
            .render_report(&mut text, &rendered)
            .map_err(|_| std::io::Error::other("rendering failed"))?;
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
    }
    report.write_summary(out)
}
