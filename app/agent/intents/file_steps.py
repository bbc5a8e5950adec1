"""Steps for the user's files and folders: list a folder, write a note, add to a list, open.

Code finds the file by the words of its name (or the document index's best passage, for
`lookup`'s questions). Changes are one `write_file` the dialog shows as a diff (a list gets its
new line in the list's own style).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Any

from app.agent.intents.english import english_words
from app.agent.intents.language import (
    TITLES,
    is_function_word,
    items_listed_with,
    list_named,
    takes_off_a_list,
)
from app.agent.intents.recognise import ADDRESS, any_word_of, grounded
from app.agent.intents.router import Ask, Doing, HandOver, Steps, numbered, outcome
from app.store.documents import content_words
from connectors.folding import fold

# What a small model's context holds beside the question, with room for the answer.
READ_CHARS = 3500
# A file named with its extension ("todo.txt", "menu.pdf"): looked up by that name.
FILE_NAME = re.compile(r"[\w.-]+\.[A-Za-z0-9]{2,5}\b")
# A list's own line style, kept for the new line: "- ", "* ", "• ", "[ ] ", "- [ ] ".
_BULLET = re.compile(r"^(\s*(?:[-*•]\s+)?(?:\[[ xX]\]\s+)?)\S")
_NUMBERED = re.compile(r"^(\s*)(\d+)([.)]\s+)\S")
# Words that say what kind of thing is meant, not which: no file is found by them.
_GENERIC = {
    "file", "files", "folder", "list", "note", "notes", "document", "documents", "datei",
    "ordner", "liste", "notiz", "dokument", "fichier", "dossier",
    "archivo", "carpeta", "lista", "nota", "documento", "what", "does", "say", "about",
    # asking when or how much names nothing ("what time", "a qué hora", "um wie viel Uhr"):
    # "Long time no see" holds no answer to "What time is the dentist?"
    "time", "hora", "heure", "uhr", "uhrzeit", "viel", "viele",
    # nor do the question words and "next" ("¿Cuándo me toca la próxima vacuna?" had searched
    # the files and the mail for "cuándo" and "próxima")
    "when", "where", "which", "wann", "welche", "welcher", "welches", "welchen", "quand",
    "quel", "quelle", "quels", "quelles", "cuando", "donde", "cual", "cuales", "cuanto",
    "cuanta", "next", "nachste", "nachsten", "nachster", "nachstes", "prochain", "prochaine",
    "proximo", "proxima",
    # nor do the words asking back ("when was the check-up at Dr Roth's again?")
    "again", "nochmal", "nochmals", "wieder", "encore", "deja",
    # nor the calendar something is to be put in ("¿me lo apuntas en el calendario con su
    # horario?": the club's email holds neither)
    "calendar", "kalender", "calendrier", "calendario", "horario", "horaires",
    # nor the asking to put it there or please ("Trag mir das bitte … ein": "trag" is the end
    # of "Betrag" in a bank statement)
    "trag", "trage", "eintragen", "setz", "setze", "notier", "notiere", "bitte", "please",
    "ajoute", "rajoute", "mets", "mettre", "apunta", "apuntas", "apuntar", "apuntame",
    "anota", "anotar", "anade", "agrega", "ponlo", "ponla", "porfa",
    # nor how much more or less ("le plus haut sommet": a newsletter's "Plus: passkeys
    # explained" is no answer)
    "plus", "moins", "more", "most", "less", "least", "mehr", "meisten", "weniger", "menos",
}  # fmt: skip


# A word inside a sentence, not opening it (where any word is capitalised).
_INSIDE_A_SENTENCE = re.compile(r"(?<![.!?¿¡:\n]\s)(?<![.!?¿¡:\n])(?<!^)\b[^\W\d_][\w'-]*")


def named_inside(text: str) -> list[str]:
    """The words `text` writes capitalised inside a sentence: names ("Lisbon", "Priya", "Lee"
    of "bei Dr. Lee")."""
    text = _TITLE.sub(r"\1", text)
    return [w for w in _INSIDE_A_SENTENCE.findall(text) if w[:1].isupper()]


# A title's point, which ends no sentence ("Dr. Lee").
_TITLE = re.compile(rf"\b({'|'.join(TITLES)})\.")


def names_in(text: str) -> set[str]:
    """The names `named_inside` finds, in lower case and without a possessive ("Roth's")."""
    return {re.sub(r"['’]s$", "", w.lower()) for w in named_inside(text)}


def ok_result(record: Any) -> Any:
    if record.status != "ok":
        raise HandOver(f"{record.name}: {record.result}")
    return record.result


def telling_words(text: str, first: str = "") -> list[str]:
    """The telling words of `text`, those written capitalised inside a sentence first (names:
    "Lisbon" before "actually", "Lee" though short), then those of `first` (the sentence
    that asks), then the longest: what a file search can use. A word is there once
    ("dentista … dentist": one word), so a text holding it counts it once."""
    words = content_words(text.replace("'s ", " "))
    named = names_in(text)
    found = dict.fromkeys(
        w for w in words if (len(w) > 3 or (len(w) == 3 and w in named)) and fold(w) not in _GENERIC
    )
    leading = set(content_words(first)) if first else set()
    kept: list[str] = []
    for word in sorted(found, key=lambda w: (w in named, w in leading, len(w)), reverse=True):
        if not any_word_of(word, " ".join(kept)):
            kept.append(word)
    return kept


def _named_files(doing: Doing, words: str) -> list[str]:
    """Files whose names hold the words: a file named in full first, else each telling
    word searched, the files matched by the most words kept."""
    named = FILE_NAME.findall(words)
    queries = named[:1] or telling_words(words)[:3]
    hits: dict[str, int] = {}
    for query in queries:
        paths = {
            str(match["path"])
            for match in ok_result(doing.call("search_files", query=query)) or []
            if isinstance(match, dict) and match.get("kind", "file") == "file"
        }
        for path in paths:
            if fold(query) in fold(PurePosixPath(path).name):
                hits[path] = hits.get(path, 0) + 1
    most = max(hits.values(), default=0)
    return [path for path, count in hits.items() if count == most]


def named_whole(doing: Doing, words: str) -> str | None:
    """The one file whose name holds the telling words of `words`, two at least and all but
    one (the asking verb: "find my lisbon itinerary": travel/lisbon-itinerary.md); None if
    none, or more than one."""
    telling = telling_words(words)[:3]
    if len(telling) < _NAMED_BY_ALL:
        return None

    def held(path: str) -> int:
        return sum(fold(w) in fold(PurePosixPath(path).name) for w in telling)

    least = max(_NAMED_BY_ALL, len(telling) - 1)
    whole = [p for p in _named_files(doing, words) if held(p) >= least]
    return whole[0] if len(whole) == 1 else None


# Telling words a file's name must hold to be the one a request names whole.
_NAMED_BY_ALL = 2


def files_named(doing: Doing, words: str) -> list[str]:
    """Files whose names hold the words, or their English ("Budgettabelle": budget-2029.csv)."""
    named = _named_files(doing, words)
    if not named and (english := english_words(doing, words)):
        named = _named_files(doing, english)
    return named


def best_file(doing: Doing, about: str) -> str | None:
    """The file a question is about: one whose name holds its words (a file named in full,
    "lisbon-itinerary.md" for "my hotel in Lisbon"), else the document index's best passage."""
    named = _named_files(doing, about)
    if named:
        return named[0]
    if doing.agent.registry.get("search_documents") is not None:
        found = ok_result(doing.call("search_documents", query=about[:200]))
        if isinstance(found, list) and found and isinstance(found[0], dict):
            return str(found[0]["path"])
    return None


