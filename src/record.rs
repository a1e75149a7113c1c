//! `mcp-lint record -- SERVER...`: a stdio relay between the client that
//! started mcp-lint and a server it spawns. Each line is written to a
//! canonical trace (and flushed) before it is forwarded, so a crash loses
//! nothing; with `--lint`, a separate thread lints the recorded lines through
//! the streaming engine, so findings never hold up the relay.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde_json::value::RawValue;

use crate::check::Settings;
use crate::cli::{self, EXIT_TROUBLE};
use crate::decode::{decode_line, timestamp, Format};
use crate::diagnostic::Diagnostic;
use crate::protocol::Side;
use crate::report::{self, Report, SourceInfo};

/// What `mcp-lint record` was asked to do.
#[derive(Debug, clap::Args)]
pub struct Options {
    /// The trace to write.
    #[arg(
        short = 'o',
        long = "output-file",
        value_name = "FILE",
        default_value = "trace.jsonl"
    )]
    pub output: PathBuf,
    /// The session name to give every record.
    #[arg(long, value_name = "NAME")]
    pub session: Option<String>,
    /// Report findings on stderr as they happen, and a summary at the end.
    #[arg(long)]
    pub lint: bool,
    /// With --lint, write the findings to FILE instead of stderr.
    #[arg(long, value_name = "FILE", requires = "lint")]
    pub lint_output: Option<PathBuf>,
    /// The rules --lint runs, as for linting a file (the configuration is
    /// found from the trace's place).
    #[command(flatten)]
    pub rules: crate::cli::RuleArgs,
    /// The server command and its arguments.
    #[arg(last = true, required = true, value_name = "SERVER")]
    pub command: Vec<OsString>,
}

/// The trace being written, shared by the two relay threads. A line is
/// recorded whole under the lock, so the two directions never interleave.
struct Trace {
    out: Box<dyn Write + Send>,
    /// `"session":…,` ready to splice into every record, or empty.
    session: String,
    /// The recorded lines go here to be linted, while linting is on.
    lint: Option<Sender<Vec<u8>>>,
}

type SharedTrace = Arc<Mutex<Trace>>;

impl Trace {
    /// Writes one record (`body` is its members after `ts`, `from` and
    /// `session`) and flushes it. A trace that cannot be written is
    /// reported once; the relay goes on, since the session matters more.
    fn write(&mut self, from: Side, body: &str) {
        let ts = timestamp::format_rfc3339_ms(now_ms());
        let line = format!(
            "{{\"ts\":\"{ts}\",\"from\":\"{from}\",{}{body}}}\n",
            self.session
        );
        if let Err(e) = self
            .out
            .write_all(line.as_bytes())
            .and_then(|()| self.out.flush())
        {
            cli::error(format!("cannot write the trace: {e}"));
            self.out = Box::new(std::io::sink());
        }
        if let Some(lint) = &self.lint {
            // The linter has stopped only if it failed; the relay goes on.
            let _ = lint.send(line.into_bytes());
        }
    }

    /// Records a relayed line: a message, or output that is not one.
    fn line(&mut self, from: Side, line: &[u8]) {
        if let Some(body) = line_body(line) {
            self.write(from, &body);
        }
    }

    /// Records a line the server wrote to its stderr.
    fn stderr(&mut self, line: &[u8]) {
        if let Some(text) = line_text(line) {
            let text = serde_json::Value::String(text.into_owned());
            self.write(
                Side::Server,
                &format!("\"event\":\"stderr\",\"text\":{text}"),
            );
        }
    }
}

fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// The record members of one relayed line: `"msg":` and the line as it was
/// sent when it is a JSON object or array, else a `not-protocol` event
/// holding its text. A blank line is no record (readers skip it).
fn line_body(line: &[u8]) -> Option<String> {
    let text = line_text(line)?;
    let trimmed = text.trim();
    let is_message = matches!(text, std::borrow::Cow::Borrowed(_))
        && (trimmed.starts_with('{') || trimmed.starts_with('['))
        && serde_json::from_str::<&RawValue>(trimmed).is_ok();
    Some(match is_message {
        true => format!("\"msg\":{trimmed}"),
        false => format!(
            "\"event\":\"not-protocol\",\"text\":{}",
            serde_json::Value::String(text.into_owned())
        ),
    })
}

/// A line without its line ending, `None` when it is blank.
fn line_text(line: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = String::from_utf8_lossy(line);
    (!text.trim().is_empty()).then_some(text)
}

