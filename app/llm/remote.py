"""A model on a server the user already runs: any OpenAI-compatible endpoint (llama.cpp's
llama-server, llama-cpp-python's server, vLLM, Ollama).

Where the server lets us, we keep our own format handling, so a remote model behaves exactly
like the local one: we render the prompt from the model's chat template ourselves and send it
to the text-completion endpoint, and a tool call is sampled under our GBNF grammar (a second
request that continues right after "<tool_call>"). The template comes from llama-server's
`/props`; llama-cpp-python's server does not publish it, but its tokenizer endpoint tells us
whether the vocabulary is ChatML, which is what our fallback template renders. Servers that
offer neither (vLLM, Ollama) get the chat endpoint with `tools`, and we parse the streamed
`tool_calls` and validate them ourselves.

Only the configured server is contacted. The standard library's http.client is enough: one
connection per request, Server-Sent Events read line by line, and Stop shuts the socket down
so the server notices at once and stops generating.
"""

from __future__ import annotations

import contextlib
import dataclasses
import http.client
import json
import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Literal
from urllib.parse import urlsplit

from app.llm.backend import StepRequest, StepResult, StopReason, StreamEvent
from app.llm.chat_template import ChatTemplate
from app.llm.formats import (
    HERMES_JSON,
    JSON_FALLBACK,
    CallSpans,
    CallStart,
    WireFormat,
    detect_format,
    runaway_problem,
)
from app.llm.formats.events import ReasoningDelta
from app.llm.guards import RepetitionGuard
from app.llm.runtime import MAX_STRING_CHARS, RUNAWAY, THINK_OPEN, GenerationError
from app.llm.special_tokens import neutralise_messages
from app.llm.tools import (
    CallProblem,
    ToolCall,
    ToolSpec,
    coerce_arguments,
    new_call_id,
    validate_call,
)

log = logging.getLogger(__name__)

Mode = Literal["completion", "chat"]
CHATML_PROBE = "<|im_start|><|im_end|>"


class RemoteError(GenerationError):
    """The server could not be used; the message says what failed, for the user."""


@dataclass(frozen=True)
class RemoteSettings:
    base_url: str  # e.g. http://192.168.1.5:8080/v1 (the /v1 may be left out)
    model: str = ""  # "" : the server's only (first) model
    api_key: str | None = dataclasses.field(default=None, repr=False)  # never logged
    connect_timeout: float = 10.0
    read_timeout: float = 120.0  # between two pieces of a reply (a big prompt takes a while)


class _Endpoint:
    """The parts of the configured base URL; everything we contact is on this server."""

    def __init__(self, base_url: str) -> None:
        text = base_url.strip()
        if "://" not in text:
            text = "http://" + text
        parts = urlsplit(text)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RemoteError(
                f"“{base_url}” is not a server address. Write it like http://192.168.1.5:8080/v1"
            )
        self.scheme = parts.scheme
        self.host = parts.hostname
        try:
            self.port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            raise RemoteError(f"The port in “{base_url}” is not a number.") from None
        path = parts.path.rstrip("/")
        self.root = path[: -len("/v1")] if path.endswith("/v1") else path
        self.api = self.root + "/v1"

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        if self.scheme == "https":
            return http.client.HTTPSConnection(
                self.host, self.port, timeout=timeout, context=ssl.create_default_context()
            )
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)


class _CancelWatch:
    """Shuts the socket down when the user presses Stop: a blocked read returns at once and
    the server sees the client leave, so it stops generating too."""

    def __init__(self, connection: http.client.HTTPConnection, cancel: threading.Event) -> None:
        self.connection = connection
        self.cancel = cancel
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="remote-cancel", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done.is_set():
            if self.cancel.wait(0.05):
                sock = self.connection.sock
                if sock is not None:
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)
                return

    def stop(self) -> None:
        self.done.set()


class _Broken(Exception):
    """The stream ended before the server said it was done."""


class _Cancelled(Exception):
    """Stop was pressed before the server's answer began."""


