import asyncio
import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import ElicitResult


async def elicit(ctx, params):
    return ElicitResult(action="accept", content={"city": "Oslo"})


async def log(params):
    print('log', params, file=sys.stderr)


async def main():
    # `python client.py URL` talks Streamable HTTP; `python client.py COMMAND...`
    # runs the server over stdio.
    if sys.argv[1].startswith("http"):
        server = sys.argv[1]
    else:
        server = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with Client(server, elicitation_callback=elicit, log_level="info", logging_callback=log) as client:
        await client.list_tools()
        await client.read_resource("weather://oslo")
        await client.get_prompt("ask", {"city": "Oslo"})

        async def progress(p, total, message):
            pass

        result = await client.call_tool("forecast", {}, progress_callback=progress)
        print(result, file=sys.stderr)
        with anyio.move_on_after(0.35):
            await client.call_tool("slow", {}, progress_callback=progress)
        async with client.listen(tools_list_changed=True, resource_subscriptions=["weather://oslo"]) as sub:
            await client.call_tool("touch", {})
            async for event in sub:
                print("event", event, file=sys.stderr)
                if type(event).__name__ != "ToolsListChanged":
                    await client.call_tool("stop_listening", {})
            print("listen ended", file=sys.stderr)


asyncio.run(main())
