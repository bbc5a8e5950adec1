"""Chat templates render in the environment transformers and llama-cpp-python give them.

Hearth's sandbox lacked `loopcontrols` ({% break %}, {% continue %}), the {% generation %} tag
and `tojson`'s `separators` / `sort_keys`: a GGUF whose template used the first two failed on
every turn, one using the last two got a prompt unlike the one it was trained on. Each
template below is written in the form a published model family uses (named beside it); each
must render exactly as llama-cpp-python's own Jinja2ChatFormatter renders it.
"""

from __future__ import annotations

from typing import Any

import pytest
from llama_cpp.llama_chat_format import Jinja2ChatFormatter

from app.llm.chat_template import ChatTemplate

# Qwen3 / Qwen3.5-style: find the last real user query from the end, then stop ({% break %}).
LAST_QUERY_BREAK = """\
{%- set ns = namespace(last_query_index=messages|length - 1) %}
{%- for message in messages[::-1] %}
    {%- set index = (messages|length - 1) - loop.index0 %}
    {%- if message.role == "user" and not message.content.startswith('<tool_response>') %}
        {%- set ns.last_query_index = index %}
        {%- break %}
    {%- endif %}
{%- endfor %}
{%- for message in messages %}
    {%- if message.role == "system" and not loop.first %}
        {%- continue %}
    {%- endif %}
    {%- if message.role == "assistant" and loop.index0 > ns.last_query_index %}
        {{- '<|im_start|>assistant\\n<think>\\n\\n</think>\\n\\n' }}
        {{- message.content + '<|im_end|>\\n' }}
    {%- else %}
        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
{%- endif %}
"""

# A ChatML training template (TRL / SmolLM3 style): the assistant's span is marked for the loss.
GENERATION_TAGS = """\
{%- for message in messages %}
    {{- '<|im_start|>' + message.role + '\\n' }}
    {%- if message.role == 'assistant' %}
        {%- generation %}
            {{- message.content + '<|im_end|>' }}
        {%- endgeneration %}
        {{- '\\n' }}
    {%- else %}
        {{- message.content + '<|im_end|>\\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}
"""

# Kimi K2-style: tools declared as compact JSON; a sorted-key variant for stable prompts.
COMPACT_TOOLS = """\
{%- if tools -%}
<|im_system|>tool_declare<|im_middle|>{{ tools | tojson(separators=(',', ':')) }}<|im_end|>
{%- endif -%}
{%- for message in messages -%}
<|im_{{ message.role }}|>{{ message.role }}<|im_middle|>{{ message.content }}<|im_end|>
{%- endfor -%}
{%- if add_generation_prompt -%}<|im_assistant|>assistant<|im_middle|>{%- endif -%}
"""
SORTED_TOOLS = """\
{%- for tool in tools %}{{ tool | tojson(sort_keys=True) }}
{% endfor %}{{ messages[-1].content }}"""

MESSAGES = [
    {"role": "system", "content": "You are Hearth."},
    {"role": "user", "content": "What's on Friday? Café at 10?"},
    {"role": "assistant", "content": "Let me look."},
    {"role": "user", "content": "<tool_response>\n[]\n</tool_response>"},
    {"role": "assistant", "content": "Nothing yet."},
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "list_events",
            "parameters": {"type": "object", "properties": {"start": {"type": "string"}}},
            "description": "Events in a time range, e.g. a café visit",
        },
    }
]


def _reference(template: str, tools: list[dict[str, Any]] | None) -> str:
    # Plain dicts, as its TypedDicts are at run time.
    formatter: Any = Jinja2ChatFormatter(template, eos_token="</s>", bos_token="<s>")
    return formatter(messages=MESSAGES, tools=tools).prompt


@pytest.mark.parametrize(
    ("template", "tools"),
    [
        (LAST_QUERY_BREAK, None),
        (GENERATION_TAGS, None),
        (COMPACT_TOOLS, TOOLS),
        (SORTED_TOOLS, TOOLS),
    ],
    ids=["break-continue", "generation-tag", "tojson-separators", "tojson-sort-keys"],
)
def test_renders_as_llama_cpp_python_and_transformers_do(
    template: str, tools: list[dict[str, Any]] | None
) -> None:
    ours = ChatTemplate.for_model(template, "<s>", "</s>").render(MESSAGES, tools=tools)
    assert ours == _reference(template, tools)


def test_each_feature_has_its_effect() -> None:
    def render(template: str, tools: list[dict[str, Any]] | None = None) -> str:
        return ChatTemplate.for_model(template, "", "").render(MESSAGES, tools=tools)

    broken = render(LAST_QUERY_BREAK)
    # The loop stopped at the last real query (message 1), not at the tool result (message 3):
    # both answers after it get the think block.
    assert broken.count("<|im_start|>assistant\n<think>\n\n</think>\n\n") == 2
    assert render(GENERATION_TAGS).count("<|im_start|>assistant\n") == 3
    compact = render(COMPACT_TOOLS, TOOLS)
    assert '"function":{"name":"list_events"' in compact and "café" in compact
    assert render(SORTED_TOOLS, TOOLS).startswith('{"function": {"description":')
