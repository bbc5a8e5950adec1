"""The real-model tier: Qwen2.5-Coder-0.5B-Instruct (a real tool-calling GGUF from PyPI) through
Hearth's runtime and agent, in auto mode, with the app's own tools and real connectors.

This model writes its calls as bare JSON or in a ```json fence as often as inside
<tool_call>; every form must reach the gate as a validated call. The assertions are what any
sensible sample satisfies on any x86-64 CPU (AVX2 and AVX-512 give different logits): which
tool, that the arguments validate, that a chat request calls nothing, never exact words.
"""

from __future__ import annotations

import shlex
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.agent.gate.policy import ContextState
from app.agent.tools.registry import Registry
from app.agent.tools.tool_servers import RunningServers, approve_tools, check_server, save_server
from app.agent.tools.toolbox import SPECS, build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest, deny_everything
from app.agent.turn.loop import Agent
from app.llm.backend import SamplingSettings, StepRequest, StepResult
from app.llm.embedded import ensure_tool_model
from app.llm.runtime import LocalModel, RuntimeSettings
from app.llm.tools import validate_call
from app.store.database import Database
from app.store.tool_servers import ToolServer

pytestmark = pytest.mark.real_model

GREEDY = SamplingSettings(temperature=0.0, max_tokens=200)
SENT = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
# What the app offers with files, memory, reminders and the web set up (mail and calendar
# need accounts; their tools are added by name where a request needs them).
APP_TOOLS = [
    SPECS[name]
    for name in (
        "list_folder",
        "search_files",
        "read_file",
        "write_file",
        "web_search",
        "read_webpage",
        "remember",
        "recall",
        "forget",
        "set_reminder",
        "list_reminders",
        "cancel_reminder",
        "list_events",
        "create_event",
        "send_email",
        "list_emails",
    )
]


@pytest.fixture(scope="module")
def qwen_coder() -> Iterator[LocalModel]:
    model = LocalModel(ensure_tool_model(verify=False), RuntimeSettings(n_ctx=4096, seed=7))
    model.load()
    yield model
    model.close()


def step(model: LocalModel, text: str) -> StepResult:
    """One model step on a conversation rendered as the app renders it."""
    conversation = Conversation()
    conversation.add("user", text, sent_at=SENT)
    request = StepRequest(conversation.for_template(), APP_TOOLS, GREEDY)
    return model.step(request, lambda _e: None, threading.Event())


def test_the_model_speaks_hermes_json(qwen_coder: LocalModel) -> None:
    assert qwen_coder.wire_format.name == "hermes_json"
    assert qwen_coder.info.architecture == "qwen2"


@pytest.mark.parametrize(
    ("request_text", "tools"),
    [
        ("Search the web for the opening hours of the Louvre.", {"web_search"}),
        ("Remember that my dentist is Dr Martin.", {"remember"}),
        ("What is on my calendar tomorrow?", {"list_events"}),
        ("Show me my five newest emails.", {"list_emails"}),
        ("Read the page https://example.org/menu.html for me.", {"read_webpage"}),
    ],
)
def test_plain_requests_reach_the_right_tool(
    qwen_coder: LocalModel, request_text: str, tools: set[str]
) -> None:
    result = step(qwen_coder, request_text)
    assert result.problems == [], (result.raw, result.problems)
    assert result.calls, f"no call detected in: {result.raw!r}"
    offered = {spec.name: spec for spec in APP_TOOLS}
    for call in result.calls:
        assert call.name in tools, (call, result.raw)
        assert validate_call(call, offered) == []
    assert "{" not in result.text  # no half call shown as text


