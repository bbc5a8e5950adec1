"""The model worker and the user's tool servers (issue #22): started with the model, in the
worker's thread; their approved tools offered; restarted after Settings → Tools… changed
them; stopped with the app. What the user must know arrives as a notice."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from app.agent.tools.tool_servers import approve_tools, check_server, remove_server, save_server
from app.agent.turn.chat import Conversation
from app.store.database import Database
from app.store.tool_servers import ToolServer
from app.ui.worker import ModelWorker

SERVER = Path(__file__).parents[1] / "connectors" / "mcp_servers" / "tools_server.py"


def test_the_worker_runs_the_servers_and_offers_what_was_approved(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    database = Database.open(data)
    command = shlex.join([sys.executable, str(SERVER)])
    saved = save_server(database, ToolServer("Test tools", command=command), {})
    checked = check_server(saved)
    assert checked.ok and saved.id is not None, checked.message
    approve_tools(database, saved.id, [view for view in checked.tools if view.name == "echo"])
    save_server(database, ToolServer("Broken", command="hearth-no-such-program"), {})
    database.close()
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Hello.", "Hi again."]}))

    worker = ModelWorker(data_dir=data)
    notices: list[str] = []
    worker.notice.connect(notices.append)
    worker.load(str(script))
    try:
        assert worker.agent is not None and worker.tool_servers is not None
        offered = [n for n in worker.agent.registry.names() if n.startswith("test_tools__")]
        assert offered == ["test_tools__echo"]  # approved; the rest waits for the user
        assert any("Test tools" in n and "not looked at yet" in n for n in notices)
        assert any("Broken" in n and "not available" in n for n in notices)
        connection = worker.tool_servers.connections["Test tools"]
        assert connection.state == "running"

        # Settings → Tools… removed it: the next turn runs without it, its process stopped.
        assert worker.database is not None
        remove_server(worker.database, saved.id)
        worker.tool_servers_changed.set()
        worker.run_turn(Conversation(), "hello")
        assert not any(n.startswith("test_tools__") for n in worker.agent.registry.names())
        assert connection.state == "stopped"
        assert not worker.tool_servers_changed.is_set()
    finally:
        worker.close_tool_servers()
        worker.unload()
        if worker.database is not None:
            worker.database.close()
    assert worker.tool_servers is None


def test_without_tool_servers_the_mcp_stack_is_not_loaded(tmp_path: Path) -> None:
    """Importing the SDK costs a second and more at every start: only users of tool servers
    pay it (a fresh interpreter, as the app starts)."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": ["Hello."]}))
    (tmp_path / "data").mkdir()
    code = (
        "import sys\n"
        "from app.ui.worker import ModelWorker\n"
        "from pathlib import Path\n"
        f"worker = ModelWorker(data_dir=Path({str(tmp_path / 'data')!r}))\n"
        f"worker.load({str(script)!r})\n"
        "assert worker.agent is not None\n"
        "print('mcp' in sys.modules, 'connectors.mcp' in sys.modules)\n"
        "worker.unload(); worker.database.close()\n"
    )
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=environment
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["False", "False"]
