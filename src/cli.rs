//! The command line: arguments -> inputs -> linter -> report -> exit code.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::decode::Format;
use crate::diagnostic::Severity;
use crate::engine::Engine;
use crate::explain;
use crate::input::{self, InputError, InputPath, SourceText};
use crate::lint::Linter;
use crate::protocol::Version;
use crate::report::{OutputFormat, Report, SourceInfo};
use crate::rule::Rule;
use crate::rules;

/// Exit codes: no finding at or above --fail-on, findings, usage or unreadable input.
pub const EXIT_CLEAN: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_TROUBLE: u8 = 2;

/// `--input-format`: `auto` (`None`, detected per input) or a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputFormat(pub Option<Format>);

/// Every value of `--input-format`, from the decoder's own list.
static INPUT_FORMATS: std::sync::LazyLock<Vec<InputFormat>> = std::sync::LazyLock::new(|| {
    std::iter::once(None)
        .chain(Format::SELECTABLE.iter().copied().map(Some))
        .map(InputFormat)
        .collect()
});

impl ValueEnum for InputFormat {
    fn value_variants<'a>() -> &'a [Self] {
        &INPUT_FORMATS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let (name, help) = match self.0 {
            None => ("auto", "Decide per input from its first lines"),
            Some(format) => (format.name(), format.description()),
        };
        Some(clap::builder::PossibleValue::new(name).help(help))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Lint recorded Model Context Protocol sessions for protocol violations.
#[derive(Debug, Parser)]
#[command(
    name = "mcp-lint",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Trace files, directories (walked for *.jsonl, *.ndjson, *.har, and *.log files that are
    /// Claude Desktop, Claude Code, Cursor, VS Code or supergateway MCP logs), or - for stdin.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,

    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat(None))]
    pub input_format: InputFormat,

    /// Exit with 1 when a finding of this severity or worse is reported.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,

    /// Run only these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub select: Vec<String>,

    /// Do not run these rules (comma-separated ids).
    #[arg(long, value_delimiter = ',', value_name = "RULE")]
    pub ignore: Vec<String>,

    /// When to color human output (NO_COLOR is respected with auto).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Decoding threads (default: one per core, or RAYON_NUM_THREADS).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// List the rules and exit (the same as `mcp-lint rule --all`).
    #[arg(long)]
    pub list_rules: bool,

    /// The protocol version of traces that start after the handshake
    /// (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 or 2026-07-28); an
    /// initialize result in the trace overrides it.
    #[arg(long, value_name = "VERSION", value_parser = parse_version)]
    pub protocol_version: Option<Version>,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Print a rule's page (what it finds, why, a bad and a good example), or
    /// list every rule with --all.
    Rule {
        /// A rule id, such as cancel-unknown-request.
        #[arg(required_unless_present = "all")]
        id: Option<String>,
        /// List every rule: id, family, default severity, versions, summary.
        #[arg(long, conflicts_with = "id")]
        all: bool,
        /// How to print the list.
        #[arg(long, value_enum, default_value_t = ListFormat::Text)]
        format: ListFormat,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    /// `{"rules":[{"id","family","severity","versions","summary","url"}]}`
    Json,
}

/// `mcp-lint rule`: prints a page, or the list.
fn run_rule_command(id: Option<&str>, format: ListFormat, out: &mut dyn Write) -> u8 {
    let written = match (id, format) {
        (None, ListFormat::Text) => explain::write_list(out),
        (None, ListFormat::Json) => explain::write_json(out),
        (Some(id), _) => match explain::page(id) {
            Some(page) => out.write_all(page.as_bytes()),
            None => {
                error(unknown_rule(id));
                return EXIT_TROUBLE;
            }
        },
    };
    match written {
        Ok(()) => EXIT_CLEAN,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_CLEAN,
        Err(_) => EXIT_TROUBLE,
    }
}

/// Says a rule id does not exist, and which one the user may have meant.
fn unknown_rule(id: &str) -> String {
    let id = crate::sanitize::escape_controls(id);
    match explain::nearest_id(&id) {
        Some(near) => format!(
            "unknown rule {id:?}: did you mean {near:?}? (mcp-lint rule --all lists every rule)"
        ),
        None => format!("unknown rule {id:?} (mcp-lint rule --all lists every rule)"),
    }
}

fn parse_version(text: &str) -> Result<Version, String> {
    Version::parse(text).ok_or_else(|| {
        let known: Vec<&str> = Version::ALL.iter().map(|v| v.as_str()).collect();
        format!("not a protocol version (known: {})", known.join(", "))
    })
}

fn error(message: impl std::fmt::Display) {
    eprintln!("mcp-lint: error: {message}");
}

fn selected_rules(cli: &Cli) -> Result<Vec<&'static Rule>, String> {
    for id in cli.select.iter().chain(&cli.ignore) {
        if rules::find(id).is_none() {
            return Err(unknown_rule(id));
        }
    }
    Ok(rules::ALL
        .iter()
        .copied()
        .filter(|r| cli.select.is_empty() || cli.select.iter().any(|id| id == r.meta().id))
        .filter(|r| !cli.ignore.iter().any(|id| id == r.meta().id))
        .collect())
}

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var("TERM").map_or(true, |t| t != "dumb")
        }
    }
}