@pytest.mark.parametrize(
    "request_text",
    # Representative, not all: this 0.5B model still calls a tool for some thanks and
    # goodbyes when sixteen are offered (the evaluation's irrelevance figures say how often).
    [
        "Hello! How are you today?",
        "What is the capital of France?",
        "Can you explain what a CalDAV calendar is?",
    ],
)
def test_chit_chat_calls_nothing(qwen_coder: LocalModel, request_text: str) -> None:
    result = step(qwen_coder, request_text)
    assert result.calls == [] and result.problems == [], result.raw
    assert result.text.strip()


def test_find_then_read_a_file_through_the_agent(qwen_coder: LocalModel, tmp_path: Path) -> None:
    """A multi-step request on the real files connector: the file is found (its name is
    not given) and read, and the answer comes from it."""
    folder = tmp_path / "Documents"
    (folder / "garden").mkdir(parents=True)
    (folder / "garden" / "planting-notes.txt").write_text(
        "Plant the tulip bulbs in October, 15 cm deep. Water the roses every Sunday.\n"
    )
    (folder / "shopping.txt").write_text("milk, eggs, bread\n")
    (tmp_path / "data").mkdir()
    database = Database.open(tmp_path / "data")
    registry = build_registry(folders=[folder], data=database)
    context = ContextState(allowed_folders=[str(folder)])
    # Each request gets the tools of its topics, as in the app (`build_agent`): with every
    # tool of every connector offered at once (35 since issue #24) this 0.5B model found
    # the file and then answered without reading it.
    agent = Agent(
        qwen_coder,
        registry,
        context=context,
        confirmer=deny_everything,
        sampling=GREEDY,
        select_tools=True,
    )
    report = agent.run_turn(
        Conversation(), "Find my planting notes and tell me when to plant the tulips."
    )
    database.close()
    names = [call.name for call in report.calls]
    assert names, report
    assert all(call.status != "error" or call.name != "read_file" for call in report.calls[-1:])
    reads = [c for c in report.calls if c.name == "read_file" and c.status == "ok"]
    assert reads, [(c.name, c.arguments, c.status, c.result) for c in report.calls]
    assert "planting-notes.txt" in str(reads[-1].arguments["path"])
    assert "October" in report.answer  # the answer comes from the file


def test_a_tool_from_a_tool_server_is_called_through_the_gate(
    qwen_coder: LocalModel, tmp_path: Path
) -> None:
    """Issue #22 on the real model: a real MCP server's approved tools are offered as the
    app offers them, the model's call is asked about with the server named, and it runs.
    `required` makes the first step a call, and the call grammar makes its arguments fit the
    tool's schema, so every sample satisfies these assertions."""
    database = Database.open(tmp_path)
    server_script = Path(__file__).parents[1] / "connectors" / "mcp_servers" / "tools_server.py"
    saved = save_server(
        database,
        ToolServer("Test tools", command=shlex.join([sys.executable, str(server_script)])),
        {},
    )
    checked = check_server(saved)
    assert checked.ok and saved.id is not None, checked.message
    server = approve_tools(
        database, saved.id, [view for view in checked.tools if view.name in ("add", "echo")]
    )
    servers = RunningServers([server], call_timeout=30)
    servers.start()
    asked: list[ConfirmationRequest] = []

    def approve(request: ConfirmationRequest) -> ConfirmationAnswer:
        asked.append(request)
        return ConfirmationAnswer.approve()

    try:
        registry = Registry()
        servers.register(registry)
        assert sorted(registry.names()) == ["test_tools__add", "test_tools__echo"]
        agent = Agent(qwen_coder, registry, confirmer=approve, sampling=GREEDY, max_steps=3)
        agent.first_tool_choice = "required"
        report = agent.run_turn(
            Conversation(), "What is 17 plus 25? Use the add tool.", cancel=threading.Event()
        )
    finally:
        servers.close()
        database.close()
    assert asked, report
    assert all(request.tool.startswith("test_tools__") for request in asked)
    assert all("Test tools" in request.preview for request in asked)
    assert report.calls and report.calls[0].status == "ok", report.calls
    assert agent.context.tainted  # the server's answer is someone else's text
