"""Value conversion (vLLM Qwen3-coder rules) and the small argument validator."""

from __future__ import annotations

import pytest

from app.llm.tools import (
    ToolCall,
    ToolSpec,
    coerce_arguments,
    convert_arguments,
    convert_value,
    schema_types,
    tool_map,
    validate_call,
)

LIST_EMAILS = ToolSpec(
    "list_emails",
    "List emails in a folder.",
    {
        "type": "object",
        "properties": {
            "folder": {"type": "string", "enum": ["inbox", "sent", "archive"]},
            "unread_only": {"type": "boolean"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        },
        "required": [],
    },
)
SEND_EMAIL = ToolSpec(
    "send_email",
    "Send an email.",
    {
        "type": "object",
        "properties": {
            "to": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "subject": {"type": "string", "maxLength": 20},
            "body": {"type": "string"},
            "cc": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["to", "subject", "body"],
    },
)
CREATE_EVENT = ToolSpec(
    "create_event",
    "Create a calendar event.",
    {
        "type": "object",
        "properties": {
            "title": {"type": "string", "minLength": 1},
            "start": {"type": "string", "format": "date-time"},
            "duration_hours": {"type": "number", "exclusiveMinimum": 0},
            "attendees": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"email": {"type": "string"}, "optional": {"type": "boolean"}},
                    "required": ["email"],
                },
            },
            "location": {"type": ["string", "null"]},
        },
        "required": ["title", "start"],
    },
)
TOOLS = tool_map([LIST_EMAILS, SEND_EMAIL, CREATE_EVENT])


# -- ToolSpec ------------------------------------------------------------------------------


def test_tool_spec_to_openai_and_back() -> None:
    data = SEND_EMAIL.to_openai()
    assert data == {
        "type": "function",
        "function": {
            "name": "send_email",
            "description": "Send an email.",
            "parameters": dict(SEND_EMAIL.parameters),
        },
    }
    assert ToolSpec.from_openai(data) == SEND_EMAIL
    assert ToolSpec.from_openai(data["function"]) == SEND_EMAIL
    assert SEND_EMAIL.required == ["to", "subject", "body"]
    assert list(SEND_EMAIL.properties) == ["to", "subject", "body", "cc"]


def test_tool_call_to_openai_keeps_arguments_a_dict() -> None:
    call = ToolCall("list_emails", {"limit": 3}, id="call_1")
    assert call.to_openai() == {
        "id": "call_1",
        "type": "function",
        "function": {"name": "list_emails", "arguments": {"limit": 3}},
    }
    assert ToolCall("x", {}).id.startswith("call_")
    assert ToolCall("x", {}).id != ToolCall("x", {}).id


# -- conversion ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "schema", "expected"),
    [
        ("Paris", {"type": "string"}, "Paris"),
        ("  spaced \n", {"type": "string"}, "  spaced \n"),  # strings keep the raw text
        ("42", {"type": "string"}, "42"),
        ("null", {"type": "string"}, "null"),  # a string can be the word null
        ("inbox", {"type": "string", "enum": ["inbox", "sent"]}, "inbox"),
        ("inbox", {"enum": ["inbox", "sent"]}, "inbox"),
        ("2", {"type": "integer", "enum": [1, 2, 3]}, 2),
        ("10", {"type": "integer"}, 10),
        (" -7 \n", {"type": "integer"}, -7),
        ("10.0", {"type": "integer"}, 10),
        ("2.5", {"type": "number"}, 2.5),
        ("3.0", {"type": "number"}, 3),
        ("1e3", {"type": "number"}, 1000),
        ("true", {"type": "boolean"}, True),
        ("False", {"type": "boolean"}, False),
        ('{"a": 1}', {"type": "object"}, {"a": 1}),
        ("{'a': 1}", {"type": "object"}, {"a": 1}),  # ast.literal_eval fallback
        ('["x", "y"]', {"type": "array"}, ["x", "y"]),
        ("['x', 'y']", {"type": "array"}, ["x", "y"]),
        ("None", {"type": "integer"}, None),  # non-string types: None/null mean null
        ("null", {"type": "object"}, None),
        ("None", {"type": ["string", "null"]}, None),  # nullable string
        ("null", {"type": "string", "nullable": True}, None),
        ("5", {"type": ["integer", "string"]}, 5),  # unions try the typed reading first
        ("five", {"type": ["integer", "string"]}, "five"),
        ("7", {"anyOf": [{"type": "integer"}, {"type": "null"}]}, 7),
        ("anything", {}, "anything"),  # a schema that says nothing: raw text
        ("anything", None, "anything"),  # parameter not in the schema: raw text
        ("12", {"type": "int"}, 12),  # Python-ish type names (BFCL style)
    ],
)
def test_convert_value(raw: str, schema: dict | None, expected: object) -> None:
    value = convert_value(raw, schema)
    assert value == expected
    assert type(value) is type(expected)


