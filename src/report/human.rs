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

/// The terminal width the report fits.
const WIDTH: usize = 80;

/// Room for a quoted line's label, at least, however deep its line number.
const MIN_ROOM: usize = 24;

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

    /// One character of the line, where its label points.
    fn span(&self, line: u64) -> SourceSpan {
        let (start, len) = self.lines[&line];
        let at = anchor(&self.text[start..start + len]);
        let width = self.text[start + at..]
            .chars()
            .next()
            .map_or(1, char::len_utf8);
        SourceSpan::new((start + at).into(), width)
    }

    /// How wide a label may be: the width less the gutter (the widest line
    /// number, and ` │ `) and the label's connector.
    fn label_width(&self) -> usize {
        (WIDTH - self.gutter() - 2 - "╰── ".chars().count()).max(MIN_ROOM)
    }

    fn gutter(&self) -> usize {
        gutter(self.lines.keys().copied())
    }
}

/// The line at `location` as quoted, in at most `room` characters.
fn quote(source: &SourceInfo, location: Location, room: usize) -> String {
    let Some(text) = source.text else {
        return "(line not available)".to_string();
    };
    match text.line(location.offset, location.len) {
        // A location inside its line is a window on a line too long to
        // quote (an event of a one-line export): it starts at the event.
        Some(bytes) if !text.starts_line(location.offset) => {
            format!("… {}", display_bytes(&bytes, room - 4))
        }
        Some(bytes) => quote_line(&bytes, room),
        None => "(line not available)".to_string(),
    }
}

/// A whole line as quoted. A long line starts where its message does: at the
/// `"msg"` member of a canonical envelope, or at the first `{` of a log line
/// (after its timestamp and markers), so the JSON-RPC message fills the width.
fn quote_line(bytes: &[u8], room: usize) -> String {
    if bytes.len() > room - 2 {
        // Only the line's head is searched: the envelope's members and a log
        // line's prefix are short, and a line is quoted once per finding on it.
        let head = &bytes[..bytes.len().min(HEAD_BYTES)];
        let start = memchr::memmem::find(head, b"\"msg\":").or_else(|| memchr::memchr(b'{', head));
        if let Some(at) = start.filter(|at| *at > 0) {
            return format!("… {}", display_bytes(&bytes[at..], room - 4));
        }
    }
    display_bytes(bytes, room - 2)
}

/// Where a quoted line's label points: its first character after a cut
/// (`… `), so the label starts at the left and has the width to itself.
fn anchor(shown: &str) -> usize {
    if shown.starts_with("… ") {
        "… ".len()
    } else {
        0
    }
}

/// `text` broken into lines of at most `width` characters, at spaces (a
/// longer word keeps its own line).
fn wrapped(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut line_len = 0;
    for word in text.split(' ') {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += len;
    }
    out
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

/// The width of the gutter miette draws for these line numbers: the widest
/// number between two spaces, and a bar and a space.
fn gutter(lines: impl Iterator<Item = u64>) -> usize {
    let widest = lines.max().unwrap_or(1);
    widest.to_string().len() + 4
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

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.excerpt)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = self.diagnostic;
        let width = self.excerpt.label_width();
        let mut labels = vec![LabeledSpan::new_primary_with_span(
            Some(wrapped(&primary_label(d), width)),
            self.excerpt.span(d.location.line),
        )];
        labels.extend(
            d.related
                .iter()
                .filter(|r| r.location.line != d.location.line)
                .map(|r| {
                    LabeledSpan::new_with_span(
                        Some(wrapped(&r.message.render(&escape_controls), width)),
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
        .with_width(WIDTH)
        // A URL stays whole, to stay clickable.
        .with_break_words(false)
        .with_word_separator(textwrap::WordSeparator::AsciiSpace)
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation);
    let render = |d: &Diagnostic| {
        let source = &report.sources[d.location.source as usize];
        let locations = || std::iter::once(d.location).chain(d.related.iter().map(|r| r.location));
        let room = (WIDTH - gutter(locations().map(|l| l.line)) - 1).max(MIN_ROOM);
        let wanted: Vec<(u64, String)> = locations()
            .map(|loc| (loc.line, quote(source, loc, room)))
            .collect();
        let mut help = d.rule.help.to_string();
        if let Some(note) = &d.note {
            help = format!("{help}\nnote: {}", note.render(&escape_controls));
        }
        if !d.quote().is_empty() {
            help = format!("{help}\nspec: \"{}\"", d.quote());
        }
        if let Some(session) = &d.session {
            help = format!("{help}\nsession: {}", escape_controls(session));
        }
        if let Some(url) = &d.spec_url() {
            help = format!("{help}\nsee: {url}");
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
        text.push('\n');
        Ok(text.into_bytes())
    };
    report.render_each(render, |text| out.write_all(text))?;
    report.write_summary(out)
}
