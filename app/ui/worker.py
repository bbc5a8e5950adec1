"""The model worker: lives in its own QThread so the GUI thread never calls llama.cpp.

The GUI talks to it only through queued signals, and cancels through a threading.Event
(a queued signal would wait behind the very generation it wants to stop). A confirmation
blocks this worker thread, never the GUI: the dialog's answer comes back through `answer()`,
a thread-safe queue for the same reason. The agent is put together by
``app.agent.services.assembly.build_agent``, the recipe ``ask`` uses too.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal, Slot

from app.agent.services.assembly import build_agent, session_tools, start_tool_servers
from app.agent.services.model_choice import ModelChoice
from app.agent.tools.registry import Registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.loop import Agent, AgentEvent, CallRecord, TurnReport
from app.llm.backend import ModelBackend, SamplingSettings
from app.llm.chat_template import TemplateRenderError
from app.llm.gguf_file import ModelFileError
from app.llm.prefix_store import PrefixStore
from app.llm.runtime import GenerationError, LocalModel, RuntimeSettings
from app.store.database import Database

if TYPE_CHECKING:
    from app.agent.tools.tool_servers import RunningServers
    from app.ui.conversations import ConversationService

log = logging.getLogger(__name__)

FRAME_SECONDS = 1 / 60


class TextBatcher:
    """Collects streamed text and hands it on at most once per frame, so that a fast model
    cannot flood the GUI event loop with one signal per token."""

    def __init__(self, emit: Callable[[str], None], interval: float = FRAME_SECONDS) -> None:
        self._emit = emit
        self._interval = interval
        self._pending: list[str] = []
        self._last = 0.0

    def add(self, text: str) -> None:
        self._pending.append(text)
        now = time.monotonic()
        if now - self._last >= self._interval:
            self.flush(now)

    def flush(self, now: float | None = None) -> None:
        if self._pending:
            self._emit("".join(self._pending))
            self._pending.clear()
        self._last = time.monotonic() if now is None else now


class ModelWorker(QObject):
    """Loads a model and runs turns; every public slot runs in the worker thread."""

    loaded = Signal(str)  # the model's name
    load_failed = Signal(str)  # a message for the user
    kept = Signal(str, str)  # after load_failed: this model (name, file) still answers
    text = Signal(str)  # a batch of reply text
    reasoning = Signal(str)  # a batch of the model's thinking, shown folded
    tool_call = Signal(object)  # CallRecord, for a tool card
    confirmation_needed = Signal(object)  # ConfirmationRequest
    turn_finished = Signal(object)  # TurnReport
    turn_failed = Signal(str)  # a message for the user
    activity = Signal(list)  # audit rows as plain dicts, newest first
    permissions = Signal(list)  # standing permissions as plain dicts
    notice = Signal(str)  # something the user should know that is no error of the turn
    undo_finished = Signal(object, object)  # the CallRecord undone, and its reverse call's

    def __init__(
        self,
        settings: RuntimeSettings | None = None,
        data_dir: Path | None = None,
        folders: list[Path] | None = None,
        choice: ModelChoice | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings or RuntimeSettings()
        self.sampling = SamplingSettings()
        self.cancel = threading.Event()
        self.model: LocalModel | None = None
        self._loaded_settings: RuntimeSettings | None = None  # those `model` was loaded with
        self.agent: Agent | None = None
        self.data_dir = data_dir
        self.folders = folders or []
        self.database: Database | None = None
        # The dialog's answers (GUI thread → this one, which is blocked while it waits).
        self._answers: queue.SimpleQueue[ConfirmationAnswer | None] = queue.SimpleQueue()
        # Set by the GUI after the accounts dialog saved: the next turn rebuilds the tools.
        self.accounts_changed = threading.Event()
        # Set by the GUI after Settings → Tools… changed a tool server: the next turn restarts
        # the servers and rebuilds the tools.
        self.tool_servers_changed = threading.Event()
        self.tool_servers: RunningServers | None = None  # started with the first agent
        # Settings → Model…: given at start, then changed only in this thread (set_choice,
        # load_choice); thinking and temperature apply from the next turn.
        self.choice = choice
        # Settings → Folders: self.folders = these `--allow-folder` ones + the stored ones;
        # set by the GUI after a change, so the next turn re-reads them and rebuilds the tools.
        self.command_line_folders = list(self.folders)
        self.folders_changed = threading.Event()
        # ui.conversations.ConversationService, given by the window before this thread starts:
        # gives each conversation its own taint and saves every message as the agent adds it.
        self.conversations: ConversationService | None = None

    def current_folders(self) -> list[Path]:
        """The folders the tools may use now; called in this thread (the conversations)."""
        return list(self.folders)

    @Slot(object)
    def set_choice(self, choice: ModelChoice) -> None:
        """Settings → Model… saved without a reload: thinking, temperature and the custom
        instructions of the next turn. Queued here, so the choice is only ever written in this
        thread. New instructions change the prompt's prefix: it is evaluated again now, while
        the user types, as after a load."""
        before = self._system_prompt()
        self.choice = choice
        if self.agent is not None and self._system_prompt() != before:
            self._warm(self.agent)

    def _system_prompt(self) -> str:
        """The system prompt of every conversation, with the user's custom instructions."""
        from app.agent.turn.chat import SYSTEM_PROMPT

        return self.choice.system_prompt if self.choice is not None else SYSTEM_PROMPT

    def unload(self) -> None:
        """Free the model now rather than at interpreter exit (llama.cpp dislikes the latter)."""
        if self.model is not None:
            self.model.close()
            self.model = None
        self.agent = None

    @Slot(str)
    def load(self, path: str) -> None:
        """A new model file. The one in use is kept until the new file has passed its header
        check, and loaded again if the new one still fails: a wrong file never leaves the
        user without the model that worked."""
        if path.endswith(".json"):
            self.unload()
            self._load_script(Path(path))
            return
        try:
            model = LocalModel(Path(path), self.settings, PrefixStore.default())  # header only
        except ModelFileError as exc:
            log.warning("model not loaded: %s", exc)
            self._load_failed(_missing_builtin(Path(path)) or exc.user_message())
            return
        except Exception as exc:  # anything else must still reach the user
            log.exception("unexpected error while reading %s", path)
            self._load_failed(f"The model {path} could not be loaded: {exc}")
            return
        previous = self.model
        previous_settings = self._loaded_settings
        self.unload()  # two models at once may not fit in memory
        try:
            model.load()
        except Exception as exc:
            if isinstance(exc, ModelFileError):
                log.warning("model not loaded: %s", exc)
                message = exc.user_message()
            else:
                log.exception("unexpected error while loading %s", path)
                message = f"The model {path} could not be loaded: {exc}"
            if previous is not None and previous_settings is not None:
                self._reload(previous.path, previous_settings)
            self._load_failed(message)
            return
        self._use(model)

    def _use(self, model: LocalModel) -> None:
        self.model = model
        self._loaded_settings = self.settings
        self.agent = self._make_agent(model)
        self.cancel.clear()  # before the window hears of the model: a Stop after counts
        self.loaded.emit(model.name)
        self._warm(self.agent)

    def _reload(self, path: Path, settings: RuntimeSettings) -> None:
        """The model that worked, back after a new one failed to load."""
        try:
            model = LocalModel(path, settings, PrefixStore.default())
            model.load()
        except Exception:
            log.exception("the model in use before could not be loaded again")
            return
        self.model = model
        self._loaded_settings = settings
        self.agent = self._make_agent(model)
        self._warm(self.agent)

    def _load_failed(self, message: str) -> None:
        """The failure, then (if a model still answers) which one: the window stays ready."""
        self.load_failed.emit(message)
        if self.agent is not None:
            name = self.model.name if self.model is not None else self.agent.backend.name
            kept = str(self.model.path) if self.model is not None else ""
            self.kept.emit(name, kept)

    def _warm(self, agent: Agent) -> None:
        """Evaluate the system prompt and tool block now, while the user types: the first
        reply then starts in about the time of a later one. A message sent meanwhile waits
        in this thread's queue; Stop or closing the window cancels the warm-up, and then
        that waiting message too (the window clears `cancel` when it sends, not this thread
        when a turn starts, so a Stop pressed during the warm-up is not thrown away)."""
        from app.agent.turn.chat import Conversation

        if self.choice is not None:  # the prompt as the first turn will render it
            agent.enable_thinking = self.choice.thinking
        try:
            computed = agent.warm(Conversation(system_prompt=self._system_prompt()), self.cancel)
        except Exception:  # a failed warm-up only costs time at the first message
            log.exception("warming the prompt prefix failed")
            return
        log.info("prompt prefix warmed: %s tokens computed", computed)

    def _load_script(self, path: Path) -> None:
        """A scripted model (demos, bug reports, tests): replays raw outputs from a file."""
        from app.llm.scripted import ScriptedBackend, ScriptError

        try:
            backend = ScriptedBackend.from_file(path)
        except ScriptError as exc:
            self.load_failed.emit(f"The script {path} cannot be used: {exc}")
            return
        self.agent = self._make_agent(backend)
        self.loaded.emit(f"script {path.name}")

    @Slot(object)
    def load_choice(self, choice: ModelChoice) -> None:
        """Settings → Model…: the local file with its runtime settings, or a model server."""
        self.choice = choice
        if choice.backend == "local":
            self.settings = choice.runtime_settings()
            self.load(choice.path)
            return
        self.unload()
        from app.agent.services.model_choice import read_api_key
        from app.llm.remote import RemoteError, RemoteModel, RemoteSettings

        api_key = choice.api_key if choice.api_key is not None else read_api_key()
        try:
            remote = RemoteModel(RemoteSettings(choice.base_url, choice.remote_model, api_key))
            remote.load()
        except RemoteError as exc:
            self.load_failed.emit(str(exc))
            return
        self.agent = self._make_agent(remote)
        self.loaded.emit(remote.name)

    def _make_agent(self, model: ModelBackend) -> Agent:
        database = None
        if self.data_dir is not None:
            # Opened at the first load; a later model (File → Open model…, Settings → Model…)
            # reuses it rather than opening (and leaving open) another one.
            if self.database is None:
                self.database = Database.open(self.data_dir)
            database = self.database
            self._load_folders(database)
            if self.tool_servers is None or self.tool_servers_changed.is_set():
                self._start_tool_servers(database)
        self.accounts_changed.clear()
        return build_agent(
            model,
            database=database,
            folders=self.folders,
            confirmer=self._confirm,
            sampling=self.sampling,
            on_problem=self.notice.emit,
            tool_servers=self.tool_servers,
        )

    def _start_tool_servers(self, database: Database) -> None:
        """(Re)start the user's tool servers (Settings → Tools…), in this thread: a server
        that is slow to start delays this thread's next turn, never the window."""
        self.tool_servers_changed.clear()
        self.close_tool_servers()
        try:
            servers = start_tool_servers(database, self.notice.emit)
        except Exception as exc:  # the tool servers must never keep the model from working
            log.exception("the tool servers could not be started")
            self.notice.emit(f"Your tool servers could not be started: {exc}")
            return
        self.tool_servers = servers

    def close_tool_servers(self) -> None:
        """Stop the servers' processes (at a restart, and when the window closes)."""
        if self.tool_servers is not None:
            self.tool_servers.close()
            self.tool_servers = None

    def _load_folders(self, database: Database) -> None:
        """`--allow-folder` folders plus those stored in Settings → Folders. A stored folder
        that is gone (an unplugged disk) is left out for now rather than breaking every turn."""
        from app.store.folders import FolderStore

        self.folders_changed.clear()
        try:
            stored = FolderStore(database).saved()
        except Exception:
            log.exception("could not read the allowed folders")
            stored = []
        present = [p for p in stored if p.is_dir()]
        if len(present) < len(stored):
            log.warning("%d allowed folder(s) unavailable, left out", len(stored) - len(present))
        self.folders = list(dict.fromkeys([*self.command_line_folders, *present]))

    def _registry(self, database: Database | None) -> Registry:
        """The tools again, after Settings → Accounts… or Folders… changed what they reach."""
        self.accounts_changed.clear()
        if database is not None and self.tool_servers_changed.is_set():
            self._start_tool_servers(database)
        return session_tools(self.folders, database, self.notice.emit, self.tool_servers)

    @Slot(object, str)
    def run_turn(self, conversation: Conversation, user_text: str) -> None:
        """One turn. `cancel` is not cleared here: the window clears it when it sends, so a
        Stop pressed while this message waited (behind the warm-up) stops it too."""
        if self.agent is None:
            self.turn_failed.emit("No model is loaded. Choose a model file in File → Open model…")
            return
        database = self.database
        folders_changed = self.folders_changed.is_set() and database is not None
        if folders_changed and database is not None:
            self._load_folders(database)
            self.agent.context.allowed_folders = [str(p) for p in self.folders]
        servers_changed = self.tool_servers_changed.is_set()
        if self.accounts_changed.is_set() or folders_changed or servers_changed:
            self.agent.registry = self._registry(self.database)
        if self.choice is not None:
            self.agent.enable_thinking = self.choice.thinking
            self.sampling.temperature = self.choice.temperature
        # The same prompt for every conversation (the warmed prefix), the user's words in it.
        conversation.system_prompt = self._system_prompt()
        if self.conversations is not None:  # this conversation's own taint, current folders
            self.agent.context = self.conversations.session_for(conversation).context
        batcher = TextBatcher(self.text.emit)
        thoughts = TextBatcher(self.reasoning.emit)
        step_text: list[str] = []  # what the model wrote in this step (a step starts anew)

        def on_event(event: AgentEvent) -> None:
            if event.kind == "step":
                step_text.clear()
            elif event.kind == "text":
                step_text.append(event.text)
                thoughts.flush()
                batcher.add(event.text)
            elif event.kind == "reasoning":
                thoughts.add(event.text)
            elif event.kind == "call" and event.call is not None:
                thoughts.flush()
                batcher.flush()
                self.tool_call.emit(event.call)

        try:
            report: TurnReport = self.agent.run_turn(conversation, user_text, on_event, self.cancel)
        except (GenerationError, TemplateRenderError) as exc:
            thoughts.flush()
            batcher.flush()
            self.turn_failed.emit(str(exc))
            return
        except Exception as exc:  # the app stays up; the next message works
            thoughts.flush()
            batcher.flush()
            log.exception("unexpected error during a turn")
            self.turn_failed.emit(
                f"Something went wrong while answering ({type(exc).__name__}: {exc}). "
                "The conversation is kept; you can send your message again."
            )
            return
        thoughts.flush()
        batcher.flush()
        if _unsaid(report.answer, "".join(step_text)):
            # Hearth's own answer (calls it could not read, the step limit, the results put
            # into words for the model): never streamed, so it is drawn from here.
            self.text.emit(("\n\n" if step_text else "") + report.answer.strip())
        self.turn_finished.emit(report)

    @Slot(object, object)
    def undo(self, conversation: Conversation, record: CallRecord) -> None:
        """A card's Undo: the reverse call runs here, like a turn's calls (the network and
        the confirmation dialog never hold up the window), through the agent's gate with the
        taint of the conversation the card belongs to."""
        if self.agent is None:
            failed = CallRecord(record.name, {}, "deny", status="error")
            failed.result = "Hearth is not ready yet: load a model first, then try Undo again."
            self.undo_finished.emit(record, failed)
            return
        if self.conversations is not None:
            self.agent.context = self.conversations.session_for(conversation).context
        try:
            done = self.agent.undo(record)
        except Exception as exc:  # the window stays up and the card says what happened
            log.exception("undo failed")
            done = CallRecord(record.name, {}, "deny", status="error")
            done.result = f"something went wrong ({type(exc).__name__}: {exc})"
        if record.undone and self.conversations is not None:
            self.conversations.session_for(conversation).note_undone(record)
        self.undo_finished.emit(record, done)

    @Slot(str)
    def open_source(self, path: str) -> None:
        """A document the chat cited was clicked: open it with its usual app, through the
        files connector's confinement and the desktop connector's checks (never a program),
        here rather than on the GUI thread (both read the disk)."""
        from app.agent.services.opening import open_cited_file

        problem = open_cited_file(self.folders, path)
        if problem:
            self.notice.emit(f"{path} could not be opened: {problem}")

    @Slot()
    def load_activity(self) -> None:
        """Read the audit log here, off the GUI thread."""
        rows: list[dict[str, object]] = []
        if self.database is not None:
            for record in self.database.audit_log().recent():
                rows.append(
                    {
                        "at": record.at.strftime("%Y-%m-%d %H:%M:%S"),
                        "tool": record.tool,
                        "decision": record.decision,
                        "answer": record.answer,
                        "status": record.status,
                        "arguments": record.arguments_json,
                        "reasons": record.reasons_json,
                        "result": record.result_preview,
                    }
                )
        self.activity.emit(rows)

    @Slot()
    def load_permissions(self) -> None:
        rows: list[dict[str, object]] = []
        if self.database is not None:
            from app.store.permissions import PermissionStore

            for grant in PermissionStore(self.database).grants():
                rows.append(
                    {
                        "id": grant.id,
                        "text": grant.describe(),
                        "created": grant.created.strftime("%Y-%m-%d %H:%M"),
                    }
                )
        self.permissions.emit(rows)

    @Slot(int)
    def revoke_permission(self, grant_id: int) -> None:
        if self.database is not None:
            from app.store.permissions import PermissionStore

            PermissionStore(self.database).revoke(grant_id)
        self.load_permissions()

    # -- confirmations -----------------------------------------------------------------------

    def _confirm(self, request: ConfirmationRequest) -> ConfirmationAnswer:
        """Runs in the worker thread: ask the GUI and wait; Stop counts as a refusal."""
        while not self._answers.empty():  # an answer to an earlier, cancelled question
            self._answers.get_nowait()
        self.confirmation_needed.emit(request)
        while True:
            try:
                answer = self._answers.get(timeout=0.05)
            except queue.Empty:
                if self.cancel.is_set():
                    return ConfirmationAnswer.deny()
                continue
            return answer or ConfirmationAnswer.deny()

    def answer(self, answer: ConfirmationAnswer | None) -> None:
        """Called from the GUI thread when the user has decided (thread-safe: a queue, since
        this thread is blocked in `_confirm` and cannot take a queued signal)."""
        self._answers.put(answer)


def _unsaid(answer: str, streamed: str) -> bool:
    """Whether the turn's answer is not what the model's last step streamed: then the agent
    wrote it itself, and the window has not shown it yet."""
    return bool(answer.strip()) and answer.split() != streamed.split()


def _missing_builtin(path: Path) -> str | None:
    """What to do when the built-in model is not in the data folder (a fresh folder in a
    checkout; installers bundle it): the app can fetch it, so say where."""
    from app.llm.embedded import SMOLLM2

    if path.name != SMOLLM2.filename or path.exists():
        return None
    return (
        "The small built-in model is not in this data folder yet. Open Settings → Models…, "
        f"select {SMOLLM2.name} and press Download to fetch it "
        f"({SMOLLM2.size / 1e6:,.0f} MB), or download a better model there."
    )
