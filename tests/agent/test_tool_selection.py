"""Which tools a request is offered (app.agent.tools.tool_selection), and the agent offering them.

The agent tests use the real registry over a real folder and database, the real Qwen3.5 XML
parser through the scripted backend, and the real gate.
"""

from __future__ import annotations

import threading
from pathlib import Path

from app.agent.gate.policy import ContextState
from app.agent.tools.declarations import BUILTIN_TOOLS, TOOL_TOPICS
from app.agent.tools.tool_selection import select_tools, topics_of
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.store.database import Database
from tests.scripting import call, script

ALL = list(BUILTIN_TOOLS)
FINDERS = {"list_events", "search_emails", "search_files", "recall"}


def topics(names: list[str]) -> set[str]:
    return {TOOL_TOPICS[n] for n in names if n in TOOL_TOPICS}


def test_every_builtin_tool_has_a_topic() -> None:
    assert set(TOOL_TOPICS) == set(BUILTIN_TOOLS)


def test_words_that_name_a_topic() -> None:
    assert topics_of("What's on my calendar today?") == {"calendar"}
    assert topics_of("Reply to Priya that I'm coming") == {"mail"}
    assert topics_of("Do I have unread EMAILS from Sophie?") == {"mail"}
    assert topics_of("Remind me tomorrow at 6 pm to buy flowers.") == {"reminders"}
    assert topics_of("Remember that my dentist is Dr. Weber.") == {"memory"}  # not "web"
    assert topics_of("Search the web for cheap flights") == {"web"}
    assert topics_of("What's in my travel folder?") == {"files"}
    assert topics_of("Put the appointment from the email in my calendar") == {"calendar", "mail"}
    assert topics_of("The airplane lands at 5") == set()  # "plan" only where a word starts


def test_no_topic_but_the_users_own_things_offers_everything() -> None:
    for text in (
        "When is my flight to Lisbon?",
        "What's Jonas's phone number?",
        "What's on Thursday?",
        "Move the dentist to Friday at 3",
        "The car service is elsewhere now, please update the location.",
    ):
        assert select_tools(ALL, [text]) == ALL, text


def test_small_talk_and_general_knowledge_are_offered_no_tool() -> None:
    for text in (
        "Thanks, that's all for now!",
        "Tell me a short joke.",
        "What's the capital of Portugal?",
        "How do you say 'thank you' in Portuguese?",
        "What's 15% of 80?",
    ):
        assert select_tools(ALL, [text]) == [], text
    # ... unless the conversation is already at work with tools ("thanks, and the other?").
    assert select_tools(ALL, ["thanks"], used=["search_emails"]) == ALL


def test_a_topic_offers_its_tools_and_one_finder_per_other_topic() -> None:
    chosen = select_tools(ALL, ["Reply to Priya that I'll keep her a seat"])
    assert {"send_email", "reply_email", "read_email", "list_emails"} <= set(chosen)
    others = set(chosen) - {n for n in ALL if TOOL_TOPICS[n] == "mail"}
    assert others == FINDERS - {"search_emails"} | {"find_contact"}  # mail's own helper
    assert "delete_event" not in chosen and "write_file" not in chosen
    assert len(chosen) < len(ALL) / 2
    assert chosen == [n for n in ALL if n in chosen]  # the registry's order is kept


def test_mail_is_offered_find_contact_to_resolve_a_name() -> None:
    chosen = select_tools(ALL, ["Email Sophie that dinner is at 8"])
    assert {"send_email", "find_contact"} <= set(chosen)
    assert "add_contact" not in chosen and "update_contact" not in chosen  # a lookup only
    assert "find_contact" not in select_tools(ALL, ["What's on my calendar today?"])


def test_a_follow_up_keeps_the_topics_of_the_request_before() -> None:
    said = ["Remind me to water the plants.", "Tomorrow at 7 in the evening."]
    assert "set_reminder" in select_tools(ALL, said)
    # ... and of the tools it already used, however far back.
    assert "reply_email" not in select_tools(ALL, ["ok", "remind me then"])
    assert "reply_email" in select_tools(ALL, ["ok", "remind me then"], used=["read_email"])


