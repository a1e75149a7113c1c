//! `mcp-lint PATH...`: inputs and their configuration -> lint -> severity
//! overrides and per-file ignores -> report -> exit code.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::baseline::Baseline;
use crate::cli::{self, Cli, RuleArgs, EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE};
use crate::config::{Config, ConfigError, Resolver};
use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::{Engine, Stats};
use crate::findings::Findings;
use crate::input::{self, InputError, InputPath, SourceText};
use crate::lint::Linter;
use crate::packed::PackedFindings;
use crate::progress::{self, Progress};
use crate::protocol::Version;
use crate::report::{Report, SourceInfo};
use crate::select::Selection;

/// A problem that stops the run (exit 2): a bad configuration or baseline,
/// or a report that cannot be written.
pub struct Usage(pub String);

/// The rules, severities, failure level and protocol version that apply to
/// the inputs of one configuration file.
pub(crate) struct Settings {
    selection: Selection,
    pub(crate) fail_on: Severity,
    version: Option<Version>,
    max_open_requests: Option<usize>,
    config: Option<Arc<Config>>,
}

impl Settings {
    /// The configuration's settings, with the command line's on top.
    fn new(args: &RuleArgs, fail_on: Option<cli::FailOn>, config: Option<Arc<Config>>) -> Settings {
        let configured = config.as_ref().map(|c| c.selection.clone());
        Settings {
            selection: configured.unwrap_or_default().overlay(&cli_selection(args)),
            fail_on: fail_on
                .map(|f| f.severity())
                .or(config.as_ref().and_then(|c| c.fail_on))
                .unwrap_or(Severity::Error),
            version: args
                .protocol_version
                .or(config.as_ref().and_then(|c| c.protocol_version)),
            max_open_requests: args.max_open_requests.map(|n| n as usize),
            config,
        }
    }

    /// The settings for one file linted on its own (followed or recorded):
    /// its configuration, found from its place, under the command line's.
    pub(crate) fn for_path(args: &RuleArgs, path: &Path) -> Result<Settings, Usage> {
        let mut resolver =
            Resolver::new(args.config.as_deref(), args.isolated).map_err(|e| Usage(e.0))?;
        let config = resolver.for_path(path).map_err(|e| Usage(e.0))?;
        Ok(Settings::new(args, None, config))
    }

    /// An engine with the selected rules, assuming the configured version.
    pub(crate) fn engine(&self) -> Engine {
        Engine::new(self.selection.rules())
            .assuming_version(self.version)
            .following_at_most(self.max_open_requests)
    }

    /// Applies the severity overrides to a finding of the input at `path`,
    /// and says whether its per-file ignores and policy keep it.
    pub(crate) fn keeps(&self, path: &Path, d: &mut Diagnostic) -> bool {
        self.selection.apply_severity(d);
        !self
            .config
            .as_ref()
            .is_some_and(|config| config.ignores(path, d) || !config.policy.reports(d))
    }
}

/// The inputs to lint, each with the settings (an index into `settings`) that apply to it.
struct Plan {
    inputs: Vec<InputPath>,
    names: Vec<String>,
    group: Vec<usize>,
    settings: Vec<Settings>,
    /// Paths that could not be walked.
    walk_errors: usize,
}

/// What linting every input produced.
struct Linted {
    texts: Vec<Option<SourceText>>,
    findings: Findings,
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
    let plan = plan(cli)?;
    let mut linted = lint_all(cli, &plan);
    linted.unreadable += plan.walk_errors;
    apply_settings(&plan, &mut linted.findings);
    let stale = apply_baseline(cli, &plan.names, &mut linted)?;
    report(cli, &linted, &plan.names)?;
    Ok(exit_code(cli, &plan, &linted).max(stale_code(cli, stale)))
}

/// Expands the paths, finds each input's configuration, and leaves out excluded files.
fn plan(cli: &Cli) -> Result<Plan, Usage> {
    let config_error = |e: ConfigError| Usage(e.0);
    let mut resolver =
        Resolver::new(cli.rules.config.as_deref(), cli.rules.isolated).map_err(config_error)?;
    let (inputs, walk_errors) = input::expand(&cli.paths);
    for InputError { name, message } in &walk_errors {
        cli::error(format!("{name}: {message}"));
    }
    let mut plan = Plan {
        inputs: Vec::new(),
        names: Vec::new(),
        group: Vec::new(),
        settings: Vec::new(),
        walk_errors: walk_errors.len(),
    };
    for input in inputs {
        let path = config_path(cli, &input);
        let config = resolver.for_path(&path).map_err(config_error)?;
        if config.as_ref().is_some_and(|c| excluded(cli, c, &input)) {
            continue;
        }
        let same = |s: &Settings| match (&s.config, &config) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        let group = match plan.settings.iter().position(same) {
            Some(group) => group,
            None => {
                plan.settings
                    .push(Settings::new(&cli.rules, cli.fail_on, config));
                plan.settings.len() - 1
            }
        };
        plan.names.push(display_name(cli, &input));
        plan.inputs.push(input);
        plan.group.push(group);
    }
    Ok(plan)
}

