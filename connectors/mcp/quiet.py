"""Keeps the SDK's own log records free of server output and message contents.

The SDK logs a traceback for every stdout line a server prints that is not MCP, and those
tracebacks quote the line; a server may print its environment (our secrets), so the quoted
text must not reach the app's logs. Its DEBUG records carry whole messages (tool arguments
and results). The filter drops DEBUG records and keeps only the exception's type name of the
rest, so the record still says what went wrong without quoting anything.
"""

from __future__ import annotations

import logging

# The loggers of the SDK's client side (the session logs as plain "client").
SDK_LOGGERS = (
    "mcp.client.client",
    "mcp.client.stdio",
    "mcp.client.streamable_http",
    "mcp.shared.jsonrpc_dispatcher",
    "client",
)


class _NoServerText(logging.Filter):
    """Drops DEBUG records, and replaces a record's traceback by the exception's type name."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno <= logging.DEBUG:
            return False
        if record.exc_info:
            exc_type = record.exc_info[0]
            name = exc_type.__name__ if exc_type is not None else "unknown"
            record.msg = f"{record.getMessage()} ({name})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


def quiet_sdk_logs() -> None:
    """Install the filter on the SDK's client loggers (idempotent). The HTTP library's own
    INFO lines name every address it posts to (which may carry a token): warnings only."""
    logging.getLogger("httpx2").setLevel(logging.WARNING)
    for name in SDK_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(item, _NoServerText) for item in logger.filters):
            logger.addFilter(_NoServerText())
