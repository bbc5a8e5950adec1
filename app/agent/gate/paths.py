"""Where file tools may reach, as the gate sees it: the allowed folders, no programs, and no
new name that passes for an existing one.

These are lexical and resolved checks made before anything runs; the files connector
confines every open again at the moment it happens (`connectors.files.confine`), and its
list of program suffixes is the one used here. Standard library only.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from app.agent.gate.arguments import MAX_DEPTH, quoted
from connectors.files import EXECUTABLE_SUFFIXES

__all__ = [
    "check_path",
    "confusable_neighbour",
    "name_skeleton",
    "program_suffix",
    "run_or_load_kind",
]


def _within(path: str, root: str) -> bool:
    path, root = os.path.normcase(path), os.path.normcase(root)
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # pragma: no cover - Windows only: paths on two different drives
        return False


def check_path(value: Any, allowed_folders: Sequence[str]) -> str | None:
    """Why `value` may not be touched, or None if it lies inside one of the allowed folders.

    Lexical and resolved checks both: no NUL or control characters, no `..`, absolute
    paths (or relative ones, read against the first allowed folder as the connector does), and
    the path
    with every symlink resolved (`os.path.realpath`) must stay inside the folder's own
    resolved path. Files with more than one hard link are refused: the other name may be
    outside. The connector must still open files without following links (TOCTOU).
    """
    if not isinstance(value, str):
        return "a path must be text"
    if "\x00" in value:
        return "the path contains a NUL byte"
    if not value or any(ord(c) < 32 or c == "\x7f" for c in value):
        return "the path is empty or contains control characters"
    if ".." in re.split(r"[\\/]+", value):
        return f"the path {quoted(value)} contains '..'"
    if not os.path.isabs(value):
        # The files connector reads a relative path against the first allowed folder (the
        # user chose that folder); check the same path it will open.
        first = next((f for f in allowed_folders if isinstance(f, str) and os.path.isabs(f)), None)
        if first is None:
            return f"the path {quoted(value)} is not inside a folder Hearth may use"
        value = os.path.join(first, value.lstrip("~"))
    lexical = os.path.normpath(value)
    real = os.path.realpath(value)
    for folder in allowed_folders:
        if not isinstance(folder, str) or not folder or "\x00" in folder:
            continue
        if not os.path.isabs(folder):
            continue
        folder_real = os.path.realpath(folder)
        lexical_ok = _within(lexical, os.path.normpath(folder)) or _within(lexical, folder_real)
        if lexical_ok and _within(real, folder_real):
            try:
                status = os.lstat(real)
            except OSError:
                return None  # does not exist yet: a new file inside the folder
            if not os.path.isdir(real) and status.st_nlink > 1:
                return f"the file {quoted(value)} has other hard links"
            return None
    return f"the path {quoted(value)} is outside the allowed folders"


# Letters from other scripts that look like Latin ones, and Latin look-alike sequences. Enough
# for the file names a planted look-alike would use; NFKC already folds full-width forms.
_HOMOGLYPHS = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
        "ј": "j", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ь": "b", "п": "n",
        "г": "r", "ɡ": "g",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "μ": "u", "γ": "y",
        # Armenian and others
        "օ": "o", "ս": "u", "ց": "g", "ո": "n", "ı": "i", "ȷ": "j", "ℓ": "l",
        # digits and symbols that pass for letters
        "0": "o", "1": "l", "|": "l", "i": "l", "5": "s", "$": "s",
        "‐": "-", "‑": "-", "‒": "-", "–": "-", "−": "-", "_": "-",
    }
)  # fmt: skip
_MAX_NEIGHBOURS = 5_000


def name_skeleton(name: str) -> str:
    """What a file name looks like to a reader: NFKC, case-folded, invisible characters
    dropped, look-alike letters from other scripts mapped to Latin ("rn" reads as "m")."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Mn", "Me"))
    text = text.casefold().translate(_HOMOGLYPHS)
    return text.replace("rn", "m").replace("vv", "w").replace("cl", "d")


def confusable_neighbour(path: str, allowed_folders: Sequence[str]) -> str | None:
    """A reason to ask when `path` is a new file (or goes through a new folder) whose name
    looks like an existing one's in the same folder ("invoice.pdf" beside "invоice.pdf" with a
    Cyrillic o, a new "Dоcuments" beside "Documents"), else None."""
    if not os.path.isabs(path):
        first = next((f for f in allowed_folders if isinstance(f, str) and os.path.isabs(f)), None)
        if first is None:
            return None
        path = os.path.join(first, path.lstrip("~"))
    if os.path.lexists(path):
        return None
    # The first part of the path that does not exist yet ("Dоcuments" in "Dоcuments/a.txt"),
    # compared with what is already in the folder it would be created in.
    missing, folder = path, os.path.dirname(path)
    for _ in range(MAX_DEPTH * 4):
        if folder == missing or os.path.lexists(folder):
            break
        missing, folder = folder, os.path.dirname(folder)
    name = os.path.basename(missing)
    skeleton = name_skeleton(name)
    try:
        with os.scandir(folder) as entries:
            for index, entry in enumerate(entries):
                if index >= _MAX_NEIGHBOURS:
                    break
                if entry.name != name and name_skeleton(entry.name) == skeleton:
                    return (
                        f"the new file name {quoted(name)} looks like the existing "
                        f"{quoted(entry.name)}"
                    )
    except OSError:
        return None
    return None