/// The path an input's configuration is looked for from and its globs match.
fn config_path(cli: &Cli, input: &InputPath) -> PathBuf {
    match (input, &cli.stdin_filename) {
        (InputPath::File(path), _) => path.clone(),
        (InputPath::Stdin, Some(name)) => name.clone(),
        (InputPath::Stdin, None) => PathBuf::from("."),
    }
}

/// Whether `exclude` leaves out an input: a file found in a directory, or
/// any file with --force-exclude (pre-commit names every file it lints).
fn excluded(cli: &Cli, config: &Config, input: &InputPath) -> bool {
    let path = config_path(cli, input);
    // Standard input is always named on the command line.
    let named = *input == InputPath::Stdin || cli.paths.contains(&path);
    (cli.force_exclude || !named) && config.excludes(&path)
}

/// Severity overrides, per-file ignores and the policy, each input by its own settings.
fn apply_settings(plan: &Plan, findings: &mut Findings) {
    findings.retain(|mut d| {
        let source = d.location.source as usize;
        let path = match &plan.inputs[source] {
            InputPath::File(path) => path.as_path(),
            InputPath::Stdin => Path::new(&plan.names[source]),
        };
        plan.settings[plan.group[source]]
            .keeps(path, &mut d)
            .then_some(d.severity)
    });
}

/// Leaves out the findings the baseline accepts (after writing it, with
/// --update-baseline), warns of its stale entries, and returns how many there are.
fn apply_baseline(cli: &Cli, names: &[String], linted: &mut Linted) -> Result<usize, Usage> {
    let Some(path) = &cli.baseline else {
        return Ok(0);
    };
    let mut baseline = match (Baseline::load(path), cli.update_baseline) {
        (Ok(baseline), _) => baseline,
        (Err(_), true) if !path.exists() => Baseline::default(),
        (Err(message), _) => return Err(Usage(message)),
    };
    if cli.update_baseline {
        baseline = write_baseline(cli, path, &baseline, names, linted)?;
    }
    let stale = baseline.suppress(&mut linted.findings, names);
    for entry in &stale {
        warn_stale(entry);
    }
    Ok(stale.len())
}

/// Writes the baseline updated with this run's findings, and returns it.
fn write_baseline(
    cli: &Cli,
    path: &Path,
    baseline: &Baseline,
    names: &[String],
    linted: &Linted,
) -> Result<Baseline, Usage> {
    let shown = crate::sanitize::escape_controls(&path.to_string_lossy()).into_owned();
    // An unreadable input's entries would be dropped as if its bugs were fixed.
    if linted.unreadable > 0 {
        return Err(Usage(format!(
            "{shown}: not written, since an input could not be read"
        )));
    }
    let updated = baseline.updated(linted.findings.iter(), names);
    updated
        .save(path)
        .map_err(|e| Usage(format!("{shown}: {e}")))?;
    if !cli.quiet {
        eprintln!("mcp-lint: wrote {} findings to {shown}", updated.len());
    }
    Ok(updated)
}

/// Says which baseline entry matched nothing. Its text comes from a file, so
/// it is escaped like trace text.
fn warn_stale(entry: &crate::baseline::Entry) {
    let escape = crate::sanitize::escape_controls;
    let session = entry
        .session
        .as_deref()
        .map(|s| format!(" (session {})", escape(s)))
        .unwrap_or_default();
    eprintln!(
        "mcp-lint: stale baseline entry: {}{session}: {}: {} (×{}) no longer occurs; remove it with --update-baseline",
        escape(&entry.file),
        escape(&entry.rule),
        escape(&entry.message),
        entry.count
    );
}

