import asyncio
import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import ElicitResult


async def elicit(ctx, params):
    return ElicitResult(action="accept", content={"city": "Oslo"})


async def main():
    server = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with Client(server, elicitation_callback=elicit) as client:
        await client.list_tools()

        async def progress(p, total, message):
            pass

        result = await client.call_tool("forecast", {}, progress_callback=progress)
        print(result, file=sys.stderr)
        with anyio.move_on_after(0.35):
            await client.call_tool("slow", {}, progress_callback=progress)
        async with client.listen(tools_list_changed=True) as sub:
            await client.call_tool("touch", {})
            async for event in sub:
                print("event", event, file=sys.stderr)
                await client.call_tool("stop_listening", {})
            print("listen ended", file=sys.stderr)


asyncio.run(main())
