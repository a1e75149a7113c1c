#!/usr/bin/env bash
# Makes the data and runs every speed comparison of README's "Speed" table in
# one run, side by side, and prints the table in markdown:
#
#   bash benches/compare.sh                 # 100 MiB and 1 GiB traces, 3 runs each
#   bash benches/compare.sh --sizes 100,1024,4096 --runs 5
#   bash benches/compare.sh --quick         # 16 and 64 MiB: proves the script works
#   bash benches/compare.sh --har-size 256  # the HAR capture at 256 MiB (default 1024; 0: none)
#
# Options: --sizes MiB,MiB,...  --runs N (best and median of N)  --files N
# (small files for the pre-commit case, default 1000)  --quick  --jq-tracking
# (also time benches/naive.jq, off by default: under jq 1.6 it runs for
# many minutes even at 64 MiB).
# Traces are generated (benches/generate.rs) under $BENCH_DIR
# (default /tmp/mcp-lint-bench), reused while the generator is unchanged, and
# never committed. Needs jq, python3 and GNU time (/usr/bin/time).

# Backquotes in single quotes are markdown and jq's $ is jq's, not the shell's:
# shellcheck disable=SC2016
set -euo pipefail

sizes=100,1024
har_mib=1024
runs=3
files=1000
jq_tracking=false
while (($#)); do
  case $1 in
    --quick) sizes=16,64; har_mib=16 ;;
    --har-size) har_mib=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --runs) runs=$2; shift ;;
    --files) files=$2; shift ;;
    --jq-tracking) jq_tracking=true ;;
    *) echo "usage: $0 [--quick] [--sizes MiB,...] [--har-size MiB] [--runs N] [--files N] [--jq-tracking]" >&2; exit 2 ;;
  esac
  shift
done
IFS=, read -ra sizes <<<"$sizes"

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-/tmp/mcp-lint-bench}
mkdir -p "$dir"
for tool in jq python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "compare.sh: $tool is needed" >&2; exit 2; }
done

# Refuse to fill a disk shared with others: every trace plus 5 GiB to spare.
needed_mib=$((5120 + 2 * har_mib)) # the HAR and mcp-lint's copy of it
for mib in "${sizes[@]}"; do needed_mib=$((needed_mib + mib)); done
free_mib=$(($(df -Pk "$dir" | awk 'NR == 2 { print $4 }') / 1024))
if ((free_mib < needed_mib)); then
  echo "compare.sh: $dir has $free_mib MiB free; these sizes need $needed_mib" >&2
  exit 2
fi

cd "$root"
echo "building the release binary and the generator..." >&2
cargo build --release --quiet
lint=$root/target/release/mcp-lint
generate=$(cargo build --release --quiet --bench generate --message-format json |
  jq -r 'select(.target.name == "generate" and .executable != null) | .executable')

# A trace per size, made again only when the generator changes.
generator=$(git rev-parse --short HEAD:src/generate 2>/dev/null || echo unknown)
trace_path() { echo "$dir/trace-$1MiB-$generator.jsonl"; }
for mib in "${sizes[@]}"; do
  trace=$(trace_path "$mib")
  if [[ ! -s $trace ]]; then
    rm -f "$dir/trace-${mib}MiB-"*.jsonl
    "$generate" "$trace" "$mib" >&2
  fi
done

# A HAR capture of Streamable HTTP, made again only when the generator changes.
har=$dir/capture-${har_mib}MiB-$generator.har
if ((har_mib > 0)) && [[ ! -s $har ]]; then
  rm -f "$dir/capture-${har_mib}MiB-"*.har
  "$generate" "$har" "$har_mib" >&2
fi

