""" "Know the machine": load a model, measure how fast it reads and writes here, and say it in
words a non-technical user understands ("about 25 words a second").

No Qt here, so the model manager runs it in a worker thread, a test can run it alone, and
bench/ (or `python -m app.llm.machine_check MODEL.gguf`) can reuse it.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import psutil

from app.llm.backend import GenerationStats, SamplingSettings
from app.llm.runtime import LocalModel, RuntimeSettings

# English prose runs at about 0.75 words per token for these tokenizers; used only when the
# sample reply is too short to count words in.
WORDS_PER_TOKEN = 0.75
# Tokens a short chat message adds to a conversation whose system prompt is already cached.
SHORT_MESSAGE_TOKENS = 40
# About how fast people read silently, for "faster than you can read".
READING_WORDS_PER_SECOND = 4.0

_PASSAGE = (
    "The village library opens at nine in the morning and closes at six in the evening, "
    "except on Sundays, when it stays closed. Members may borrow up to eight books at a time "
    "for three weeks, and a loan can be renewed twice unless someone else has reserved the "
    "book. Children under twelve need a parent to sign their membership form. The reading "
    "room on the first floor has newspapers, a quiet area and four computers that anyone may "
    "use for one hour a day. Printing costs ten cents a page. In the summer the library runs a "
    "reading challenge for young people, with a small prize for everyone who reads six books, "
    "and on the first Saturday of every month volunteers help older residents with their "
    "phones, tablets and email. "
)
_PROMPT = (
    "Here is a notice from a library.\n\n"
    + _PASSAGE * 2
    + "\nIn three or four sentences, explain to a friend how borrowing works there."
)


class MachineCheckCancelled(Exception):
    """The user closed the dialog or asked to stop while the check ran."""


@dataclass(frozen=True)
class MachineReport:
    model_name: str
    threads: int
    load_seconds: float
    prompt_tokens: int
    prompt_seconds: float
    generated_tokens: int
    generate_seconds: float
    generated_words: int
    memory_bytes: int | None  # resident memory the loaded model added; None if not measurable

    @property
    def prompt_tokens_per_second(self) -> float:
        return self.prompt_tokens / self.prompt_seconds if self.prompt_seconds > 0 else 0.0

    @property
    def tokens_per_second(self) -> float:
        if self.generate_seconds <= 0:
            return 0.0
        return self.generated_tokens / self.generate_seconds

    @property
    def words_per_second(self) -> float:
        if self.generate_seconds <= 0:
            return 0.0
        if self.generated_words >= 5:
            return self.generated_words / self.generate_seconds
        return self.tokens_per_second * WORDS_PER_TOKEN

    @property
    def first_reply_seconds(self) -> float:
        """How long a short message waits for its first word: read it, then write one token."""
        read = SHORT_MESSAGE_TOKENS / self.prompt_tokens_per_second
        write = 1 / self.tokens_per_second if self.tokens_per_second > 0 else 0.0
        return read + write

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = asdict(self)
        data.update(
            prompt_tokens_per_second=self.prompt_tokens_per_second,
            tokens_per_second=self.tokens_per_second,
            words_per_second=self.words_per_second,
            first_reply_seconds=self.first_reply_seconds,
        )
        return data


def resident_memory_bytes() -> int | None:
    """This process's resident memory now (psutil, on every platform), or None."""
    try:
        return int(psutil.Process().memory_info().rss)
    except (OSError, RuntimeError, psutil.Error):
        return None


def measure(
    model_path: Path | str,
    threads: int | None = None,
    max_tokens: int = 64,
    cancel: threading.Event | None = None,
) -> MachineReport:
    """Load the model (slow: call from a worker thread), read a passage, write a short reply.

    Memory is the growth of resident memory over loading and running, so it includes the
    weights the run touched and the context buffers: what the user's machine really pays.
    """
    cancel = cancel or threading.Event()
    settings = RuntimeSettings(n_ctx=2048, seed=1234)
    if threads:
        settings.n_threads = threads
    before = resident_memory_bytes()
    started = time.perf_counter()
    model = LocalModel(model_path, settings)
    model.load()
    try:
        load_seconds = time.perf_counter() - started
        if cancel.is_set():
            raise MachineCheckCancelled
        messages = [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": _PROMPT},
        ]
        tokens = model.tokenize_prompt(model.render(messages, add_generation_prompt=True))
        sampling = SamplingSettings(temperature=0.7, max_tokens=max_tokens)
        stats = GenerationStats()
        text = "".join(model.generate(tokens, sampling, cancel, stats))
        if stats.stop_reason == "cancelled":
            raise MachineCheckCancelled
        after = resident_memory_bytes()
    finally:
        model.close()
    memory = after - before if before is not None and after is not None else None
    return MachineReport(
        model_name=model.name,
        threads=settings.n_threads,
        load_seconds=load_seconds,
        prompt_tokens=stats.evaluated_prompt_tokens or stats.prompt_tokens,
        prompt_seconds=stats.prompt_seconds,
        generated_tokens=stats.generated_tokens,
        generate_seconds=stats.generate_seconds,
        generated_words=len(text.split()),
        memory_bytes=memory if memory is None or memory > 0 else None,
    )


def describe(report: MachineReport) -> str:
    """The result in plain words: speed as words a second, waiting time, memory."""
    wps = report.words_per_second
    if wps < 1:
        speed = "less than one word a second, which is slow for a conversation"
    else:
        speed = f"about {_round_nicely(wps)} words a second"
        if wps >= READING_WORDS_PER_SECOND:
            speed += ", faster than most people read"
    wait = report.first_reply_seconds
    if wait < 1:
        start = "replies start within a second for short messages"
    else:
        start = f"replies to short messages start after {_seconds(wait)}"
    sentences = [f"On this computer {report.model_name} writes {speed}; {start}."]
    if report.prompt_tokens_per_second > 0:
        page = 2000 / (report.prompt_tokens_per_second * WORDS_PER_TOKEN)
        sentences.append(f"Reading a long email or web page (2,000 words) takes {_seconds(page)}.")
    if report.memory_bytes:
        sentences.append(f"It uses about {_size(report.memory_bytes)} of memory while it runs.")
    sentences.append(f"Loading it took {_seconds(report.load_seconds)}.")
    return " ".join(sentences)


def _round_nicely(value: float) -> int:
    if value < 20:
        return max(1, round(value))
    return int(round(value / 5) * 5)


def _seconds(value: float) -> str:
    if value < 1:
        return "less than a second"
    if value < 90:
        count = round(value)
        return "about 1 second" if count == 1 else f"about {count} seconds"
    return f"about {round(value / 60)} minutes"


def _size(count: int) -> str:
    if count >= 1e9:
        return f"{count / 1e9:.1f} GB"
    return f"{max(1, round(count / 1e6))} MB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure a GGUF model on this machine")
    parser.add_argument("model", type=Path)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--json", action="store_true", help="print the measured numbers")
    args = parser.parse_args(argv)
    report = measure(args.model, args.threads)
    print(json.dumps(report.to_dict(), indent=2) if args.json else describe(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