def read_text(doing: Doing, path: str) -> str:
    result = ok_result(doing.call("read_file", path=path))
    text = str(result.get("text") if isinstance(result, dict) else result or "")
    return text[:READ_CHARS]


def _entries(doing: Doing, path: str) -> list[dict[str, Any]]:
    return [e for e in ok_result(doing.call("list_folder", path=path)) or [] if isinstance(e, dict)]


def _listing(entries: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"- {e.get('name')}{'/' if e.get('kind') == 'folder' else ''}" for e in entries[:40]
    )


def show_folder(doing: Doing, slots: dict[str, str]) -> str:
    top = _entries(doing, ".")
    words = slots.get("folder", "")
    folders = [e for e in top if e.get("kind") == "folder"]
    chosen = [e for e in folders if words and any_word_of(str(e.get("name")), words)]
    if not words or not chosen:
        head = doing.say("no_folder", words=words) if words else ""
        return doing.say("first_folder", head=head, listing=_listing(top))
    name = str(chosen[0]["name"])
    inside = _entries(doing, name)
    if not inside:
        return doing.say("folder_empty", name=name)
    return doing.say("folder_holds", name=name, listing=_listing(inside))


def note_named_by(text: str, request: str) -> str:
    """A note's name: the file name the request types ("… called camping.md with: …"), else
    its text's first words, as a notes app names a note by its first line: those before the
    first colon or comma, at most four ("Einkauf: Milch, Eier": "Einkauf")."""
    if (typed := FILE_NAME.search(request)) is not None and not ADDRESS.search(request):
        return typed.group(0)
    first = re.split(r"[:,;.!?\n]", text.strip(), maxsplit=1)[0]
    words = re.findall(r"[\w'’-]+", first)[:_NAME_WORDS]
    return " ".join(words) or "note"


