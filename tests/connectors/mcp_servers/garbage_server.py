"""Not an MCP server: prints lines that are not JSON on stdout, forever, and never reads stdin.

It also prints the value of HEARTH_TEST_SECRET (if set) on stdout and stderr, as a careless
program might print its environment: the tests check that it reaches no message, log or
terminal.
"""

from __future__ import annotations

import os
import sys
import time

secret = os.environ.get("HEARTH_TEST_SECRET", "")
while True:
    print(f"Welcome to a program that is not an MCP server. token={secret}", flush=True)
    print(f"environment: HEARTH_TEST_SECRET={secret}", file=sys.stderr, flush=True)
    time.sleep(0.02)
