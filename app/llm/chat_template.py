"""Render prompts from the model's own chat template (the GGUF's `tokenizer.chat_template`).

We render it ourselves, in a sandboxed Jinja environment, instead of letting llama-cpp-python
do it: we must pass `enable_thinking` and `tools`, and a model without a template must get a
named fallback (ChatML) rather than llama-cpp-python's silent llama-2 guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from jinja2 import Undefined, nodes
from jinja2.exceptions import TemplateError
from jinja2.ext import Extension, loopcontrols
from jinja2.parser import Parser
from jinja2.sandbox import ImmutableSandboxedEnvironment

from app import clock

# ChatML, used by SmolLM2, Qwen and many others; our fallback for templates that are missing.
CHATML_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)


class TemplateRenderError(Exception):
    """The model's chat template refused the conversation (its own `raise_exception`)."""


@dataclass(frozen=True)
class ChatTemplate:
    source: str
    name: str  # "gguf" for the model's own template, "chatml-fallback" otherwise
    bos_token: str = ""
    eos_token: str = ""

    @classmethod
    def for_model(cls, template: str | None, bos_token: str, eos_token: str) -> ChatTemplate:
        if template:
            return cls(template, "gguf", bos_token, eos_token)
        return cls(CHATML_TEMPLATE, "chatml-fallback", bos_token, eos_token)

    @property
    def is_fallback(self) -> bool:
        return self.name != "gguf"

    def render(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        enable_thinking: bool = False,
        add_generation_prompt: bool = True,
        now: datetime | None = None,
    ) -> str:
        now = now or clock.now()
        context: dict[str, Any] = {
            "messages": messages,
            "add_generation_prompt": add_generation_prompt,
            "enable_thinking": enable_thinking,
            "bos_token": self.bos_token,
            "eos_token": self.eos_token,
            "date_string": now.strftime("%d %b %Y"),
        }
        if tools:
            context["tools"] = tools
        try:
            return _environment().from_string(self.source).render(**context)
        except TemplateRenderError:
            raise
        except TemplateError as exc:
            raise TemplateRenderError(f"the model's chat template failed: {exc}") from exc


def _raise_exception(message: str) -> None:
    raise TemplateRenderError(message)


def _tojson(
    value: Any,
    ensure_ascii: bool = False,
    indent: int | None = None,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
) -> str:
    """Transformers' signature and defaults (non-ASCII kept): templates that ask for compact
    separators or sorted keys get the JSON their model was trained on."""
    return json.dumps(
        value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
    )


class _GenerationTag(Extension):
    """``{% generation %}…{% endgeneration %}``: transformers marks the assistant's span with it
    for a training loss mask; for rendering it is a pass-through (as in llama-cpp-python)."""

    tags = {"generation"}  # noqa: RUF012 - jinja2 declares Extension.tags as a plain set

    def parse(self, parser: Parser) -> list[nodes.Node]:
        parser.stream.skip(1)
        return parser.parse_statements(("name:endgeneration",), drop_needle=True)


_ENV: ImmutableSandboxedEnvironment | None = None


def _environment() -> ImmutableSandboxedEnvironment:
    global _ENV
    if _ENV is None:
        # The environment transformers and llama-cpp-python give templates, still sandboxed:
        # without loopcontrols and the generation tag such templates failed on every turn.
        env = ImmutableSandboxedEnvironment(
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=Undefined,
            keep_trailing_newline=False,
            extensions=[_GenerationTag, loopcontrols],
        )
        env.filters["tojson"] = _tojson
        env.globals["raise_exception"] = _raise_exception
        env.globals["strftime_now"] = lambda fmt: clock.now().strftime(fmt)
        _ENV = env
    return _ENV