# The words of a note's text its name is made of, at most.
_NAME_WORDS = 4


def _note_path(name: str) -> str:
    """The path a note is written to: the name as said, made a Markdown file if it has no
    extension of its own ("shopping ideas" → "shopping ideas.md")."""
    name = name.strip().strip("\"'“”‘’").strip()
    return name if PurePosixPath(name).suffix else f"{name}.md"


def write_note(doing: Doing, slots: dict[str, str], shown: bool = False) -> str:
    """A new note; `shown`: its text follows the answer (written from something the user
    keeps, not dictated: what went in is for them to see)."""
    path = _note_path(slots["name"])
    if "/" not in path and (folder := _folder_named(doing)):
        path = f"{folder}/{path}"  # "… in my notes folder"
    content = slots["content"].strip() + "\n"
    record = doing.call("write_file", path=path, content=content)
    done = doing.say("saved", path=path)
    if shown:
        text = content.strip()
        done += "\n\n" + (
            text if len(text) <= _SHOWN else text[: _SHOWN - 1].rsplit(" ", 1)[0] + "…"
        )
    return outcome(doing, record, done)


# A note's text shown after it is saved, at most (longer ones are cut at a word).
_SHOWN = 600


# A folder spoken of and its name ("in my notes folder", "im Ordner Notizen", "in den
# Notizordner", "dans le dossier notes", "en la carpeta de notas"), folded.
_FOLDER_AFTER = re.compile(r"\b(\w+?)[\s-]*(?:folder|directory|ordner|verzeichnis)\b")
_FOLDER_BEFORE = re.compile(
    r"\b(?:folder|ordner|verzeichnis|dossier|repertoire|carpeta)\s+"
    r"(?:(?:de|des|du|called|named|namens)\s+)?(\w+)"
)


def _folder_named(doing: Doing) -> str:
    """The top folder of the user's the request names where a note goes ("put it in my
    notes folder": "notes"), by its name or the name's English; "" if it names none."""
    said = [
        word
        for pattern in (_FOLDER_AFTER, _FOLDER_BEFORE)
        for word in pattern.findall(fold(doing.request))
        if not is_function_word(word)
    ]
    if not said:
        return ""
    folders = [str(e.get("name")) for e in _entries(doing, ".") if e.get("kind") == "folder"]
    for words in (" ".join(said), english_words(doing, " ".join(said))):
        named = [f for f in folders if words and any_word_of(f, words)]
        if len(named) == 1:
            return named[0]
    return ""


def _with_line(text: str, item: str) -> str:
    """`text` with `item` as a new last line, in the style of the list's last line."""
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    last = next((line for line in reversed(lines) if line.strip()), "")
    numbered = _NUMBERED.match(last)
    if numbered:
        prefix = f"{numbered.group(1)}{int(numbered.group(2)) + 1}{numbered.group(3)}"
    else:
        bullet = _BULLET.match(last)
        prefix = bullet.group(1).replace("[x]", "[ ]").replace("[X]", "[ ]") if bullet else ""
    return "\n".join([*lines, f"{prefix}{item}"]) + "\n"


# A file named as a list ("packing-list.md", "Einkaufsliste.txt", "lista-compra.md",
# "todo.txt"), folded.
_A_LIST = re.compile(r"list[^/]*$|to-?do[^/]*$")


def _the_list_among(found: list[str]) -> list[str]:
    """Of several files found, the one named as a list ("packing-list.md", not the
    itinerary beside it), where one is; else all of them."""
    lists = [p for p in found if _A_LIST.search(fold(p))]
    return lists if len(found) > 1 and len(lists) == 1 else found