# Many small files, as pre-commit hands them over: copies of the fixtures.
many=$dir/many-$files
if [[ ! -d $many ]]; then
  mkdir -p "$many.tmp"
  mapfile -t fixtures < <(find testdata -name '*.jsonl' -size -16k | sort)
  for ((i = 0; i < files; i++)); do
    cp "${fixtures[i % ${#fixtures[@]}]}" "$(printf '%s/%05d.jsonl' "$many.tmp" "$i")"
  done
  mv "$many.tmp" "$many"
fi

# measure KEY COMMAND...: runs it $runs times under GNU time and records the
# best and median wall time (bash's clock: GNU time's has 10 ms steps),
# median CPU time (user + system) and peak RSS.
# A command of the form `cat FILE | ...` is written as: stdin FILE COMMAND...
declare -A best median cpu rss
measure() {
  local key=$1 out=$dir/time.out
  shift
  local walls=() cpus=() peak=0
  for ((run = 0; run < runs; run++)); do
    local start=$EPOCHREALTIME
    if [[ $1 == stdin ]]; then
      # shellcheck disable=SC2002 # a pipe, not a file, is what is measured
      cat "$2" | /usr/bin/time -f "%e %U %S %M" -o "$out" "${@:3}" >/dev/null || true
    else
      /usr/bin/time -f "%e %U %S %M" -o "$out" "$@" >/dev/null || true
    fi
    local end=$EPOCHREALTIME
    read -r _ user sys kib < <(tail -n 1 "$out")
    walls+=("$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')")
    cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')")
    if ((kib > peak)); then peak=$kib; fi
  done
  best[$key]=$(printf '%s\n' "${walls[@]}" | sort -g | head -n 1)
  median[$key]=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  cpu[$key]=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
  rss[$key]=$((peak / 1024))
}

# calc EXPRESSION: awk arithmetic, printed with two decimals.
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }

json=(--format json --exit-zero)
for mib in "${sizes[@]}"; do
  trace=$(trace_path "$mib")
  echo "measuring on $trace ($runs runs each)..." >&2
  cat "$trace" >/dev/null # into the page cache
  measure "wc:$mib" wc -l "$trace"
  measure "lint2:$mib" "$lint" "${json[@]}" --threads 2 "$trace"
  measure "lint1:$mib" "$lint" "${json[@]}" --threads 1 "$trace"
  measure "noschema:$mib" "$lint" "${json[@]}" --threads 2 --ignore schema "$trace"
  measure "stdin:$mib" stdin "$trace" "$lint" "${json[@]}" --threads 2 -
  measure "python:$mib" python3 benches/naive.py "$trace"
  if $jq_tracking; then measure "jq:$mib" jq -n -c -f benches/naive.jq "$trace"; fi
  measure "jqparse:$mib" jq -n -c 'reduce (inputs | .msg.method? // "other") as $m ({}; .[$m] += 1)' "$trace"
done
if ((har_mib > 0)); then
  echo "measuring on $har ($runs runs each)..." >&2
  cat "$har" >/dev/null
  measure "har" "$lint" "${json[@]}" --threads 2 "$har"
