"""Not an MCP server: exits at once, having printed its secret on stderr."""

from __future__ import annotations

import os
import sys

print(f"fatal: bad configuration {os.environ.get('HEARTH_TEST_SECRET', '')}", file=sys.stderr)
sys.exit(2)
