"""Helpers to write scripted model outputs in the Qwen3.5 XML wire format."""

from __future__ import annotations

import json
from typing import Any

from app.llm.scripted import ScriptedBackend


def xml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def call(name: str, /, **params: Any) -> str:
    """One `<tool_call>` block, exactly as a Qwen3.5 model writes it."""
    body = "".join(
        f"<parameter={key}>\n{xml_value(v)}\n</parameter>\n" for key, v in params.items()
    )
    return f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>"


def script(*turns: str) -> ScriptedBackend:
    return ScriptedBackend.from_data({"format": "qwen3.5", "turns": list(turns)})


def through_english(answer: str) -> list[str]:
    """The model's turns for `answer` to a question about the world asked in German, French
    or Spanish: translated into English, answered, the answer translated back (`knowledge`)."""
    return ["(the question in English)", "(the answer in English)", answer]
