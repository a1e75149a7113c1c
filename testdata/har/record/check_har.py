"""Sanity-check a recorded HAR: valid JSON, bodies present, session ids present.

usage: python check_har.py FILE.har [--sse | --legacy]
  --sse: tool-call answers must be text/event-stream
  --legacy: the HTTP+SSE transport of 2024-11-05 (answers travel on the GET stream; no session header)
"""

import json
import sys


def header(headers: list[dict], name: str) -> str | None:
    return next((h["value"] for h in headers if h["name"].lower() == name), None)


def main(path: str, sse: bool) -> None:
    entries = json.load(open(path))["log"]["entries"]
    assert entries, "no entries"
    if "--legacy" in sys.argv:
        stream = next(e for e in entries if e["request"]["method"] == "GET")
        assert stream["response"]["content"]["text"].lstrip().startswith("event: endpoint"), "no endpoint event"
        posts = [json.loads(e["request"]["postData"]["text"]) for e in entries if e["request"]["method"] == "POST"]
        print(f"ok {path}: {len(entries)} entries; POSTed {', '.join(p.get('method', '(response)') for p in posts)}")
        return
    methods = []
    for e in entries:
        rq, rs = e["request"], e["response"]
        if rq["method"] == "POST":
            body = json.loads(rq["postData"]["text"])
            methods.append(body.get("method", "(response)"))
            if body.get("method") != "initialize":
                assert header(rq["headers"], "mcp-session-id"), f"no Mcp-Session-Id on {body}"
            if "id" in body and "method" in body:  # a request: its answer is in the response body
                assert rs["content"].get("text"), f"empty response body for {body}"
                ctype = header(rs["headers"], "content-type") or ""
                assert ctype.startswith("text/event-stream" if sse else "application/json"), ctype
        assert header(rs["headers"], "mcp-session-id"), f"no Mcp-Session-Id in response to {rq['method']}"
    print(f"ok {path}: {len(entries)} entries; POSTed {', '.join(methods)}")


if __name__ == "__main__":
    main(sys.argv[1], "--sse" in sys.argv)
