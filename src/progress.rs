//! A progress line on stderr for runs that take more than a moment: bytes,
//! sessions and findings so far. Only on a terminal, never in CI logs, never
//! with --quiet; it is erased before the report is written.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::engine::Stats;

/// Nothing is shown for runs shorter than this.
const DELAY: Duration = Duration::from_millis(300);
/// The line is redrawn at most this often.
const INTERVAL: Duration = Duration::from_millis(100);
const BAR: usize = 20;

pub struct Progress {
    enabled: bool,
    start: Instant,
    drawn: Option<Instant>,
    /// Bytes of every input, when known (stdin is not).
    total_bytes: u64,
    /// Bytes, sessions and findings of the inputs already finished...
    done: Count,
    /// ...and of those being linted (several at once), by input number.
    current: HashMap<usize, Count>,
}

/// How far linting has got.
#[derive(Debug, Clone, Copy, Default)]
struct Count {
    bytes: u64,
    sessions: u64,
    findings: usize,
}

impl Count {
    fn new(bytes: u64, stats: Stats, findings: usize) -> Count {
        Count {
            bytes,
            sessions: stats.sessions,
            findings,
        }
    }

    fn add(&mut self, other: Count) {
        self.bytes += other.bytes;
        self.sessions += other.sessions;
        self.findings += other.findings;
    }
}

/// Whether a progress line may be drawn: stderr is a terminal and this is not CI.
pub fn wanted(quiet: bool) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    !quiet
        && std::io::stderr().is_terminal()
        && !set("CI")
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

impl Progress {
    pub fn new(enabled: bool, total_bytes: u64) -> Progress {
        Progress {
            enabled,
            start: Instant::now(),
            drawn: None,
            total_bytes,
            done: Count::default(),
            current: HashMap::new(),
        }
    }

    /// The engine of input number `input` is `bytes` into it.
    pub fn update(&mut self, input: usize, bytes: u64, stats: Stats, findings: usize) {
        self.current
            .insert(input, Count::new(bytes, stats, findings));
        self.draw();
    }

    /// Input number `input` is finished, with its size, sessions and findings.
    pub fn input_done(&mut self, input: usize, bytes: u64, stats: Stats, findings: usize) {
        self.current.remove(&input);
        self.done.add(Count::new(bytes, stats, findings));
        self.draw();
    }

    fn draw(&mut self) {
        let now = Instant::now();
        let due = self
            .drawn
            .map_or(now - self.start >= DELAY, |at| now - at >= INTERVAL);
        if !self.enabled || !due {
            return;
        }
        self.drawn = Some(now);
        let total = self.total();
        let line = self.line(total.bytes, total.sessions, total.findings);
        let mut err = std::io::stderr().lock();
        // Progress is a courtesy: a failing stderr must not fail the run.
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
    }

    /// Erases the line, so the report starts on a clean one.
    pub fn finish(&mut self) {
        if self.drawn.take().is_some() {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }

    /// The inputs finished and those under way, added up.
    fn total(&self) -> Count {
        let mut total = self.done;
        self.current.values().for_each(|count| total.add(*count));
        total
    }

    fn line(&self, bytes: u64, sessions: u64, findings: usize) -> String {
        let mb = |b: u64| b as f64 / 1e6;
        let counts = format!("{sessions} sessions, {findings} findings");
        if self.total_bytes == 0 {
            return format!("mcp-lint: {:.1} MB, {counts}", mb(bytes));
        }
        let share = (bytes as f64 / self.total_bytes as f64).min(1.0);
        let filled = (share * BAR as f64) as usize;
        format!(
            "mcp-lint [{}{}] {:.1}/{:.1} MB, {counts}",
            "#".repeat(filled),
            "-".repeat(BAR - filled),
            mb(bytes),
            mb(self.total_bytes)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_bytes_sessions_and_findings() {
        let progress = Progress::new(true, 4_000_000);
        assert_eq!(
            progress.line(1_000_000, 3, 7),
            "mcp-lint [#####---------------] 1.0/4.0 MB, 3 sessions, 7 findings"
        );
        let stdin = Progress::new(true, 0);
        assert_eq!(
            stdin.line(2_500_000, 1, 0),
            "mcp-lint: 2.5 MB, 1 sessions, 0 findings"
        );
    }

    #[test]
    fn inputs_linted_at_once_add_up() {
        let mut progress = Progress::new(false, 100);
        let stats = |sessions| Stats {
            events: 0,
            sessions,
        };
        progress.update(0, 10, stats(1), 2);
        progress.update(1, 20, stats(2), 0);
        progress.update(0, 15, stats(1), 3);
        progress.input_done(1, 40, stats(3), 1);
        let total = progress.total();
        assert_eq!((total.bytes, total.sessions, total.findings), (55, 4, 4));
    }

    #[test]
    fn nothing_is_drawn_when_disabled() {
        let mut progress = Progress::new(false, 10);
        progress.start -= DELAY * 2;
        progress.update(0, 5, Stats::default(), 0);
        assert!(progress.drawn.is_none());
    }
}
