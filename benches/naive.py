#!/usr/bin/env python3
"""The naive alternative to mcp-lint a user would write: json-load each line
of a canonical JSON-lines trace and track request ids and progress tokens in
dicts, per session and direction. benches/compare.sh times it against
mcp-lint on the same file.

A fair, minimal version of what mcp-lint's core request and progress rules
do, and no more: no versions, capabilities, schemas, tasks, HTTP, locations
of earlier messages or spec quotes. It counts:

- a request whose id is still open (id-reused-while-open), or was answered
  before (id-reused), from the same side of the same session;
- a response to an id never sent (response-unknown-id) or already answered
  (duplicate-response);
- a progress token already in use (token-reused);
- progress for a token never sent (progress-unknown-token), after the
  response (progress-after-response), or not increasing (progress-not-increasing);
- a cancellation of a request never sent (cancel-unknown-request);
- requests still open when the trace ends (unanswered).

Ids and tokens keep their JSON type: integer 0 and string "0" differ.

Usage: python3 benches/naive.py TRACE.jsonl (or - for stdin); prints the
counts as one JSON object.
"""

import json
import sys
from collections import Counter, defaultdict

PEER = {"client": "server", "server": "client"}


def key(value):
    """A typed key: 0, "0" and 0.0 stay apart (Python's 0 == 0.0 == False)."""
    return (type(value).__name__, value)


class Direction:
    """The requests one side of one session sent, and their tokens."""

    def __init__(self):
        self.open = {}  # id -> progress token (or None)
        self.answered = set()
        self.tokens = {}  # token -> last progress value
        self.released = set()


def lint(lines):
    state = defaultdict(Direction)  # (session, sender) -> Direction
    found = Counter()
    for line in lines:
        if not line.strip():
            continue
        try:
            envelope = json.loads(line)
        except ValueError:
            found["unreadable-line"] += 1
            continue
        message = envelope.get("msg")
        sender = envelope.get("from")
        if message is None or sender not in PEER:
            continue
        session = envelope.get("session")
        for one in message if isinstance(message, list) else [message]:
            if isinstance(one, dict):
                check(one, state[(session, sender)], state[(session, PEER[sender])], found)
    for direction in state.values():
        found["unanswered"] += len(direction.open)
    return found


def check(message, own, peer, found):
    """One message from the side whose requests are `own`."""
    method = message.get("method")
    if method is not None and "id" in message:
        request(message, own, found)
    elif method is None and "id" in message:
        response(message, peer, found)
    elif method == "notifications/progress":
        progress(message.get("params") or {}, peer, found)
    elif method == "notifications/cancelled":
        target = key((message.get("params") or {}).get("requestId"))
        if target not in own.open and target not in own.answered:
            found["cancel-unknown-request"] += 1


def request(message, own, found):
    request_id = key(message["id"])
    if request_id in own.open:
        found["id-reused-while-open"] += 1
    elif request_id in own.answered:
        found["id-reused"] += 1
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    token = key(meta["progressToken"]) if isinstance(meta, dict) and "progressToken" in meta else None
    if token is not None:
        if token in own.tokens:
            found["token-reused"] += 1
        own.tokens[token] = None
    own.open[request_id] = token


def response(message, peer, found):
    """A response answers a request of the peer."""
    request_id = key(message["id"])
    if request_id in peer.open:
        token = peer.open.pop(request_id)
        peer.answered.add(request_id)
        if token is not None:
            peer.tokens.pop(token, None)
            peer.released.add(token)
    elif request_id in peer.answered:
        found["duplicate-response"] += 1
    else:
        found["response-unknown-id"] += 1


def progress(params, peer, found):
    """Progress is sent for a request of the peer, naming its token."""
    token = key(params.get("progressToken"))
    if token in peer.tokens:
        value, last = params.get("progress"), peer.tokens[token]
        if isinstance(value, (int, float)) and last is not None and value <= last:
            found["progress-not-increasing"] += 1
        peer.tokens[token] = value
    elif token in peer.released:
        found["progress-after-response"] += 1
    else:
        found["progress-unknown-token"] += 1


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: naive.py TRACE.jsonl (or - for stdin)")
    path = sys.argv[1]
    if path == "-":
        found = lint(sys.stdin.buffer)
    else:
        with open(path, "rb") as trace:
            found = lint(trace)
    print(json.dumps(dict(sorted(found.items()))))


if __name__ == "__main__":
    main()