def program_suffix(path: str) -> str | None:
    """The suffix if `path` names a program or script (it could run later), else None.
    Trailing dots and spaces are dropped first: Windows drops them when it creates the file."""
    suffix = os.path.splitext(path.rstrip(". "))[1].lower()
    return suffix if suffix in EXECUTABLE_SUFFIXES else None


# Files a program runs or loads as its settings when it finds them by name or place: writing
# one is how text someone planted becomes code that runs later, so creating one always asks.
_RUN_OR_LOAD_NAMES: dict[str, str] = {
    **dict.fromkeys(
        (
            ".bashrc",
            ".bash_profile",
            ".bash_login",
            ".bash_logout",
            ".profile",
            ".zshrc",
            ".zshenv",
            ".zprofile",
            ".zlogin",
            ".zlogout",
            ".kshrc",
            ".cshrc",
            ".tcshrc",
            ".mkshrc",
            "config.fish",
            ".inputrc",
            ".xinitrc",
            ".xsession",
            ".xsessionrc",
            ".xprofile",
            ".envrc",
            ".env",
            ".exrc",
            ".vimrc",
            ".gvimrc",
            ".nanorc",
            ".wgetrc",
            ".curlrc",
        ),
        "a shell or program start-up file",
    ),
    **dict.fromkeys(("crontab", "anacrontab", "cron.yaml", "cron.yml"), "a cron table"),
    **dict.fromkeys(
        (
            ".gitconfig",
            ".gitattributes",
            ".gitmodules",
            ".pre-commit-config.yaml",
            ".pre-commit-config.yml",
            ".gitlab-ci.yml",
            ".travis.yml",
            "azure-pipelines.yml",
            "bitbucket-pipelines.yml",
            "jenkinsfile",
            ".drone.yml",
            "appveyor.yml",
        ),
        "a configuration that git or a build server runs commands from",
    ),
    **dict.fromkeys(
        (
            "makefile",
            "gnumakefile",
            "dockerfile",
            "containerfile",
            "vagrantfile",
            "procfile",
            "cmakelists.txt",
            "package.json",
            "composer.json",
            "pyproject.toml",
            "setup.cfg",
            "tox.ini",
            "noxfile.py",
            "justfile",
            "taskfile.yml",
            "taskfile.yaml",
            ".npmrc",
            ".yarnrc",
            ".yarnrc.yml",
            ".pypirc",
            "pip.conf",
            "pip.ini",
            ".condarc",
            ".babelrc",
            "requirements.txt",
            "devcontainer.json",
            ".devcontainer.json",
            "tasks.json",
            "launch.json",
        ),
        "a file that build tools and installers run commands from",
    ),
    **dict.fromkeys(("authorized_keys", "authorized_keys2"), "SSH settings"),
}
_RUN_OR_LOAD_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?:docker-)?compose(?:[.\-_][^/]*)?\.ya?ml"), "a Docker Compose file"),
    (re.compile(r"[^/]*\.(?:service|timer|socket|path|mount|automount|target|slice|scope)"),
     "a systemd unit"),
    (re.compile(r"[^/]*\.desktop"), "a desktop launcher"),
    (re.compile(r"[^/]*\.pth"), "a Python start-up file"),
    (re.compile(r"(?:sitecustomize|usercustomize)\.py"), "a Python start-up file"),
    (re.compile(r"[^/]*\.cron|cron\.[^/]+"), "a cron table"),
    (re.compile(r"[^/]*\.rules"), "a udev or polkit rule"),
    (re.compile(r"\.eslintrc(?:\.[a-z]+)?|\.prettierrc(?:\.[a-z]+)?"), "a tool's start-up file"),
)  # fmt: skip
_RUN_OR_LOAD_FOLDERS: dict[str, str] = {
    ".husky": "a git hook",
    ".git": "a git repository's own settings",
    ".ssh": "SSH settings",
    "autostart": "a program started at log-in",
    "systemd": "a systemd unit",
    "init.d": "a program started at boot",
    "profile.d": "a shell start-up file",
    "bashrc.d": "a shell start-up file",
    "cron.d": "a cron table",
    "cron.hourly": "a cron table",
    "cron.daily": "a cron table",
    "cron.weekly": "a cron table",
    "cron.monthly": "a cron table",
    ".circleci": "a CI workflow",
    ".vscode": "editor settings that can run commands",
    ".devcontainer": "a development container's settings",
    "launchagents": "a program started at log-in",
    "launchdaemons": "a program started at boot",
}  # fmt: skip


def run_or_load_kind(path: str) -> str | None:
    """What kind of file `path` is if a program would run it or load it as its settings when
    it finds it there (a compose file, a shell rc file, a `.desktop` launcher, a cron table, a
    systemd unit, a git hook, ...), else None. Names are compared as the program compares them
    (case-folded, trailing dots and spaces dropped as Windows drops them)."""
    parts = [p for p in re.split(r"[\\/]+", unicodedata.normalize("NFKC", path)) if p]
    if not parts:
        return None
    parts = [p.rstrip(". ").casefold() for p in parts]
    name = parts[-1]
    if name in _RUN_OR_LOAD_NAMES:
        return _RUN_OR_LOAD_NAMES[name]
    for pattern, kind in _RUN_OR_LOAD_PATTERNS:
        if pattern.fullmatch(name):
            return kind
    for folder, inner in pairwise(parts):
        if (folder, inner) == (".git", "hooks"):
            return "a git hook"
        if (folder, inner) == (".github", "workflows"):
            return "a CI workflow (GitHub runs it)"
        if folder in _RUN_OR_LOAD_FOLDERS:
            return _RUN_OR_LOAD_FOLDERS[folder]
    return None
