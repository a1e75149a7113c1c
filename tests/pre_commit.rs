//! The repository's pre-commit hook, run by pre-commit itself (PyPI) on a
//! sample repository, as README shows it: the `mcp-lint-system` hook with the
//! mcp-lint this build made on PATH. Skipped, saying so, where pre-commit or
//! git is not installed (`.ci/run` installs pre-commit).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pre_commit() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("PRE_COMMIT").map(PathBuf::from),
        Some("pre-commit".into()),
    ];
    candidates.into_iter().flatten().find(|program| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn run(program: &Path, args: &[&str], dir: &Path) -> Output {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_mcp-lint")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", dir.join(".pre-commit-home"))
        .output()
        .unwrap()
}

/// A git repository holding `files`, staged.
fn sample_repository(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let git = Path::new("git");
    run(git, &["init", "-q"], dir.path());
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    run(git, &["add", "."], dir.path());
    dir
}

const GOOD: &str = "testdata/sessions/clean-2025-11-25.jsonl";
const BAD: &str = "testdata/session-with-violations.jsonl";

#[test]
fn the_hook_fails_on_a_trace_with_errors_and_passes_a_clean_one() {
    let Some(pre_commit) = pre_commit() else {
        eprintln!("pre-commit is not installed: the hook test is skipped");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap();
    let this_repository = root.to_str().unwrap();
    let try_hook = |dir: &Path| {
        run(
            &pre_commit,
            &[
                "try-repo",
                this_repository,
                "mcp-lint-system",
                "--all-files",
            ],
            dir,
        )
    };
    let clean = sample_repository(&[("good.jsonl", &read(GOOD))]);
    let out = try_hook(clean.path());
    let said = String::from_utf8_lossy(&out.stdout);
    if said.contains("not a git repository") {
        eprintln!("this checkout is not a git repository: the hook test is skipped");
        return;
    }
    assert!(out.status.success(), "{said}");
    let broken = sample_repository(&[("good.jsonl", &read(GOOD)), ("bad.jsonl", &read(BAD))]);
    let out = try_hook(broken.path());
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("bad.jsonl") && said.contains("cancel-unknown-request"),
        "{said}"
    );
}
