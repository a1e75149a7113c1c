//! The command line: arguments -> inputs -> linter -> report -> exit code.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::decode::Format;
use crate::diagnostic::Severity;
use crate::engine::Engine;
use crate::input::{self, InputError, InputPath, SourceText};
use crate::lint::Linter;
use crate::report::{OutputFormat, Report, SourceInfo};
use crate::rules::{self, Rule};

/// Exit codes: no finding at or above --fail-on, findings, usage or unreadable input.
pub const EXIT_CLEAN: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_TROUBLE: u8 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Decide per input from its first lines.
    Auto,
    /// `{"ts":…,"from":"client","session":"s1","msg":{…}}` per line.
    Canonical,
    /// One JSON-RPC message per line, no envelope; directions are inferred.
    Bare,
    /// A HAR 1.2 capture of Streamable HTTP (browser devtools, Playwright, mitmproxy).
    Har,
    /// Claude Desktop's mcp.log or mcp-server-NAME.log.
    ClaudeLog,
    /// VS Code's "MCP: <server>" output channel (log level Debug or Trace).
    VscodeLog,
    /// An mcpsnoop session log (JSON lines, one observed frame each).
    Mcpsnoop,
    /// An MCP Inspector protocol-history export (History screen, Export JSON).
    Inspector,
    /// An MCP Inspector network export (Network screen, Export JSON).
    InspectorNetwork,
    /// Claude Code's mcp-logs-SERVER/*.jsonl, its debug log, or its VS Code channel.
    ClaudeCode,
    /// Cursor's "MCP Logs" output channel.
    CursorLog,
    /// supergateway's log (text, or --logFormat json).
    Supergateway,
    /// The Go SDK's LoggingTransport output (read: / write: lines).
    GoSdkLog,
    /// The Python SDK's logging output (SSE server at DEBUG, client parse failures).
    PythonSdkLog,
    /// MCPSpy's JSON lines (eBPF capture).
    Mcpspy,
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
#[command(name = "mcp-lint", version, about)]
pub struct Cli {
    /// Trace files, directories (walked for *.jsonl, *.ndjson, *.har, and *.log files that are
    /// Claude Desktop, Claude Code, Cursor, VS Code or supergateway MCP logs), or - for stdin.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,

    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
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

    /// List the rules and exit.
    #[arg(long)]
    pub list_rules: bool,
}

fn error(message: impl std::fmt::Display) {
    eprintln!("mcp-lint: error: {message}");
}

fn selected_rules(cli: &Cli) -> Result<Vec<&'static dyn Rule>, String> {
    for id in cli.select.iter().chain(&cli.ignore) {
        if rules::find(id).is_none() {
            return Err(format!(
                "unknown rule {:?} (see --list-rules)",
                crate::sanitize::escape_controls(id)
            ));
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

fn list_rules(out: &mut dyn Write) -> std::io::Result<()> {
    for rule in rules::ALL {
        let meta = rule.meta();
        writeln!(
            out,
            "{:<28} {:<8} {}",
            meta.id,
            meta.default_severity.as_str(),
            meta.summary
        )?;
    }
    Ok(())
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
    if cli.list_rules {
        return match list_rules(&mut stdout) {
            Ok(()) => EXIT_CLEAN,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_CLEAN,
            Err(_) => EXIT_TROUBLE,
        };
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
    let format = match cli.input_format {
        InputFormat::Auto => None,
        InputFormat::Canonical => Some(Format::Canonical),
        InputFormat::Bare => Some(Format::Bare),
        InputFormat::Har => Some(Format::Har),
        InputFormat::ClaudeLog => Some(Format::ClaudeLog),
        InputFormat::VscodeLog => Some(Format::VscodeLog),
        InputFormat::Mcpsnoop => Some(Format::Mcpsnoop),
        InputFormat::Inspector => Some(Format::Inspector),
        InputFormat::InspectorNetwork => Some(Format::InspectorNetwork),
        InputFormat::ClaudeCode => Some(Format::ClaudeCode),
        InputFormat::CursorLog => Some(Format::CursorLog),
        InputFormat::Supergateway => Some(Format::Supergateway),
        InputFormat::GoSdkLog => Some(Format::GoSdkLog),
        InputFormat::PythonSdkLog => Some(Format::PythonSdkLog),
        InputFormat::Mcpspy => Some(Format::Mcpspy),
    };

    let (inputs, walk_errors) = input::expand(&cli.paths);
    let mut trouble = !walk_errors.is_empty();
    for InputError { name, message } in &walk_errors {
        error(format!("{name}: {message}"));
    }
    let mut linter = Linter::new(Engine::new(rules), format);
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