def test_outside_tools_are_always_offered() -> None:
    available = [*ALL, "mcp_weather"]
    assert "mcp_weather" in select_tools(available, ["Remind me at 6"])


def test_topics_whose_tools_are_not_set_up_fall_back_to_everything() -> None:
    available = ["web_search", "read_webpage", "remember", "recall", "forget"]
    assert select_tools(available, ["What's on my calendar today?"]) == available


# -- the agent ---------------------------------------------------------------------------------


def agent_with(tmp_path: Path, *turns: str, select: bool = True) -> tuple[Agent, object]:
    (tmp_path / "data").mkdir()
    database = Database.open(tmp_path / "data")
    registry = build_registry(folders=[tmp_path], data=database)
    backend = script(*turns)
    agent = Agent(
        backend,
        registry,
        context=ContextState(allowed_folders=[str(tmp_path)]),
        select_tools=select,
    )
    return agent, backend


def offered(backend: object) -> list[list[str]]:
    return [[t.name for t in request.tools] for request in backend.requests]  # type: ignore[attr-defined]


def test_the_agent_offers_the_request_its_topics_tools(tmp_path: Path) -> None:
    agent, backend = agent_with(tmp_path, call("recall", query="partner"), "Your partner is Sam.")
    agent.run_turn(
        Conversation(), "What do you remember about my partner?", cancel=threading.Event()
    )
    first, second = offered(backend)
    assert topics(first) == {"memory", "files"}  # memory's tools and the file finder
    assert "write_file" not in first and "web_search" not in first
    assert second == first  # the same tools all turn: the prompt prefix stays cached


def test_without_selection_every_tool_is_offered(tmp_path: Path) -> None:
    agent, backend = agent_with(tmp_path, "Sam.", select=False)
    agent.run_turn(
        Conversation(), "What do you remember about my partner?", cancel=threading.Event()
    )
    assert offered(backend) == [agent.registry.names()]


def test_a_tool_not_offered_cannot_be_called_and_the_next_step_offers_all(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    agent, backend = agent_with(
        tmp_path,
        call("write_file", path=str(tmp_path / "x.txt"), content="x"),  # not a memory tool
        call("remember", fact="likes tea"),
        "Done.",
    )
    report = agent.run_turn(Conversation(), "Remember that I like tea.", cancel=threading.Event())
    assert not (tmp_path / "x.txt").exists()  # refused by the parser, never run
    first, second, _third = offered(backend)
    assert "write_file" not in first
    assert second == agent.registry.names()  # a repair may need any tool
    assert [c.name for c in report.calls] == ["remember"]


def test_the_app_and_ask_build_agents_that_select(tmp_path: Path) -> None:
    from app.agent.services.assembly import build_agent

    backend = script("You're welcome!")
    agent = build_agent(backend, database=None, folders=[tmp_path])
    agent.run_turn(Conversation(), "Thanks, that's all!", cancel=threading.Event())
    assert offered(backend) == [[]]  # small talk: no tool offered


def test_a_tool_servers_tools_are_offered_when_the_request_names_what_they_do() -> None:
    """Outside tools have no topic: small talk gets those whose name or description shares a
    word with it (not the built-in ones), and a greeting still gets nothing."""
    available = [*ALL, "time__get_current_time", "notes__echo"]
    about = {
        "time__get_current_time": "Get the current time in a specific timezone.",
        "notes__echo": "Returns its text unchanged.",
    }
    assert select_tools(available, ["What time is it in Tokyo?"], (), about) == [
        "time__get_current_time"
    ]
    assert select_tools(available, ["Convert 9:00 in Berlin to Tokyo time"], (), about) == [
        "time__get_current_time"
    ]
    assert select_tools(available, ["echo this back"], (), about) == ["notes__echo"]
    for small_talk in ("Hello!", "Thanks, that is all.", "What is the capital of Portugal?"):
        assert select_tools(available, [small_talk], (), about) == [], small_talk
    # With a topic, every outside tool stays offered beside the topic's own.
    chosen = select_tools(available, ["Search the web for cheap flights"], (), about)
    assert {"time__get_current_time", "notes__echo", "web_search"} <= set(chosen)
