"""The import check `make lint` and `make test` run (tests/import_check.py): the real tree is
clean, and on small made-up trees every kind of layer leak and every undeclared direct import is
found, with the file and line, while the imports the layers allow pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_check import check, main

PYPROJECT = """
[project]
name = "made-up"
dependencies = [
    "PySide6-Essentials~=6.11.3",
    "lxml~=6.1.3",
    "tzlocal~=5.4.5; sys_platform == 'linux'",
]

[project.optional-dependencies]
test = ["PyYAML~=6.0.4"]
"""
DISTRIBUTIONS = {
    "PySide6": ["PySide6_Essentials"],
    "lxml": ["lxml"],
    "tzlocal": ["tzlocal"],
    "yaml": ["PyYAML"],
    "numpy": ["numpy"],
}


def tree(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return root


def found(root: Path) -> set[tuple[str, int, str]]:
    return {(str(p.path), p.line, p.message) for p in check(root, DISTRIBUTIONS)}


def test_the_real_tree_has_no_layer_leak_and_no_undeclared_import() -> None:
    assert [str(problem) for problem in check()] == []


def test_every_layer_leak_is_found_and_what_the_layers_allow_passes(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {
            # leaks
            "app/llm/tools.py": "from connectors.email_address import is_email_address\n",
            "app/llm/cache.py": "from ..store import database\n",  # relative: llm -> store
            "app/ui/worker.py": "def open_source():\n    from connectors.files import Folders\n",
            "connectors/mail.py": "from app.store.accounts import AccountSettings\n",
            "connectors/clock_user.py": "from app.clock import now\n",
            "app/store/db.py": "import app.agent.turn\n",
            "app/agent/loop.py": "from PySide6.QtCore import QObject\n",
            "app/__main__.py": "from PySide6.QtWidgets import QApplication\n",
            "app/clock.py": "import tzlocal\n",
            "app/ask.py": "from app.ui.main_window import MainWindow\n",
            "bench/scripted.py": "from tests.scripting import call\n",  # only tests/support
            # allowed
            "app/__init__.py": "APP_NAME = 'x'\n",
            "app/agent/tools.py": (
                "from typing import TYPE_CHECKING\n"
                "from app.llm import tools\nfrom app.store import db\nfrom connectors import mail\n"
                "from connectors.email_address import IN_TEXT\nfrom app.clock import now\n"
                "from app import APP_NAME\nif TYPE_CHECKING:\n    from app.agent import loop\n"
            ),
            "app/agent/services/opening.py": "from connectors.files import Folders\n",
            "app/ui/dialog.py": (
                "from PySide6.QtWidgets import QDialog\nfrom app.agent.services import opening\n"
                "from app.store import db\nfrom app.llm import tools\nimport lxml.html\n"
            ),
            "connectors/files/__init__.py": "from .confine import Folders\nfrom .. import mail\n",
            "connectors/files/confine.py": "from connectors.email_address import IN_TEXT\n",
            "bench/run.py": (
                "import yaml\nfrom _common import timed\n"
                "from tests.support.mail_servers import free_port\n"
                "from app.ui.main_window import MainWindow\nfrom PySide6.QtCore import QTimer\n"
            ),
            "bench/_common.py": "import statistics\n",
        },
    )
    assert found(root) == {
        ("app/llm/tools.py", 1, "llm imports connectors.email_address (connectors): a layer leak"),
        ("app/llm/cache.py", 1, "llm imports app.store (store): a layer leak"),
        ("app/ui/worker.py", 2, "ui imports connectors.files (connectors): a layer leak"),
        ("connectors/mail.py", 1, "connectors imports app.store.accounts (store): a layer leak"),
        ("connectors/clock_user.py", 1, "connectors imports app.clock (clock): a layer leak"),
        ("app/store/db.py", 1, "store imports app.agent.turn (agent): a layer leak"),
        ("app/agent/loop.py", 1, "PySide6.QtCore: Qt is imported only in app/ui"),
        ("app/__main__.py", 1, "PySide6.QtWidgets: Qt is imported only in app/ui"),
        ("app/clock.py", 1, "tzlocal: clock imports only the standard library"),
        ("app/ask.py", 1, "ask imports app.ui.main_window (ui): a layer leak"),
        ("bench/scripted.py", 1, "bench imports tests.scripting (tests): a layer leak"),
    }


def test_an_undeclared_direct_import_is_found(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {
            "app/llm/sampler.py": "import numpy as np\n",  # installed, through another package
            "connectors/web.py": "def parse():\n    import lxml.html\n    import primp\n",
            "app/agent/config.py": "import yaml\n",  # a test extra only: not for the app
            "bench/pdf_text.py": "import pypdfium2\nimport yaml\n",  # allowed by name; extra
        },
    )
    assert found(root) == {
        (
            "app/llm/sampler.py",
            1,
            "numpy comes from numpy, which pyproject.toml's dependencies do not declare",
        ),
        ("connectors/web.py", 3, "primp: no installed distribution provides it; declare it"),
        (
            "app/agent/config.py",
            1,
            "yaml comes from PyYAML, which pyproject.toml's dependencies do not declare",
        ),
    }


def test_the_command_exits_non_zero_with_one_line_per_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tree(tmp_path, {"app/llm/tools.py": "from connectors import x\nimport app.ui\n"})
    assert main([str(root)]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        "app/llm/tools.py:1: llm imports connectors (connectors): a layer leak",
        "app/llm/tools.py:2: llm imports app.ui (ui): a layer leak",
    ]
    assert "2 problem(s)" in out.err
    assert main([str(tree(tmp_path / "clean", {"connectors/a.py": "import re\n"}))]) == 0


def test_the_gate_imports_no_other_part_of_the_agent_and_is_reached_by_its_face(
    tmp_path: Path,
) -> None:
    root = tree(
        tmp_path,
        {
            # leaks: the gate reaching a tool; the app past the gate's face
            "app/agent/gate/policy.py": "from app.agent.tools.declarations import Label\n",
            "app/agent/turn/loop.py": "from app.agent.gate.policy import decide\n",
            "app/ui/window.py": "from app.agent.gate.permissions import StoredPermissions\n",
            # allowed: the face, the tools' helper modules, the gate's own parts and lower layers
            "app/agent/tools/registry.py": (
                "from app.agent.gate import ToolRule\nfrom app.agent.gate.labels import Labels\n"
            ),
            "app/agent/gate/permissions.py": (
                "from app.agent.gate.policy import StandingPermission\n"
                "from app.store.permissions import PermissionStore\n"
                "from connectors.hostnames import comparable_host\n"
            ),
        },
    )
    assert found(root) == {
        (
            "app/agent/gate/policy.py",
            1,
            "gate imports app.agent.tools.declarations (agent): a layer leak",
        ),
        (
            "app/agent/turn/loop.py",
            1,
            "app.agent.gate.policy: outside the gate, import it from app.agent.gate",
        ),
        (
            "app/ui/window.py",
            1,
            "app.agent.gate.permissions: outside the gate, import it from app.agent.gate",
        ),
    }
