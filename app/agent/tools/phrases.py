"""Small phrases the tools' words are made of: a value as one safe short line, a time as
people write it, a file's name, recipients, a web host. Pure: rendered by code from the
arguments that will run, never from the model's prose. Each tool's own title is in its
declaration row (`app.agent.tools.declarations`); `app.agent.tools.wording` puts them together.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from email.utils import getaddresses
from typing import Any
from urllib.parse import urlsplit

from app.agent.tools.previews import host_forms
from connectors.hostnames import is_international

__all__ = ["file_name", "host", "people", "quoted", "shown", "when"]

_HIDDEN = ("Cc", "Cf", "Zl", "Zp")  # controls, invisible formatting, line breaks
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def shown(value: Any, limit: int = 60) -> str:
    """A value as one short, safe line: control and invisible formatting characters (line
    breaks, right-to-left marks) become spaces, runs of spaces one, long values end in "…"."""
    text = value if isinstance(value, str) else str(value)
    text = "".join(" " if unicodedata.category(ch) in _HIDDEN else ch for ch in text)
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def quoted(value: Any, limit: int = 60) -> str:
    return f"“{shown(value, limit)}”"


def file_name(path: Any) -> str:
    """The last part of a path: the title names the file, the preview its full folder."""
    text = shown(path, 500).rstrip("/")
    return shown(text.rsplit("/", 1)[-1] or text)


def when(value: Any) -> str:
    """An ISO 8601 time as people write it ("Tue 1 Dec 2026, 09:30"); anything else as given."""
    text = str(value).strip()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return shown(value, 40)
    day = f"{_DAYS[moment.weekday()]} {moment.day} {_MONTHS[moment.month - 1]} {moment.year}"
    return day if len(text) == len("2026-12-01") else f"{day}, {moment:%H:%M}"


def _person(value: Any) -> str:
    """One recipient; an international domain in the form that cannot pass for another
    (its ASCII name when it mixes alphabets, escaped when no server can have it)."""
    text = str(value)
    parsed = getaddresses([text])
    if len(parsed) != 1 or parsed[0][1].count("@") != 1:
        return shown(text)
    local, domain = parsed[0][1].split("@")
    if not is_international(domain):
        return shown(text)
    readable, used, problem = host_forms(domain)
    if problem is not None:
        return shown(ascii(parsed[0][1]))
    return shown(f"{local}@{used if readable == used else readable}")


def people(value: Any) -> str:
    """Recipients as a phrase: one named, or the first and how many others."""
    if isinstance(value, str):
        value = [value]
    names = [_person(v) for v in value or () if str(v).strip()]
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    others = len(names) - 1
    return f"{names[0]} and {others} other{'s' if others > 1 else ''}"


def host(url: Any) -> str:
    """The host a fetch goes to; an international name in the form that cannot deceive."""
    try:
        host = urlsplit(str(url).strip()).hostname or ""
    except ValueError:
        host = ""
    if not host:
        return quoted(url)
    if is_international(host):
        readable, used, problem = host_forms(host)
        return shown(used if problem is None and readable == used else readable)
    return shown(host)
