"""A writer killed with SIGKILL mid-conversation loses no message it reported committed, and
leaves a database that passes SQLite's and FTS5's integrity checks."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from sqlalchemy import text

from app.store.conversations import ConversationStore
from app.store.database import Database

ROOT = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from app.store.conversations import ConversationStore, StoredMessage
    from app.store.database import Database

    store = ConversationStore(Database.open(Path(sys.argv[1])))
    conversation = store.create("durable")
    print("conversation", conversation.id, flush=True)
    n = 0
    while True:  # until killed
        role = ("user", "assistant", "tool")[n % 3]
        saved = store.append(
            conversation.id,
            StoredMessage(role, f"message {n} about pelicans " + "x" * (n % 50)),
            state={"untrusted_sources": [f"source {n}"]},
        )
        print("committed", saved.id, n, flush=True)
        n += 1
    """
)


def test_sigkill_mid_stream_loses_no_committed_message(tmp_path: Path) -> None:
    Database.open(tmp_path).close()  # migrate first, so the child only appends
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    committed: list[int] = []
    conversation_id = None
    assert child.stdout is not None
    try:
        for line in child.stdout:
            kind, *values = line.split()
            if kind == "conversation":
                conversation_id = int(values[0])
            elif kind == "committed":
                committed.append(int(values[0]))
            if len(committed) >= 150:
                break
        child.send_signal(signal.SIGKILL)  # mid-stream: it is writing the next one
        child.wait(timeout=60)
        # Lines it printed before dying are committed too.
        for line in child.stdout:
            kind, *values = line.split()
            if kind == "committed":
                committed.append(int(values[0]))
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    assert conversation_id is not None and len(committed) >= 150

    database = Database.open(tmp_path)
    try:
        with database.engine.begin() as connection:
            assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
            connection.execute(
                text("INSERT INTO messages_fts(messages_fts) VALUES('integrity-check')")
            )
        store = ConversationStore(database)
        loaded = store.load(conversation_id)
        ids = [m.id for m in loaded.messages]
        assert set(committed) <= set(ids)
        assert [m.position for m in loaded.messages] == list(range(len(ids)))  # no gaps
        # The state written with the last message came with it.
        last = len(ids) - 1
        assert loaded.state == {"untrusted_sources": [f"source {last}"]}
        hit = store.search("pelicans")
        assert [h.conversation_id for h in hit] == [conversation_id]
    finally:
        database.close()
