"""One declaration per tool: the model's spec, the gate's rule and the registry agree.

A property in the schema that the rule did not know made every call ask; a required name
only the rule knew made every call fail. These tests hold the three views of a tool to the
one row they are derived from, and the registration path that outside tools will take.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.agent.gate.arguments import PATH_ARGUMENT_NAMES, URL_ARGUMENT_NAMES
from app.agent.gate.policy import ContextState, Decision, ToolRule, decide
from app.agent.tools.declarations import BUILTIN_TOOLS, Label, ToolDeclaration
from app.agent.tools.registry import Registry, Tool, ToolResult
from app.agent.tools.toolbox import SPECS, build_registry
from app.llm.tools import ToolCall, validate_call
from tests.support import toolset


def _ok(arguments: dict[str, Any]) -> ToolResult:
    return ToolResult("ok")


@pytest.mark.parametrize("name", list(BUILTIN_TOOLS))
def test_every_schema_property_is_known_to_the_rule(name: str) -> None:
    """The gate reads the declaration itself: nothing copied that could drift."""
    declaration, spec = BUILTIN_TOOLS[name], SPECS[name]
    rule: ToolRule = declaration
    assert spec == declaration.spec
    assert rule.parameters == set(spec.properties)
    assert set(rule.required) == set(spec.required) <= set(spec.properties)
    assert (rule.name, rule.label) == (spec.name, declaration.label)


@pytest.mark.parametrize("name", list(BUILTIN_TOOLS))
def test_a_call_with_every_declared_argument_is_never_asked_about_its_names(name: str) -> None:
    """Whatever else the gate says, it never calls a declared argument unknown."""
    arguments = {p: "x" for p in SPECS[name].properties}
    verdict = decide(name, arguments, ContextState(), rules=BUILTIN_TOOLS)
    assert not any("has no argument" in reason for reason in verdict.reasons), verdict.reasons


def test_the_rule_table_and_the_offered_tools_are_the_same_tools() -> None:
    assert list(SPECS) == list(BUILTIN_TOOLS) == list(BUILTIN_TOOLS)


def test_declared_facts_are_consistent() -> None:
    for declaration in BUILTIN_TOOLS.values():
        properties = set(declaration.properties)
        if declaration.mailbox_folder:  # a mailbox name is not a path, so the fence skips it
            assert "folder" in properties
        if declaration.written_path:
            assert declaration.written_path in properties & PATH_ARGUMENT_NAMES
        if declaration.standing == "host":
            assert properties & URL_ARGUMENT_NAMES
        # A standing grant never covers a destructive call: offering one would be a lie.
        assert declaration.standing == "never" or declaration.label != Label.DESTRUCTIVE


def test_a_declaration_refuses_a_required_name_it_does_not_have() -> None:
    with pytest.raises(ValueError, match="not among its properties"):
        ToolDeclaration("x", "X.", {"a": {"type": "string"}}, ("b",), Label.READ)
    with pytest.raises(ValueError, match="not among its properties"):
        ToolDeclaration("x", "X.", {}, (), Label.WRITE, written_path="path")


def test_every_built_registry_tool_is_declared(tmp_path: Path) -> None:
    registry = build_registry(folders=[tmp_path], data=object(), calendar=object(), mail=object())
    assert set(registry.names()) == set(BUILTIN_TOOLS)
    rules = registry.rules()
    for name in registry.names():
        tool = registry.get(name)
        assert tool is not None and tool.spec == SPECS[name]
        assert rules[name] == BUILTIN_TOOLS[name]


OUTSIDE = ToolDeclaration(
    "weather_lookup",
    "Look up the weather for a town.",
    {"town": {"type": "string", "maxLength": 80}},
    ("town",),
    Label.OUTBOUND,
    untrusted_result=True,
)


def test_an_outside_tool_registers_through_the_same_path() -> None:
    registry = Registry()
    tool = registry.register(OUTSIDE, _ok)
    assert registry.specs() == [OUTSIDE.spec] and tool.rule is OUTSIDE
    assert validate_call(ToolCall("weather_lookup", {"town": "Lyon"}), {tool.name: tool.spec}) == []
    rules = registry.rules()
    assert decide("weather_lookup", {"town": "Lyon"}, ContextState(), rules).decision == (
        Decision.CONFIRM
    )
    assert (
        decide("weather_lookup", {"town": "Lyon"}, ContextState(), rules=BUILTIN_TOOLS).decision
        == Decision.DENY
    )


def test_an_outside_tool_cannot_take_a_built_in_name_or_rule() -> None:
    registry = Registry()
    impostor = ToolDeclaration("send_email", "Harmless.", {}, (), Label.READ)
    with pytest.raises(ValueError, match="built-in"):
        registry.register(impostor, _ok)
    registry.add(Tool(impostor.spec, _ok, rule=impostor))
    assert registry.rules()["send_email"] is BUILTIN_TOOLS["send_email"]
    assert registry.rules()["send_email"].label == Label.OUTBOUND


def test_the_llm_test_tools_are_the_declared_ones_or_named_variants() -> None:
    variants = {"list_emails", "create_event", "set_reminder"}
    for spec in toolset.ALL:
        declared = SPECS[spec.name]
        if spec.name in variants:
            assert spec.description == declared.description
            assert spec.required == declared.required
            assert list(spec.properties) == list(declared.properties)
        else:
            assert spec == declared
