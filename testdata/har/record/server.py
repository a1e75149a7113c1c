"""Tiny MCP server (official Python SDK) served over Streamable HTTP on 127.0.0.1.

usage: python server.py PORT [--json-response] [--resumable] [--sse-transport]

With --resumable the server keeps every SSE event in memory (`MemoryEventStore`), sends
priming events with `retry: 100`, and its `poll_count` tool closes its own SSE stream
halfway, so the client resumes it with a GET carrying Last-Event-ID. With --sse-transport
it serves the deprecated HTTP+SSE transport of 2024-11-05 (GET /sse, POST /messages/).
"""

import sys
import warnings

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.streamable_http import EventMessage, EventStore
from mcp.types import SamplingMessage, TextContent

warnings.simplefilter("ignore")  # sampling is deprecated at 2026-07-28; this recording uses 2025-11-25

JSON_RESPONSE = "--json-response" in sys.argv
RESUMABLE = "--resumable" in sys.argv


class MemoryEventStore(EventStore):
    """Every event of every stream, in order; ids are "<stream>-<n>"."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, object]] = []  # (event id, stream id, message or None)

    async def store_event(self, stream_id, message):
        event_id = f"{stream_id}-{len(self.events)}"
        self.events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        ids = [e[0] for e in self.events]
        if last_event_id not in ids:
            return None
        at = ids.index(last_event_id)
        stream_id = self.events[at][1]
        for event_id, stream, message in self.events[at + 1 :]:
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id
mcp = MCPServer("har-demo", version="0.1.0", log_level="WARNING")


@mcp.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@mcp.tool()
async def slow_count(n: int, ctx: Context, delay: float = 0.2) -> str:
    """Count to n, reporting progress after each step."""
    for i in range(1, n + 1):
        await anyio.sleep(delay)
        await ctx.report_progress(i, n, f"step {i}/{n}")
    return f"counted to {n}"


@mcp.tool()
async def ask_client(question: str, ctx: Context) -> str:
    """Ask the client's model (sampling/createMessage, a server-to-client request)."""
    result = await ctx.session.create_message(
        [SamplingMessage(role="user", content=TextContent(type="text", text=question))],
        max_tokens=20,
        # SSE mode: send it on this tool call's own response stream. A JSON response has no
        # stream, so that fails ("no back-channel"); unrelated, it goes on the GET stream.
        related_request_id=None if JSON_RESPONSE else ctx.request_id,
    )
    return f"client said: {result.content.text}"


@mcp.tool()
async def poll_count(n: int, ctx: Context) -> str:
    """Count to n; after the first step, close this call's SSE stream (the client resumes it)."""
    for i in range(1, n + 1):
        await anyio.sleep(0.2)
        await ctx.report_progress(i, n, f"step {i}/{n}")
        if i == 1:
            await ctx.close_sse_stream()
    return f"counted to {n}"


if __name__ == "__main__":
    port = int(sys.argv[1])
    if "--sse-transport" in sys.argv:
        mcp.run("sse", host="127.0.0.1", port=port)
    elif RESUMABLE:
        mcp.run(
            "streamable-http",
            host="127.0.0.1",
            port=port,
            event_store=MemoryEventStore(),
            retry_interval=100,
        )
    else:
        mcp.run("streamable-http", host="127.0.0.1", port=port, json_response=JSON_RESPONSE)
