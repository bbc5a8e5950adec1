"""Listing a server's tools: follow the pages, stop at a cap, keep only the plain data.

A server decides how many tools and pages it sends; the caps keep a broken or hostile server
from flooding the model's tool list or paginating forever.
"""

from __future__ import annotations

import logging

from mcp import Client
from mcp.types import Tool

from .config import ServerTool

log = logging.getLogger(__name__)

MAX_TOOLS = 200
MAX_PAGES = 50


async def list_all_tools(client: Client, server_name: str) -> list[ServerTool]:
    """Every tool of the server, page after page, at most MAX_TOOLS of them."""
    tools: list[ServerTool] = []
    names: set[str] = set()
    seen_cursors: set[str] = set()
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = await client.list_tools(cursor=cursor)
        for tool in page.tools:
            if len(tools) >= MAX_TOOLS:
                log.warning(
                    "MCP server %r offers more than %d tools; kept the first ones",
                    server_name,
                    MAX_TOOLS,
                )
                return tools
            if tool.name not in names:  # a name listed twice: the first one counts
                names.add(tool.name)
                tools.append(server_tool(tool))
        cursor = page.next_cursor
        if cursor is None or cursor in seen_cursors:
            return tools
        seen_cursors.add(cursor)
    log.warning(
        "MCP server %r lists its tools on more than %d pages; kept the first ones",
        server_name,
        MAX_PAGES,
    )
    return tools


def server_tool(tool: Tool) -> ServerTool:
    """The SDK's Tool as plain, immutable data."""
    hints = tool.annotations
    title = tool.title or (hints.title if hints is not None else None)
    return ServerTool(
        name=tool.name,
        description=tool.description or "",
        input_schema=dict(tool.input_schema),
        title=title,
        read_only_hint=hints.read_only_hint if hints is not None else None,
        destructive_hint=hints.destructive_hint if hints is not None else None,
        open_world_hint=hints.open_world_hint if hints is not None else None,
    )
