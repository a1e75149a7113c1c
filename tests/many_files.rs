//! Many inputs in one run are linted in parallel, each on its own: the
//! report is exactly the reports of each file linted alone, in the files'
//! sorted order, whatever the number of threads.

use std::path::Path;
use std::process::Command;

use mcp_lint::generate::{generate, GeneratorConfig};

/// Runs mcp-lint in `cwd` on `threads` threads and returns its stdout.
fn mcp_lint(args: &[&str], cwd: &Path, threads: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A directory `traces` of every JSON-lines and HAR fixture, numbered so
/// that their sorted order mixes the kinds, and two generated traces big
/// enough to be decoded in several chunks.
fn traces() -> (tempfile::TempDir, Vec<String>) {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut fixtures: Vec<_> = ["", "races", "sessions", "canonical", "har"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(testdata.join(dir)).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "jsonl" || e == "har"))
        .collect();
    fixtures.sort();
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("traces");
    std::fs::create_dir(&traces).unwrap();
    let mut names = Vec::new();
    for (i, fixture) in fixtures.iter().enumerate() {
        let name = format!(
            "{:03}-{}",
            (i * 37) % 101,
            fixture.file_name().unwrap().to_string_lossy()
        );
        std::fs::copy(fixture, traces.join(&name)).unwrap();
        names.push(name);
    }
    for seed in [1, 2] {
        let config = GeneratorConfig {
            target_bytes: 1 << 20,
            violation_rate: 0.05,
            seed,
            ..GeneratorConfig::default()
        };
        let mut trace = Vec::new();
        generate(&config, &mut trace).unwrap();
        let name = format!("{:03}-generated.jsonl", seed * 50);
        std::fs::write(traces.join(&name), trace).unwrap();
        names.push(name);
    }
    names.sort();
    (dir, names.iter().map(|n| format!("traces/{n}")).collect())
}

#[test]
fn many_files_report_what_each_file_alone_reports_in_sorted_order() {
    let (dir, files) = traces();
    for format in ["concise", "human"] {
        let alone: String = files
            .iter()
            .map(|file| mcp_lint(&["-q", "--format", format, file], dir.path(), "1"))
            .collect();
        let with_findings = files
            .iter()
            .filter(|file| alone.contains(file.as_str()))
            .count();
        assert!(
            with_findings >= 10,
            "{format}: only {with_findings} files have findings"
        );
        for threads in ["1", "4"] {
            let together = mcp_lint(&["-q", "--format", format, "traces"], dir.path(), threads);
            assert!(
                together == alone,
                "{format}, {threads} threads: the files linted together differ from each alone"
            );
        }
    }
}

#[test]
fn many_files_count_the_events_and_sessions_of_each() {
    let (dir, files) = traces();
    let summary = |args: &[&str]| -> serde_json::Value {
        let out = mcp_lint(args, dir.path(), "4");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["summary"].clone()
    };
    let together = summary(&["--format", "json", "traces"]);
    let mut events = 0;
    let mut sessions = 0;
    for file in &files {
        let alone = summary(&["--format", "json", file]);
        events += alone["events"].as_u64().unwrap();
        sessions += alone["sessions"].as_u64().unwrap();
    }
    assert_eq!(together["events"].as_u64(), Some(events));
    assert_eq!(together["sessions"].as_u64(), Some(sessions));
    assert_eq!(together["files"].as_u64(), Some(files.len() as u64));
}
