"""Prompts are rendered from the model's own template; a missing one gets a named fallback."""

from __future__ import annotations

import pytest

from app.llm.chat_template import ChatTemplate, TemplateRenderError
from app.llm.gguf_file import read_gguf

MESSAGES = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Hi! Grüße aus München"},
]


def test_renders_the_gguf_template(smollm2_path) -> None:
    info = read_gguf(smollm2_path)
    template = ChatTemplate.for_model(info.chat_template, "<|im_start|>", "<|im_end|>")
    assert template.name == "gguf"
    prompt = template.render(MESSAGES)
    assert prompt == (
        "<|im_start|>system\nBe brief.<|im_end|>\n"
        "<|im_start|>user\nHi! Grüße aus München<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def test_missing_template_uses_named_chatml_fallback() -> None:
    template = ChatTemplate.for_model(None, "<s>", "</s>")
    assert template.is_fallback and template.name == "chatml-fallback"
    assert template.render(MESSAGES).endswith("<|im_start|>assistant\n")


def test_thinking_flag_and_tools_reach_the_template() -> None:
    source = (
        "{% if enable_thinking %}T{% else %}F{% endif %}"
        "{% for t in tools %}{{ t | tojson }}{% endfor %}"
    )
    template = ChatTemplate(source, "gguf")
    tools = [{"name": "list_events", "description": "Kalender prüfen"}]
    assert (
        template.render(MESSAGES, tools=tools)
        == 'F{"name": "list_events", "description": "Kalender prüfen"}'
    )
    assert template.render(MESSAGES, tools=tools, enable_thinking=True).startswith("T")


def test_template_raise_exception_becomes_a_clear_error() -> None:
    template = ChatTemplate("{{ raise_exception('No user query found in messages.') }}", "gguf")
    with pytest.raises(TemplateRenderError, match="No user query"):
        template.render([])


def test_template_cannot_reach_python_internals() -> None:
    template = ChatTemplate("{{ messages.__class__.__mro__ }}", "gguf")
    with pytest.raises(TemplateRenderError):
        template.render(MESSAGES)