class RemoteModel:
    """One model on an OpenAI-compatible server, used like a LocalModel by the agent."""

    def __init__(self, settings: RemoteSettings) -> None:
        self.settings = settings
        self.endpoint = _Endpoint(settings.base_url)
        self.model = settings.model.strip()
        self.mode: Mode = "chat"
        self.template: ChatTemplate | None = None
        self.wire_format: WireFormat = HERMES_JSON
        self.available: list[str] = []

    # -- identity ----------------------------------------------------------------------------

    @property
    def host(self) -> str:
        return self.endpoint.host

    @property
    def name(self) -> str:
        """ "qwen3 on 192.168.1.5": the status line always says the model is elsewhere."""
        label = self.model
        if "/" in label or "\\" in label or label.endswith(".gguf"):
            label = PurePath(label.replace("\\", "/")).stem  # llama-cpp-python's ids are paths
        return f"{label or 'model'} on {self.host}"

    def describe(self) -> str:
        """One sentence for the Test connection button: what works and how we will use it."""
        how = (
            "Hearth renders the prompts and constrains tool calls itself"
            if self.mode == "completion"
            else "the server's chat endpoint handles the prompt format and tool calls"
        )
        return f"Connected to {self.endpoint.where}: model “{self.model}” is there ({how})."

    # -- connecting --------------------------------------------------------------------------

    def load(self) -> None:
        """Check the server, the key and the model name, and find out how to talk to it.

        Raises RemoteError with a message for the user."""
        data = self._get_json(self.endpoint.api + "/models")
        entries = data.get("data") if isinstance(data, dict) else None
        self.available = [
            str(entry["id"])
            for entry in entries or []
            if isinstance(entry, dict) and entry.get("id") is not None
        ]
        if self.model:
            if self.available and self.model not in self.available:
                raise RemoteError(
                    f"The server at {self.endpoint.where} has no model named “{self.model}”. "
                    f"It offers: {', '.join(self.available)}. Correct the model name in "
                    "Settings → Model…"
                )
        elif self.available:
            self.model = self.available[0]
        else:
            raise RemoteError(
                f"The server at {self.endpoint.where} lists no models. Type the model's name in "
                "Settings → Model…"
            )
        self._probe_format()

    def close(self) -> None:
        """Nothing to free: every request has its own connection."""

    def _probe_format(self) -> None:
        """Completion mode when we can know the model's chat template; else the chat endpoint."""
        props = self._optional_json("GET", self.endpoint.root + "/props")
        source = props.get("chat_template") if isinstance(props, dict) else None
        if isinstance(source, str) and source.strip():
            eos = props.get("eos_token") if isinstance(props, dict) else ""
            # No BOS text: the server adds the BOS token itself when the model wants one.
            self.template = ChatTemplate(source, "server", "", eos if isinstance(eos, str) else "")
            self.wire_format = detect_format(source)
            self.mode = "completion"
            return
        tokens = self._optional_json(
            "POST",
            self.endpoint.root + "/extras/tokenize",
            {"input": CHATML_PROBE, "model": self.model},
        )
        found = tokens.get("tokens") if isinstance(tokens, dict) else None
        if isinstance(found, list) and len(found) == 2:
            # llama-cpp-python's server: ChatML control tokens exist, so our ChatML rendering
            # is the model's own format (SmolLM2, Qwen, Hermes, ...).
            self.template = ChatTemplate.for_model(None, "", "")
            self.wire_format = JSON_FALLBACK
            self.mode = "completion"
            return
        self.template = None
        self.wire_format = HERMES_JSON
        self.mode = "chat"

    # -- one step for the agent --------------------------------------------------------------

    def step(
        self,
        request: StepRequest,
        on_event: Callable[[StreamEvent], None],
        cancel: threading.Event,
    ) -> StepResult:
        """One model step, read as the server speaks: calls written in the text where we
        render the prompt (completion mode), native `tool_calls` deltas where it does."""
        reader: _StreamReader
        if self.mode == "completion":
            prompt = self.build_prompt(request)
            reader = _TextCallReader(self.model, prompt, request, self.wire_format, on_event)
        else:
            reader = _NativeCallReader(self.model, request, on_event)
        return self._read(reader, cancel)

    def build_prompt(self, request: StepRequest) -> str:
        """The prompt text in the model's format, as LocalModel renders it."""
        assert self.template is not None
        tools = request.tools if request.tool_choice != "none" else []
        fmt = self.wire_format
        messages = fmt.prepare_messages(neutralise_messages(request.messages), tools)
        return self.template.render(
            messages, tools=fmt.template_tools(tools), enable_thinking=request.enable_thinking
        )

    def _read(self, reader: _StreamReader, cancel: threading.Event) -> StepResult:
        """The one streaming loop of both wire styles: each request the reader asks for is
        streamed to it until it says stop, and then it has the last word."""
        started = time.perf_counter()
        try:
            while (ask := reader.next_request(cancel.is_set())) is not None:
                path, body = ask
                # Leaving the stream early closes it: the server stops generating.
                events = self._stream(self.endpoint.api + path, body, cancel)
                with contextlib.closing(events):
                    for event in events:
                        if reader.take(event):
                            break
        finally:
            reader.result.stats.generate_seconds = time.perf_counter() - started
        return reader.finish(cancel.is_set())

    # -- HTTP --------------------------------------------------------------------------------

    def _headers(self, streaming: bool = False) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "text/event-stream" if streaming else "application/json",
        }
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        return headers

    def _open(
        self,
        method: str,
        path: str,
        body: Mapping[str, Any] | None,
        timeout: float,
        streaming: bool = False,
        cancel: threading.Event | None = None,
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse, _CancelWatch | None]:
        """Send a request and return the open response, or raise RemoteError (_Cancelled if
        Stop was pressed while the server was still reading the prompt)."""
        connection = self.endpoint.connection(self.settings.connect_timeout)
        payload = None if body is None else json.dumps(body).encode("utf-8")
        watch: _CancelWatch | None = None
        try:
            connection.connect()
            assert connection.sock is not None
            connection.sock.settimeout(timeout)
            if cancel is not None:  # from here on Stop shuts the socket down
                watch = _CancelWatch(connection, cancel)
            connection.request(method, path, body=payload, headers=self._headers(streaming))
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            if watch is not None:
                watch.stop()
            connection.close()
            if cancel is not None and cancel.is_set():
                raise _Cancelled from None
            raise self._not_answered(exc) from None
        return connection, response, watch

    def _not_answered(self, exc: OSError | http.client.HTTPException) -> RemoteError:
        """What a request that got no answer means, for the user."""
        where = self.endpoint.where
        if isinstance(exc, TimeoutError):
            return RemoteError(
                f"The model server at {where} did not answer in time. It may be "
                "busy or overloaded; try again, or check the server."
            )
        if isinstance(exc, ssl.SSLError):
            return RemoteError(
                f"A secure connection to {where} failed ({exc.reason}). Check "
                "whether the address should start with http:// or https://."
            )
        if isinstance(exc, OSError):
            return RemoteError(self._unreachable(exc))
        return RemoteError(
            f"The model server at {where} gave an answer Hearth does not "
            f"understand ({type(exc).__name__}). Is this the right address?"
        )

    def _unreachable(self, exc: OSError) -> str:
        if isinstance(exc, ConnectionRefusedError):
            why = "nothing is listening there (is the server running, and is the port right?)"
        elif isinstance(exc, socket.gaierror):
            why = "that name could not be found on the network"
        else:
            why = exc.strerror or type(exc).__name__
        return f"Hearth could not reach the model server at {self.endpoint.where}: {why}."

    def _fail_for(self, status: int, detail: str, path: str) -> RemoteError:
        where = self.endpoint.where
        if status in (401, 403):
            return RemoteError(
                f"The model server at {where} refused access (HTTP {status}): the API key is "
                "missing or wrong. Enter the key in Settings → Model…"
            )
        if status == 404 and "model" in detail.lower():
            return RemoteError(
                f"The server at {where} has no model named “{self.model}” ({detail}). "
                "Correct the model name in Settings → Model…"
            )
        if status == 404:
            return RemoteError(
                f"The server at {where} has nothing at {path} (HTTP 404). Check the address: "
                "for most servers it ends in /v1."
            )
        extra = f": {detail}" if detail else ""
        return RemoteError(
            f"The model server at {where} answered with an error (HTTP {status}{extra})."
        )

    def _read_error(self, response: http.client.HTTPResponse) -> str:
        try:
            text = response.read(4000).decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            return ""
        try:
            data = json.loads(text)
        except ValueError:
            return text.strip()[:200]
        return _error_text(data)

    def _get_json(self, path: str) -> Any:
        connection, response, _ = self._open("GET", path, None, self.settings.connect_timeout)
        try:
            if response.status != 200:
                raise self._fail_for(response.status, self._read_error(response), path)
            try:
                return json.loads(response.read())
            except (ValueError, OSError, http.client.HTTPException):
                raise RemoteError(
                    f"The server at {self.endpoint.where} did not answer like an "
                    "OpenAI-compatible model server. Check the address."
                ) from None
        finally:
            connection.close()

    def _optional_json(self, method: str, path: str, body: Any = None) -> Any:
        """A probe: its answer, or None when the server does not offer it."""
        try:
            connection, response, _ = self._open(method, path, body, self.settings.connect_timeout)
        except RemoteError as exc:
            log.info("probe %s failed: %s", path, exc)
            return None
        try:
            if response.status in (401, 403):
                raise self._fail_for(response.status, "", path)
            if response.status != 200:
                return None
            try:
                return json.loads(response.read())
            except (ValueError, OSError, http.client.HTTPException):
                return None
        finally:
            connection.close()

    def _stream(
        self, path: str, body: Mapping[str, Any], cancel: threading.Event
    ) -> Generator[dict[str, Any], None, None]:
        """The JSON events of one streamed request; closing the iterator closes the socket."""
        if cancel.is_set():
            return
        try:
            connection, response, watch = self._open(
                "POST", path, body, self.settings.read_timeout, streaming=True, cancel=cancel
            )
        except _Cancelled:
            return
        try:
            if response.status != 200:
                raise self._fail_for(response.status, self._read_error(response), path)
            for event in _sse_events(response):
                if cancel.is_set():
                    return
                if "error" in event:
                    raise RemoteError(
                        f"The model server at {self.endpoint.where} reported an error while "
                        f"answering: {_error_text(event)}"
                    )
                yield event
        except (_Broken, OSError, http.client.HTTPException) as exc:
            if cancel.is_set():
                return  # Stop shut the socket down: no error, what came is kept
            raise RemoteError(self._lost_message(exc)) from None
        finally:
            if watch is not None:
                watch.stop()
            connection.close()

    def _lost_message(self, exc: Exception) -> str:
        """What a reply that stopped coming means, for the user."""
        if isinstance(exc, TimeoutError):
            return (
                f"The model server at {self.endpoint.where} stopped sending for "
                f"{self.settings.read_timeout:.0f} seconds, so Hearth gave up on this reply. "
                "What was written so far is kept."
            )
        return (
            f"The connection to the model server at {self.endpoint.where} broke off in the "
            "middle of the reply (the server may have stopped or restarted). What was written "
            "so far is kept; send your message again when the server is back."
        )


