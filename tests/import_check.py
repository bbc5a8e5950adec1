"""The import check of `make lint` and `make test`: the layers hold, and every package the code
imports directly is one pyproject.toml declares.

    python -m tests.import_check [ROOT]     # exit 1 and one line per problem, 0 when clean

Layers (DESIGN.md): `ui → agent → (llm, connectors, store)`, each arrow pointing down only.
The UI reaches connectors through the agent's services; a connector imports nothing from
`app`; llm and store import no agent or UI and not each other; Qt (PySide6) only in app/ui;
`app/clock.py` and `connectors/folding.py` (which every layer may use) import only the
standard library. Every import counts, also one
inside a function or under `if TYPE_CHECKING:`: each is a dependency a change must respect.

Dependencies: a package imported by app/ or connectors/ must be in
`[project.dependencies]` (bench/ may also use the test extras), under the distribution name
that installs it. Relying on a package that arrives with another one lets a bump of that one
remove it. The check reads the installed distributions' top-level names, so it runs in the
project's environment (where `make` runs it).
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("app", "connectors", "bench")  # tests/ may import anything
FIRST_PARTY = frozenset({"app", "connectors", "bench", "tests"})
QT = frozenset({"PySide6", "shiboken6"})

# Layer of a module: the longest matching prefix wins.
LAYER_OF = {
    "app": "base",  # app/__init__: the name and version
    "app.paths": "base",
    "app.logging_setup": "base",
    "app.clock": "clock",
    "app.__main__": "main",
    "app.ask": "ask",
    "app.ui": "ui",
    "app.agent": "agent",
    # The gate decides from the rules it is handed: it imports no other part of the agent.
    "app.agent.gate": "gate",
    "app.llm": "llm",
    "app.store": "store",
    "connectors": "connectors",
    # Folding text for comparison (case, accents): standard library only, and needed alike by
    # the connectors (contact search), the store (search indexes) and the agent (id hints).
    "connectors.folding": "leaf",
    "bench": "bench",
    "tests": "tests",
    # The servers and fixtures the tests and the benchmarks share.
    "tests.support": "support",
}
LOWER = frozenset({"base", "clock", "leaf"})  # what every layer but connectors may use
MAY_IMPORT: Mapping[str, frozenset[str]] = {
    "clock": frozenset({"clock"}),
    "leaf": frozenset({"leaf"}),
    "base": frozenset({"base"}),
    "connectors": frozenset({"connectors", "leaf"}),
    "llm": LOWER | {"llm"},
    "store": LOWER | {"store"},
    "gate": LOWER | {"gate", "connectors", "store"},  # the grants are kept in the store
    "agent": LOWER | {"agent", "gate", "llm", "connectors", "store"},
    "ui": LOWER | {"ui", "agent", "gate", "llm", "store"},  # connectors only through services
    "ask": LOWER | {"ask", "agent", "gate", "llm", "store"},
    "main": LOWER | {"main", "ask", "ui", "agent", "gate", "llm", "store"},
    # bench measures every layer, the window included; of the tests it uses only the servers
    # and fixtures they share (tests/support).
    "bench": LOWER
    | {"bench", "main", "ask", "ui", "agent", "gate", "llm", "connectors", "store", "support"},
}
# The gate's face (`app/agent/gate/__init__.py`) and the helper modules the tools label and
# check their data with: what app/ outside the gate may import of it.
GATE_PUBLIC = frozenset(
    {
        "app.agent.gate",
        "app.agent.gate.labels",
        "app.agent.gate.urls",
        "app.agent.gate.arguments",
        "app.agent.gate.detectors",
    }
)
STDLIB_ONLY = frozenset({"clock", "leaf"})
QT_LAYERS = frozenset({"ui", "bench"})  # bench drives the real window to time it

# Imports allowed without a declaration, each for its reason.
UNDECLARED_OK = {
    # bench/pdf_text.py compares pypdf with PDFium; PDFium's native parser stays out of the
    # app on purpose, and the bench says how to install it for that one comparison.
    "pypdfium2": frozenset({"bench"}),
}


@dataclass(frozen=True)
class Import:
    path: Path  # the importing file, relative to the root
    line: int
    importer: str  # its module name
    name: str  # the module imported, absolute


@dataclass(frozen=True)
class Problem:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def module_name(relative: Path) -> str:
    parts = relative.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(root: Path, top: str) -> Iterator[Import]:
    """Every import in the .py files under root/top, relative ones made absolute."""
    for path in sorted((root / top).rglob("*.py")):
        relative = path.relative_to(root)
        importer = module_name(relative)
        package = importer if path.name == "__init__.py" else importer.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield Import(relative, node.lineno, importer, alias.name)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    name = ".".join([*base, node.module] if node.module else base)
                else:
                    name = node.module or ""
                yield Import(relative, node.lineno, importer, name)


def layer(module: str) -> str | None:
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        found = LAYER_OF.get(".".join(parts[:end]))
        if found is not None:
            return found
    return None


def script_siblings(root: Path) -> frozenset[str]:
    """Names bench's scripts import bare (`from _common import ...`, run as bench/x.py)."""
    bench = root / "bench"
    if not bench.is_dir():
        return frozenset()
    return frozenset(p.stem for p in bench.iterdir() if p.suffix == ".py" or p.is_dir())


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared(pyproject: Path) -> tuple[frozenset[str], frozenset[str]]:
    """The normalised distribution names of the dependencies and of the test extras."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]

    def names(requirements: list[str]) -> frozenset[str]:
        found = (re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", r) for r in requirements)
        return frozenset(normalized(m.group(1)) for m in found if m)

    extras = project.get("optional-dependencies", {})
    return names(project.get("dependencies", [])), names(extras.get("test", []))


def check(root: Path = ROOT, distributions: Mapping[str, list[str]] | None = None) -> list[Problem]:
    """Every layer leak and undeclared direct import under `root`."""
    if distributions is None:
        distributions = importlib.metadata.packages_distributions()
    runtime, test_extras = declared(root / "pyproject.toml")
    siblings = script_siblings(root)
    stdlib = sys.stdlib_module_names
    problems: list[Problem] = []
    for top in CHECKED:
        if not (root / top).is_dir():
            continue
        for found in imports(root, top):
            source = layer(found.importer) or top
            first = found.name.split(".")[0]

            def problem(message: str, found: Import = found) -> None:
                problems.append(Problem(found.path, found.line, message))

            if first in FIRST_PARTY or (source == "bench" and first in siblings):
                target = layer(found.name) if first in FIRST_PARTY else "bench"
                if target is not None and target not in MAY_IMPORT[source]:
                    problem(f"{source} imports {found.name} ({target}): a layer leak")
                elif target == "gate" != source and top == "app" and found.name not in GATE_PUBLIC:
                    problem(f"{found.name}: outside the gate, import it from app.agent.gate")
                continue
            if first in stdlib:
                continue
            if source in STDLIB_ONLY:
                problem(f"{found.name}: {source} imports only the standard library")
            if first in QT and source not in QT_LAYERS:
                problem(f"{found.name}: Qt is imported only in app/ui")
            if source in UNDECLARED_OK.get(first, ()):
                continue
            allowed = runtime | test_extras if source == "bench" else runtime
            installed = distributions.get(first, [])
            if not installed:
                problem(f"{found.name}: no installed distribution provides it; declare it")
            elif not {normalized(d) for d in installed} & allowed:
                where = "dependencies or test extras" if source == "bench" else "dependencies"
                problem(
                    f"{found.name} comes from {', '.join(sorted(set(installed)))}, which "
                    f"pyproject.toml's {where} do not declare"
                )
    return problems


def main(argv: list[str]) -> int:
    root = Path(argv[0]).resolve() if argv else ROOT
    problems = check(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"import check: {len(problems)} problem(s) (tests/import_check.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
