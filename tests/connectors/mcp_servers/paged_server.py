"""A real MCP server on the SDK's low-level Server: 250 tools listed 60 to a page, and tools
whose results hold every kind of content block (images, sounds, links, embedded files) or only
structured content. MCPServer neither paginates nor returns such mixes, hence the low level.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

TOOL_COUNT = 250
PAGE_SIZE = 60
EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
TOOLS = [
    types.Tool(name="mixed", description="Returns every kind of block.", input_schema=EMPTY_SCHEMA),
    types.Tool(
        name="structured_only",
        description="Returns structured content and no text.",
        input_schema=EMPTY_SCHEMA,
    ),
    *(
        types.Tool(
            name=f"tool_{index:03d}", description=f"Tool {index}.", input_schema=EMPTY_SCHEMA
        )
        for index in range(2, TOOL_COUNT)
    ),
]


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    start = int(params.cursor) if params is not None and params.cursor else 0
    end = start + PAGE_SIZE
    return types.ListToolsResult(
        tools=TOOLS[start:end], next_cursor=str(end) if end < len(TOOLS) else None
    )


async def call_tool(
    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
) -> types.CallToolResult:
    if params.name == "mixed":
        return types.CallToolResult(
            content=[
                types.TextContent(text="first text"),
                types.ImageContent(data="iVBORw0KGgo=", mime_type="image/png"),
                types.AudioContent(data="UklGRg==", mime_type="audio/wav"),
                types.ResourceLink(name="report", uri="file:///tmp/report.pdf"),
                types.EmbeddedResource(
                    resource=types.TextResourceContents(
                        uri="file:///notes.txt", text="embedded text"
                    )
                ),
                types.EmbeddedResource(
                    resource=types.BlobResourceContents(
                        uri="file:///photo.jpg", blob="AAAA", mime_type="image/jpeg"
                    )
                ),
            ]
        )
    if params.name == "structured_only":
        return types.CallToolResult(content=[], structured_content={"temperature": 21, "unit": "C"})
    return types.CallToolResult(content=[types.TextContent(text=params.name)])


server = Server("hearth-paged-server", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