# -- reading a streamed step: one strategy per wire style ----------------------------------


class _StreamReader:
    """How one wire style reads a step: which request to stream next and what each streamed
    event means. `RemoteModel._read` is the one loop that drives either; a reader knows
    nothing of HTTP.

    The server generates, so only the stream can be watched: the repetition guard sees what
    arrives, and a loop closes the stream (the server stops) instead of running to the limit."""

    def __init__(self, on_event: Callable[[StreamEvent], None]) -> None:
        self.result = StepResult()
        self.on_event = on_event
        self.guard = RepetitionGuard()

    def next_request(self, cancelled: bool) -> tuple[str, dict[str, Any]] | None:
        """The next request (a path under /v1 and its body), or None when the step is over."""
        raise NotImplementedError

    def take(self, event: Mapping[str, Any]) -> bool:
        """One streamed event; True closes this request's stream here."""
        raise NotImplementedError

    def finish(self, cancelled: bool) -> StepResult:
        """The step's result once the last stream ended."""
        raise NotImplementedError

    def _collect(self, events: list[Any]) -> None:
        self.result.collect(events, self.on_event)


class _TextCallReader(_StreamReader):
    """Calls written in the text, over the completion endpoint with our own prompt: free text
    until a call starts, then the call under our grammar, as the local runtime does
    (`CallSpans` decides). Each phase is one streamed request that continues the text so far."""

    def __init__(
        self,
        model: str,
        prompt: str,
        request: StepRequest,
        fmt: WireFormat,
        on_event: Callable[[StreamEvent], None],
    ) -> None:
        super().__init__(on_event)
        self.model = model
        self.prompt = prompt
        self.request = request
        self.fmt = fmt
        tools = request.tools if request.tool_choice != "none" else []
        in_reasoning = prompt.rstrip().endswith(THINK_OPEN)
        forced_open = bool(tools) and request.tool_choice == "required"
        self.parser = fmt.new_parser({t.name: t for t in tools}, in_reasoning=in_reasoning)
        self.spans = CallSpans(
            # Watched even when none may be called: such a call is refused, never shown.
            [t.name for t in request.tools],
            in_reasoning=in_reasoning,
            forced_open=forced_open,
            thinking_budget=request.sampling.thinking_budget,
        )
        self.allowed = [t for t in tools if request.only_call in (None, t.name)]
        self.written = ""
        self.grammar: str | None = None
        # How the last request ended: "next" (ask again: the grammar changed or thinking was
        # shut), "end", "length" or "repetition".
        self.outcome = "next"
        if forced_open:
            self._emit(fmt.call_open, fmt.call_open)
            self.grammar = self._grammar_for(CallStart("tag"))

    def next_request(self, cancelled: bool) -> tuple[str, dict[str, Any]] | None:
        stats = self.result.stats
        if cancelled:
            stats.stop_reason = "cancelled"
        elif self.outcome != "next":
            stats.stop_reason = _STOP_REASONS.get(self.outcome, "end")
        elif stats.generated_tokens >= self.request.sampling.max_tokens:
            stats.stop_reason = "max_tokens"
        else:
            self.outcome = "end"
            return "/completions", self._body()
        return None

    def take(self, event: Mapping[str, Any]) -> bool:
        for choice in event.get("choices") or []:
            piece = choice.get("text") or ""
            finish = choice.get("finish_reason") or ""
            if (piece or finish) and self._piece(piece, finish):
                return True
        return False

    def finish(self, cancelled: bool) -> StepResult:
        result = self.result
        self._collect(self.parser.feed(self.spans.finish()) + self.parser.finish())
        if self.spans.in_call and result.stats.stop_reason in RUNAWAY:
            result.problems[-1:] = [runaway_problem(p) for p in result.problems[-1:]]
        return result

    def _piece(self, piece: str, finish: str) -> bool:
        """One streamed piece of text; True when this request ends here."""
        self.result.stats.generated_tokens += 1 if piece else 0
        step = self.spans.feed(piece)
        if step.stop:
            return True
        kept = piece if step.cut is None else piece[: step.cut]
        self._emit(kept + step.inject, step.text)
        self.guard.add(None, kept + step.inject)
        if self.guard.tripped():
            self.outcome = "repetition"
            return True
        if finish == "length":
            self.outcome = "length"
        # A new request where the grammar changes or thinking was shut.
        following = self._grammar_for(step.start) if step.start else None
        if following is not None or step.inject or (step.ended and self.grammar):
            self.grammar = following
            self.outcome = "next"
            return True
        return False

    def _emit(self, raw: str, canonical: str) -> None:
        self.written += raw
        self.result.raw += raw
        self._collect(self.parser.feed(canonical))

    def _grammar_for(self, start: CallStart) -> str | None:
        if not self.request.constrain_calls or not self.allowed:
            return None
        return self.fmt.span_grammar(self.allowed, start, max_string_length=MAX_STRING_CHARS)

    def _body(self) -> dict[str, Any]:
        """One text completion that continues the text so far, under the current grammar."""
        sampling = self.request.sampling
        if self.grammar is not None:
            sampling = dataclasses.replace(sampling, repeat_penalty=1.0)
        body: dict[str, Any] = {
            "model": self.model,
            "prompt": self.prompt + self.written,
            "stream": True,
            "max_tokens": sampling.max_tokens - self.result.stats.generated_tokens,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "top_k": sampling.top_k,
            "min_p": sampling.min_p,
            "repeat_penalty": sampling.repeat_penalty,
        }
        if self.grammar is not None:
            body["grammar"] = self.grammar
        return body


