//! A generator of realistic synthetic traces, for benchmarks and for tests
//! that need large inputs (large traces are generated, never committed).
//!
//! Several sessions are interleaved; each does a handshake and then tool
//! calls with progress, cancellations, pings from the server and log
//! notifications. A configurable share of operations carries a violation,
//! and a few calls carry the races the spec allows. On request the
//! generator also writes the truth: where it put each of them ([`Label`]),
//! so a test can compare what mcp-lint finds with what is there.

mod from_bytes;
mod har;
mod inspector;
mod jsonl;

use std::io::{self, Write};

pub use from_bytes::trace_from_bytes;
pub use har::{generate_har, generate_har_with_truth};
pub use inspector::generate_inspector;
pub use jsonl::{generate, generate_with_truth};

#[derive(Debug, Clone)]
pub struct GeneratorConfig {
    /// Sessions interleaved in the trace.
    pub sessions: usize,
    /// Stop once about this many bytes are written...
    pub target_bytes: u64,
    /// ...and at least this many lines.
    pub min_lines: u64,
    /// Share of operations (0.0 to 1.0) that carry a protocol violation.
    pub violation_rate: f64,
    pub seed: u64,
}

impl GeneratorConfig {
    /// The benchmarks' trace: `MCP_LINT_BENCH_MB` MiB (default 32).
    pub fn for_bench() -> GeneratorConfig {
        let mb: u64 = std::env::var("MCP_LINT_BENCH_MB")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(32);
        GeneratorConfig {
            target_bytes: mb << 20,
            ..GeneratorConfig::default()
        }
    }
}

impl Default for GeneratorConfig {
    fn default() -> Self {
        GeneratorConfig {
            sessions: 8,
            target_bytes: 1 << 20,
            min_lines: 0,
            violation_rate: 0.01,
            seed: 0x5eed,
        }
    }
}

impl GeneratorConfig {
    fn wants_more(&self, stats: &GeneratedStats) -> bool {
        stats.bytes < self.target_bytes || stats.lines < self.min_lines
    }
}

/// What was written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeneratedStats {
    pub bytes: u64,
    pub lines: u64,
    pub violations: u64,
    /// Benign races injected on purpose.
    pub races: u64,
}

/// Whether a label marks a violation or a race the spec allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelKind {
    /// mcp-lint must report `rule` at the line.
    Violation,
    /// A race the spec allows: `rule` may report it, at info at most.
    Race,
}

/// One line of a truth file: `line<TAB>session<TAB>violation|race<TAB>rule-id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub line: u64,
    pub session: String,
    pub kind: LabelKind,
    pub rule: String,
}

impl Label {
    fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let kind = match self.kind {
            LabelKind::Violation => "violation",
            LabelKind::Race => "race",
        };
        writeln!(
            out,
            "{}\t{}\t{kind}\t{}",
            self.line, self.session, self.rule
        )
    }

    /// Reads a truth file; lines that are not labels are skipped.
    pub fn parse_all(text: &str) -> Vec<Label> {
        text.lines().filter_map(Label::parse).collect()
    }

    fn parse(line: &str) -> Option<Label> {
        let mut fields = line.split('\t');
        let number = fields.next()?.parse().ok()?;
        let session = fields.next()?.to_string();
        let kind = match fields.next()? {
            "violation" => LabelKind::Violation,
            "race" => LabelKind::Race,
            _ => return None,
        };
        Some(Label {
            line: number,
            session,
            kind,
            rule: fields.next()?.to_string(),
        })
    }
}

/// What both forms write to and draw from: the trace, the truth, the
/// counts, the clock and the randomness.
struct Sink<'a, W: Write> {
    out: &'a mut W,
    truth: &'a mut dyn Write,
    stats: GeneratedStats,
    clock_ms: u64,
    rng: Rng,
    /// Numbers ids and tokens nobody issued.
    ghosts: u64,
}

