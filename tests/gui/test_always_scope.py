"""The confirmation dialog says exactly what "always allow" will cover (issue #16)."""

from __future__ import annotations

from app.agent.gate.policy import ContextState, decide, offer_standing
from app.agent.tools.declarations import BUILTIN_TOOLS
from app.agent.turn.confirm import ConfirmationRequest
from app.ui.confirm_dialog import ConfirmDialog


def _request(tool: str, arguments: dict[str, str], typed: str) -> ConfirmationRequest:
    context = ContextState()
    context.note_user_text(typed)
    verdict = decide(tool, arguments, context, rules=BUILTIN_TOOLS)
    offer = offer_standing(tool, arguments, verdict, context, rules=BUILTIN_TOOLS)
    assert offer is not None
    return ConfirmationRequest(
        tool=tool,
        arguments=arguments,
        label="outbound",
        reasons=tuple(verdict.reasons),
        preview=str(arguments),
        standing_offer=offer[1],
    )


def test_the_dialog_shows_what_a_host_grant_covers(qtbot) -> None:
    url = "https://news.example/today"
    dialog = ConfirmDialog(_request("read_webpage", {"url": url}, f"read {url}"))
    qtbot.addWidget(dialog)
    dialog.show()
    # The offer in words (the tool's code name never shows), with W as its mnemonic.
    assert dialog.always.text() == "Al&ways allow fetching web pages on news.example"
    assert dialog.always.accessibleName() == "Always allow fetching web pages on news.example"
    scope = dialog.always_scope.text()
    assert dialog.always_scope.isVisible() and dialog.always.accessibleDescription() == scope
    for promise in ("exactly news.example", "not its subdomains", "?query", "redirect", "private"):
        assert promise in scope
    dialog._toggle_edit()  # editing hides the offer and its explanation together
    assert not dialog.always.isVisible() and not dialog.always_scope.isVisible()
    dialog._toggle_edit()
    assert dialog.always_scope.isVisible()


def test_no_scope_text_without_an_offer(qtbot) -> None:
    request = ConfirmationRequest(
        tool="write_file", arguments={}, label="write", reasons=(), preview=""
    )
    dialog = ConfirmDialog(request)
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.always.isVisible() and not dialog.always_scope.isVisible()


def test_a_batch_of_changes_is_answered_as_a_whole(qtbot, tmp_path) -> None:
    """The agent asks once for several changes; the dialog lists them and offers no Edit."""
    from app.agent.gate.policy import ContextState
    from app.agent.tools.toolbox import build_registry
    from app.agent.turn.chat import Conversation
    from app.agent.turn.loop import Agent
    from tests.scripting import call, script

    shown: list[ConfirmDialog] = []

    def confirm(request: ConfirmationRequest):  # the real dialog, answered with Allow once
        dialog = ConfirmDialog(request)
        qtbot.addWidget(dialog)
        dialog.show()
        shown.append(dialog)
        dialog._allow()
        return dialog.result_answer

    turns = [
        "\n".join(
            call("write_file", path=str(tmp_path / f"draft{n}.txt"), content=f"{n}\n")
            for n in range(3)
        ),
        "Done.",
    ]
    agent = Agent(
        script(*turns),
        build_registry(folders=[tmp_path]),
        context=ContextState(allowed_folders=[str(tmp_path)]),
        confirmer=confirm,
    )
    report = agent.run_turn(Conversation(), "Write three drafts")
    [dialog] = shown
    assert not dialog.edit_button.isVisible() and not dialog.always.isVisible()
    assert dialog.heading.text() == "Make 3 changes at once"
    for n in range(3):
        assert f"{n + 1}. Create the file draft{n}.txt:" in dialog.preview.toPlainText()
    assert "write_file" not in dialog.preview.toPlainText()
    assert [(c.decision, c.answer, c.status) for c in report.calls] == [
        ("confirm", "approved", "ok")
    ] * 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["draft0.txt", "draft1.txt", "draft2.txt"]
