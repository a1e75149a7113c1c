//! No input makes mcp-lint panic: every fixture of every format and every
//! example of a rule page, cut short, with bytes flipped, or with bytes
//! inserted, is linted in each format (forced, not detected), and must come
//! back with diagnostics, not a crash.

use std::path::{Path, PathBuf};

use mcp_lint::decode::Format;
use mcp_lint::lint::Linter;

mod common;

/// Every format a user can ask for, and the one detection alone gives.
const FORMATS: &[Format] = Format::SELECTABLE;
const UNKNOWN: &[Format] = &[Format::Unknown];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| ["jsonl", "har", "log", "json"].iter().any(|x| e == *x))
        {
            out.push(path);
        }
    }
}

/// What is mutated, as (name, bytes): the traces of testdata/, and the
/// examples of the rule pages, which hold each rule's own cases.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata"),
        &mut paths,
    );
    let mut pages: Vec<PathBuf> = std::fs::read_dir(common::pages_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    pages.sort();
    let mut seeds: Vec<(String, Vec<u8>)> = paths
        .iter()
        .map(|path| (path.display().to_string(), std::fs::read(path).unwrap()))
        .collect();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, example) in common::examples(&text).into_iter().enumerate() {
            let kind = format!("{} {}", example.extension, example.kind);
            let name = format!("{} (example {}, {kind})", page.display(), i + 1);
            seeds.push((name, example.body.into_bytes()));
        }
    }
    seeds
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

fn mutations(bytes: &[u8], rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new(), bytes[..bytes.len() / 2].to_vec()];
    for _ in 0..6 {
        let mut flipped = bytes.to_vec();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(flipped.len());
            if let Some(b) = flipped.get_mut(at) {
                *b = [b'"', b'{', b'}', b'\n', b'\\', b':', b',', 0xff, 0xc3, b'0'][rng.below(10)];
            }
        }
        out.push(flipped);
        let mut cut = bytes.to_vec();
        cut.truncate(rng.below(bytes.len() + 1));
        out.push(cut);
    }
    out
}

#[test]
fn mutated_inputs_in_every_format_do_not_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0;
    for (name, bytes) in seeds() {
        for input in mutations(&bytes, &mut rng) {
            for format in FORMATS.iter().chain(UNKNOWN) {
                let mut linter = Linter::new(mcp_lint::rules::engine(), Some(*format));
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    linter.lint_bytes(0, &input);
                    linter.engine.finish()
                }));
                assert!(
                    result.is_ok(),
                    "{name} as {} panicked on a mutated input",
                    format.name()
                );
                runs += 1;
            }
        }
    }
    assert!(runs > 1000, "only {runs} runs");
}

#[test]
fn a_huge_line_is_read() {
    // One 8 MiB message (a large tool result), as one line of each JSON-lines format.
    let text = "x".repeat(8 << 20);
    let trace = format!(
        "{{\"from\":\"server\",\"msg\":{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"{text}\"}}]}}}}}}\n"
    );
    let diagnostics = mcp_lint::lint_str(&trace);
    let rules: Vec<&str> = diagnostics.iter().map(|d| d.rule.id).collect();
    assert_eq!(rules, ["response-unknown-id"]);
}
