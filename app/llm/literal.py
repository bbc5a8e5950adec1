"""Reading a value a small model wrote as JSON or, as they often do, as a Python literal
(single quotes, True/None, tuples)."""

from __future__ import annotations

import ast
import json
import warnings
from typing import Any

_FAILURES = (ValueError, SyntaxError, TypeError, MemoryError, RecursionError)


def load_literal(text: str) -> Any:
    """The value `text` holds as JSON, else as a Python literal; None when it is neither (or
    null: callers want a container and treat both alike).

    Python's parser warns on escapes it does not know (`"\\]"`); in model text they are
    ordinary, so the warning is silenced rather than printed into the user's log."""
    try:
        return json.loads(text)
    except _FAILURES:
        pass
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            return ast.literal_eval(text)
        except _FAILURES:
            return None