/// The members of the `closed` record of a server that exited: its status,
/// or the signal that ended it.
fn exit_body(status: ExitStatus) -> String {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return format!("\"event\":\"closed\",\"signal\":{signal}");
    }
    match status.code() {
        Some(code) => format!("\"event\":\"closed\",\"status\":{code}"),
        None => "\"event\":\"closed\"".into(),
    }
}

/// mcp-lint's exit code for the server's status, the way shells report it.
fn exit_code(status: ExitStatus) -> u8 {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return (128 + signal).clamp(0, 255) as u8;
    }
    status
        .code()
        .map_or(EXIT_TROUBLE, |c| c.clamp(0, 255) as u8)
}

/// Runs the relay and returns the server's exit status as mcp-lint's.
pub fn run(options: &Options) -> u8 {
    match record(options) {
        Ok(code) => code,
        Err(message) => {
            cli::error(message);
            EXIT_TROUBLE
        }
    }
}

fn record(options: &Options) -> Result<u8, String> {
    let out = std::fs::File::create(&options.output)
        .map_err(|e| format!("{}: {e}", options.output.to_string_lossy()))?;
    let (lint, linter) = match options.lint {
        true => {
            let sink = lint_sink(options)?;
            let settings = Settings::for_path(&options.rules, &options.output).map_err(|e| e.0)?;
            let (sender, receiver) = mpsc::channel();
            let path = options.output.clone();
            let handle = std::thread::spawn(move || lint_live(receiver, &path, &settings, sink));
            (Some(sender), Some(handle))
        }
        false => (None, None),
    };
    let session = match &options.session {
        Some(name) => format!("\"session\":{},", serde_json::Value::String(name.clone())),
        None => String::new(),
    };
    let trace = Arc::new(Mutex::new(Trace {
        out: Box::new(out),
        session,
        lint,
    }));
    let mut child = spawn(&options.command)?;
    forward_signals(&child);
    let status = relay(&mut child, &trace)?;
    let mut trace = lock(&trace);
    trace.write(Side::Server, &exit_body(status));
    // Closing the channel lets the linter finish; a client line recorded
    // after this is still written, no longer linted.
    trace.lint = None;
    drop(trace);
    if let Some(handle) = linter {
        let _ = handle.join();
    }
    Ok(exit_code(status))
}

/// The server's process id, for the signal handler to forward to.
#[cfg(unix)]
static SERVER_PID: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

#[cfg(unix)]
extern "C" fn forward(signal: libc::c_int) {
    let pid = SERVER_PID.load(std::sync::atomic::Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: kill(2) is async-signal-safe; the pid is our own child's.
        unsafe { libc::kill(pid, signal) };
    }
}

/// SIGINT and SIGTERM go to the server instead of ending mcp-lint: the
/// server decides how to stop, and the relay then records its exit like any
/// other, so the trace ends with the `closed` events.
#[cfg(unix)]
fn forward_signals(child: &Child) {
    let Ok(pid) = i32::try_from(child.id()) else {
        return;
    };
    SERVER_PID.store(pid, std::sync::atomic::Ordering::SeqCst);
    let handler = forward as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only reads an atomic and calls kill(2).
        unsafe { libc::signal(signal, handler) };
    }
}

#[cfg(not(unix))]
fn forward_signals(_: &Child) {}

fn lock(trace: &SharedTrace) -> std::sync::MutexGuard<'_, Trace> {
    // A relay thread that panicked left whole records behind: go on.
    trace
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn spawn(command: &[OsString]) -> Result<Child, String> {
    let (program, args) = command
        .split_first()
        .ok_or("record: name the server command after --")?;
    Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        // The server's stderr is its log, not protocol: recorded as such and
        // passed through.
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", program.to_string_lossy()))
}

/// Relays both directions until the server's stdout ends, then waits for it.
/// The client side is not waited for: a client may keep its end open after
/// the server has gone.
fn relay(child: &mut Child, trace: &SharedTrace) -> Result<ExitStatus, String> {
    let (Some(to_server), Some(from_server), Some(log)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err("the server's pipes could not be set up".into());
    };
    let client_trace = Arc::clone(trace);
    std::thread::spawn(move || relay_client(to_server, &client_trace));
    let log_trace = Arc::clone(trace);
    let (log_done, log_ended) = mpsc::channel::<()>();
    std::thread::spawn(move || {
        relay_stderr(log, &log_trace);
        let _ = log_done.send(());
    });
    let server_trace = Arc::clone(trace);
    let server: JoinHandle<()> = std::thread::spawn(move || {
        let stdout = std::io::stdout();
        pump(from_server, stdout.lock(), Side::Server, &server_trace);
    });
    let _ = server.join();
    let status = child
        .wait()
        .map_err(|e| format!("cannot wait for the server: {e}"))?;
    // Its last words come before its exit in the trace, unless a process it
    // left behind holds its stderr open.
    let _ = log_ended.recv_timeout(std::time::Duration::from_secs(1));
    Ok(status)
}

