# The jq alternative to mcp-lint: the same state tracking as benches/naive.py
# (read its docstring for what it counts), in one jq pass, so the comparison
# in benches/compare.sh times comparable work, not a mere filter.
#
#   jq -n -c -f benches/naive.jq TRACE.jsonl
#
# Under jq 1.6 it is very slow (on a loaded 2-core machine it had not finished
# a 64 MiB trace after 8 minutes): benches/compare.sh times it only with --jq-tracking,
# and always times a parse-only jq pass (messages counted per method).
#
# Keys are "session side id" with the id (or token) as JSON text, so integer 0
# and string "0" stay apart. Requests are keyed by the side that sent them.

def bump($name): .found[$name] += 1;
def other: if . == "client" then "server" else "client" end;
def params: if (.params | type) == "object" then .params else {} end;

# A request of side $own: its id must not be open or answered already.
def request($own; $m):
  "\($own) \($m.id | tojson)" as $id
  | ($m | params | ._meta
     | if type == "object" and has("progressToken")
       then "\($own) \(.progressToken | tojson)" else null end) as $token
  | if .open | has($id) then bump("id-reused-while-open")
    elif .answered | has($id) then bump("id-reused")
    else . end
  | if $token == null then .
    elif .tokens | has($token) then bump("token-reused") | .tokens[$token] = null
    else .tokens[$token] = null end
  | .open[$id] = $token;

# A response answers a request of the peer.
def response($peer; $m):
  "\($peer) \($m.id | tojson)" as $id
  | if .open | has($id) then
      .open[$id] as $token
      | del(.open[$id]) | .answered[$id] = true
      | if $token == null then . else del(.tokens[$token]) | .released[$token] = true end
    elif .answered | has($id) then bump("duplicate-response")
    else bump("response-unknown-id") end;

# Progress is sent for a request of the peer, naming its token.
def progress($peer; $p):
  "\($peer) \($p.progressToken | tojson)" as $token
  | if .tokens | has($token) then
      (if ($p.progress | type) == "number" and .tokens[$token] != null
          and $p.progress <= .tokens[$token]
       then bump("progress-not-increasing") else . end)
      | .tokens[$token] = $p.progress
    elif .released | has($token) then bump("progress-after-response")
    else bump("progress-unknown-token") end;

# A cancellation names a request its own side sent.
def cancel($own; $p):
  "\($own) \($p.requestId | tojson)" as $id
  | if (.open | has($id)) or (.answered | has($id)) then .
    else bump("cancel-unknown-request") end;

reduce (
  inputs
  | select(type == "object" and .msg != null and (.from == "client" or .from == "server"))
  | (.session | tojson) as $session
  | .from as $from
  | .msg | if type == "array" then .[] else . end
  | select(type == "object")
  | {own: "\($session) \($from)", peer: "\($session) \($from | other)", m: .}
) as $e (
  {open: {}, answered: {}, tokens: {}, released: {}, found: {unanswered: 0}};
  $e.m as $m
  | if $m.method != null and ($m | has("id")) then request($e.own; $m)
    elif $m.method == null and ($m | has("id")) then response($e.peer; $m)
    elif $m.method == "notifications/progress" then progress($e.peer; $m | params)
    elif $m.method == "notifications/cancelled" then cancel($e.own; $m | params)
    else . end
)
| .found.unanswered = (.open | length)
| .found