@pytest.mark.parametrize(
    ("raw", "schema"),
    [
        ("ten", {"type": "integer"}),
        ("2.5", {"type": "integer"}),
        ("nan", {"type": "number"}),
        ("inf", {"type": "number"}),
        ("yes", {"type": "boolean"}),
        ("{broken", {"type": "object"}),
        ('["a"]', {"type": "object"}),  # valid JSON of the wrong kind
        ("not a list", {"type": "array"}),
    ],
)
def test_failed_conversion_keeps_the_raw_string(raw: str, schema: dict) -> None:
    assert convert_value(raw, schema) == raw


def test_convert_arguments_uses_each_schema_and_leaves_unknowns_raw() -> None:
    raw = {"folder": "inbox", "limit": "5", "unread_only": "true", "colour": "7"}
    assert convert_arguments(raw, LIST_EMAILS) == {
        "folder": "inbox",
        "limit": 5,
        "unread_only": True,
        "colour": "7",
    }
    assert convert_arguments({"limit": "5"}, None) == {"limit": "5"}


def test_coerce_arguments_repairs_loose_json_types_only() -> None:
    fixed = coerce_arguments(
        {"limit": "10", "unread_only": "false", "folder": "sent", "extra": 1}, LIST_EMAILS
    )
    assert fixed == {"limit": 10, "unread_only": False, "folder": "sent", "extra": 1}
    assert coerce_arguments({"limit": 3.0}, LIST_EMAILS) == {"limit": 3}
    assert coerce_arguments({"limit": 3.5}, LIST_EMAILS) == {"limit": 3.5}  # validator says no
    assert coerce_arguments({"to": '["a@b.c"]'}, SEND_EMAIL) == {"to": ["a@b.c"]}
    assert coerce_arguments({"subject": 5}, SEND_EMAIL) == {"subject": 5}


def test_schema_types() -> None:
    assert schema_types({"type": "string"}) == ["string"]
    assert schema_types({"type": ["integer", "null"]}) == ["integer", "null"]
    assert schema_types({"anyOf": [{"type": "string"}, {"type": "integer"}]}) == [
        "string",
        "integer",
    ]
    assert schema_types({"enum": [1, 2]}) == ["integer"]
    assert schema_types({"type": "string", "nullable": True}) == ["string", "null"]
    assert schema_types({"properties": {"a": {}}}) == ["object"]
    assert schema_types({}) == []
    assert schema_types(None) == []


# -- validation ----------------------------------------------------------------------------


def check(name: str, **arguments: object) -> list[str]:
    return validate_call(ToolCall(name, dict(arguments)), TOOLS)


def test_valid_calls_have_no_errors() -> None:
    assert check("list_emails") == []
    assert check("list_emails", folder="sent", unread_only=False, limit=50) == []
    assert check("send_email", to=["a@b.c"], subject="Hi", body="Hello\nthere") == []
    assert (
        check(
            "create_event",
            title="Dentist",
            start="2026-03-02T10:00",
            duration_hours=0.5,
            attendees=[{"email": "a@b.c", "optional": True}],
            location=None,
        )
        == []
    )


def test_unknown_tool_lists_the_available_ones() -> None:
    assert check("delete_everything") == [
        "Unknown tool 'delete_everything'. Available tools: create_event, list_emails, send_email."
    ]


def test_unknown_parameter() -> None:
    assert check("send_email", to=["a@b.c"], subject="s", body="b", bcc=["x@y.z"]) == [
        "Tool 'send_email' has no parameter 'bcc'. Its parameters are: to, subject, body, cc."
    ]


def test_missing_required_parameters() -> None:
    assert check("send_email", to=["a@b.c"]) == [
        "Missing required parameter 'subject' for tool 'send_email'.",
        "Missing required parameter 'body' for tool 'send_email'.",
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"limit": "ten"}, "Parameter 'limit' must be an integer, got 'ten'."),
        ({"limit": 2.5}, "Parameter 'limit' must be an integer, got 2.5."),
        ({"limit": True}, "Parameter 'limit' must be an integer, got true."),
        ({"unread_only": 1}, "Parameter 'unread_only' must be a boolean (true or false), got 1."),
        (
            {"unread_only": "yes"},
            "Parameter 'unread_only' must be a boolean (true or false), got 'yes'.",
        ),
        (
            {"folder": "spam"},
            "Parameter 'folder' must be one of 'inbox', 'sent', 'archive', got 'spam'.",
        ),
        ({"limit": 0}, "Parameter 'limit' must be at least 1, got 0."),
        ({"limit": 51}, "Parameter 'limit' must be at most 50, got 51."),
    ],
)
def test_type_enum_and_range_errors(arguments: dict, message: str) -> None:
    assert check("list_emails", **arguments) == [message]


