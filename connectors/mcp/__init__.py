"""The MCP connector: tools from Model Context Protocol servers the user adds.

The client side only: start a server (a program over stdio, or a streamable-HTTP address),
list its tools as plain data, call them with timeouts and cancellation, and close it. What a
server says about its tools is data, not trusted; whether a call may run is the gate's
business, not this package's.
"""

from .config import CallOutcome, McpError, ServerConfig, ServerTool
from .connection import McpConnection

__all__ = ["CallOutcome", "McpConnection", "McpError", "ServerConfig", "ServerTool"]
