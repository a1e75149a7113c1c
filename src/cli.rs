//! The command line: arguments -> inputs -> linter -> report -> exit code.

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::decode::Format;
use crate::diagnostic::Severity;
use crate::explain;
use crate::protocol::Version;
use crate::report::OutputFormat;
use crate::select::{self, Selector};

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

    #[command(flatten)]
    pub rules: RuleArgs,

    /// Exit with 1 when a finding of this severity or worse is reported
    /// [default: error, or the configuration's fail-on].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,

    /// Tail this growing trace or client log, printing findings (concise)
    /// as lines arrive, across truncation and rotation, until interrupted.
    #[arg(long, value_name = "FILE", conflicts_with = "paths")]
    pub follow: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,

    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat(None))]
    pub input_format: InputFormat,

    /// Exit with 0 even when findings are reported (unreadable input still exits 2).
    #[arg(long)]
    pub exit_zero: bool,

    /// Print the findings only: no summary line, no warnings about empty inputs.
    #[arg(short, long)]
    pub quiet: bool,

    /// Print how many findings each rule reported, most first, instead of the findings.
    #[arg(long)]
    pub statistics: bool,

    /// Write the report to FILE instead of stdout.
    #[arg(short = 'o', long = "output-file", value_name = "FILE")]
    pub output_file: Option<PathBuf>,

    /// When to color human output (auto honours NO_COLOR and FORCE_COLOR).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// The name reports, configuration discovery and per-file-ignores give stdin (-).
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,

    /// Decoding threads, 1 to 1024 (default: one per core, or RAYON_NUM_THREADS).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,

    /// Apply the configuration's exclude to files named on the command line
    /// too, not only to files found in directories (for pre-commit).
    #[arg(long)]
    pub force_exclude: bool,

    /// Report only findings this baseline file does not list, and list the
    /// entries that no longer match anything as stale (exit 1).
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Write every finding of this run to the --baseline file (keeping the
    /// entries of files not linted), and exit 0 unless an input is unreadable.
    #[arg(long, requires = "baseline")]
    pub update_baseline: bool,

    /// List the rules and exit (the same as `mcp-lint rule --all`).
    #[arg(long)]
    pub list_rules: bool,
}

/// Which rules run, at which severities, with which configuration: the
/// same for linting files, following one, and recording a session.
#[derive(Debug, Default, clap::Args)]
pub struct RuleArgs {
    /// Run only these rules: comma-separated rule ids, families (cancel,
    /// progress, ...) or all. Replaces the configuration's select.
    #[arg(long, value_delimiter = ',', value_name = "RULE", value_parser = Selector::parse)]
    pub select: Vec<Selector>,

    /// Also run these rules (ids or families), on top of the selected ones.
    #[arg(long, value_delimiter = ',', value_name = "RULE", value_parser = Selector::parse)]
    pub extend_select: Vec<Selector>,

    /// Do not run these rules (ids or families). A rule id beats its family.
    #[arg(long, value_delimiter = ',', value_name = "RULE", value_parser = Selector::parse)]
    pub ignore: Vec<Selector>,

    /// Report a rule or family at another severity (error, warning or info);
    /// repeatable, such as --severity ping=info.
    #[arg(long, value_name = "RULE=LEVEL", value_parser = select::parse_override)]
    pub severity: Vec<(Selector, Severity)>,

    /// Use this configuration file for every input instead of looking for
    /// mcp-lint.toml, .mcp-lint.toml or pyproject.toml next to each one.
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,

    /// Read no configuration file.
    #[arg(long)]
    pub isolated: bool,

    /// The protocol version of traces that start after the handshake
    /// (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25 or 2026-07-28); an
    /// initialize result in the trace overrides it.
    #[arg(long, value_name = "VERSION", value_parser = crate::config::parse_version)]
    pub protocol_version: Option<Version>,

    /// The most requests of one side of a session followed while running,
    /// and again while cancelled but unanswered (default 100000, about 25
    /// MB each): past it, one open-requests-limit finding, and memory stays
    /// bounded.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_open_requests: Option<u64>,
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
    /// Print a shell completion script (for example
    /// `mcp-lint completions bash > /etc/bash_completion.d/mcp-lint`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), for `man -l -` or a man directory.
    Manpage,
    /// Run a stdio server and relay between it and the client that started
    /// mcp-lint, recording every line to a canonical trace (name mcp-lint as
    /// the server in the client's configuration, the server after --).
    Record(crate::record::Options),
    /// Tell the story of one request: the request, its progress,
    /// cancellation and response, with their times, and the findings about it.
    Explain(crate::explain_request::Options),
    /// Write a copy of a trace safe to share, in the same format (any format
    /// mcp-lint reads): free text becomes placeholders of the same JSON type;
    /// what the rules read is kept.
    Redact(crate::redact::Options),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    /// `{"rules":[{"id","family","severity","versions","summary","url"}]}`
    Json,
}

/// `mcp-lint rule`: prints a page, or the list.
fn run_rule_command(id: Option<&str>, format: ListFormat, out: &mut dyn Write) -> u8 {
    let result = match (id, format) {
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
    written(result)
}

/// The exit code after printing: a reader that stopped early is no error.
fn written(result: std::io::Result<()>) -> u8 {
    match result {
        Ok(()) => EXIT_CLEAN,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_CLEAN,
        Err(_) => EXIT_TROUBLE,
    }
}

fn write_manpage(out: &mut dyn Write) -> std::io::Result<()> {
    clap_mangen::Man::new(<Cli as clap::CommandFactory>::command()).render(out)
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

pub fn error(message: impl std::fmt::Display) {
    eprintln!("mcp-lint: error: {message}");
}

/// Whether human output is colored: --color, then NO_COLOR, then FORCE_COLOR,
/// then whether the report goes to a terminal.
pub fn use_color(choice: ColorChoice, to_terminal: bool) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("NO_COLOR") => false,
        ColorChoice::Auto if set("FORCE_COLOR") => true,
        ColorChoice::Auto => to_terminal && std::env::var("TERM").map_or(true, |t| t != "dumb"),
    }
}

impl FailOn {
    pub fn severity(self) -> Severity {
        match self {
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
            FailOn::Info => Severity::Info,
        }
    }
}

/// Runs mcp-lint as the command line asks and returns the exit code.
pub fn run(cli: Cli) -> u8 {
    let mut stdout = std::io::stdout().lock();
    match &cli.command {
        Some(Command::Rule { id, format, .. }) => {
            return run_rule_command(id.as_deref(), *format, &mut stdout)
        }
        Some(Command::Completions { shell }) => {
            // Generated into memory: clap_complete panics when its writer fails.
            let mut script = Vec::new();
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(*shell, &mut command, "mcp-lint", &mut script);
            return written(stdout.write_all(&script));
        }
        Some(Command::Manpage) => return written(write_manpage(&mut stdout)),
        Some(Command::Redact(options)) => return crate::redact::run(options),
        Some(Command::Explain(options)) => {
            drop(stdout);
            return crate::explain_request::run(options);
        }
        Some(Command::Record(options)) => {
            drop(stdout);
            return crate::record::run(options);
        }
        None => {}
    }
    if cli.list_rules {
        return run_rule_command(None, ListFormat::Text, &mut stdout);
    }
    drop(stdout);
    if let Some(path) = &cli.follow {
        return crate::follow::run(&cli, path);
    }
    crate::check::run(&cli)
}
