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

from app.llm.backend import SamplingSettings, StepRequest, StepResult, StreamEvent
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
        if self.mode == "completion":
            return self._completion_step(request, on_event, cancel)
        return self._chat_step(request, on_event, cancel)

    def build_prompt(self, request: StepRequest) -> str:
        """The prompt text in the model's format, as LocalModel renders it."""
        assert self.template is not None
        tools = request.tools if request.tool_choice != "none" else []
        fmt = self.wire_format
        messages = fmt.prepare_messages(neutralise_messages(request.messages), tools)
        return self.template.render(
            messages, tools=fmt.template_tools(tools), enable_thinking=request.enable_thinking
        )

    def _completion_step(
        self,
        request: StepRequest,
        on_event: Callable[[StreamEvent], None],
        cancel: threading.Event,
    ) -> StepResult:
        """Free text until a call starts, then the call under our grammar, as the local
        runtime does (`CallSpans` decides); each phase is one streamed request that
        continues the text so far."""
        tools = request.tools if request.tool_choice != "none" else []
        fmt = self.wire_format
        prompt = self.build_prompt(request)
        result = StepResult()
        in_reasoning = prompt.rstrip().endswith(THINK_OPEN)
        forced_open = bool(tools) and request.tool_choice == "required"
        parser = fmt.new_parser({t.name: t for t in tools}, in_reasoning=in_reasoning)
        spans = CallSpans(
            # Watched even when none may be called: such a call is refused, never shown.
            [t.name for t in request.tools],
            in_reasoning=in_reasoning,
            forced_open=forced_open,
            thinking_budget=request.sampling.thinking_budget,
        )

        allowed = [t for t in tools if request.only_call in (None, t.name)]

        def grammar_for(start: CallStart) -> str | None:
            if not request.constrain_calls or not allowed:
                return None
            return fmt.span_grammar(allowed, start, max_string_length=MAX_STRING_CHARS)

        stats = result.stats
        written = ""

        def emit(raw: str, canonical: str) -> None:
            nonlocal written
            written += raw
            result.raw += raw
            result.collect(parser.feed(canonical), on_event)

        grammar = None
        if forced_open:
            emit(fmt.call_open, fmt.call_open)
            grammar = grammar_for(CallStart("tag"))
        guard = RepetitionGuard()
        started = time.perf_counter()
        try:
            while True:
                budget = request.sampling.max_tokens - stats.generated_tokens
                if cancel.is_set():
                    stats.stop_reason = "cancelled"
                    break
                if budget <= 0:
                    stats.stop_reason = "max_tokens"
                    break
                sampling = request.sampling
                if grammar is not None:
                    sampling = dataclasses.replace(sampling, repeat_penalty=1.0)
                outcome = "end"
                # Leaving the loop early closes the stream: the server stops generating.
                pieces = self._complete(prompt + written, sampling, budget, cancel, grammar)
                with contextlib.closing(pieces):
                    for piece, finish in pieces:
                        stats.generated_tokens += 1 if piece else 0
                        step = spans.feed(piece)
                        if step.stop:
                            break
                        kept = piece if step.cut is None else piece[: step.cut]
                        emit(kept + step.inject, step.text)
                        guard.add(None, kept + step.inject)
                        if guard.tripped():
                            outcome = "repetition"
                            break
                        if finish == "length":
                            outcome = "length"
                        # A new request where the grammar changes or thinking was shut.
                        following = grammar_for(step.start) if step.start else None
                        if following is not None or step.inject or (step.ended and grammar):
                            grammar = following
                            outcome = "next"
                            break
                if cancel.is_set():
                    continue
                if outcome == "repetition":
                    stats.stop_reason = "repetition"
                    break
                if outcome != "next":
                    stats.stop_reason = "max_tokens" if outcome == "length" else "end"
                    break
        finally:
            stats.generate_seconds = time.perf_counter() - started
        result.collect(parser.feed(spans.finish()) + parser.finish(), on_event)
        if spans.in_call and stats.stop_reason in RUNAWAY:
            result.problems[-1:] = [runaway_problem(p) for p in result.problems[-1:]]
        return result

    def _complete(
        self,
        prompt: str,
        sampling: SamplingSettings,
        max_tokens: int,
        cancel: threading.Event,
        grammar: str | None,
    ) -> Generator[tuple[str, str], None, None]:
        """Stream one text completion: (text piece, finish reason or "") per chunk."""
        body: dict[str, Any] = {
            "model": self.model,
            "prompt": prompt,
            "stream": True,
            "max_tokens": max_tokens,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "top_k": sampling.top_k,
            "min_p": sampling.min_p,
            "repeat_penalty": sampling.repeat_penalty,
        }
        if grammar is not None:
            body["grammar"] = grammar
        for chunk in self._stream(self.endpoint.api + "/completions", body, cancel):
            for choice in chunk.get("choices") or []:
                text = choice.get("text") or ""
                finish = choice.get("finish_reason") or ""
                if text or finish:
                    yield text, finish

    def _chat_step(
        self,
        request: StepRequest,
        on_event: Callable[[StreamEvent], None],
        cancel: threading.Event,
    ) -> StepResult:
        """The server renders the prompt and parses calls; we still validate every call."""
        tools = request.tools if request.tool_choice != "none" else []
        specs = {t.name: t for t in tools}
        result = StepResult()
        # Calls the server leaves in the text (no tool parser there) are still understood.
        parser = HERMES_JSON.new_parser(specs)
        spans = CallSpans(specs)
        sampling = request.sampling
        body: dict[str, Any] = {
            "model": self.model,
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
        pending: dict[int, dict[str, str]] = {}
        stats = result.stats
        # The server generates, so only the stream can be watched: a loop in the text or in a
        # call's arguments closes it (and the server stops) instead of running to the limit.
        guard = RepetitionGuard()
        started = time.perf_counter()
        finish = ""
        stream = self._stream(self.endpoint.api + "/chat/completions", body, cancel)
        try:
            for chunk in stream:
                if guard.tripped():
                    finish = "repetition"
                    break
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    reasoning = delta.get("reasoning_content") or delta.get("reasoning")
                    if isinstance(reasoning, str) and reasoning:
                        result.collect([ReasoningDelta(reasoning)], on_event)
                    content = delta.get("content")
                    if isinstance(content, str) and content:
                        stats.generated_tokens += 1
                        result.raw += content
                        guard.add(None, content)
                        # Calls the server left in the text, in any form a model writes them.
                        result.collect(parser.feed(spans.feed_uncut(content).text), on_event)
                    for entry in delta.get("tool_calls") or []:
                        stats.generated_tokens += 1
                        slot = pending.setdefault(
                            int(entry.get("index", len(pending))),
                            {"id": "", "name": "", "arguments": ""},
                        )
                        function = entry.get("function") or {}
                        slot["id"] = entry.get("id") or slot["id"]
                        # The whole name comes in one piece; llama-cpp-python repeats it in
                        # every chunk, so it is taken once, never joined.
                        slot["name"] = slot["name"] or function.get("name") or ""
                        arguments = function.get("arguments")
                        if isinstance(arguments, dict):
                            slot["arguments"] = json.dumps(arguments)
                        elif isinstance(arguments, str):
                            slot["arguments"] += arguments
                            guard.add(None, arguments)
                    finish = choice.get("finish_reason") or finish
        finally:
            stream.close()  # early: the server stops generating
            stats.generate_seconds = time.perf_counter() - started
        cut = spans.in_call  # a call in the text was still being written
        result.collect(parser.feed(spans.finish()) + parser.finish(), on_event)
        for index in sorted(pending):
            call, problem = _structured_call(pending[index], specs)
            if call is not None:
                result.calls.append(call)
            if problem is not None:
                result.problems.append(problem)
            cut = problem is not None and index == max(pending)  # the one written last
        if cancel.is_set():
            stats.stop_reason = "cancelled"
        elif finish in ("repetition", "length"):
            stats.stop_reason = "repetition" if finish == "repetition" else "max_tokens"
            if cut:  # the call never ended: say why, so that its one repair is shorter
                result.problems[-1:] = [runaway_problem(p) for p in result.problems[-1:]]
        else:
            stats.stop_reason = "end"
        return result

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
            try:
                connection.connect()
                assert connection.sock is not None
                connection.sock.settimeout(timeout)
                if cancel is not None:  # from here on Stop shuts the socket down
                    watch = _CancelWatch(connection, cancel)
                connection.request(method, path, body=payload, headers=self._headers(streaming))
                response = connection.getresponse()
            except (OSError, http.client.HTTPException):
                if cancel is not None and cancel.is_set():
                    if watch is not None:
                        watch.stop()
                    connection.close()
                    raise _Cancelled from None
                if watch is not None:
                    watch.stop()
                raise
        except TimeoutError:
            connection.close()
            raise RemoteError(
                f"The model server at {self.endpoint.where} did not answer in time. It may be "
                "busy or overloaded; try again, or check the server."
            ) from None
        except ssl.SSLError as exc:
            connection.close()
            raise RemoteError(
                f"A secure connection to {self.endpoint.where} failed ({exc.reason}). Check "
                "whether the address should start with http:// or https://."
            ) from None
        except OSError as exc:
            connection.close()
            raise RemoteError(self._unreachable(exc)) from None
        except http.client.HTTPException as exc:
            connection.close()
            raise RemoteError(
                f"The model server at {self.endpoint.where} gave an answer Hearth does not "
                f"understand ({type(exc).__name__}). Is this the right address?"
            ) from None
        return connection, response, watch

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
        except _Broken:
            if cancel.is_set():
                return
            raise RemoteError(self._broken_message()) from None
        except TimeoutError:
            if cancel.is_set():
                return
            raise RemoteError(
                f"The model server at {self.endpoint.where} stopped sending for "
                f"{self.settings.read_timeout:.0f} seconds, so Hearth gave up on this reply. "
                "What was written so far is kept."
            ) from None
        except (OSError, http.client.HTTPException):
            if cancel.is_set():
                return
            raise RemoteError(self._broken_message()) from None
        finally:
            if watch is not None:
                watch.stop()
            connection.close()

    def _broken_message(self) -> str:
        return (
            f"The connection to the model server at {self.endpoint.where} broke off in the "
            "middle of the reply (the server may have stopped or restarted). What was written "
            "so far is kept; send your message again when the server is back."
        )


def _sse_events(response: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
    """Server-Sent Events as JSON objects, until "[DONE]" (or the end of a plain stream)."""
    data: list[str] = []
    finished = False
    while True:
        line = response.readline()
        if not line:
            if data:
                text = "\n".join(data)
                if text.strip() == "[DONE]":
                    return
            if finished:
                return
            raise _Broken
        stripped = line.rstrip(b"\r\n")
        if stripped:
            if stripped.startswith(b":"):
                continue  # a comment or keep-alive ping
            if stripped.startswith(b"data:"):
                data.append(stripped[5:].decode("utf-8", "replace").lstrip())
            continue
        if not data:
            continue
        text = "\n".join(data)
        data = []
        if text.strip() == "[DONE]":
            return
        try:
            event = json.loads(text)
        except ValueError:
            continue
        if not isinstance(event, dict):
            continue
        # Some servers end without "[DONE]": a finish reason means the reply is complete.
        finished = any(c.get("finish_reason") for c in event.get("choices") or [])
        yield event


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
