#!/usr/bin/env bash
# Record two real MCP Streamable HTTP sessions (official Python SDK client and
# server) through mitmproxy in reverse-proxy mode, one HAR file per session.
# Everything listens on 127.0.0.1 only; every process started here is stopped.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$(dirname "$HERE")                    # testdata/har
PY=${PY312:-/root/.pyenv/versions/3.12.1/bin/python3.12}
VENV_PROXY=${VENV_PROXY:-/tmp/venv-proxy} # mitmproxy pins h11 differently from mcp:
VENV_MCP=${VENV_MCP:-/tmp/venv-mcp}       # so two virtualenvs
LOGS=$(mktemp -d)
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$LOGS"
}
trap cleanup EXIT

[ -x "$VENV_PROXY/bin/mitmdump" ] || { "$PY" -m venv "$VENV_PROXY" && "$VENV_PROXY/bin/pip" install -q mitmproxy==12.3.1; }
[ -x "$VENV_MCP/bin/python" ] && "$VENV_MCP/bin/python" -c 'import mcp' 2>/dev/null \
  || { "$PY" -m venv "$VENV_MCP" && "$VENV_MCP/bin/pip" install -q mcp==2.3.0; }

wait_port() {  # bounded: 100 x 0.1 s
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "port $1 never opened" >&2; return 1
}

# record NAME SERVER_PORT PROXY_PORT "SERVER_FLAGS" "CLIENT_FLAGS" "CHECK_FLAGS"
record() {
  local name=$1 sport=$2 pport=$3 sflags=$4 cflags=$5 checkflags=$6
  local har="$OUT/$name.har"
  rm -f "$har"
  "$VENV_MCP/bin/python" "$HERE/server.py" "$sport" $sflags >"$LOGS/$name-server.log" 2>&1 &
  local spid=$!; PIDS+=("$spid")
  wait_port "$sport"
  "$VENV_PROXY/bin/mitmdump" -q --listen-host 127.0.0.1 -p "$pport" \
    --mode "reverse:http://127.0.0.1:$sport" -s "$HERE/keep_sse.py" \
    --set hardump="$har" >"$LOGS/$name-proxy.log" 2>&1 &
  local ppid=$!; PIDS+=("$ppid")
  wait_port "$pport"
  echo "== $name"
  local path=/mcp; [[ " $cflags " == *" --legacy "* ]] && path=/sse
  timeout 60 "$VENV_MCP/bin/python" "$HERE/client.py" "http://127.0.0.1:$pport$path" $cflags
  sleep 0.5                                   # let the last flows finish in the proxy
  kill -INT "$ppid"; wait "$ppid" || true     # mitmdump writes the HAR on exit
  kill "$spid"; wait "$spid" || true
  PIDS=()
  [ -s "$har" ] || { echo "no HAR written: $har" >&2; cat "$LOGS/$name-proxy.log" >&2; return 1; }
  echo "wrote $har ($(wc -c <"$har") bytes)"
  "$VENV_MCP/bin/python" "$HERE/check_har.py" "$har" $checkflags
}

# `record.sh NAME...` records only those sessions; without arguments, all of them.
ONLY="$*"
for spec in \
  "python-sdk-streamable-http 18931 18941 -          --cancel --sse" \
  "python-sdk-json-response   18932 18942 --json-response -  -" \
  "python-sdk-resumption      18933 18943 --resumable --resume --sse" \
  "python-sdk-http-sse-2024-11-05 18934 18944 --sse-transport --legacy --legacy"; do
  read -r name sport pport sflags cflags checkflags <<<"$spec"
  [ "$sflags" = - ] && sflags=""; [ "$cflags" = - ] && cflags=""; [ "$checkflags" = - ] && checkflags=""
  if [ -z "$ONLY" ] || [[ " $ONLY " == *" $name "* ]]; then
    record "$name" "$sport" "$pport" "$sflags" "$cflags" "$checkflags"
  fi
done