def add_to_list(doing: Doing, slots: dict[str, str]) -> str:
    which, item = slots["list"], slots["item"].strip()
    found = _named_files(doing, which)
    if not found and (english := english_words(doing, which)):
        found = _named_files(doing, english)  # "Einkaufsliste": "shopping-list.md"
    if not found and (kind := list_named(doing.request)):
        found = _named_files(doing, kind)  # "… pour les courses … sur ma liste"
    if not found:
        raise Ask(doing.say("no_list", which=which), "list")
    found = _the_list_among(found)  # "the packing list for lisbon": not the itinerary
    if len(found) > 1:
        raise numbered(doing.say("which_list"), "list", [(path, path) for path in found])
    path = found[0]
    if takes_off_a_list(doing.request):
        return _taken_off(doing, path, item)
    # (imported here: lookup reads files with this module's helpers)
    from app.agent.intents.lookup import items_from_things

    # "what I need for Priya's soup": the things her email lists, each a line of its own
    items, cited = items_from_things(doing, path)
    # else what the request lists: "Milch und Haferflocken", each a line of its own
    listed = items or items_listed_with(doing.request, item)
    text = str((ok_result(doing.call("read_file", path=path)) or {}).get("text", ""))
    there = [line for line in text.splitlines() if line.strip() and line.lstrip()[:1] != "#"]
    # not twice: "tomates" is on it as "tomatoes"
    lines = [i for i in listed if not any(grounded(i, line) for line in there)]
    if not lines:
        return doing.say("already_on_list", item=", ".join(listed), path=path)
    for line in lines:
        text = _with_line(text, line)
    record = doing.call("write_file", path=path, content=text, overwrite=True)
    added = ", ".join(lines)
    done = doing.say("added_to_list", item=added, path=path)
    return outcome(doing, record, f"{done}\n\n({cited})" if items and cited else done)


def list_kept(doing: Doing) -> str | None:
    """The list a request names by its kind, shown as its file writes it ("what's in my
    packing list", "Was steht auf meiner Packliste?": notes/packing-list.md); None if no one
    file is that list."""
    kind = list_named(doing.request)
    found = _the_list_among(_named_files(doing, kind) if kind else [])
    if len(found) != 1:
        return None
    text = read_text(doing, found[0]).strip()
    return f"{text}\n\n({doing.say('from_file_cited', path=found[0])})"


def _taken_off(doing: Doing, path: str, item: str) -> str:
    """The list's lines naming `item` (in its words, or their English: "le parmesan" of
    "- parmesan") taken out; the dialog shows the change. Said so when no line names it."""
    text = str((ok_result(doing.call("read_file", path=path)) or {}).get("text", ""))
    lines = text.split("\n")
    words = telling_words(item) or content_words(item)

    def naming(said: list[str]) -> list[int]:
        return [n for n, line in enumerate(lines) if _ITEM_LINE.match(line) and said
                and all(any_word_of(w, line) for w in said)]  # fmt: skip

    gone = naming(words) or naming(telling_words(english_words(doing, item)))
    if not gone:
        return doing.say("not_on_list", item=item, path=path)
    kept = "\n".join(line for n, line in enumerate(lines) if n not in gone)
    record = doing.call("write_file", path=path, content=kept, overwrite=True)
    taken = ", ".join(_ITEM_LINE.sub("", lines[n]).strip() for n in gone)
    return outcome(doing, record, doing.say("taken_off_list", item=taken, path=path))


# A list's item line: a bullet, a box or a number before it.
_ITEM_LINE = re.compile(r"^\s*(?:[-*•]\s+(?:\[[ xX]\]\s+)?|\[[ xX]\]\s+|\d+[.)]\s+)")


def open_file(doing: Doing, slots: dict[str, str]) -> str:
    which = slots["which"]
    found = _named_files(doing, which)
    if not found:
        raise Ask(doing.say("no_file", which=which), "which")
    if len(found) > 1:
        raise numbered(doing.say("which_file"), "which", [(path, path) for path in found])
    record = doing.call("open_item", path=found[0])
    return outcome(doing, record, doing.say("opened", path=found[0]))


STEPS: dict[str, Steps] = {
    "show_folder": show_folder,
    "add_to_list": add_to_list,
    "open_file": open_file,
}
