//! Report: findings (in report order) -> text for people or machines.
//! Each format is one small renderer over the same data.

mod concise;
mod github;
mod html;
mod human;
mod json;
mod junit;
mod sarif;
pub mod statistics;
mod timeline;

use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::Stats;
use crate::findings::Findings;
use crate::input::SourceText;

/// Anything a report can be written to.
pub trait Sink: std::io::Write {}
impl<W: std::io::Write> Sink for W {}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Reports with the quoted trace lines (miette).
    Human,
    /// One line per diagnostic: `path:line:1: severity[rule]: message`.
    Concise,
    /// One JSON document with every diagnostic and a summary.
    Json,
    /// JSON lines: one object per diagnostic, then one with the summary.
    JsonLines,
    /// GitHub Actions annotations (`::error file=…,line=…::…`).
    Github,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// JUnit XML: a testsuite per input, a testcase per session, a failure per finding.
    Junit,
    /// One self-contained HTML page: summary, per-session timelines, findings, filters.
    Html,
}

/// One finding as a concise line (`path:line:1: severity[rule]: message`), for
/// reports written as findings arrive, such as `mcp-lint record --lint`.
pub fn write_concise_line(
    d: &Diagnostic,
    name: &str,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    concise::write_line(d, name, out)
}

/// One input as the report names and quotes it.
pub struct SourceInfo<'a> {
    pub name: String,
    /// The input's bytes, when they are still available for quoting.
    pub text: Option<&'a SourceText>,
}

pub struct Report<'a> {
    /// Read one at a time: a format that needs them all at once collects them.
    pub findings: &'a Findings,
    pub sources: &'a [SourceInfo<'a>],
    pub stats: Stats,
    /// Inputs that were read (not counting unreadable ones).
    pub files: usize,
    /// Inputs that could not be read: the summary must not call the run clean.
    pub unreadable: usize,
    /// Leave out the summary line.
    pub quiet: bool,
}

impl Report<'_> {
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .severities()
            .filter(|&(_, found)| found == severity)
            .count()
    }

    pub fn summary_line(&self) -> String {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let scope = format!(
            "{} ({}, {})",
            plural(self.files, "file"),
            plural(self.stats.events as usize, "event"),
            plural(self.stats.sessions as usize, "session")
        );
        let unread = match self.unreadable {
            0 => String::new(),
            n => format!("; {} could not be read", plural(n, "input")),
        };
        if self.findings.is_empty() && self.unreadable == 0 {
            return format!("No problems found in {scope}.");
        }
        format!(
            "Found {}, {}, {} in {scope}{unread}.",
            plural(self.count(Severity::Error), "error"),
            plural(self.count(Severity::Warning), "warning"),
            plural(self.count(Severity::Info), "info")
        )
    }

    /// Renders each finding with `render`, in parallel a batch at a time,
    /// and hands the texts to `write` in the findings' order: rendering a
    /// large report takes every core, gives the same text on any number of
    /// threads, and holds one batch at a time (of findings, and of texts).
    pub(super) fn render_each(
        &self,
        render: impl Fn(&Diagnostic) -> std::io::Result<Vec<u8>> + Sync,
        mut write: impl FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        use rayon::prelude::*;
        const BATCH: usize = 4096;
        let mut findings = self.findings.iter();
        loop {
            let batch: Vec<Diagnostic> = findings.by_ref().take(BATCH).collect();
            if batch.is_empty() {
                return Ok(());
            }
            let texts: Vec<std::io::Result<Vec<u8>>> = batch.par_iter().map(&render).collect();
            for text in texts {
                write(&text?)?;
            }
        }
    }

    /// The summary line and a newline, unless the report is quiet.
    pub fn write_summary(&self, out: &mut dyn Sink) -> std::io::Result<()> {
        if self.quiet {
            return Ok(());
        }
        writeln!(out, "{}", self.summary_line())
    }

    pub fn write(
        &self,
        format: OutputFormat,
        color: bool,
        out: &mut dyn Sink,
    ) -> std::io::Result<()> {
        match format {
            OutputFormat::Human => human::write(self, color, out),
            OutputFormat::Concise => concise::write(self, out),
            OutputFormat::Json => json::write(self, out),
            OutputFormat::JsonLines => json::write_lines(self, out),
            OutputFormat::Github => github::write(self, out),
            OutputFormat::Sarif => sarif::write(self, out),
            OutputFormat::Junit => junit::write(self, out),
            OutputFormat::Html => html::write(self, out),
        }
    }
}
