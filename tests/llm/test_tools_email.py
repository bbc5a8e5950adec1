"""The model layer's check of a "format": "email" argument agrees with what the mail connector
sends to (`connectors.email_address`): the pattern is repeated there so that app/llm imports
no connector, and this test keeps the two the same."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.llm.tools import _EMAIL
from connectors.email_address import is_email_address

SAMPLES = [
    "anna@example.test",
    "zoë@bücher.example",
    "a.b+c@x.y.z",
    "no-at-sign.example",
    "two@@example.test",
    "space in@example.test",
    "trailing@dot.",
    "<angle@example.test>",
    "a@b",
    "a@b.c",
    "quote'@example.test",
]


def test_the_model_layer_and_the_connector_agree_on_samples() -> None:
    for text in SAMPLES:
        assert (_EMAIL.fullmatch(text) is not None) == is_email_address(text), text


@given(st.text(alphabet="ab@.-+ ü<>'\"\\,;:()[]", max_size=12))
def test_the_model_layer_and_the_connector_agree_on_any_text(text: str) -> None:
    assert (_EMAIL.fullmatch(text) is not None) == is_email_address(text)
