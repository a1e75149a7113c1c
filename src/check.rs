//! `mcp-lint PATH...`: inputs -> lint -> severity overrides -> report -> exit code.

use std::io::Write;
use std::path::PathBuf;

use crate::cli::{self, Cli, EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE};
use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::{Engine, Stats};
use crate::input::{self, InputError, InputPath, SourceText};
use crate::lint::Linter;
use crate::report::{Report, SourceInfo};
use crate::select::Selection;

/// A problem that stops the run before any input is linted (exit 2).
pub struct Usage(pub String);

/// The rules, severities and failure level that apply to an input.
struct Settings {
    selection: Selection,
    fail_on: Severity,
}

/// What linting every input produced.
struct Linted {
    texts: Vec<Option<SourceText>>,
    diagnostics: Vec<Diagnostic>,
    stats: Stats,
    /// Inputs read, and inputs that could not be read.
    files: usize,
    unreadable: usize,
}

/// Runs the check and returns the exit code.
pub fn run(cli: &Cli) -> u8 {
    match check(cli) {
        Ok(code) => code,
        Err(Usage(message)) => {
            cli::error(message);
            EXIT_TROUBLE
        }
    }
}

fn check(cli: &Cli) -> Result<u8, Usage> {
    if cli.paths.is_empty() {
        return Err(Usage(
            "no input: name trace files or directories, or - for stdin (see --help)".into(),
        ));
    }
    set_up_threads(cli.threads)?;
    let (inputs, walk_errors) = input::expand(&cli.paths);
    for InputError { name, message } in &walk_errors {
        cli::error(format!("{name}: {message}"));
    }
    let settings = Settings {
        selection: cli_selection(cli),
        fail_on: cli.fail_on.map_or(Severity::Error, |f| f.severity()),
    };
    let mut linted = lint_all(cli, &settings, &inputs);
    linted.unreadable += walk_errors.len();
    for diagnostic in &mut linted.diagnostics {
        settings.selection.apply_severity(diagnostic);
    }
    let names: Vec<String> = inputs.iter().map(|i| display_name(cli, i)).collect();
    report(cli, &linted, &names)?;
    Ok(exit_code(cli, &linted, settings.fail_on))
}

/// The selection the command line asks for.
fn cli_selection(cli: &Cli) -> Selection {
    Selection {
        select: (!cli.select.is_empty()).then(|| cli.select.clone()),
        extend_select: cli.extend_select.clone(),
        ignore: cli.ignore.clone(),
        severity: cli.severity.clone(),
    }
}

fn set_up_threads(threads: Option<u16>) -> Result<(), Usage> {
    let Some(threads) = threads else {
        return Ok(());
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.into())
        .build_global()
        .map_err(|e| Usage(format!("cannot set up {threads} threads: {e}")))
}

/// The name an input is reported under.
fn display_name(cli: &Cli, input: &InputPath) -> String {
    match (input, &cli.stdin_filename) {
        (InputPath::Stdin, Some(name)) => InputPath::File(name.clone()).display_name(),
        _ => input.display_name(),
    }
}

fn lint_all(cli: &Cli, settings: &Settings, inputs: &[InputPath]) -> Linted {
    let engine = Engine::new(settings.selection.rules()).assuming_version(cli.protocol_version);
    let mut linter = Linter::new(engine, cli.input_format.0);
    let mut linted = Linted {
        texts: Vec::with_capacity(inputs.len()),
        diagnostics: Vec::new(),
        stats: Stats::default(),
        files: 0,
        unreadable: 0,
    };
    for (index, input) in inputs.iter().enumerate() {
        let name = display_name(cli, input);
        match lint_one(&mut linter, index as u32, input) {
            Ok(text) => {
                linted.files += 1;
                if !cli.quiet && text.as_ref().is_none_or(is_blank) {
                    eprintln!(
                        "mcp-lint: warning: {name}: the input is empty; there is nothing to lint"
                    );
                }
                linted.texts.push(text);
            }
            Err(e) => {
                cli::error(format!("{name}: {e}"));
                linted.unreadable += 1;
                linted.texts.push(None);
            }
        }
    }
    (linted.diagnostics, linted.stats) = linter.engine.finish();
    linted
}

fn is_blank(text: &SourceText) -> bool {
    text.bytes().iter().all(u8::is_ascii_whitespace)
}

/// Lints one input. A bug must not cost the other inputs their report: a
/// panic while linting one input is reported as an internal error, and the run goes on.
fn lint_one(
    linter: &mut Linter,
    source: u32,
    input: &InputPath,
) -> std::io::Result<Option<SourceText>> {
    let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match input {
        InputPath::File(path) => SourceText::open(path).map(|text| {
            match &text {
                SourceText::Mapped(map) => linter.lint_mapped(source, map),
                SourceText::Owned(bytes) => linter.lint_bytes(source, bytes),
            };
            Some(text)
        }),
        InputPath::Stdin => lint_stdin(linter, source),
    }));
    linted.unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(std::io::Error::other(format!(
            "internal error while linting (please report it): {}",
            crate::sanitize::escape_controls(&why)
        )))
    })
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

/// Writes the report to stdout or --output-file. A reader that stops early
/// (`| head`) is no error: the exit code still tells the findings.
fn report(cli: &Cli, linted: &Linted, names: &[String]) -> Result<(), Usage> {
    let sources: Vec<SourceInfo> = names
        .iter()
        .zip(&linted.texts)
        .map(|(name, text)| SourceInfo {
            name: name.clone(),
            text: text.as_ref(),
        })
        .collect();
    let report = Report {
        diagnostics: &linted.diagnostics,
        sources: &sources,
        stats: linted.stats,
        files: linted.files,
        unreadable: linted.unreadable,
        quiet: cli.quiet,
    };
    let written = match &cli.output_file {
        Some(path) => write_file(cli, &report, path),
        None => {
            use std::io::IsTerminal;
            let stdout = std::io::stdout();
            let color = cli::use_color(cli.color, stdout.is_terminal());
            write_to(cli, &report, color, &mut stdout.lock())
        }
    };
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Usage(format!("cannot write the report: {e}")))
        }
        _ => Ok(()),
    }
}

fn write_file(cli: &Cli, report: &Report, path: &PathBuf) -> std::io::Result<()> {
    let color = cli::use_color(cli.color, false);
    let mut file = std::fs::File::create(path)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.to_string_lossy())))?;
    write_to(cli, report, color, &mut file)
}

fn write_to(cli: &Cli, report: &Report, color: bool, out: &mut dyn Write) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(out);
    if cli.statistics {
        crate::report::statistics::write(report, &mut out)?;
    } else {
        report.write(cli.format, color, &mut out)?;
    }
    out.flush()
}

fn exit_code(cli: &Cli, linted: &Linted, fail_on: Severity) -> u8 {
    if linted.unreadable > 0 {
        EXIT_TROUBLE
    } else if !cli.exit_zero && linted.diagnostics.iter().any(|d| d.severity >= fail_on) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}