class _NativeCallReader(_StreamReader):
    """Native `tool_calls` deltas, over the chat endpoint: the server renders the prompt and
    parses calls; we still validate every call, and calls the server leaves in the text (no
    tool parser there) are still understood, in any form a model writes them."""

    def __init__(
        self, model: str, request: StepRequest, on_event: Callable[[StreamEvent], None]
    ) -> None:
        super().__init__(on_event)
        tools = request.tools if request.tool_choice != "none" else []
        self.specs = {t.name: t for t in tools}
        self.parser = HERMES_JSON.new_parser(self.specs)
        self.spans = CallSpans(self.specs)
        self.body: dict[str, Any] | None = _chat_body(model, request, tools)
        self.pending: dict[int, dict[str, str]] = {}  # the calls so far, by their index
        self.finish_reason = ""

    def next_request(self, cancelled: bool) -> tuple[str, dict[str, Any]] | None:
        body, self.body = self.body, None  # one request
        return None if body is None else ("/chat/completions", body)

    def take(self, event: Mapping[str, Any]) -> bool:
        if self.guard.tripped():
            self.finish_reason = "repetition"
            return True
        for choice in event.get("choices") or []:
            delta = choice.get("delta") or {}
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                self._collect([ReasoningDelta(reasoning)])
            content = delta.get("content")
            if isinstance(content, str) and content:
                self._content(content)
            for entry in delta.get("tool_calls") or []:
                self._call_delta(entry)
            self.finish_reason = choice.get("finish_reason") or self.finish_reason
        return False

    def finish(self, cancelled: bool) -> StepResult:
        result = self.result
        cut = self.spans.in_call  # a call in the text was still being written
        self._collect(self.parser.feed(self.spans.finish()) + self.parser.finish())
        if self.pending:
            cut = self._add_native_calls()
        if cancelled:
            result.stats.stop_reason = "cancelled"
        elif self.finish_reason in ("repetition", "length"):
            result.stats.stop_reason = _STOP_REASONS[self.finish_reason]
            if cut:  # the call never ended: say why, so that its one repair is shorter
                result.problems[-1:] = [runaway_problem(p) for p in result.problems[-1:]]
        else:
            result.stats.stop_reason = "end"
        return result

    def _content(self, content: str) -> None:
        self.result.stats.generated_tokens += 1
        self.result.raw += content
        self.guard.add(None, content)
        self._collect(self.parser.feed(self.spans.feed_uncut(content).text))

    def _call_delta(self, entry: Mapping[str, Any]) -> None:
        """A piece of one streamed call: its id and name once, its arguments joined."""
        self.result.stats.generated_tokens += 1
        slot = self.pending.setdefault(
            int(entry.get("index", len(self.pending))), {"id": "", "name": "", "arguments": ""}
        )
        function = entry.get("function") or {}
        slot["id"] = entry.get("id") or slot["id"]
        # The whole name comes in one piece; llama-cpp-python repeats it in every chunk, so it
        # is taken once, never joined.
        slot["name"] = slot["name"] or function.get("name") or ""
        arguments = function.get("arguments")
        if isinstance(arguments, dict):
            slot["arguments"] = json.dumps(arguments)
        elif isinstance(arguments, str):
            slot["arguments"] += arguments
            self.guard.add(None, arguments)

    def _add_native_calls(self) -> bool:
        """The streamed calls, validated in order; True when the one written last failed."""
        failed = False
        for index in sorted(self.pending):
            call, problem = _structured_call(self.pending[index], self.specs)
            if call is not None:
                self.result.calls.append(call)
            if problem is not None:
                self.result.problems.append(problem)
            failed = problem is not None
        return failed


