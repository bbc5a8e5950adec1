"""`python -m app ask`: one turn of the same agent and gate as the window, on the terminal.

    python -m app ask [--data-dir DIR] [--model GGUF | --script FILE.json]
                      [--allow-folder DIR]... [--confirm deny|ask] [--json] "message"

`--confirm deny` refuses every confirmation (and records it); `ask` prompts on the terminal.
The exit code is 0 whenever the turn completed, whatever the tools did.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

from app.agent.documents.before_turn import update_before_turn
from app.agent.services.assembly import build_agent, start_tool_servers
from app.agent.turn.chat import Conversation, system_prompt_for
from app.agent.turn.confirm import (
    Answer,
    ConfirmationAnswer,
    ConfirmationRequest,
    Confirmer,
    deny_everything,
)
from app.agent.turn.loop import AgentEvent, TurnReport
from app.llm.backend import ModelBackend


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("message", help="what to ask")
    parser.add_argument("--data-dir", type=Path, help="where the app keeps its data")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--model", type=Path, help="a GGUF model file")
    source.add_argument("--script", type=Path, help="a JSON file of scripted model outputs")
    parser.add_argument(
        "--allow-folder",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a folder the assistant may read and write (repeatable)",
    )
    parser.add_argument(
        "--confirm",
        choices=("deny", "ask"),
        default="ask",
        help="refuse every confirmation, or ask on the terminal",
    )
    parser.add_argument("--json", action="store_true", help="print the transcript as JSON")
    parser.add_argument(
        "--tool-choice",
        choices=("auto", "required", "none"),
        default="auto",
        help="required: the first step must call a tool (for models that rarely do)",
    )
    parser.add_argument(
        "--intents",
        choices=("auto", "on", "off"),
        default="auto",
        help="intents with typed slots before the free loop (auto: on, except for a script "
        'that does not say "intents": true)',
    )
    parser.add_argument(
        "--all-tools",
        action="store_true",
        help="offer every tool on every request, not only those of the request's topics",
    )


def run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    from app.paths import data_dir

    folder = data_dir(args.data_dir)
    try:
        backend = _backend(args, folder)
    except Exception as exc:  # a bad model or script: a clear message, exit 2
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folders = [path.expanduser().resolve() for path in args.allow_folder]
    from app.store.database import Database

    database = Database.open(folder)
    confirmer: Confirmer = deny_everything if args.confirm == "deny" else terminal_confirmer

    def note(problem: str) -> None:
        print(f"note: {problem}", file=sys.stderr)

    tool_servers = start_tool_servers(database, note)
    agent = build_agent(  # the window's recipe; passwords come from the keyring
        backend,
        database=database,
        folders=folders,
        confirmer=confirmer,
        on_problem=note,
        tool_servers=tool_servers,
        intents=_intents(args),
    )
    agent.first_tool_choice = args.tool_choice
    agent.select_tools = not args.all_tools
    if agent.registry.get("search_documents") is not None:  # its index first (issue #42)
        update_before_turn(folder, folders, note)
    from app.store.settings import ASSISTANT_INSTRUCTIONS, SettingsStore

    # The custom instructions of Settings → Model settings…, as in the window.
    instructions = str(SettingsStore(database).get(ASSISTANT_INSTRUCTIONS) or "")
    conversation = Conversation(system_prompt=system_prompt_for(instructions))
    report = agent.run_turn(
        conversation,
        args.message,
        on_event=None if args.json else _printer(out),
        cancel=threading.Event(),
    )
    if args.json:
        json.dump(transcript(conversation, report), out, ensure_ascii=False, indent=2, default=str)
        out.write("\n")
    else:
        out.write("\n")
    if tool_servers is not None:
        tool_servers.close()
    database.close()
    return 0


def transcript(conversation: Conversation, report: TurnReport) -> dict[str, Any]:
    return {
        "messages": conversation.for_template(sent_notes=False),
        "answer": report.answer,
        "tool_calls": [call.as_json() for call in report.calls],
        "steps": report.steps,
        "stop_reason": report.stop_reason,
    }


def terminal_confirmer(request: ConfirmationRequest) -> ConfirmationAnswer:
    """Show exactly what will run and ask. No answer (end of input) means no."""
    print(f"\n--- Hearth wants to run {request.tool} ({request.label}) ---", file=sys.stderr)
    if request.provenance:
        print(f"Proposed after reading {request.provenance}.", file=sys.stderr)
    for reason in request.reasons:
        print(f"* {reason}", file=sys.stderr)
    names = dict(request.contacts)
    for value in request.untyped_values:
        known = f" ({names[value]}, from your contacts)" if value in names else ""
        print(f"! You never typed: {value}{known}", file=sys.stderr)
    print(request.preview, file=sys.stderr)
    if request.standing_offer:
        print(f"(a = allow, and from now on: {request.standing_offer})", file=sys.stderr)
    choices = "[y/N/a]" if request.standing_offer else "[y/N]"
    print(f"Allow once? {choices} ", end="", file=sys.stderr, flush=True)
    reply = sys.stdin.readline().strip().lower()
    if reply in ("a", "always") and request.standing_offer:
        return ConfirmationAnswer(Answer.APPROVED, always=True)
    return ConfirmationAnswer.approve() if reply in ("y", "yes") else ConfirmationAnswer.deny()


def _printer(out: TextIO) -> Any:
    def show(event: AgentEvent) -> None:
        if event.kind == "text":
            out.write(event.text)
            out.flush()
        elif event.kind == "call" and event.call is not None:
            call = event.call
            out.write(
                f"\n[{call.name}: {call.decision}"
                f"{'/' + call.answer if call.answer else ''} → {call.status}]\n"
            )

    return show


def _intents(args: argparse.Namespace) -> bool | None:
    """--intents, where "auto" leaves it to the backend; --tool-choice and --all-tools are
    about the free loop's steps, so with either the loop takes every turn."""
    if args.intents == "auto" and (args.tool_choice != "auto" or args.all_tools):
        return False
    return {"auto": None, "on": True, "off": False}[args.intents]


def _backend(args: argparse.Namespace, folder: Path) -> ModelBackend:
    if args.script:
        from app.llm.scripted import ScriptedBackend

        return ScriptedBackend.from_file(args.script)
    from app.llm.embedded import embedded_model_path
    from app.llm.prefix_store import PrefixStore
    from app.llm.runtime import LocalModel

    model = LocalModel(
        args.model or embedded_model_path(folder), prefix_store=PrefixStore.default()
    )
    model.load()
    return model
