"""Values a model writes as JSON or as Python literals, read without noise in the log."""

from __future__ import annotations

import warnings

import pytest

from app.llm.formats.body import scan_body
from app.llm.literal import load_literal
from app.llm.tools import convert_value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"to": "ann@example.org"}', {"to": "ann@example.org"}),
        (
            "{'to': 'ann@example.org', 'urgent': True, 'cc': None}",
            {"to": "ann@example.org", "urgent": True, "cc": None},
        ),
        ("[1, 2.5, 'x']", [1, 2.5, "x"]),
        ("('a', 'b')", ("a", "b")),
        ("true", True),
    ],
)
def test_json_and_python_literals_are_read(text: str, value: object) -> None:
    assert load_literal(text) == value


@pytest.mark.parametrize("text", ["", "send it", "{'a': ", "__import__('os')", "[1, 2", "{" * 5000])
def test_what_is_no_literal_is_none(text: str) -> None:
    assert load_literal(text) is None


# A regular-expression-like string: Python's parser warns about the unknown escape "\]".
ODD_ESCAPE = "{'pattern': 'a\\]b', 'path': 'C:\\docs'}"


def test_unknown_escapes_in_model_text_print_no_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert load_literal(ODD_ESCAPE) == {"pattern": "a\\]b", "path": "C:\\docs"}
        assert convert_value(ODD_ESCAPE, {"type": "object"}) == {
            "pattern": "a\\]b",
            "path": "C:\\docs",
        }
        scan = scan_body("{'name': 'search_files', 'arguments': " + ODD_ESCAPE + "}", "closed")
    # Python warns of an unknown escape with a DeprecationWarning (3.11) or a SyntaxWarning
    # (3.12+). Other warnings are not this code's: a ResourceWarning, say, when the garbage
    # collector happens to free another test's socket during this one.
    escapes = [w for w in caught if issubclass(w.category, (DeprecationWarning, SyntaxWarning))]
    assert [str(w.message) for w in escapes] == []
    assert scan.status == "complete"
    assert [(call.name, call.arguments) for call in scan.calls] == [
        ("search_files", {"pattern": "a\\]b", "path": "C:\\docs"})
    ]