impl<'a, W: Write> Sink<'a, W> {
    fn new(config: &GeneratorConfig, out: &'a mut W, truth: &'a mut dyn Write) -> Self {
        Sink {
            out,
            truth,
            stats: GeneratedStats::default(),
            clock_ms: 0,
            rng: Rng(config.seed | 1),
            ghosts: 0,
        }
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.stats.bytes += bytes.len() as u64;
        Ok(())
    }

    fn ghost(&mut self) -> u64 {
        self.ghosts += 1;
        self.ghosts
    }

    fn label(&mut self, line: u64, session: &str, kind: LabelKind, rule: &str) -> io::Result<()> {
        match kind {
            LabelKind::Violation => self.stats.violations += 1,
            LabelKind::Race => self.stats.races += 1,
        }
        Label {
            line,
            session: session.into(),
            kind,
            rule: rule.into(),
        }
        .write(self.truth)
    }

    fn finish(self) -> io::Result<GeneratedStats> {
        self.out.flush()?;
        self.truth.flush()?;
        Ok(self.stats)
    }
}

/// A small deterministic PRNG (xorshift64*), so traces are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

const TOOLS: &[&str] = &[
    "search_docs",
    "read_file",
    "run_query",
    "fetch_url",
    "summarize",
];
const WORDS: &[&str] = &[
    "alpha", "budget", "cancel", "deploy", "report", "quarter", "latency", "index", "vector",
    "token",
];

/// `min` to `min + spread - 1` random words.
fn text(rng: &mut Rng, min: usize, spread: u64) -> String {
    let words = min + rng.below(spread) as usize;
    (0..words)
        .map(|_| rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A timestamp `ms` milliseconds into the generated day.
fn timestamp(ms: u64) -> String {
    format!(
        "2026-11-30T{:02}:{:02}:{:02}.{:03}Z",
        (ms / 3_600_000) % 24,
        (ms / 60_000) % 60,
        (ms / 1000) % 60,
        ms % 1000
    )
}

/// The same JSON document minified onto one line, as browsers and the
/// Inspector export it. Only for the documents generated here: their line
/// feeds all stand between tokens (strings escape theirs).
pub fn one_line(document: &mut Vec<u8>) {
    document.retain(|b| *b != b'\n');
}

/// One canonical line: a batch of `count` pings from the client that nothing
/// answers, so every ping is a finding on the same line.
pub fn unanswered_batch(count: usize) -> String {
    let pings: Vec<String> = (0..count)
        .map(|id| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#))
        .collect();
    format!(r#"{{"from":"client","msg":[{}]}}"#, pings.join(",")) + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        let label = Label {
            line: 12,
            session: "session-3".into(),
            kind: LabelKind::Race,
            rule: "cancel-after-response".into(),
        };
        let mut out = Vec::new();
        label.write(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "12\tsession-3\trace\tcancel-after-response\n");
        assert_eq!(Label::parse_all(&text), [label]);
    }
}

#[cfg(test)]
mod generated {
    use super::*;

    #[test]
    fn generated_traces_are_reproducible_and_sized() {
        let config = GeneratorConfig {
            target_bytes: 64 * 1024,
            ..GeneratorConfig::default()
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let stats = generate(&config, &mut a).unwrap();
        generate(&config, &mut b).unwrap();
        assert_eq!(a, b);
        assert!(stats.bytes >= config.target_bytes);
        assert_eq!(stats.bytes, a.len() as u64);
    }

    #[test]
    fn a_generated_trace_without_violations_has_nothing_above_info() {
        let config = GeneratorConfig {
            target_bytes: 256 * 1024,
            violation_rate: 0.0,
            ..GeneratorConfig::default()
        };
        for har in [false, true] {
            let mut trace = Vec::new();
            let stats = if har {
                generate_har(&config, &mut trace).unwrap()
            } else {
                generate(&config, &mut trace).unwrap()
            };
            assert_eq!(stats.violations, 0);
            let diagnostics = crate::lint_str(std::str::from_utf8(&trace).unwrap());
            let errors: Vec<_> = diagnostics
                .iter()
                .filter(|d| d.severity != crate::diagnostic::Severity::Info)
                .map(|d| d.message.clone())
                .collect();
            assert!(errors.is_empty(), "{errors:?}");
        }
    }
}
