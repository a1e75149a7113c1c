import asyncio
from typing import Annotated

from pydantic import BaseModel

import mcp.server.mcpserver.server as mcpserver_module
from mcp.server.mcpserver import MCPServer, Context, Elicit, Resolve
from mcp.server.subscriptions import ListenHandler

listen_handlers = []


class RecordedListenHandler(ListenHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        listen_handlers.append(self)


mcpserver_module.ListenHandler = RecordedListenHandler
mcp = MCPServer("weather")


class City(BaseModel):
    city: str


def ask_city() -> Elicit[City]:
    return Elicit("Which city?", City)


@mcp.tool()
async def forecast(city: Annotated[City, Resolve(ask_city)], ctx: Context) -> str:
    """Forecast for a city the user names."""
    await ctx.info(f"forecast for {city.city}")
    await ctx.report_progress(1, 2, "fetching")
    await ctx.report_progress(2, 2, "done")
    return f"Rain in {city.city}"


@mcp.tool()
async def slow(ctx: Context) -> str:
    """A tool that takes long."""
    for i in range(50):
        await ctx.report_progress(i, 50)
        await asyncio.sleep(0.1)
    return "finished"


@mcp.tool()
async def touch(ctx: Context) -> str:
    """Changes the tool list."""
    await ctx.notify_tools_changed()
    await ctx.notify_resource_updated("weather://oslo")
    return "ok"


@mcp.resource("weather://oslo")
def oslo() -> str:
    return "rain"


@mcp.prompt()
def ask(city: str) -> str:
    return f"Weather in {city}?"


@mcp.tool()
async def stop_listening() -> str:
    """Ends every listen stream gracefully."""
    for handler in listen_handlers:
        handler.close()
    return "closed"


if __name__ == "__main__":
    import sys

    # `python server.py` serves stdio; `python server.py PORT`, Streamable HTTP.
    if len(sys.argv) > 1:
        mcp.run("streamable-http", port=int(sys.argv[1]))
    else:
        mcp.run("stdio")