/// The server's stderr: each line recorded, then passed to mcp-lint's.
fn relay_stderr(from: impl Read, trace: &SharedTrace) {
    let mut reader = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        lock(trace).stderr(&line);
        let mut stderr = std::io::stderr().lock();
        let _ = stderr.write_all(&line).and_then(|()| stderr.flush());
    }
}

/// Client to server; when the client closes its end, so does the relay.
fn relay_client(to_server: ChildStdin, trace: &SharedTrace) {
    pump(std::io::stdin().lock(), to_server, Side::Client, trace);
    lock(trace).write(Side::Client, "\"event\":\"closed\"");
    // `to_server` was moved into `pump` and dropped: the server sees EOF.
}

/// Copies lines from `from` to `to`, recording each before forwarding it.
/// When the receiver has gone, the lines are still recorded.
fn pump(from: impl Read, mut to: impl Write, side: Side, trace: &SharedTrace) {
    let mut reader = BufReader::new(from);
    let mut line = Vec::new();
    let mut forwarding = true;
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        lock(trace).line(side, &line);
        if forwarding {
            forwarding = to.write_all(&line).and_then(|()| to.flush()).is_ok();
        }
    }
}

fn lint_sink(options: &Options) -> Result<Box<dyn Write + Send>, String> {
    match &options.lint_output {
        Some(path) => std::fs::File::create(path)
            .map(|f| Box::new(f) as Box<dyn Write + Send>)
            .map_err(|e| format!("{}: {e}", path.to_string_lossy())),
        None => Ok(Box::new(std::io::stderr())),
    }
}

/// Lints recorded lines as they arrive, printing each finding when it is
/// found, then the end-of-session findings and the summary.
fn lint_live(
    lines: Receiver<Vec<u8>>,
    path: &Path,
    settings: &Settings,
    mut out: Box<dyn Write + Send>,
) {
    let name = crate::sanitize::escape_controls(&path.to_string_lossy()).into_owned();
    let mut engine = settings.engine();
    let print = |new: Vec<Diagnostic>, found: &mut Vec<Diagnostic>, out: &mut dyn Write| {
        let kept = new
            .into_iter()
            .filter_map(|mut d| settings.keeps(path, &mut d).then_some(d));
        print_findings(kept, &name, found, out)
    };
    let mut found: Vec<Diagnostic> = Vec::new();
    let (mut number, mut offset, mut events) = (0u64, 0u64, Vec::new());
    for line in lines {
        number += 1;
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let location = crate::decode::line_location(0, number, offset, text);
        offset += line.len() as u64;
        decode_line(text, location, Format::Canonical, &mut events);
        for event in events.drain(..) {
            engine.feed(&event);
        }
        print(engine.take_diagnostics(), &mut found, &mut out);
    }
    let (rest, stats) = engine.finish();
    print(rest, &mut found, &mut out);
    let found = crate::findings::Findings::from_diagnostics(found);
    let sources = [SourceInfo { name, text: None }];
    let report = Report {
        findings: &found,
        sources: &sources,
        stats,
        files: 1,
        unreadable: 0,
        quiet: false,
    };
    let _ = report.write_summary(&mut out);
}

fn print_findings(
    new: impl Iterator<Item = Diagnostic>,
    name: &str,
    found: &mut Vec<Diagnostic>,
    out: &mut dyn Write,
) {
    for d in new {
        // Findings are advice: a closed stderr must not stop the relay.
        let _ = report::write_concise_line(&d, name, out).and_then(|()| out.flush());
        found.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_kept_as_sent_and_the_rest_is_not_protocol() {
        let body = line_body(b"{\"jsonrpc\":\"2.0\", \"id\":1,\"method\":\"ping\"}\r\n");
        assert_eq!(
            body.as_deref(),
            Some("\"msg\":{\"jsonrpc\":\"2.0\", \"id\":1,\"method\":\"ping\"}")
        );
        assert_eq!(
            line_body(b"Installed 5 packages\n").as_deref(),
            Some("\"event\":\"not-protocol\",\"text\":\"Installed 5 packages\"")
        );
        assert_eq!(
            line_body(b"42\n")
                .as_deref()
                .map(|b| b.contains("not-protocol")),
            Some(true)
        );
        assert_eq!(
            line_body(b"{\"a\":\n")
                .as_deref()
                .map(|b| b.contains("not-protocol")),
            Some(true)
        );
        assert_eq!(line_body(b"  \r\n"), None);
    }
}
