#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds: the traces of testdata/ (each in
# the targets that read its format, after the selector byte those targets
# take) and the bad and good examples of the rule pages (rules/*.md).
# Nothing here is committed: the corpus is generated (fuzz/.gitignore).
#
#   fuzz/seeds.sh          # then fuzz/run.sh SECONDS
set -euo pipefail
cd "$(dirname "$0")"
testdata=../testdata

# seed TARGET SELECTOR FILE [BYTES]: copies FILE (its first BYTES, if
# given) into TARGET's corpus, after the selector byte (a printf escape such
# as '\x03', or '' for none).
seed() {
    local target=$1 selector=$2 file=$3 bytes=${4:-}
    mkdir -p "corpus/$target"
    local name
    name=$(printf '%s' "$selector$file" | sha1sum | cut -c1-16)
    if [[ -n $bytes ]]; then
        { printf "$selector"; head -c "$bytes" "$file"; } > "corpus/$target/$name"
    else
        { printf "$selector"; cat "$file"; } > "corpus/$target/$name"
    fi
}

rm -rf corpus
for file in "$testdata"/canonical/*.jsonl "$testdata"/races/*.jsonl \
    "$testdata"/sessions/*.jsonl "$testdata"/*.jsonl "$testdata"/*/*.canonical.jsonl \
    "$testdata"/ts-sdk-tasks/*.jsonl; do
    seed jsonl '\x00' "$file"
    seed jsonl '\x02' "$file"
    # Any bytes make an engine trace (about 60 lines a KiB); a trace's own
    # bytes steer it somewhere. Short seeds keep the runs fast.
    seed engine '\x00' "$file" 1024
done
seed jsonl '\x01' "$testdata/bare-stdio-capture.jsonl"
for file in "$testdata"/har/*.har "$testdata"/sessions/*.har; do
    seed har '' "$file"
done
for file in "$testdata"/mcpsnoop/*.jsonl; do
    [[ $file == *.canonical.jsonl ]] || seed mcpsnoop '' "$file"
done
seed inspector '\x00' "$testdata"/inspector/*T10-01-22.json
seed inspector '\x01' "$testdata"/inspector-network/*T11-20-30.json

# The client logs, by the selector of fuzz_targets/client_logs.rs.
logs=(claude-log vscode-log claude-code cursor-log supergateway go-sdk python-sdk mcpspy librechat mcp-remote)
for index in "${!logs[@]}"; do
    for file in "$testdata/${logs[$index]}"/*; do
        [[ $file == *.canonical.jsonl ]] || seed client_logs "\\x$(printf %02x "$index")" "$file"
    done
done

# The rule pages' examples: JSON lines, HARs, and the SSE bodies in them.
examples=$(mktemp -d)
trap 'rm -rf "$examples"' EXIT
awk -v out="$examples" '
    /^```(jsonl|har) (bad|good)$/ { split(substr($0, 4), info, " "); n++; file = out "/" n "." info[1]; next }
    /^```/ { file = ""; next }
    file != "" { print > file }
' ../rules/*.md
for file in "$examples"/*.jsonl; do seed jsonl '\x00' "$file"; done
for file in "$examples"/*.har; do
    seed har '' "$file"
    jq -r '.log.entries[].response.content | select(.mimeType // "" | test("event-stream")) | .text' \
        "$file" > "$file.sse" 2>/dev/null || true
    [[ -s $file.sse ]] && seed sse '\x00' "$file.sse"
done

# Tool schemas (NUL, then an instance) and protocol members (method, NUL, JSON).
schema() { mkdir -p corpus/schema; printf "$1" > "corpus/schema/$(printf '%s' "$1" | sha1sum | cut -c1-16)"; }
schema '\x00{"type":"object","properties":{"a":{"type":"string","pattern":"^(a+)+$"}},"required":["a"]}\x00{"a":"aaaaaaaaaaaaaaaaaaaaaaaa!"}'
schema '\x03{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}\x00{}'
schema '\x04{"$schema":"https://json-schema.org/draft/2020-12/schema","$ref":"#"}\x00[1]'
schema '\x08tools/call\x00{"name":"add","arguments":{"a":1}}'
schema '\x09initialize\x00{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}'
schema '\x10tools/list\x00{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}'
schema '\x18\x00{"code":-32600,"message":"bad","data":{}}'
for target in corpus/*; do echo "$(ls "$target" | wc -l) seeds in $target"; done
