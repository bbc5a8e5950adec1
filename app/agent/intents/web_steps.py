"""Steps for the web: a search, and a website opened by its name.

A site named ("ábreme la web de la BVG", "open the BBC website") is opened at an address
code checks against the name it was asked by: one the request writes, else the one the model
knows if its name holds the site's (offline too), else the first search result that does.
Nothing else is guessed: with none, the user is asked for the address. Opening always asks
first, and the dialog shows the address.
"""

from __future__ import annotations

import re
from typing import Any

from app.agent.intents.router import Ask, Doing, Steps, outcome
from connectors.folding import fold

# A web address as written: a scheme or "www.", or a name with a dot and a top-level domain
# ("bvg.de", "https://www.bbc.co.uk/news"); not an email's (no "@" before it). A file's name
# ("rechnung.pdf") is told apart by its ending (`_FILE_ENDINGS`).
_ADDRESS = re.compile(
    r"(?<![@\w.-])(?:https?://)?((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,})(?![\w@-])",
    re.IGNORECASE,
)
_FILE_ENDINGS = {
    "pdf", "txt", "md", "doc", "docx", "xls", "xlsx", "csv", "odt", "ods", "ppt", "pptx", "png",
    "jpg", "jpeg", "gif", "zip", "ics", "vcf", "json", "html", "py", "mp3", "mp4", "eml",
}  # fmt: skip

# Words around a site's name that are not it: "the website of", "la web de la", "die Seite
# der", "le site de", "la página de", "official" (folded).
_NOT_THE_NAME = {
    "the", "a", "an", "of", "website", "site", "web", "page", "webpage", "homepage", "home",
    "official", "their", "its", "der", "die", "das", "den", "dem", "des", "von", "vom",
    "seite", "webseite", "internetseite", "offizielle", "le", "la", "les", "l",
    "de", "du", "d", "officiel", "el", "los", "las", "del", "pagina", "oficial", "sitio",
    "open", "offne", "ouvre", "abre", "abreme", "me", "please", "bitte", "porfa", "stp",
}  # fmt: skip

_ASK_ADDRESS = (
    "Write the web address of the official website the user names, as www.example.com. "
    "Write only the address."
)


def search(doing: Doing, slots: dict[str, str]) -> str:
    query = slots["query"]
    record = doing.call("web_search", query=query)
    if record.status != "ok":
        return outcome(doing, record, "")
    results = _results(record)
    if not results:
        return doing.say("web_nothing", query=query)
    lines = "\n".join(
        f"- {r.get('title')} ({r.get('url')}): {str(r.get('snippet') or '')[:160]}"
        for r in results[:5]
    )
    return doing.say("web_results", query=query, lines=lines)


def open_website(doing: Doing, slots: dict[str, str]) -> str:
    site = slots["site"].strip()
    url = (
        written_address(site)
        or written_address(doing.request)
        or _known_address(doing, site)
        or _searched_address(doing, site)
    )
    if url is None:
        raise Ask(doing.say("which_address", site=site), "site")
    record = doing.call("open_item", url=url)
    return outcome(doing, record, doing.say("opened", path=url))


def written_address(text: str) -> str | None:
    """The first web address `text` writes, as an https address of its host ("bvg.de":
    "https://bvg.de"); None if it writes none (a file's name is none)."""
    for found in _ADDRESS.finditer(text):
        host = found.group(1).lower()
        if host.rsplit(".", 1)[-1] not in _FILE_ENDINGS:
            scheme = "http://" if found.group(0).lower().startswith("http://") else "https://"
            return f"{scheme}{host}"
    return None


def names_the_site(host: str, site: str) -> bool:
    """Whether the address `host` is named by `site`, the words the user named it by: its
    name (the label before the top-level domain, "bvg" of "www.bvg.de") holds one of their
    words, one of their words holds it, or it is their initials ("db" of "Deutsche Bahn")."""
    labels = [label for label in host.lower().split(".") if label != "www"]
    if len(labels) < 2:
        return False
    name = labels[-2] if len(labels[-2]) > 3 or len(labels) < 3 else labels[-3]  # "bbc.co.uk"
    name = name.replace("-", "")
    words = [w for w in re.findall(r"[a-z0-9]+", fold(site)) if w not in _NOT_THE_NAME]
    if not words:
        return False
    if any(len(w) >= 3 and (w in name or name in w) for w in words):
        return True
    return len(words) > 1 and name == "".join(w[0] for w in words)


def _known_address(doing: Doing, site: str) -> str | None:
    """The address the model knows for `site`, if its name is the site's."""
    url = written_address(doing.write(_ASK_ADDRESS, site, exact=True))
    return url if url is not None and names_the_site(url.split("://")[1], site) else None


def _searched_address(doing: Doing, site: str) -> str | None:
    """The first search result's address named by `site` (the dialog asks before the
    search); None where the web cannot be searched or none is."""
    if doing.agent.registry.get("web_search") is None:
        return None
    record = doing.call("web_search", query=site)
    if record.status != "ok":
        return None
    for result in _results(record):
        url = written_address(str(result.get("url") or ""))
        if url is not None and names_the_site(url.split("://")[1], site):
            return url
    return None


def _results(record: Any) -> list[dict[str, Any]]:
    items = record.result if isinstance(record.result, list) else []
    return [item for item in items if isinstance(item, dict)]


STEPS: dict[str, Steps] = {
    "search_web": search,
    "open_website": open_website,
}
