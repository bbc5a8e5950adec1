"""Tool calls in people's words: every built-in tool has a title and labelled fields, a tool
without wording still gets a sensible one, and a value cannot break or disguise a title."""

from __future__ import annotations

from typing import Any

import pytest

from app.agent.gate.policy import ContextState, decide, offer_standing
from app.agent.tools.declarations import BUILTIN_TOOLS, ToolDeclaration
from app.agent.tools.wording import (
    action_phrase,
    describe_call,
    field_label,
    has_field_label,
    has_wording,
    offer_in_words,
    reason_in_words,
    when,
)

# A plausible value for each JSON-schema type, to call every tool with all its arguments.
_SAMPLES: dict[str, Any] = {
    "string": "notes",
    "boolean": True,
    "integer": 3,
    "array": ["ana@example.org"],
}


def _arguments(declaration: ToolDeclaration) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, schema in declaration.properties.items():
        kind = schema.get("type", "string")
        if schema.get("format") == "date-time":
            values[name] = "2026-12-01T09:30"
        elif schema.get("format") == "uri":
            values[name] = "https://example.org/page"
        else:
            values[name] = _SAMPLES[kind]
    return values


@pytest.mark.parametrize("name", sorted(BUILTIN_TOOLS))
def test_every_builtin_tool_has_its_own_title_and_field_labels(name: str) -> None:
    """A new tool without wording fails here (and falls back to a generic title meanwhile)."""
    declaration = BUILTIN_TOOLS[name]
    assert has_wording(name), f"{name} has no plain title in app/agent/tools/wording.py"
    for arguments in (_arguments(declaration), {}):
        title = describe_call(name, arguments)
        assert title and title[0].isupper() and "_" not in title  # no code names
        assert not title.startswith("Use the tool")  # not the fallback
    assert "_" not in action_phrase(name) and "tool" not in action_phrase(name)
    for argument in declaration.properties:
        assert has_field_label(name, argument), f"{name}.{argument} has no label in words"
        label = field_label(name, argument)
        assert "_" not in label and label[0].isupper()


@pytest.mark.parametrize(
    ("name", "arguments", "title"),
    [
        ("write_file", {"path": "a/notes.txt", "content": "x", "overwrite": True},
         "Replace the text of notes.txt"),
        ("write_file", {"path": "notes.txt", "content": "x"}, "Create the file notes.txt"),
        ("send_email", {"to": ["ana@example.org"], "subject": "s", "body": "b"},
         "Send an email to ana@example.org"),
        ("send_email", {"to": ["a@x.org", "b@x.org", "c@x.org"], "subject": "s", "body": "b"},
         "Send an email to a@x.org and 2 others"),
        ("read_webpage", {"url": "https://example.org/a?b=1"},
         "Fetch a web page from example.org"),
        ("create_event", {"title": "Dentist", "start": "2026-12-01T09:30", "end": "x"},
         "Add the event “Dentist” on Tue 1 Dec 2026, 09:30"),
        ("create_event",
         {"title": "Lunch", "start": "2026-12-02T12:00", "end": "x", "attendees": ["b@x.org"]},
         "Add the event “Lunch” on Wed 2 Dec 2026, 12:00 and invite b@x.org"),
        ("delete_event", {"event_id": "home/abc"}, "Delete the calendar event “home/abc”"),
        ("web_search", {"query": "trains to Lyon"}, "Search the web for “trains to Lyon”"),
        ("list_folder", {"path": ""}, "List your first allowed folder"),
        ("set_reminder", {"text": "call mum", "at": "2026-12-03T18:00"},
         "Remind you on Thu 3 Dec 2026, 18:00: “call mum”"),
        ("open_item", {"url": "https://example.org/a"},
         "Open a web page from example.org in your browser"),
        ("open_item", {"path": "recipes/menu.pdf"}, "Open menu.pdf in its usual app"),
        ("open_item", {}, "Open something in another app"),
        ("add_task", {"title": "Pay rent", "due": "2026-12-05"},
         "Add the task “Pay rent”, due Sat 5 Dec 2026"),
        ("github__create_issue", {"title": "x"},
         "Use the tool “create issue” of the tool server “github”"),
        ("brand_new_tool", {}, "Use the tool “brand new tool”"),
    ],
)  # fmt: skip
def test_titles_read_as_people_say_them(name: str, arguments: dict[str, Any], title: str) -> None:
    assert describe_call(name, arguments) == title


def test_a_value_cannot_break_or_hide_text_in_a_title() -> None:
    title = describe_call("remember", {"fact": "line one\nline two\u202eevil\x00" + "x" * 200})
    assert "\n" not in title and "\u202e" not in title and "\x00" not in title
    assert title.startswith("Remember “line one line two evil") and title.endswith("…”")
    assert len(title) < 90


def test_a_look_alike_host_or_recipient_is_titled_by_its_ascii_name() -> None:
    assert describe_call("read_webpage", {"url": "https://pаypal.com/"}) == (
        "Fetch a web page from xn--pypal-4ve.com"  # Cyrillic а: never shown as "paypal"
    )
    sent = describe_call("send_email", {"to": ["boss@pаypal.com"], "subject": "", "body": ""})
    assert sent == "Send an email to boss@xn--pypal-4ve.com"
    assert describe_call("read_webpage", {"url": "https://faß.de/"}).endswith("faß.de")


def test_odd_argument_types_never_raise() -> None:
    for name in BUILTIN_TOOLS:
        assert describe_call(name, {key: None for key in BUILTIN_TOOLS[name].properties})
        assert describe_call(name, {"to": 5, "path": ["x"], "url": 3})


def test_times_are_written_as_people_read_them() -> None:
    assert when("2026-12-01T09:30") == "Tue 1 Dec 2026, 09:30"
    assert when("2026-12-01") == "Tue 1 Dec 2026"
    assert when("next Tuesday") == "next Tuesday"


def test_the_gate_s_reasons_and_offers_lose_the_tool_s_code_name() -> None:
    context = ContextState(allowed_folders=["/tmp"])
    context.add_untrusted("the file notes.txt")
    iban = "IBAN DE89370400440532013000"
    arguments = {"path": "/tmp/notes.txt", "content": iban, "overwrite": True}
    verdict = decide("write_file", arguments, context, rules=BUILTIN_TOOLS)
    worded = [reason_in_words(reason, "write_file") for reason in verdict.reasons]
    assert worded and all("write_file" not in reason for reason in worded)
    assert "This action deletes or overwrites something" in worded
    assert any(
        reason.startswith("The field “New text” holds a bank account number (IBAN): ")
        for reason in worded
    ), worded
    assert (
        "Hearth read the file notes.txt in this conversation, written by someone else; it may "
        "have asked for this, not you" in worded
    ), worded
    assert not any("detected" in reason or "untrusted" in reason for reason in worded)

    typed = ContextState()
    typed.note_user_text("read https://news.example/today")
    url = {"url": "https://news.example/today"}
    offer = offer_standing(
        "read_webpage",
        url,
        decide("read_webpage", url, typed, rules=BUILTIN_TOOLS),
        typed,
        rules=BUILTIN_TOOLS,
    )
    assert offer is not None
    first_line = offer[1].partition("\n")[0]
    assert offer_in_words(first_line, "read_webpage") == (
        "Always allow fetching web pages on news.example"
    )
