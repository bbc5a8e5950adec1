"""The dialog shows an international address in the form that will be used: readable, with
the ASCII name the server gets beside it, and never a mixed-script look-alike as Unicode."""

from __future__ import annotations

from app.agent.tools.previews import email_preview, webpage_preview


def _to_line(*recipients: str) -> str:
    return email_preview({"to": list(recipients), "subject": "s", "body": "b"}).splitlines()[0]


def test_an_idn_recipient_shows_the_domain_the_mail_goes_to() -> None:
    assert _to_line("x@faß.de") == "To: x@faß.de (sent to x@xn--fa-hia.de)"
    assert _to_line("Σοφία <s@βόλος.com>") == "To: Σοφία <s@βόλος.com> (sent to s@xn--nxasmm1c.com)"


def test_a_mixed_script_recipient_is_shown_as_its_ascii_name_with_a_warning() -> None:
    line = _to_line("boss@pаypal.com")  # Cyrillic а
    assert line.startswith("To: boss@xn--pypal-4ve.com  ⚠ the name mixes alphabets")
    assert "pаypal" not in line  # the look-alike is only shown escaped


def test_a_recipient_with_a_stray_joiner_is_flagged_as_not_sent() -> None:
    line = _to_line("x@a\u200db.de")
    assert "\\u200d" in line and "not a valid address, it will not be sent" in line


def test_plain_recipients_and_the_untyped_mark_are_unchanged() -> None:
    text = email_preview(
        {"to": ["ann@example.org", "x@faß.de"], "subject": "s", "body": "b"},
        untyped=["x@faß.de"],
    )
    first = text.splitlines()[0]
    assert first == "To: ann@example.org, x@faß.de (sent to x@xn--fa-hia.de)  ⚠ not typed by you"


def test_webpage_preview_names_the_site_that_is_asked() -> None:
    assert webpage_preview({"url": "https://faß.de/a"}).endswith(
        "The site that is asked: faß.de (xn--fa-hia.de)"
    )
    assert "xn--pypal-4ve.com" in webpage_preview({"url": "https://pаypal.com/"})
    assert webpage_preview({"url": "https://example.com/"}) == (
        "Fetch this address from the internet:\nhttps://example.com/"
    )


def test_the_read_webpage_dialog_uses_that_preview() -> None:
    from app.agent.tools.registry import Registry
    from app.agent.tools.toolbox import _add_web_tools

    registry = Registry()
    _add_web_tools(registry)
    tool = registry.get("read_webpage")
    assert tool is not None and tool.preview is not None
    assert tool.preview({"url": "https://faß.de/"}).endswith("faß.de (xn--fa-hia.de)")
