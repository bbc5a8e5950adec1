"""Evaluated prompt prefixes on disk: the file store on its own, then real llama.cpp models
in a "next process" (a second model object on the same file and store)."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from pathlib import Path

import pytest

from app.llm.backend import SamplingSettings, StepRequest, StepResult
from app.llm.prefix_store import MAGIC, SUFFIX, PrefixStore, default_folder
from app.llm.runtime import LocalModel, RuntimeSettings
from app.paths import CACHE_DIR_ENV, PROMPT_PREFIXES_FOLDER
from tests.support.toolset import TOOLS

STATE = bytes(range(256)) * 64
TOKENS = [1, 2, 3, 500, 70000]


def _files(store: PrefixStore) -> list[Path]:
    return sorted(store.folder.glob(f"*{SUFFIX}"))


# -- the files ---------------------------------------------------------------------------


def test_a_saved_state_comes_back_for_the_same_identity_and_tokens_only(tmp_path: Path) -> None:
    store = PrefixStore(tmp_path / "store")
    assert store.load("model A", TOKENS) is None
    store.save("model A", TOKENS, STATE)
    assert store.load("model A", TOKENS) == STATE
    assert store.load("model B", TOKENS) is None
    assert store.load("model A", TOKENS[:-1]) is None
    assert store.load("model A", [*TOKENS, 9]) is None
    assert oct(store.folder.stat().st_mode & 0o777) == oct(0o700)  # per user: nobody else reads


def test_a_damaged_file_is_a_miss_and_is_removed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = PrefixStore(tmp_path)
    store.save("m", TOKENS, STATE)
    [path] = _files(store)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING):
        assert store.load("m", TOKENS) is None
    assert "damaged" in caplog.text
    assert _files(store) == []
    path.write_bytes(b"not a prefix at all")
    assert store.load("m", TOKENS) is None


def test_the_least_recently_used_go_first(tmp_path: Path) -> None:
    store = PrefixStore(tmp_path, max_files=3, max_bytes=10 * len(STATE))
    for n in range(3):
        store.save("m", [n], STATE)
        time.sleep(0.05)  # distinct modification times, even on a 100 Hz coarse clock
    assert store.load("m", [0]) == STATE  # used now: the newest
    time.sleep(0.05)
    store.save("m", [3], STATE)
    assert [store.load("m", [n]) is not None for n in range(4)] == [True, False, True, True]
    # A size limit too: 2.5 states' worth keeps the two newest.
    small = PrefixStore(tmp_path / "small", max_files=8, max_bytes=int(2.5 * len(STATE)) + 200)
    for n in range(4):
        small.save("m", [n], STATE)
        time.sleep(0.05)
    assert [small.load("m", [n]) is not None for n in range(4)] == [False, False, True, True]
    # A state larger than half the limit is not kept at all.
    PrefixStore(tmp_path / "tiny", max_bytes=len(STATE)).save("m", [0], STATE)
    assert not (tmp_path / "tiny").exists()


def test_a_folder_that_cannot_be_written_costs_nothing_but_the_speed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    store = PrefixStore(blocker / "store")
    with caplog.at_level(logging.WARNING):
        store.save("m", TOKENS, STATE)  # no exception
        assert store.load("m", TOKENS) is None
    assert "cannot write" in caplog.text


def test_what_a_dead_writer_left_is_cleared_after_an_hour(tmp_path: Path) -> None:
    store = PrefixStore(tmp_path)
    old, recent = tmp_path / ".old.partial", tmp_path / ".recent.partial"
    for path in (old, recent):
        path.write_bytes(b"half")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    store.save("m", TOKENS, STATE)
    assert not old.exists() and recent.exists()  # `recent` may still be being written


def test_the_cache_is_the_users_cache_folder_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    assert default_folder() == tmp_path / PROMPT_PREFIXES_FOLDER
    monkeypatch.delenv(CACHE_DIR_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_folder() == tmp_path / "xdg" / "Hearth" / PROMPT_PREFIXES_FOLDER


# -- real models: the next process starts where the last one left off --------------------

SETTINGS = RuntimeSettings(n_ctx=2048, n_threads=2, seed=7)
TOOLSET = [TOOLS["web_search"], TOOLS["set_reminder"]]


def _request(text: str) -> StepRequest:
    return StepRequest(
        [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": text},
        ],
        TOOLSET,
        SamplingSettings(
            max_tokens=12, temperature=0.0
        ),  # greedy: the same numbers, the same words
        tool_choice="auto",
    )


def _fresh(
    path: Path, store: PrefixStore | None, settings: RuntimeSettings = SETTINGS
) -> LocalModel:
    """A model as a new process loads it: nothing cached in memory."""
    model = LocalModel(path, settings, store)
    model.load()
    return model


def _cut_short(store: PrefixStore) -> None:
    """The one stored state cut short, with a matching checksum: only llama.cpp itself can
    tell that it is wrong."""
    [path] = _files(store)
    state = path.read_bytes()[len(MAGIC) + hashlib.sha256().digest_size :][:4096]
    path.write_bytes(MAGIC + hashlib.sha256(state).digest() + state)


def _step(model: LocalModel, text: str) -> StepResult:
    return model.step(_request(text), lambda _event: None, threading.Event())


@pytest.mark.real_model
@pytest.mark.parametrize("which", ["smollm2_path", "tiny_qwen35_gguf"])
def test_the_next_process_computes_only_its_own_part_and_answers_the_same(
    which: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """On a transformer (SmolLM2) and a hybrid (Qwen3.5): a stored prefix gives exactly the
    numbers that computing it gives, so a greedy answer is the same word for word."""
    path: Path = request.getfixturevalue(which)
    store = PrefixStore(tmp_path)
    first = _fresh(path, store)
    cold = _step(first, "What is the capital of France?")
    first.close()
    assert cold.stats.evaluated_prompt_tokens == cold.stats.prompt_tokens
    assert len(_files(store)) == 1

    second = _fresh(path, store)
    try:
        again = _step(second, "What is the capital of France?")
        other = _step(second, "Remind me to water the plants.")
    finally:
        second.close()
    assert again.raw == cold.raw
    assert again.stats.evaluated_prompt_tokens < cold.stats.prompt_tokens / 3
    assert other.stats.evaluated_prompt_tokens < other.stats.prompt_tokens / 3
    assert len(_files(store)) == 1  # nothing new to keep


@pytest.mark.real_model
def test_the_warm_up_reads_the_store_and_a_measurement_never_does(
    smollm2_path: Path, tmp_path: Path
) -> None:
    store = PrefixStore(tmp_path)
    first = _fresh(smollm2_path, store)
    computed = first.warm(_request("…"), threading.Event())
    first.close()
    assert computed is not None and computed > 100
    second = _fresh(smollm2_path, store)
    assert second.warm(_request("…"), threading.Event()) == 0  # read, not computed
    second.close()
    # Other settings would compute other numbers: a miss.
    other = _fresh(smollm2_path, store, RuntimeSettings(n_ctx=1024, n_threads=2, seed=7))
    assert other.warm(_request("…"), threading.Event()) == computed
    other.close()
    # A model without a store (the speed check's) computes everything.
    plain = _fresh(smollm2_path, None)
    assert plain.warm(_request("…"), threading.Event()) == computed
    plain.close()


@pytest.mark.real_model
def test_a_state_llama_cpp_refuses_is_computed_and_replaced(
    smollm2_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = PrefixStore(tmp_path)
    first = _fresh(smollm2_path, store)
    computed = first.warm(_request("…"), threading.Event())
    first.close()
    _cut_short(store)
    second = _fresh(smollm2_path, store)
    try:
        with caplog.at_level(logging.WARNING):
            assert second.warm(_request("…"), threading.Event()) == computed
        assert "refused" in caplog.text
        result = _step(second, "Hello")
        assert result.raw.strip()
    finally:
        second.close()
    [replaced] = _files(store)
    assert replaced.stat().st_size > 4096 + len(MAGIC) + 32


@pytest.mark.real_model
def test_a_refused_state_after_a_partly_shared_prompt_starts_from_nothing(
    smollm2_path: Path, tmp_path: Path
) -> None:
    """The context held part of the new prefix (another system prompt that starts the same)
    when llama.cpp refused the stored state: everything is computed again, and the answer is
    the one a cold model gives."""
    longer = "You are a helpful assistant. Answer in one sentence."

    def other_system(text: str) -> StepRequest:
        request = _request(text)
        return StepRequest(
            [{"role": "system", "content": longer}, *request.messages[1:]],
            request.tools,
            request.sampling,
            tool_choice=request.tool_choice,
        )

    plain = _fresh(smollm2_path, None)
    cold = plain.step(other_system("Hello"), lambda _e: None, threading.Event())
    plain.close()

    store = PrefixStore(tmp_path)
    first = _fresh(smollm2_path, store)
    first.step(other_system("Hello"), lambda _e: None, threading.Event())
    first.close()
    _cut_short(store)

    second = _fresh(smollm2_path, store)
    try:
        _step(second, "Hello")  # the shorter system prompt: cached, and stored apart
        result = second.step(other_system("Hello"), lambda _e: None, threading.Event())
    finally:
        second.close()
    assert result.stats.evaluated_prompt_tokens == result.stats.prompt_tokens
    assert result.raw == cold.raw
