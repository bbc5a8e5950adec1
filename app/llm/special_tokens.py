"""Keep other people's text from speaking in the model's control language.

llama.cpp turns the text of a special token (`<|im_end|>`, `<tool_call>`, `<tool_response>`,
...) into that token even inside a user message or a tool result. An email that contains
`</tool_response><|im_start|>system` would otherwise forge a turn. We break such sequences in
message contents with a zero-width joiner after the `<`, so they stay readable but are plain
text to the tokenizer. Only the chat template itself writes real control tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

_BREAK = "<\u2060"  # WORD JOINER: invisible, and no tokenizer merges it into a special token
_GENERIC = re.compile(r"<(?=\|[^|<>\s]{1,40}\|>)|<(?=/?(?:tool_call|tool_response|think)>)")


def special_token_pattern(texts: Iterable[str]) -> re.Pattern[str]:
    """A pattern for the `<` that starts any of these special token texts."""
    tagged = sorted({t[1:] for t in texts if t.startswith("<") and len(t) > 2}, key=len)
    if not tagged:
        return _GENERIC
    alternatives = "|".join(re.escape(t) for t in reversed(tagged))
    return re.compile(rf"<(?={alternatives})|{_GENERIC.pattern}")


def neutralise(text: str, pattern: re.Pattern[str] = _GENERIC) -> str:
    return pattern.sub(_BREAK, text)


def neutralise_messages(
    messages: Sequence[Mapping[str, Any]], pattern: re.Pattern[str] = _GENERIC
) -> list[dict[str, Any]]:
    """Copies of the messages with special-token text broken in every content string."""
    cleaned: list[dict[str, Any]] = []
    for message in messages:
        copy = dict(message)
        content = copy.get("content")
        if isinstance(content, str):
            copy["content"] = neutralise(content, pattern)
        cleaned.append(copy)
    return cleaned
