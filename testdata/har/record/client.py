"""MCP client (official Python SDK) for the recording: one handshake-era session.

usage: python client.py URL [--cancel] [--resume] [--legacy]

With --resume the session is: initialize, poll_count n=3 (whose stream the server closes
after step 1; the SDK resumes it with GET + Last-Event-ID), echo. With --legacy the client
speaks the HTTP+SSE transport of 2024-11-05 and asks for protocol 2024-11-05: initialize,
tools/list, echo, slow_count n=2.
"""

import sys
import warnings

import anyio
from mcp import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CreateMessageResult, TextContent

warnings.simplefilter("ignore")


async def on_sampling(context, params) -> CreateMessageResult:
    """Answer the server's sampling/createMessage without a real model."""
    return CreateMessageResult(role="assistant", model="fake-model", content=TextContent(type="text", text="42"))


async def on_progress(progress: float, total: float | None, message: str | None) -> None:
    print(f"  progress {progress}/{total} {message}")


async def main(url: str, cancel: bool, resume: bool, legacy: bool) -> None:
    with anyio.fail_after(30):  # never hang the recording
        if legacy:
            await legacy_run(url)
        else:
            await (resume_run(url) if resume else session_run(url, cancel))
    print("closed")


async def legacy_run(url: str) -> None:
    # ClientSession.initialize() asks for the newest handshake revision; ask for 2024-11-05,
    # the revision of this transport, instead.
    import mcp.client.session

    mcp.client.session.LATEST_HANDSHAKE_VERSION = "2024-11-05"
    async with sse_client(url) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            print("initialized", init.protocol_version, init.server_info.name)
            tools = await session.list_tools()
            print("tools", [t.name for t in tools.tools])
            print("echo", (await session.call_tool("echo", {"text": "hello"})).content[0].text)
            result = await session.call_tool("slow_count", {"n": 2}, progress_callback=on_progress)
            print("slow_count", result.content[0].text)


async def resume_run(url: str) -> None:
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            print("initialized", init.protocol_version, init.server_info.name)
            result = await session.call_tool("poll_count", {"n": 3}, progress_callback=on_progress)
            print("poll_count", result.content[0].text)
            print("echo", (await session.call_tool("echo", {"text": "hello"})).content[0].text)


async def session_run(url: str, cancel: bool) -> None:
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write, sampling_callback=on_sampling) as session:
            init = await session.initialize()
            print("initialized", init.protocol_version, init.server_info.name)
            tools = await session.list_tools()
            print("tools", [t.name for t in tools.tools])
            print("echo", (await session.call_tool("echo", {"text": "hello"})).content[0].text)
            result = await session.call_tool("slow_count", {"n": 3}, progress_callback=on_progress)
            print("slow_count", result.content[0].text)
            print("ask_client", (await session.call_tool("ask_client", {"question": "6 x 7?"})).content[0].text)
            if cancel:
                # Leaving the scope abandons the call; the SDK then sends notifications/cancelled.
                with anyio.move_on_after(0.5) as scope:
                    await session.call_tool("slow_count", {"n": 10}, progress_callback=on_progress)
                print("slow_count n=10 cancelled:", scope.cancelled_caught)
                await anyio.sleep(0.3)  # let the cancel notification reach the server before we hang up


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], "--cancel" in sys.argv, "--resume" in sys.argv, "--legacy" in sys.argv)