/// Stale baseline entries fail the run like findings: a fixed bug must not
/// keep an entry that would hide its return.
fn stale_code(cli: &Cli, stale: usize) -> u8 {
    if stale > 0 && !cli.exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// The selection the command line asks for.
fn cli_selection(args: &RuleArgs) -> Selection {
    Selection {
        select: (!args.select.is_empty()).then(|| args.select.clone()),
        extend_select: args.extend_select.clone(),
        ignore: args.ignore.clone(),
        severity: args.severity.clone(),
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

/// Lints every input, several at once (rayon), each with its own engine and
/// its configuration's rules and protocol version; the engine keeps every
/// input's sessions apart, so this finds what one engine fed them in turn
/// would. Results, warnings and errors are gathered in input order.
fn lint_all(cli: &Cli, plan: &Plan) -> Linted {
    let progress = Arc::new(Mutex::new(Progress::new(
        progress::wanted(cli.quiet),
        plan.inputs.iter().map(input_size).sum(),
    )));
    let results: Vec<InputLinted> = (0..plan.inputs.len())
        .into_par_iter()
        .map(|index| lint_input(cli, plan, index, &progress))
        .collect();
    lock(&progress).finish();
    let mut linted = Linted {
        texts: Vec::with_capacity(results.len()),
        findings: Findings::default(),
        stats: Stats::default(),
        files: 0,
        unreadable: 0,
    };
    let mut packs = Vec::new();
    for (result, name) in results.into_iter().zip(&plan.names) {
        match result.read {
            Ok(()) => {
                linted.files += 1;
                if !cli.quiet && result.text.as_ref().is_none_or(SourceText::is_blank) {
                    eprintln!(
                        "mcp-lint: warning: {name}: the input is empty; there is nothing to lint"
                    );
                }
            }
            Err(e) => {
                cli::error(format!("{name}: {e}"));
                linted.unreadable += 1;
            }
        }
        linted.texts.push(result.text);
        packs.extend(result.packs);
        linted.stats.events += result.stats.events;
        linted.stats.sessions += result.stats.sessions;
    }
    linted.findings = Findings::new(packs);
    linted
}

/// What linting one input produced, or why it could not be read.
struct InputLinted {
    text: Option<SourceText>,
    /// Its findings, packed, in the order found.
    packs: Vec<PackedFindings>,
    stats: Stats,
    read: std::io::Result<()>,
}

/// Lints input number `index` with an engine of its own.
fn lint_input(
    cli: &Cli,
    plan: &Plan,
    index: usize,
    progress: &Arc<Mutex<Progress>>,
) -> InputLinted {
    let settings = &plan.settings[plan.group[index]];
    let mut linter = Linter::new(settings.engine(), cli.input_format.0);
    let shared = Arc::clone(progress);
    linter.on_progress = Some(Box::new(move |engine: &Engine, bytes| {
        lock(&shared).update(index, bytes, engine.stats(), engine.findings());
    }));
    let (text, read) = lint_one(&mut linter, index as u32, &plan.inputs[index]);
    let (packs, stats) = linter.engine.finish_packed();
    let size = input_size(&plan.inputs[index]);
    let found = packs.iter().map(PackedFindings::len).sum();
    lock(progress).input_done(index, size, stats, found);
    InputLinted {
        text,
        packs,
        stats,
        read,
    }
}

/// The progress line; one that a panicking input left locked is still drawn.
fn lock(progress: &Mutex<Progress>) -> std::sync::MutexGuard<'_, Progress> {
    progress
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The size of a file input, for the progress bar (0 for stdin).
fn input_size(input: &InputPath) -> u64 {
    match input {
        InputPath::File(path) => std::fs::metadata(path).map_or(0, |m| m.len()),
        InputPath::Stdin => 0,
    }
}

/// Lints one input. A bug must not cost the other inputs their report: a
/// panic while linting one input is reported as an internal error, and the run goes on.
fn lint_one(
    linter: &mut Linter,
    source: u32,
    input: &InputPath,
) -> (Option<SourceText>, std::io::Result<()>) {
    let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match input {
        InputPath::File(path) => match input::OpenedFile::open(path) {
            Ok(opened) => {
                let (text, result) = linter.lint_file(source, opened);
                (Some(text), result.map(drop))
            }
            Err(e) => (None, Err(e)),
        },
        InputPath::Stdin => match lint_stdin(linter, source) {
            Ok(text) => (Some(text), Ok(())),
            Err(e) => (None, Err(e)),
        },
    }));
    linted.unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let error = std::io::Error::other(format!(
            "internal error while linting (please report it): {}",
            crate::sanitize::escape_controls(&why)
        ));
        (None, Err(error))
    })
}

/// Reads stdin through the linter, spooling it to a temporary file so the
/// report can quote its lines afterwards.
fn lint_stdin(linter: &mut Linter, source: u32) -> std::io::Result<SourceText> {
    let mut spool = tempfile::tempfile()?;
    {
        let mut writer = std::io::BufWriter::new(&mut spool);
        linter.lint_reader(source, std::io::stdin(), Some(&mut writer))?;
        writer.flush()?;
    }
    Ok(SourceText::File(spool))
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
        findings: &linted.findings,
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

fn exit_code(cli: &Cli, plan: &Plan, linted: &Linted) -> u8 {
    let fails = |(source, severity): (u32, Severity)| {
        severity >= plan.settings[plan.group[source as usize]].fail_on
    };
    if linted.unreadable > 0 {
        EXIT_TROUBLE
    } else if !cli.exit_zero && linted.findings.severities().any(fails) {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}