/// Reads stdin through the linter, spooling it to a temporary file so the
/// report can quote its lines afterwards.
fn lint_stdin(linter: &mut Linter, source: u32) -> std::io::Result<Option<SourceText>> {
    let mut spool = tempfile::tempfile()?;
    {
        let mut writer = std::io::BufWriter::new(&mut spool);
        linter.lint_reader(source, std::io::stdin().lock(), Some(&mut writer))?;
        writer.flush()?;
    }
    if spool.metadata()?.len() == 0 {
        return Ok(None);
    }
    // SAFETY: the spool is an unnamed temporary file only this process can reach.
    let map = unsafe { memmap2::Mmap::map(&spool)? };
    Ok(Some(SourceText::Mapped(map)))
}

/// Runs mcp-lint as the command line asks and returns the exit code.
pub fn run(cli: Cli) -> u8 {
    let mut stdout = std::io::stdout().lock();
    if let Some(Command::Rule { id, format, .. }) = &cli.command {
        return run_rule_command(id.as_deref(), *format, &mut stdout);
    }
    if cli.list_rules {
        return run_rule_command(None, ListFormat::Text, &mut stdout);
    }
    if cli.paths.is_empty() {
        error("no input: name trace files or directories, or - for stdin (see --help)");
        return EXIT_TROUBLE;
    }
    if let Some(threads) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
        {
            error(format!("cannot set up {threads} threads: {e}"));
            return EXIT_TROUBLE;
        }
    }
    let rules = match selected_rules(&cli) {
        Ok(rules) => rules,
        Err(message) => {
            error(message);
            return EXIT_TROUBLE;
        }
    };
    let format = cli.input_format.0;

    let (inputs, walk_errors) = input::expand(&cli.paths);
    let mut trouble = !walk_errors.is_empty();
    for InputError { name, message } in &walk_errors {
        error(format!("{name}: {message}"));
    }
    let engine = Engine::new(rules).assuming_version(cli.protocol_version);
    let mut linter = Linter::new(engine, format);
    let mut texts: Vec<Option<SourceText>> = Vec::with_capacity(inputs.len());
    let mut files = 0;
    for (index, input) in inputs.iter().enumerate() {
        let source = index as u32;
        let name = input.display_name();
        // A bug must not cost the other inputs their report: a panic while
        // linting one input is reported as an internal error, and the run goes on.
        let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match input {
            InputPath::File(path) => SourceText::open(path).map(|text| {
                match &text {
                    SourceText::Mapped(map) => linter.lint_mapped(source, map),
                    SourceText::Owned(bytes) => linter.lint_bytes(source, bytes),
                };
                Some(text)
            }),
            InputPath::Stdin => lint_stdin(&mut linter, source),
        }));
        let text = linted.unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(std::io::Error::other(format!(
                "internal error while linting (please report it): {}",
                crate::sanitize::escape_controls(&why)
            )))
        });
        match text {
            Ok(text) => {
                files += 1;
                if text
                    .as_ref()
                    .is_none_or(|t| t.bytes().iter().all(u8::is_ascii_whitespace))
                {
                    eprintln!(
                        "mcp-lint: warning: {name}: the input is empty; there is nothing to lint"
                    );
                }
                texts.push(text);
            }
            Err(e) => {
                error(format!("{name}: {e}"));
                trouble = true;
                texts.push(None);
            }
        }
    }

    let (diagnostics, stats) = linter.engine.finish();
    let sources: Vec<SourceInfo> = inputs
        .iter()
        .zip(&texts)
        .map(|(input, text)| SourceInfo {
            name: input.display_name(),
            text: text.as_ref(),
        })
        .collect();
    let report = Report {
        diagnostics: &diagnostics,
        sources: &sources,
        stats,
        files,
    };
    let mut out = std::io::BufWriter::new(&mut stdout);
    let written = report
        .write(cli.format, use_color(cli.color), &mut out)
        .and_then(|()| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return EXIT_CLEAN,
        Err(e) => {
            error(format!("cannot write the report: {e}"));
            return EXIT_TROUBLE;
        }
    }

    let threshold = match cli.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
    };
    if trouble {
        EXIT_TROUBLE
    } else if diagnostics.iter().any(|d| d.severity >= threshold) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}
