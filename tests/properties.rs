//! Properties of the pipeline on traces built from arbitrary bytes
//! (`mcp_lint::generate::trace_from_bytes`): the engine never panics, the
//! findings do not depend on the number of threads nor on where the input
//! is cut into regions and chunks, and a trace cut at any byte is linted
//! only for what it holds. The case counts keep the suite to seconds in a
//! debug build; `PROPTEST_CASES=N` runs more.

use mcp_lint::decode::{decode_chunk, DecodedChunk, Format};
use mcp_lint::diagnostic::Diagnostic;
use mcp_lint::engine::Engine;
use mcp_lint::generate::{generate, trace_from_bytes, GeneratorConfig};
use mcp_lint::input::read_regions;
use mcp_lint::lint::split_lines;
use proptest::prelude::*;
use rayon::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The byte strings traces are built from: up to about 60 lines.
fn steps() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..800)
}

fn lint(trace: &[u8]) -> Vec<Diagnostic> {
    let mut linter =
        mcp_lint::lint::Linter::new(mcp_lint::rules::engine(), Some(Format::Canonical));
    linter.lint_bytes(0, trace);
    linter.engine.finish().0
}

fn in_pool<T: Send>(threads: usize, run: impl FnOnce() -> T + Send) -> T {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(run)
}

/// What a finding says and where, with its related places: all that a
/// report shows of it.
fn shown(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics.iter().map(|d| format!("{d:?}")).collect()
}

/// A reader that hands out its bytes in pieces of the given sizes (in turn).
struct Pieces<'a> {
    bytes: &'a [u8],
    sizes: Vec<usize>,
    turn: usize,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let size = self.sizes[self.turn % self.sizes.len()].min(buf.len());
        self.turn += 1;
        let n = size.min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Lints `trace` as the pipeline does, with its region and chunk sizes
/// given: the stream read in regions of whole lines (`read_regions`), each
/// split into chunks (`split_lines`) decoded in parallel, the events fed in
/// order with line numbers rebased. (`Linter` fixes both sizes, at a batch
/// of chunks and 512 KiB; here they are a few bytes, so every boundary is exercised.)
fn lint_in_chunks(trace: &[u8], reads: Vec<usize>, region: usize, chunk: usize) -> Vec<Diagnostic> {
    let mut engine = mcp_lint::rules::engine();
    let mut lines_before = 0;
    let reader = Pieces {
        bytes: trace,
        sizes: reads,
        turn: 0,
    };
    read_regions(reader, region, None, |offset, bytes| {
        let decoded: Vec<DecodedChunk> = split_lines(bytes, chunk)
            .par_iter()
            .map(|(start, piece)| decode_chunk(piece, offset + *start as u64, 0, Format::Canonical))
            .collect();
        feed(&mut engine, decoded, &mut lines_before);
    })
    .unwrap();
    engine.finish().0
}

fn feed(engine: &mut Engine, decoded: Vec<DecodedChunk>, lines_before: &mut u64) {
    for mut chunk in decoded {
        for event in &mut chunk.events {
            event.location.line += *lines_before;
            engine.feed(event);
        }
        *lines_before += chunk.lines;
    }
}

/// The findings raised while each event is fed (before the sessions end),
/// keyed by the byte where the event's line ends.
fn streamed(trace: &[u8]) -> Vec<(u64, Diagnostic)> {
    let mut engine = mcp_lint::rules::engine();
    let mut found = Vec::new();
    for event in decode_chunk(trace, 0, 0, Format::Canonical).events {
        engine.feed(&event);
        let end = event.location.offset + u64::from(event.location.len);
        found.extend(engine.take_diagnostics().into_iter().map(|d| (end, d)));
    }
    found
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn the_engine_never_panics(bytes in steps(), split in any::<u8>()) {
        // Fed event by event, over two inputs (the first ended midway), so
        // end-of-input rules run on every state the events reach.
        let trace = trace_from_bytes(&bytes);
        let events = decode_chunk(trace.as_bytes(), 0, 0, Format::Canonical).events;
        let split = usize::from(split) * events.len() / 256;
        let mut engine = mcp_lint::rules::engine();
        for (index, mut event) in events.into_iter().enumerate() {
            if index == split {
                engine.end_source(0);
            }
            event.location.source = u32::from(index >= split);
            engine.feed(&event);
        }
        engine.finish();
    }

    #[test]
    fn findings_do_not_depend_on_threads_or_chunks(
        bytes in steps(),
        reads in proptest::collection::vec(1usize..300, 1..4),
        region in 1usize..2000,
        chunk in 1usize..400,
    ) {
        let trace = trace_from_bytes(&bytes);
        let whole = shown(&in_pool(1, || lint(trace.as_bytes())));
        let two = in_pool(2, || lint_in_chunks(trace.as_bytes(), reads.clone(), region, chunk));
        prop_assert_eq!(&whole, &shown(&two));
        let one = in_pool(1, || lint_in_chunks(trace.as_bytes(), reads, region, chunk));
        prop_assert_eq!(&whole, &shown(&one));
    }

    #[test]
    fn a_cut_trace_is_linted_for_what_it_holds(bytes in steps(), cut in any::<prop::sample::Index>()) {
        let trace = trace_from_bytes(&bytes);
        let cut = cut.index(trace.len() + 1);
        let held = &trace.as_bytes()[..cut];
        let diagnostics = lint(held);
        for diagnostic in &diagnostics {
            let places = std::iter::once(&diagnostic.location)
                .chain(diagnostic.related.iter().map(|r| &r.location));
            for place in places {
                prop_assert!(
                    place.offset + u64::from(place.len) <= cut as u64,
                    "{} points past the cut at byte {cut}: {place:?}", diagnostic.rule.id
                );
            }
        }
        // What the whole trace found while reading the lines the cut holds
        // whole, the cut trace finds too (it may find more: its sessions end
        // sooner, and its last line may be cut).
        let cut_shown = shown(&diagnostics);
        for (end, diagnostic) in streamed(trace.as_bytes()) {
            if end <= cut as u64 {
                let expected = format!("{diagnostic:?}");
                prop_assert!(cut_shown.contains(&expected), "missing from the cut trace: {expected}");
            }
        }
    }
}

/// A generated trace of several chunks: the real pipeline (`Linter`, its
/// own chunk size) gives the same findings on one thread as on two.
#[test]
fn a_trace_of_many_chunks_gives_the_same_findings_on_one_or_two_threads() {
    let config = GeneratorConfig {
        target_bytes: 3 << 20,
        violation_rate: 0.05,
        ..GeneratorConfig::default()
    };
    let mut trace = Vec::new();
    generate(&config, &mut trace).unwrap();
    let one = shown(&in_pool(1, || lint(&trace)));
    let two = shown(&in_pool(2, || lint(&trace)));
    assert!(one.len() > 100, "only {} findings", one.len());
    assert_eq!(one, two);
}
