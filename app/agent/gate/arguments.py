"""Reading a proposed call's arguments for the gate: shape, names, walking, recipients.

The arguments are the model's, so possibly an attacker's: anything that is not a plain JSON
object of the expected shape is refused before any rule looks at it, and the walks below
look at every value at any depth (bounded), not only where a well-behaved call puts it.
Standard library only.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Collection, Iterator
from typing import Any

from connectors.email_address import IN_TEXT
from connectors.hostnames import comparable_host

# Argument names that hold a file-system path. Mail tools use "folder" for a mailbox name,
# so their rules leave it out.
PATH_ARGUMENT_NAMES = frozenset(
    {"path", "paths", "folder", "file_path", "filepath", "directory", "dir", "attachments"}
)
URL_ARGUMENT_NAMES = frozenset({"url", "urls", "uri", "link", "links", "href", "endpoint"})
_PLURAL_ARGUMENT_NAMES = frozenset({"paths", "attachments", "urls", "links"})
RECIPIENT_ARGUMENT_NAMES = frozenset({"to", "cc", "bcc", "attendees", "recipients", "recipient"})

# Names a fooled model might use to claim the user already agreed. They are ignored as
# arguments (their values are still scanned like any other text).
APPROVAL_FLAG_NAMES = frozenset(
    {
        "approved", "approve", "approval", "preapproved", "confirmed", "confirm",
        "confirmation", "userapproved", "userconfirmed", "userconsent", "consent",
        "skipconfirmation", "skipconfirm", "noconfirm", "noconfirmation", "autoapprove",
        "autoconfirm", "force", "bypass", "bypassconfirmation", "authorized", "authorised",
        "allow", "allowed", "trusted", "safe", "dontask", "noprompt",
    }
)  # fmt: skip

MAX_DEPTH = 20

# An address inside any text (a typed message, an argument); the connectors hold the
# addresses they send to to the stricter `is_email_address`.
EMAIL_IN_TEXT = IN_TEXT
URL_IN_TEXT = re.compile(r"(?i)https?://\S+")


def quoted(value: Any, limit: int = 80) -> str:
    """A value for a reason text: quoted, shortened, long digit runs masked (reasons go to
    the audit log, which must not collect the card number a path or name was built from)."""

    def mask(match: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", match.group())
        return match.group() if len(digits) < 8 else "•" * (len(digits) - 4) + digits[-4:]

    text = re.sub(r"\d(?:(?:[^\w%]|_){0,3}\d)+", mask, str(value))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return repr(text)


def is_approval_flag(name: str) -> bool:
    """Whether a name claims approval ("user_approved", "Skip-Confirmation"): a model's
    claim, never a fact."""
    return re.sub(r"[\W_]+", "", name).casefold() in APPROVAL_FLAG_NAMES


def looks_like_url(value: str) -> bool:
    """Text that a fetch would take as an address (prose that mentions one is not)."""
    stripped = value.strip()
    return bool(re.match(r"(?i)https?:", stripped)) and not any(c.isspace() for c in stripped)


def address(value: str) -> str:
    """The address inside "Name <a@b>" (or the whole string) as it is compared: the local
    part case-folded, the domain as the mail server gets it (x@faß.de is x@xn--fa-hia.de,
    another mailbox than x@fass.de, which case-folding alone would make it)."""
    value = value.strip()
    match = re.search(r"<([^<>]*)>\s*$", value)
    if match:
        value = match.group(1).strip()
    local, at, domain = value.rpartition("@")
    return local.casefold() + at + (comparable_host(domain) if at else domain.casefold())


def recipients(value: Any) -> Iterator[str]:
    """Every recipient in an argument value: comma or semicolon lists, lists, and objects
    with an "email" (or "address", "mail") entry or with text values."""
    if isinstance(value, str):
        for part in re.split(r"[,;]", value):
            if part.strip():
                yield part.strip()
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from recipients(item)
    elif isinstance(value, dict):
        for key in ("email", "address", "mail"):
            if isinstance(value.get(key), str):
                yield from recipients(value[key])
                return
        for item in value.values():
            if isinstance(item, str):
                yield from recipients(item)


def items(value: Any, depth: int = 0) -> Iterator[tuple[str, Any]]:
    """(name, value) for every dict entry at any depth."""
    if depth > MAX_DEPTH:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from items(item, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from items(item, depth + 1)


def strings(value: Any, depth: int = 0) -> Iterator[str]:
    """Every string value at any depth (not the names)."""
    if depth > MAX_DEPTH:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item, depth + 1)


def leaf_strings(value: Any, path: str = "", depth: int = 0) -> Iterator[tuple[str, str]]:
    """(path, text) for every string value and dict key in the arguments."""
    if depth > MAX_DEPTH:
        return
    if isinstance(value, str):
        yield path or "<value>", value
    elif isinstance(value, dict):
        for index, (key, item) in enumerate(value.items()):
            plain = isinstance(key, str) and re.fullmatch(r"[A-Za-z_]\w{0,39}", key)
            name = key if plain else f"<name {index}>"
            child = f"{path}.{name}" if path else name
            if isinstance(key, str):
                yield f"{child} (name)", key
            yield from leaf_strings(item, child, depth + 1)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from leaf_strings(item, f"{path}[{index}]", depth + 1)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**40:
        yield path or "<value>", str(value)


def _json_problem(value: Any, depth: int = 0) -> str | None:
    if depth > MAX_DEPTH:
        return "the arguments are nested too deeply"
    if value is None or isinstance(value, (bool, int, str)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "the arguments contain NaN or infinity"
    if isinstance(value, (list, tuple)):
        for item in value:
            problem = _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        names = set()
        for key, item in value.items():
            if not isinstance(key, str):
                return "an argument name is not text"
            normal = unicodedata.normalize("NFC", key)
            if normal in names:
                return f"two arguments are both named {quoted(normal)}"
            names.add(normal)
            problem = _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    return f"an argument has the unsupported type {type(value).__name__}"


def shape_problem(
    arguments: Any, required: Collection[str], path_arguments: Collection[str]
) -> str | None:
    """Fail closed on anything that is not a plain JSON object of the expected shape."""
    if not isinstance(arguments, dict):
        return "the arguments are not an object"
    problem = _json_problem(arguments)
    if problem:
        return problem
    for name in sorted(required):
        if arguments.get(name) is None:
            return f"the required argument {quoted(name)} is missing"
    for name, value in items(arguments):
        if value is None:
            continue
        if name in path_arguments or name in URL_ARGUMENT_NAMES:
            if isinstance(value, str):
                continue
            plural = name in _PLURAL_ARGUMENT_NAMES
            if (
                plural
                and isinstance(value, (list, tuple))
                and all(isinstance(v, (str, dict)) for v in value)
            ):
                continue  # dicts (an attachment object) are walked on their own
            what = "text or a list" if plural else "text"
            return f"the argument {quoted(name)} must be {what}"
        if name in RECIPIENT_ARGUMENT_NAMES and not isinstance(value, (str, list, tuple, dict)):
            return f"the argument {quoted(name)} must be an address or a list of addresses"
    return None
