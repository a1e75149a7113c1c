#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after the other,
# from the seed corpus (made by seeds.sh when missing). A crash, a timeout
# (an input taking over 10 s) or a run past 2 GB leaves its input in
# fuzz/artifacts/TARGET/; the script goes on to the next target and exits
# non-zero at the end if any target failed.
#
#   cargo install cargo-fuzz
#   fuzz/run.sh 300            # five minutes per target
#   fuzz/run.sh 60 har sse     # only some targets
#
# cargo-fuzz needs nightly flags; RUSTC_BOOTSTRAP=1 lets the stable
# toolchain take them. The build keeps debug assertions and overflow checks
# (cargo-fuzz's default) and no sanitizer: the crate's few unsafe blocks
# (a mapped copy, allocator calls, one unchecked UTF-8 conversion that a
# debug assertion checks) would not repay the slower search.
set -uo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
seconds=${1:-60}
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(jsonl sse har client_logs inspector mcpsnoop schema engine)
fi
[[ -d corpus ]] || ./seeds.sh
cargo fuzz build -s none || exit 1
failed=()
for target in "${targets[@]}"; do
    echo "== $target: ${seconds}s"
    mkdir -p "corpus/$target"
    if ! cargo fuzz run -s none "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -dict=json.dict -print_final_stats=1; then
        failed+=("$target")
    fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "failed: ${failed[*]} (inputs in fuzz/artifacts/)"
    exit 1
fi
echo "no crash in ${targets[*]} (${seconds}s each)"