# How a stream's end reads as the step's stop reason.
_STOP_REASONS: dict[str, StopReason] = {"repetition": "repetition", "length": "max_tokens"}


def _chat_body(model: str, request: StepRequest, tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """The chat endpoint's request: our history in its shape, the tools and the choice."""
    sampling = request.sampling
    body: dict[str, Any] = {
        "model": model,
        "messages": chat_messages(request.messages),
        "stream": True,
        "max_tokens": sampling.max_tokens,
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "chat_template_kwargs": {"enable_thinking": request.enable_thinking},
    }
    if tools:
        body["tools"] = [t.to_openai() for t in tools]
        body["tool_choice"] = request.tool_choice
        named = request.only_call or (tools[0].name if len(tools) == 1 else None)
        if request.tool_choice == "required" and named:
            # Named: understood by more servers (llama-cpp-python, vLLM) than "required".
            body["tool_choice"] = {"type": "function", "function": {"name": named}}
    return body


def _sse_events(response: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
    """Server-Sent Events as JSON objects, until "[DONE]" (or the end of a plain stream)."""
    data: list[str] = []
    finished = False
    while True:
        line = response.readline()
        if not line:
            # Some servers end without "[DONE]": a finish reason means the reply is complete.
            if finished or _is_done(data):
                return
            raise _Broken
        stripped = line.rstrip(b"\r\n")
        if stripped:
            # Data lines are kept; comments and keep-alive pings (":...") are not.
            if stripped.startswith(b"data:"):
                data.append(stripped[5:].decode("utf-8", "replace").lstrip())
            continue
        if not data:
            continue
        if _is_done(data):
            return
        event = _json_object("\n".join(data))
        data = []
        if event is not None:
            finished = any(c.get("finish_reason") for c in event.get("choices") or [])
            yield event


def _is_done(data: Sequence[str]) -> bool:
    return "\n".join(data).strip() == "[DONE]"


def _json_object(text: str) -> dict[str, Any] | None:
    """An event's data as a JSON object (None: not one, and passed over)."""
    try:
        event = json.loads(text)
    except ValueError:
        return None
    return event if isinstance(event, dict) else None


def _error_text(data: Any) -> str:
    if isinstance(data, dict):
        error = data.get("error", data.get("detail"))
        if isinstance(error, dict):
            return str(error.get("message") or error)[:300]
        if error is not None:
            return str(error)[:300]
    return str(data)[:300]


def chat_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Our history as the chat endpoint wants it: arguments as JSON strings, only the fields
    servers know, control-token text broken (the server's template tokenizes it)."""
    out: list[dict[str, Any]] = []
    for message in neutralise_messages(messages):
        entry: dict[str, Any] = {
            "role": message.get("role", "user"),
            "content": message.get("content") or "",
        }
        calls = message.get("tool_calls")
        if calls:
            entry["tool_calls"] = []
            for call in calls:
                if isinstance(call, ToolCall):
                    call = call.to_openai()
                function = dict(call.get("function") or {})
                arguments = function.get("arguments")
                if not isinstance(arguments, str):
                    arguments = json.dumps(arguments or {}, ensure_ascii=False)
                entry["tool_calls"].append(
                    {
                        "id": call.get("id") or new_call_id(),
                        "type": "function",
                        "function": {"name": function.get("name", ""), "arguments": arguments},
                    }
                )
        if entry["role"] == "tool":
            entry["tool_call_id"] = message.get("tool_call_id", "")
            if message.get("name"):
                entry["name"] = message["name"]
        out.append(entry)
    return out


def _structured_call(
    slot: Mapping[str, str], specs: Mapping[str, ToolSpec]
) -> tuple[ToolCall | None, CallProblem | None]:
    """A streamed `tool_calls` entry, parsed and validated exactly like a call in the text."""
    name = slot.get("name", "")
    text = slot.get("arguments", "").strip()
    raw = json.dumps({"name": name, "arguments": text}, ensure_ascii=False)
    try:
        arguments = json.loads(text) if text else {}
    except ValueError:
        message = f"The arguments of your call to '{name}' are not valid JSON. Write it again."
        return None, CallProblem(raw, name or None, message, (message,))
    if not isinstance(arguments, dict):
        message = f"The arguments of your call to '{name}' must be a JSON object."
        return None, CallProblem(raw, name or None, message, (message,))
    call = ToolCall(
        name, coerce_arguments(arguments, specs.get(name)), id=slot.get("id") or new_call_id()
    )
    errors = validate_call(call, specs)
    if errors:
        return None, CallProblem(raw, name or None, " ".join(errors), tuple(errors))
    return call, None