fi
echo "measuring $files small files..." >&2
mapfile -t small < <(printf '%s\n' "$many"/*.jsonl)
measure "one" "$lint" "${json[@]}" "${small[0]}"
measure "files" "$lint" "${json[@]}" "${small[@]}"
measure "files1" "$lint" "${json[@]}" --threads 1 "${small[@]}"
measure "dir" "$lint" "${json[@]}" "$many"

# The table.
label() {
  case $1 in
    wc) echo '`wc -l trace.jsonl`' ;;
    lint2) echo '`mcp-lint --format json trace.jsonl` (every default rule, 2 threads)' ;;
    lint1) echo '`mcp-lint --format json --threads 1 trace.jsonl`' ;;
    noschema) echo '`mcp-lint --format json --ignore schema trace.jsonl` (2 threads)' ;;
    stdin) echo '`cat trace.jsonl \| mcp-lint --format json -` (2 threads)' ;;
    python) echo '`python3 benches/naive.py trace.jsonl` (ids and tokens in dicts)' ;;
    jq) echo '`jq -n -f benches/naive.jq trace.jsonl` (the same tracking)' ;;
    jqparse) echo '`jq -n` counting messages per method (parse only)' ;;
  esac
}
echo "Release build, $(nproc) cores, $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD); best and median of $runs runs, side by side in one run."
for mib in "${sizes[@]}"; do
  bytes=$(stat -c %s "$(trace_path "$mib")")
  echo
  echo "| $mib MiB trace ($(wc -l <"$(trace_path "$mib")") lines) | best | median | CPU (median) | throughput (best) | peak RSS |"
  echo "|---|---|---|---|---|---|"
  for what in wc lint2 lint1 noschema stdin python jq jqparse; do
    key=$what:$mib
    [[ -v "best[$key]" ]] || continue
    echo "| $(label "$what") | ${best[$key]} s | ${median[$key]} s | ${cpu[$key]} s | $(calc "$bytes / ${best[$key]} / 1e6") MB/s | ${rss[$key]} MB |"
  done
done

echo
echo "| ratio (best against best) | target |$(printf ' %s MiB |' "${sizes[@]}")"
echo "|---|---|$(printf -- '---|%.0s' "${sizes[@]}")"
# ratio TITLE TARGET ARRAY KEY ARRAY KEY: the first array's KEY:size over
# the second's, for every size.
ratio() {
  local -n top=$3 bottom=$5
  local line="| $1 | $2 |" mib
  for mib in "${sizes[@]}"; do
    line+=" $(calc "${top[$4:$mib]} / ${bottom[$6:$mib]}") |"
  done
  echo "$line"
}
ratio 'throughput of `wc -l` kept, every default rule' '>= 0.10' best wc best lint2
ratio 'throughput of `wc -l` kept, `--ignore schema`' '>= 0.17' best wc best noschema
ratio '2 threads: wall time cut against 1' '>= 1.70' best lint1 best lint2
ratio '2 threads: CPU time against 1 (medians)' '<= 1.15' cpu lint2 cpu lint1
ratio 'faster than naive.py' '>= 25' best python best lint2
if $jq_tracking; then ratio 'faster than naive.jq' '>= 25' best jq best lint2; fi
ratio 'faster than jq counting per method (parse only)' '>= 25' best jqparse best lint2
line='| seconds per GiB, 2 threads (linear: the same at every size) | |'
for mib in "${sizes[@]}"; do line+=" $(calc "${best[lint2:$mib]} * 1024 / $mib") |"; done
echo "$line"

echo
echo "| $files small files (copies of the fixtures) | best | median | CPU (median) | peak RSS |"
echo "|---|---|---|---|---|"
for what in one files files1 dir; do
  case $what in
    one) title='one file: `mcp-lint f.jsonl` (start-up)' ;;
    files) title="every file named: \`mcp-lint f1.jsonl ... f$files.jsonl\` (pre-commit, target < 1 s)" ;;
    files1) title='the same, `--threads 1`' ;;
    dir) title='their directory: `mcp-lint dir/`' ;;
  esac
  echo "| $title | ${best[$what]} s | ${median[$what]} s | ${cpu[$what]} s | ${rss[$what]} MB |"
done

if ((har_mib > 0)); then
  bytes=$(stat -c %s "$har")
  echo
  echo "| $har_mib MiB HAR capture (streamed) | best | median | CPU (median) | throughput (best) | peak RSS | peak / file size |"
  echo "|---|---|---|---|---|---|---|"
  echo "| \`mcp-lint --format json capture.har\` (2 threads; targets 150 MB/s, 1.5) | ${best[har]} s | ${median[har]} s | ${cpu[har]} s | $(calc "$bytes / ${best[har]} / 1e6") MB/s | ${rss[har]} MB | $(calc "${rss[har]} * 1048576 / $bytes") |"
fi
