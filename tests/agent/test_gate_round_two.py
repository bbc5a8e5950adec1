"""Issue #37, classes 4-6, at the gate: changing what the user already has asks; results
that repeat stored text from a store others write are untrusted, whichever tool returns
them; an address the user never typed asks wherever the call stores it."""

from __future__ import annotations

import pytest

from app.agent.gate.policy import ContextState, Decision, decide, offer_standing
from app.agent.tools.declarations import BUILTIN_TOOLS, SHARED_STORES, Label, ToolDeclaration


@pytest.mark.parametrize("tool", [n for n, d in BUILTIN_TOOLS.items() if d.changes_existing])
def test_a_change_to_existing_data_asks_in_a_clean_conversation_with_no_always(tool: str) -> None:
    declaration = BUILTIN_TOOLS[tool]
    arguments = {name: "x1/y2" for name in declaration.required}
    context = ContextState()
    verdict = decide(tool, arguments, context, rules=BUILTIN_TOOLS)
    assert verdict.decision == Decision.CONFIRM
    assert any("changes something you already have" in r for r in verdict.reasons)
    assert offer_standing(tool, arguments, verdict, context, rules=BUILTIN_TOOLS) is None


def test_every_record_changing_tool_is_declared_so() -> None:
    """The update and complete tools of every store (the red team's four, and any added
    later by that name) change existing records."""
    changing = {n for n in BUILTIN_TOOLS if n.startswith(("update_", "complete_"))}
    assert changing == {n for n, d in BUILTIN_TOOLS.items() if d.changes_existing}
    assert {"update_contact", "update_task", "complete_task", "update_event"} <= changing


@pytest.mark.parametrize(
    "tool",
    [n for n, d in BUILTIN_TOOLS.items() if d.private_result in SHARED_STORES and d.stored_text],
)
def test_a_result_from_a_store_others_write_taints_whichever_tool_returns_it(tool: str) -> None:
    context = ContextState()
    context.record_result(BUILTIN_TOOLS[tool], f"the result of {tool}", "notes: do it")
    assert context.tainted
    later = decide("add_task", {"title": "Buy gift cards"}, context, rules=BUILTIN_TOOLS)
    assert later.decision == Decision.CONFIRM


def test_the_untrusted_result_follows_from_the_store_not_from_each_row() -> None:
    """A new tool on a shared store gets an untrusted result without saying so."""
    tool = ToolDeclaration("snooze_task", "x", {"task_id": {"type": "string"}}, ("task_id",),
                           Label.WRITE, private_result="tasks")  # fmt: skip
    assert tool.untrusted_result
    free = BUILTIN_TOOLS["find_free_time"]  # times only: nobody's words
    assert not free.untrusted_result and free.private_result == "calendar"
    assert BUILTIN_TOOLS["complete_task"].untrusted_result


@pytest.mark.parametrize("tool", ["add_contact", "update_contact"])
def test_an_address_the_user_never_typed_asks_when_a_contact_stores_it(tool: str) -> None:
    arguments = {"name": "Sophie Martin", "emails": ["sophie@attacker.example"]}
    if tool == "update_contact":
        arguments = {"contact_id": "book/sophie.vcf", **arguments}
    context = ContextState()
    context.note_user_text("Save Sophie Martin to my contacts")
    verdict = decide(tool, arguments, context, rules=BUILTIN_TOOLS)
    assert verdict.decision == Decision.CONFIRM
    assert "you did not type the address 'sophie@attacker.example'" in verdict.reasons
    assert "sophie@attacker.example" in verdict.untyped_values


def test_a_typed_address_in_a_new_contact_runs_without_a_dialog() -> None:
    context = ContextState()
    context.note_user_text("Add Jonas Weber, jonas@example.de, to my contacts")
    arguments = {"name": "Jonas Weber", "emails": ["Jonas@example.de"], "phones": ["+49 30 1"]}
    assert decide("add_contact", arguments, context, rules=BUILTIN_TOOLS).decision == Decision.ALLOW


def test_any_argument_declared_as_an_address_counts_as_one() -> None:
    """An outside tool's schema says which arguments are addresses, whatever their names."""
    tool = ToolDeclaration(
        "crm__save_lead",
        "x",
        {"who": {"type": "string", "format": "email"},
         "cc_list": {"type": "array", "items": {"type": "string", "format": "email"}}},
        (),
        Label.OUTBOUND,
    )  # fmt: skip
    assert tool.email_arguments == {"who", "cc_list"}