def test_number_accepts_integers_but_not_booleans() -> None:
    base = {"title": "x", "start": "2026-01-01T09:00"}
    assert check("create_event", **base, duration_hours=2) == []
    assert check("create_event", **base, duration_hours=False) == [
        "Parameter 'duration_hours' must be a number, got false."
    ]
    assert check("create_event", **base, duration_hours=0) == [
        "Parameter 'duration_hours' must be greater than 0, got 0."
    ]


def test_string_length_limits() -> None:
    errors = check("send_email", to=["a@b.c"], subject="x" * 21, body="b")
    assert errors == ["Parameter 'subject' must be at most 20 characters long, got 21 characters."]
    assert check("create_event", title="", start="2026-01-01T09:00") == [
        "Parameter 'title' must be at least 1 characters long, got 0 characters."
    ]


def test_array_items_and_sizes() -> None:
    assert check("send_email", to=["a@b.c", 5], subject="s", body="b") == [
        "Parameter 'to' item 2 must be a string, got 5."
    ]
    assert check("send_email", to=[], subject="s", body="b") == [
        "Parameter 'to' must have at least 1 items, got 0."
    ]
    assert check("send_email", to="a@b.c", subject="s", body="b") == [
        "Parameter 'to' must be an array, got 'a@b.c'."
    ]


def test_nested_objects_in_arrays() -> None:
    errors = check(
        "create_event",
        title="x",
        start="2026-01-01T09:00",
        attendees=[{"email": "a@b.c"}, {"optional": "no"}],
    )
    assert errors == [
        "Parameter 'attendees' item 2 is missing the field 'email'.",
        "Parameter 'attendees' item 2 field 'optional' must be a boolean (true or false), "
        "got 'no'.",
    ]


def test_nullable_union() -> None:
    base = {"title": "x", "start": "2026-01-01T09:00"}
    assert check("create_event", **base, location=None) == []
    assert check("create_event", **base, location=3) == [
        "Parameter 'location' must be a string or null, got 3."
    ]


def test_any_of_reports_the_branch_of_the_right_type() -> None:
    tool = ToolSpec(
        "f",
        "",
        {
            "type": "object",
            "properties": {
                "when": {
                    "anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "maxLength": 3}]
                }
            },
        },
    )
    tools = {"f": tool}
    assert validate_call(ToolCall("f", {"when": 5}), tools) == []
    assert validate_call(ToolCall("f", {"when": "abc"}), tools) == []
    assert validate_call(ToolCall("f", {"when": -1}), tools) == [
        "Parameter 'when' must be at least 0, got -1."
    ]
    assert validate_call(ToolCall("f", {"when": [1]}), tools) == [
        "Parameter 'when' must be an integer or a string, got [1]."
    ]


def test_long_values_are_shortened_in_messages() -> None:
    [message] = check("list_emails", limit="x" * 500)
    assert len(message) < 160 and message.endswith("...'.")


def test_additional_properties_allowed_when_the_schema_says_so() -> None:
    tool = ToolSpec("f", "", {"type": "object", "properties": {}, "additionalProperties": True})
    assert validate_call(ToolCall("f", {"anything": 1}), {"f": tool}) == []


def test_string_formats_are_checked_like_the_grammar_enforces_them() -> None:
    """Hearth's own tools declare date-time, date, email and uri formats; a call made without
    the grammar (a remote chat endpoint, grammar off) is held to the same shapes."""
    from app.agent.tools.toolbox import SPECS

    def errors(name: str, **arguments: object) -> list[str]:
        return validate_call(ToolCall(name, arguments), SPECS)

    assert errors("set_reminder", text="stretch", at="2026-12-01T09:30") == []
    assert errors("set_reminder", text="stretch", at="2026-12-01 09:30:00+01:00") == []
    assert errors("set_reminder", text="stretch", at="tomorrow at 9") == [
        "Parameter 'at' must be a date and time in ISO 8601 form, like 2026-12-01T09:30, "
        "got 'tomorrow at 9'."
    ]
    assert errors("set_reminder", text="stretch", at="2026-12-01") == [
        "Parameter 'at' must be a date and time, not only a date, got '2026-12-01'."
    ]
    assert errors("search_emails", query="rent", since="2026-11-01") == []
    assert errors("search_emails", query="rent", since="last week") != []
    assert errors("send_email", to=["ana@example.org"], subject="s", body="b") == []
    assert errors("send_email", to=["Ana"], subject="s", body="b") == [
        "Parameter 'to' item 1 must be an email address like name@example.org, got 'Ana'."
    ]
    assert errors("read_webpage", url="https://example.org/a") == []
    assert errors("read_webpage", url="example.org") != []
