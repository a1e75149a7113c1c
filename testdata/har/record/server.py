"""Tiny MCP server (official Python SDK) served over Streamable HTTP on 127.0.0.1.

usage: python server.py PORT [--json-response]
"""

import sys
import warnings

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.types import SamplingMessage, TextContent

warnings.simplefilter("ignore")  # sampling is deprecated at 2026-07-28; this recording uses 2025-11-25

JSON_RESPONSE = "--json-response" in sys.argv
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


if __name__ == "__main__":
    port = int(sys.argv[1])
    mcp.run("streamable-http", host="127.0.0.1", port=port, json_response=JSON_RESPONSE)
