"""The intents for files, documents, spending, forgetting, reminders and new contacts, end to
end: real files in a real allowed folder, the real document index, a real data folder for
memories and reminders, a real Radicale for the address book. A scripted model picks the
intent and writes the slots (and, where the steps ask it, one narrow answer); code finds the
file, the payee, the memory, and makes the calls through the same gate as the free loop.

Each test proves the end state (the file's bytes, the card on the server, the memory gone),
what the narrow question to the model held, the dialog where the tool asks, and the numbered
choice where two things match.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from app import clock
from app.agent.documents.document_index import index_folders
from app.agent.gate.policy import ContextState
from app.agent.intents.file_steps import _with_line, telling_words
from app.agent.intents.router import IntentRouter
from app.agent.intents.when import read_month
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.scripted import ScriptedBackend
from app.store.database import Database
from app.store.memories import search_memories
from app.store.models import MemoryRecord
from app.store.reminders import ReminderStore
from connectors.calendar import CalendarAccount
from connectors.contacts import add_contact, find_contacts
from tests.agent.test_intents import Answers
from tests.agent.test_intents_personal import server as radicale
from tests.connectors.test_contacts import PASSWORD
from tests.connectors.test_files import make_pdf
from tests.scripting import call
from tests.support.opener import recording_opener
from tests.support.radicale_server import RadicaleServer

__all__ = ["radicale"]  # the personal intents' Radicale with an address book, shared

NOW = datetime(2029, 5, 15, 9, 30).astimezone()
SEED = Path(__file__).resolve().parents[1].parent / "bench" / "tasks" / "seed" / "folder"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "Documents"
    (folder / "travel").mkdir(parents=True)
    (folder / "notes").mkdir()
    (folder / "finance").mkdir()
    (folder / "travel" / "lisbon-itinerary.md").write_text(
        "# Lisbon, 2-5 June\nHotel: Casa do Rio, Rua da Prata 12\nFlight TP 553 at 07:10\n"
    )
    (folder / "notes" / "shopping-list.md").write_text("# Shopping list\n- oat milk\n- basil\n")
    (folder / "lease.txt").write_text(
        "Tenancy agreement\nThe notice period is three months, to the end of a month.\n"
    )
    shutil.copy(SEED / "finance" / "girokonto-2029-04.csv", folder / "finance")
    shutil.copy(SEED / "finance" / "girokonto-2029-03.csv", folder / "finance")
    return folder


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    (tmp_path / "data").mkdir()
    database = Database.open(tmp_path / "data")
    try:
        yield database
    finally:
        database.close()


def _agent(
    turns: list[str], answers: Answers | None = None, **tools: object
) -> tuple[Agent, ScriptedBackend]:
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    folders = [str(f) for f in tools.get("folders", [])]  # type: ignore[attr-defined]
    agent = Agent(
        backend,
        build_registry(**tools),  # type: ignore[arg-type]
        ContextState(allowed_folders=folders),
        confirmer=answers or Answers(),
    )
    agent.front = IntentRouter()
    return agent, backend


def add_memory(database: Database, text: str) -> None:
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text=text))


def _told(backend: ScriptedBackend) -> str:
    """What the last narrow question to the model held (its user message)."""
    return str(backend.requests[-1].messages[-1]["content"])


# -- questions the files answer ----------------------------------------------------------------


def test_a_question_is_answered_from_the_file_its_words_name(
    home: Path, database: Database
) -> None:
    agent, backend = _agent(
        [call("ask_files", about="hotel in Lisbon"), "Your hotel is Casa do Rio."],
        folders=[home], data=database,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "What's the name of my hotel in Lisbon?")
    # Found by the words of its name (each telling word searched), then read.
    assert {c.name for c in report.calls[:-1]} == {"search_files"}
    assert report.calls[-1].arguments == {"path": "travel/lisbon-itinerary.md"}
    # The model was asked only to answer from the file's own text.
    assert "Casa do Rio, Rua da Prata 12" in _told(backend)
    assert backend.requests[-1].tool_choice == "none" and not backend.requests[-1].tools
    assert report.answer == "Your hotel is Casa do Rio.\n\n(From travel/lisbon-itinerary.md.)"


def test_a_question_no_file_name_holds_is_found_by_the_document_index(
    home: Path, database: Database
) -> None:
    index_folders(database, [home])
    agent, backend = _agent(
        [call("ask_files"), "Three months, to the end of a month."],
        folders=[home], data=database,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "How long is my notice period?")
    names = [c.name for c in report.calls]
    assert names[-2:] == ["search_documents", "read_file"]
    assert report.calls[-1].arguments == {"path": "lease.txt"}
    assert "three months" in _told(backend)
    assert report.answer.endswith("(From lease.txt.)")


def test_the_question_words_name_no_file(home: Path) -> None:
    """ "¿Cuándo me toca la próxima vacuna?" names the vaccination, not "cuándo" or "próxima":
    the files are searched for the words that name a thing (three searches at most)."""
    (home / "health").mkdir()
    (home / "health" / "vacunas.md").write_text("Tétanos: marzo de 2021 (la próxima en 2031)\n")
    agent, _ = _agent([call("ask_files"), "En 2031."], folders=[home])
    report = agent.run_turn(Conversation(), "¿Cuándo me toca la próxima vacuna del tétanos?")
    searched = [c.arguments["query"] for c in report.calls if c.name == "search_files"]
    assert "vacuna" in searched and not {"cuándo", "próxima"} & set(searched)
    assert report.calls[-1].arguments == {"path": "health/vacunas.md"}
    assert report.answer.startswith("En 2031.")


def test_a_question_nothing_in_the_files_answers_says_so(home: Path) -> None:
    agent, _ = _agent([call("ask_files", about="passport")], folders=[home])
    report = agent.run_turn(Conversation(), "Where is my passport number written?")
    assert report.answer == "I found nothing in your files or emails about that."
    assert all(c.name == "search_files" for c in report.calls)


def test_a_folder_is_listed_by_its_name(home: Path) -> None:
    agent, _ = _agent([call("show_folder", folder="travel")], folders=[home])
    report = agent.run_turn(Conversation(), "What's in my travel folder?")
    assert [(c.name, c.arguments) for c in report.calls] == [
        ("list_folder", {"path": "."}),
        ("list_folder", {"path": "travel"}),
    ]
    assert report.answer == "In travel:\n- lisbon-itinerary.md"


def test_a_folder_that_is_not_there_shows_the_first_folder_instead(home: Path) -> None:
    agent, _ = _agent([call("show_folder", folder="photos")], folders=[home])
    report = agent.run_turn(Conversation(), "What's in my photos folder?")
    assert report.answer.startswith("I found no folder called “photos”.")
    assert "- travel/" in report.answer and "- lease.txt" in report.answer


# -- writing -----------------------------------------------------------------------------------


def test_a_note_is_written_with_what_the_user_said(home: Path) -> None:
    agent, _ = _agent(
        [call("write_note", name="packing extra", content="swimsuit, sun cream")], folders=[home]
    )
    report = agent.run_turn(Conversation(), "Note packing extra: swimsuit, sun cream")
    assert (home / "packing extra.md").read_text() == "swimsuit, sun cream\n"
    assert report.answer == "Saved packing extra.md."


@pytest.mark.parametrize(
    ("request_", "name", "content"),
    [('Mach mir eine Notiz "Geschenkideen Sam": Kochbuch, Konzertkarten', "Geschenkideen Sam",
      "Kochbuch, Konzertkarten"),
     ("Make a note called gift ideas - cookbook, concert tickets", "gift ideas",
      "cookbook, concert tickets"),
     ("Crée une note « idées cadeaux » : livre de cuisine, places de concert", "idées cadeaux",
      "livre de cuisine, places de concert"),
     ("Hazme una nota ideas regalo: libro de cocina, entradas", "ideas regalo",
      "libro de cocina, entradas")],
)  # fmt: skip
def test_a_note_the_model_left_empty_has_the_text_dictated_after_its_name(
    home: Path, request_: str, name: str, content: str
) -> None:
    agent, _ = _agent([call("write_note", name=name, content="")], folders=[home])
    report = agent.run_turn(Conversation(), request_)
    assert (home / f"{name}.md").read_text() == f"{content}\n", report.answer


def test_a_note_the_model_rewrote_has_the_text_dictated_after_its_name(home: Path) -> None:
    """The 0.5B model wrote "What is the Q3 budget for Sophie?" for "… ideas.md: ask Sophie
    about the Q3 budget": the user's words go in."""
    agent, _ = _agent(
        [call("write_note", name="ideas.md", content="What is the Q3 budget for Sophie?")],
        folders=[home],
    )
    agent.run_turn(
        Conversation(), "jot down a note called ideas.md: ask Sophie about the Q3 budget"
    )
    assert (home / "ideas.md").read_text() == "ask Sophie about the Q3 budget\n"


@pytest.mark.parametrize(
    ("request_", "content", "path"),
    [("Write a note: call Bea", "call Bea", "call Bea.md"),
     ("Escribe una nota: llamar a Bea", "llamar a Bea", "llamar a Bea.md"),
     ("kannst du mir eine kurze notiz anlegen: Einkauf: Milch, Eier, Brot",
      "Einkauf: Milch, Eier, Brot", "Einkauf.md")],
)  # fmt: skip
def test_a_note_without_a_name_is_named_by_its_first_words(
    home: Path, request_: str, content: str, path: str
) -> None:
    """The model left the name empty: the note is named by its first words, as a notes app
    names a note by its first line; with nothing said to write, the name is asked."""
    agent, _ = _agent([call("write_note", name="", content=content)], folders=[home])
    report = agent.run_turn(Conversation(), request_)
    # (a heading before a colon names the note, and what follows it is the text)
    assert (home / path).read_text() == f"{content.split(': ')[-1]}\n", report.answer
    agent, _ = _agent([call("write_note", name="", content="")], folders=[home])
    report = agent.run_turn(Conversation(), "Write a note")
    assert report.answer == "What should the file be called?" and report.calls == []


def test_an_item_joins_the_list_in_its_own_style_after_the_dialog(home: Path) -> None:
    answers = Answers()
    agent, _ = _agent([call("add_to_list", item="eggs", list="shopping list")], answers,
                      folders=[home])  # fmt: skip
    report = agent.run_turn(Conversation(), "Add eggs to my shopping list")
    assert (home / "notes" / "shopping-list.md").read_text() == (
        "# Shopping list\n- oat milk\n- basil\n- eggs\n"
    )
    [dialog] = answers.seen  # replacing a file's text is shown as a diff first
    assert dialog.tool == "write_file" and "+- eggs" in dialog.preview
    assert report.answer == "Added “eggs” to notes/shopping-list.md."


@pytest.mark.parametrize(
    ("request_", "item", "named", "english"),
    [("Could you put what I need for Priya's soup on my shopping list", "soup",
      "shopping list", []),
     # the list named in German or French: its name in English finds it
     ("Schreib mir die Zutaten für Priyas Suppe auf die Einkaufsliste", "Zutaten",
      "Einkaufsliste", ["ingredients for Priya's soup"]),
     ("Mets tout ce qu'il faut pour la soupe de Priya sur ma liste de courses", "soupe",
      "liste de courses", ["shopping list", "everything for Priya's soup"])],
)  # fmt: skip
def test_the_things_a_text_lists_join_the_list_each_on_its_line(
    home: Path, database: Database, request_: str, item: str, named: str, english: list[str]
) -> None:
    """ "What I need for Priya's soup": the things her recipe lists, each a line of its own
    (copied by the model, kept only where the recipe holds every word: not "a big pot"; not
    the soup they are for), and where they come from; the dialog shows the change first."""
    (home / "recipes").mkdir()
    (home / "recipes" / "priya-soup.md").write_text(
        "# Priya's red lentil soup\n200 g lentils, 1 onion, 1 carrot, cumin, 1 litre stock. "
        "Cook 25 minutes.\n"
    )
    index_folders(database, [home])
    answers = Answers()
    agent, _ = _agent(
        [call("add_to_list", item=item, list=named), *english,
         "Priya's red lentil soup\n- 200 g lentils\n- 1 onion\n- 1 carrot, cumin\n"
         "- 1 litre stock\n- a big pot"],
        answers, folders=[home], data=database,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert (home / "notes" / "shopping-list.md").read_text() == (
        "# Shopping list\n- oat milk\n- basil\n- 200 g lentils\n- 1 onion\n- 1 carrot\n"
        "- cumin\n- 1 litre stock\n"
    ), report.answer
    assert [dialog.tool for dialog in answers.seen] == ["write_file"]
    assert "recipes/priya-soup.md" in report.answer


@pytest.mark.parametrize(
    ("request_", "turns", "added"),
    [("Setz bitte Milch und Haferflocken auf meine Einkaufsliste.",
      call("add_to_list", item="Haferflocken", list="Einkaufsliste"), ["Milch", "Haferflocken"]),
     ("Tu peux mettre du lait et des pommes sur la liste de courses ?",
      call("add_to_list", item="lait", list="courses"), ["lait", "pommes"]),
     ("Apúntame leche y pan en la lista de la compra.",
      call("add_to_list", item="pan", list="shopping list"), ["leche", "pan"]),
     ("Add oat bran, eggs and butter to my shopping list",
      call("add_to_list", item="eggs", list="shopping list"), ["oat bran", "eggs", "butter"]),
     ("Put eggs and butter on my shopping list",
      call("add_to_list", item="eggs and butter", list="shopping list"), ["eggs", "butter"]),
     ("Ajoute des œufs, du beurre et de la farine à ma liste de courses",
      call("add_to_list", item="farine", list="liste de courses"), ["œufs", "beurre", "farine"]),
     # an item the model wrote in words the request does not hold ("oil" for "œufs")
     ("Tu peux rajouter du pain et des œufs à ma liste de courses ?",
      call("add_to_list", item="pain, oil", list="liste de courses"), ["pain", "œufs"]),
     ("Kannst du Milch und Butter auf die Einkaufsliste setzen?",
      call("add_to_list", item="Milch, Brot", list="Einkaufsliste"), ["Milch", "Butter"]),
     # not twice: basil is on the list
     ("Setz Basilikum und Milch auf die Einkaufsliste",
      call("add_to_list", item="Milch", list="Einkaufsliste"), ["Milch"]),
     # the list named by its kind before, taken for a to-do
     ("J'ai oublié deux trucs pour les courses : tu peux ajouter des œufs et du beurre sur ma "
      "liste ?", [call("add_todo", title="œufs et beurre"),
                  call("add_to_list", item="œufs", list="ma liste"), "my list"],
      ["œufs", "beurre"]),
     # the model's item in English, a word the request does not hold
     ("schreib bitte noch eier und batterien auf meine einkaufsliste",
      call("add_to_list", item="batteries", list="einkaufsliste"), ["eier", "batterien"]),
     # the list left out by the model, named by its kind
     ("¿Me puedes añadir leche y pan a la lista de la compra? Gracias",
      call("add_to_list", item="leche", list=""), ["leche", "pan"]),
     # the list named, lower case, taken for a new note with no name
     ("schreib bitte noch eier und batterien auf meine einkaufsliste",
      [call("write_note", name="", content="eier und batterien"),
       call("add_to_list", item="eier", list="einkaufsliste"), "shopping list"],
      ["eier", "batterien"])],
)  # fmt: skip
def test_every_item_a_request_lists_joins_the_list(
    home: Path, request_: str, turns: str | list[str], added: list[str]
) -> None:
    """ "Milch und Haferflocken": the model fills one item, the request lists two; each is a
    line of its own, in the request's words, less the articles ("des pommes"). A list named
    by its kind ("pour les courses … sur ma liste") is the shopping list's file, whatever the
    model made of the request or the list's name."""
    answers = Answers()
    agent, _ = _agent(turns if isinstance(turns, list) else [turns, "shopping list"], answers,
                      folders=[home])  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    lines = "".join(f"- {item}\n" for item in added)
    assert (home / "notes" / "shopping-list.md").read_text() == (
        f"# Shopping list\n- oat milk\n- basil\n{lines}"
    ), report.answer
    assert [dialog.tool for dialog in answers.seen] == ["write_file"]


@pytest.mark.parametrize(
    "request_", ["what's in my packing list", "Was steht auf meiner Packliste?"]
)
def test_a_look_at_a_list_kept_in_a_file_reads_the_file(home: Path, request_: str) -> None:
    """Taken for the to-dos: the list named is a file's, shown as it is."""
    (home / "notes" / "packing-list.md").write_text("# Packing\n- passport\n- sun hat\n")
    agent, _ = _agent([call("list_todos"), "packing list"], folders=[home])
    report = agent.run_turn(Conversation(), request_)
    assert "list_tasks" not in [c.name for c in report.calls], report.answer
    assert report.answer.startswith("# Packing\n- passport\n- sun hat\n\n(")
    assert "notes/packing-list.md" in report.answer


def test_an_item_on_the_list_already_is_not_written_again(home: Path) -> None:
    answers = Answers()
    agent, _ = _agent([call("add_to_list", item="basilic", list="liste de courses")], answers,
                      folders=[home])  # fmt: skip
    report = agent.run_turn(Conversation(), "Mets du basilic sur ma liste de courses")
    assert report.answer == "« basilic » est déjà sur notes/shopping-list.md." and not answers.seen


def test_a_refused_list_change_leaves_the_file_as_it_was(home: Path) -> None:
    agent, _ = _agent([call("add_to_list", item="eggs", list="shopping")], Answers(False),
                      folders=[home])  # fmt: skip
    report = agent.run_turn(Conversation(), "put eggs on the shopping list")
    assert (home / "notes" / "shopping-list.md").read_text() == (
        "# Shopping list\n- oat milk\n- basil\n"
    )
    assert report.answer == "All right, I didn't do it."


def test_two_lists_of_that_name_are_a_numbered_choice(home: Path) -> None:
    (home / "travel" / "shopping-list-lisbon.txt").write_text("1. sun hat\n")
    agent, _ = _agent([call("add_to_list", item="sandals", list="shopping")], folders=[home])
    conversation = Conversation()
    report = agent.run_turn(conversation, "Add sandals to my shopping list")
    assert report.answer.startswith("Which list do you mean?\n1. ")
    second = next(line for line in report.answer.splitlines() if line.startswith("2. "))
    agent.run_turn(conversation, "2")
    chosen = home / second.removeprefix("2. ")
    assert chosen.read_text().splitlines()[-1] in ("2. sandals", "- sandals")


@pytest.mark.parametrize(
    ("request_", "item", "named"),
    [("almost forgot - can you stick my swimsuit on the packing list for lisbon?", "swimsuit",
      "packing list for lisbon"),
     ("Setz noch die Sonnencreme auf die Packliste für Lissabon", "Sonnencreme",
      "Packliste Lissabon")],
)  # fmt: skip
def test_of_two_files_the_words_name_the_one_named_as_a_list_is_the_list(
    home: Path, request_: str, item: str, named: str
) -> None:
    # "lisbon" names the itinerary too; the list is the file named as a list.
    (home / "notes" / "packing-list.md").write_text("# Packing\n- passport\n")
    (home / "travel" / "lisbon-itinerary.md").write_text("# Lisbon\nHotel: Casa do Rio\n")
    agent, _ = _agent([call("add_to_list", item=item, list=named), "packing list Lisbon"],
                      folders=[home])  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert (home / "notes" / "packing-list.md").read_text() == f"# Packing\n- passport\n- {item}\n"
    assert "Casa do Rio" in (home / "travel" / "lisbon-itinerary.md").read_text(), report.answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# List\n- a\n- b\n", "# List\n- a\n- b\n- c\n"),
        ("1. a\n2. b\n", "1. a\n2. b\n3. c\n"),
        ("- [x] a\n- [ ] b\n", "- [x] a\n- [ ] b\n- [ ] c\n"),
        ("a\nb", "a\nb\nc\n"),
        ("", "c\n"),
    ],
)
def test_a_new_line_keeps_the_lists_style(text: str, expected: str) -> None:
    assert _with_line(text, "c") == expected


# -- opening -----------------------------------------------------------------------------------


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open")
def test_a_file_named_in_words_is_opened_after_the_dialog(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / "menu.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    log = recording_opener(tmp_path, monkeypatch)
    answers = Answers()
    agent, _ = _agent([call("open_file", which="menu.pdf")], answers, folders=[home])
    report = agent.run_turn(Conversation(), "Open menu.pdf for me")
    [dialog] = answers.seen
    assert dialog.tool == "open_item" and dialog.arguments == {"path": "menu.pdf"}
    assert report.answer == "Opened menu.pdf."
    assert log.read_text().strip().endswith("menu.pdf")


# -- spending ----------------------------------------------------------------------------------


def test_spending_at_a_payee_in_a_month_is_summed_by_code(home: Path) -> None:
    agent, _ = _agent([call("spending", merchant="REWE", month="April")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "How much did I spend at REWE in April?")
    months = {c.arguments.get("month") for c in report.calls if c.name == "summarise_spending"}
    assert months == {"2029-04"}
    # The bank's own four April lines for REWE (the March file has others), summed by code.
    assert report.answer == (
        "What you spent in April 2029:\n- Rewe Markt GmbH: 156.70 EUR (4 payments)"
    )


@pytest.mark.parametrize(
    "request_",
    ["did i spend more at rewe in april or march?", "War ich im März öfter bei REWE als im April?"],
)
def test_spending_in_two_months_named_is_shown_for_each(home: Path, request_: str) -> None:
    """Two months asked about, to compare: each one's payments, side by side (the model's
    slot names only one)."""
    agent, _ = _agent([call("spending", merchant="REWE", month="April")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    months = [c.arguments.get("month") for c in report.calls if c.name == "summarise_spending"]
    assert set(months) == {"2029-03", "2029-04"}
    assert "156.70 EUR (4 " in report.answer and "April 2029" in report.answer
    assert ("March 2029" if request_.startswith("did") else "März 2029") in report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for", "english"),
    [
        ("Quick check on my finances: what went out of my current account in March "
         "altogether? Only the spending, leave the salary out.",
         call("spending", merchant="current account", month="March"), []),
        ("Was ist im März insgesamt vom Girokonto weggegangen, ohne das Gehalt?",
         call("spending", merchant="Girokonto", month="März"),
         ["What went out of the current account in March?"]),
    ],
)  # fmt: skip
def test_a_months_spending_from_the_account_is_its_total_leaving_out_what_is_left_out(
    home: Path, request_: str, taken_for: str, english: list[str]
) -> None:
    """The account named is the statement itself, not a payee, and the salary left out is
    no subject: the month's total spending is the answer (the bank's own lines, summed by
    code), not the salary's line."""
    agent, _ = _agent([taken_for, *english], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    assert "1274.63" in report.answer.replace(",", "."), report.answer
    assert "3250" not in report.answer


def test_a_category_that_is_no_payee_is_asked_of_the_files(home: Path) -> None:
    agent, backend = _agent(
        [call("spending", merchant="lisbon hotel"), "Casa do Rio."], folders=[home]
    )
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "What did the Lisbon hotel cost me?")
    assert report.calls[-1].name == "read_file"
    assert "Casa do Rio" in _told(backend)


@pytest.mark.parametrize(
    ("request_", "merchant", "said"),
    [("wie viel hab ich im april beim bäcker gelassen?", "Bäcker",
      "Deine Kontoauszüge zeigen keine Zahlungen an „Bäcker“ im April 2029."),
     ("How much did I spend at Starbucks in April?", "Starbucks",
      "Your bank statements show no payments to “Starbucks” in April 2029.")],
)  # fmt: skip
def test_a_payee_nothing_names_was_paid_nothing(
    home: Path, request_: str, merchant: str, said: str
) -> None:
    """No statement line, table, file or email names the bakery: nothing was paid there
    (not April's statement shown, chosen for the word "April")."""
    agent, _ = _agent([call("spending", merchant=merchant, month="April"), "baker"],
                      folders=[home])  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    assert report.answer == said


def test_a_sum_asked_of_a_table_is_added_up_by_code(home: Path, database: Database) -> None:
    (home / "finance" / "expenses-2029-03.csv").write_text(
        "date,category,amount_eur,description\n2029-03-30,groceries,19.99,Weekly shop\n"
    )
    shutil.copy(SEED / "finance" / "expenses-2029-04.csv", home / "finance")
    index_folders(database, [home])
    agent, backend = _agent(
        [call("spending", merchant="groceries", month="April"), "54.20 EUR."],
        folders=[home], data=database,
    )  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "How much did I spend on groceries in April?")
    # No payee "groceries": the expenses file's April lines holding the word, added by code.
    assert report.answer == (
        "244.00 in all: 54.20 + 61.80 + 47.30 + 58.70 + 22.00 (the lines with “groceries”)."
        "\n\n(From finance/expenses-2029-04.csv.)"
    )
    assert all(r.tool_choice != "none" for r in backend.requests)  # the model wrote nothing
    # A question no line's words answer is the model's, from the text.
    agent, backend = _agent(
        [call("ask_files", about="expenses"), "It does not say."], folders=[home], data=database
    )
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "How much did the hotel in my expenses cost?")
    assert report.answer.startswith("It does not say.") and "groceries" in _told(backend)


def test_a_category_the_model_left_out_is_read_from_the_question(home: Path) -> None:
    shutil.copy(SEED / "finance" / "expenses-2029-04.csv", home / "finance")
    agent, backend = _agent([call("spending", month="April")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "How much did I spend on eating out in April?")
    # No slot says what was asked: the request's own words do ("eating"); no payee is
    # named so, the expenses table's April lines holding it are added up by code.
    assert report.answer == (
        "64.50 in all: 23.50 + 41.00 (the lines with “eating”)."
        "\n\n(From finance/expenses-2029-04.csv.)"
    )
    assert len(backend.requests) == 1  # the choice only: nothing for the model to write
    # A question naming nothing but the month still gets the month's total.
    agent, _ = _agent([call("spending", month="April")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "Was habe ich im April insgesamt ausgegeben?")
    assert report.answer.startswith("Du hast 1510.95 EUR ausgegeben im April 2029.")


@pytest.mark.parametrize(
    ("request_", "merchant"),
    [("quick one: how much did I actually spend on eating out in april? sam reckons we go out "
      "way too much lol", "Sam's shop or payee, if said"),
     ("Wie viel hab ich im April fürs Essengehen ausgegeben? Sam meint, zu viel",
      "Sam shop or payee")],
)  # fmt: skip
def test_a_payee_the_model_copied_from_the_slots_description_is_no_payee(
    home: Path, request_: str, merchant: str
) -> None:
    # "Sam's shop or payee, if said": the slot's own words ("the shop or payee, if said"),
    # not the user's; the category the request names is summed.
    shutil.copy(SEED / "finance" / "expenses-2029-04.csv", home / "finance")
    agent, _ = _agent([call("spending", merchant=merchant, month="April")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    assert "64.50" in report.answer and "23.50 + 41.00" in report.answer, report.answer


def test_a_sum_of_money_taken_for_a_files_question_adds_up_every_table(home: Path) -> None:
    shutil.copy(SEED / "finance" / "expenses-2029-04.csv", home / "finance")
    agent, _ = _agent(
        [call("ask_files", about="public transport"), call("spending", month="April")],
        folders=[home],
    )  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "What did public transport cost me in April?")
    # No file is named "transport": the money steps read the tables and sum the lines.
    assert "summarise_spending" in [c.name for c in report.calls]
    assert report.answer == (
        "86.00 in all: 86.00 (the lines with “transport”).\n\n(From finance/expenses-2029-04.csv.)"
    )


def test_a_category_in_another_language_is_summed_from_an_english_table(home: Path) -> None:
    shutil.copy(SEED / "finance" / "expenses-2029-04.csv", home / "finance")
    agent, backend = _agent(
        [call("spending", merchant="Lebensmittel", month="April"), "groceries April spent"],
        folders=[home],
    )  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(
            Conversation(), "Wie viel habe ich im April für Lebensmittel ausgegeben?"
        )
    # Neither a payee nor a table's line holds "Lebensmittel": its English key words do.
    assert "Lebensmittel" in _told(backend)
    assert report.answer == (
        "Insgesamt 244.00: 54.20 + 61.80 + 47.30 + 58.70 + 22.00 (die Zeilen mit „groceries“)."
        "\n\n(Aus finance/expenses-2029-04.csv.)"
    )


@pytest.mark.parametrize(
    ("request_", "merchant"),
    [("ok so what did I spend on restaurants last month? feels like a lot", "restaurant"),
     ("Combien j'ai claqué au resto le mois dernier ?", "resto"),
     ("¿Cuánto gasté en restaurantes el mes pasado?", "restaurantes")],
)  # fmt: skip
def test_a_category_named_by_an_everyday_word_is_summed_by_the_tables_name_for_it(
    home: Path, request_: str, merchant: str
) -> None:
    """ "restaurants" where the expenses table says "eating out": the glossary's English for
    it finds the lines, before any model step, and nothing else is looked through."""
    shutil.copy(SEED / "finance" / "expenses-2029-04.csv", home / "finance")
    agent, _ = _agent([call("spending", merchant=merchant, month="last month")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    assert "64.50" in report.answer and "23.50 + 41.00" in report.answer, report.answer
    assert "finance/expenses-2029-04.csv" in report.answer


def test_only_the_sentence_that_asks_is_put_into_english_for_a_category(home: Path) -> None:
    """What the user says before the question would crowd the category out of the English
    key words ("I'm trying to save a bit. How much …"): the question alone is translated."""
    shutil.copy(SEED / "finance" / "expenses-2029-04.csv", home / "finance")
    agent, backend = _agent(
        [call("spending", month="April"), "How much money did I spend on transport in April?"],
        folders=[home],
    )  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(
            Conversation(),
            "Ich versuch grad, ein bisschen zu sparen. Wie viel Geld ist bei mir im April "
            "eigentlich für die Öffis draufgegangen?",
        )
    assert _told(backend).endswith("Translate into English: Wie viel Geld ist bei mir im April "
                                   "eigentlich für die Öffis draufgegangen?")  # fmt: skip
    assert report.answer.startswith("Insgesamt 86.00: 86.00")


def test_a_balance_asked_in_french_is_read_from_the_months_statement(home: Path) -> None:
    (home / "finance" / "statement-2029-04.pdf").write_bytes(
        make_pdf(["Spreebank - Account statement April 2029",
                  "Closing balance 30 April: 2,315.40 EUR"])
    )  # fmt: skip
    (home / "finance" / "statement-2029-03.pdf").write_bytes(
        make_pdf(["Spreebank - Account statement March 2029",
                  "Closing balance 31 March: 2,140.10 EUR"])
    )  # fmt: skip
    agent, _ = _agent([call("spending", month="avril"), "2,315.40 EUR."], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(
            Conversation(), "Quel était le solde final de mon relevé bancaire d'avril ?"
        )
    # No word of the question names the file: the statement named by the month that speaks
    # of a balance is read (the month's transactions table says none), and only it; its
    # one closing balance line answers "solde final" (code chose it, not the model).
    assert "2,140.10" not in report.answer
    assert report.answer == (
        "Closing balance 30 April: 2,315.40 EUR\n\n(D'après finance/statement-2029-04.pdf.)"
    )


@pytest.mark.parametrize(
    ("question", "cited"),
    [
        ("What was the closing balance on my April bank statement?", "From"),
        ("How much money was left in my account at the end of April?", "From"),
        ("Wie war mein Kontostand Ende April?", "Aus"),
        ("il me restait combien sur mon compte à la fin du mois d'avril ?", "D'après"),
        ("¿Cuánto me quedaba en la cuenta al final de abril?", "De"),
        ("What was my balance at the start of April?", "From"),
        ("Wie war mein Kontostand im April?", "Aus"),  # neither end: the model reads it
    ],
)
def test_a_balance_taken_for_spending_is_read_from_the_statement(
    home: Path, database: Database, question: str, cited: str
) -> None:
    """The balance at the end (or the start) the question names is the statement's line
    saying so, chosen by code (a small model gave the opening one for "à la fin"); a
    question naming neither is read by the model."""
    (home / "finance" / "statement-2029-04.txt").write_text(
        "Bank statement April 2029\nOpening balance: 1,980.10 EUR\n"
        "Closing balance (Kontostand) 30.04.2029: 2,315.40 EUR\n"
    )
    index_folders(database, [home])
    agent, backend = _agent(
        [call("spending", month="April"), "2,315.40 EUR."], folders=[home], data=database
    )
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), question)
    assert "summarise_spending" not in [c.name for c in report.calls]
    source = f"\n\n({cited} finance/statement-2029-04.txt.)"
    if "start" in question:
        assert report.answer == f"Opening balance: 1,980.10 EUR{source}"
    elif "im April" in question:
        assert "Closing balance" in _told(backend)
        assert report.answer == f"2,315.40 EUR.{source}"
    else:
        assert report.answer == f"Closing balance (Kontostand) 30.04.2029: 2,315.40 EUR{source}"


@pytest.mark.parametrize(
    ("question", "statement", "answer"),
    [("De combien mon solde a-t-il baissé en avril ?",
      "Opening balance 1 April: 2,140.10 EUR\nClosing balance 30 April: 2,315.40 EUR",
      "Le solde a augmenté de 175.30 EUR :"),
     ("How much did my balance go down in April?",
      "Opening balance 1 April: 2,315.40 EUR\nClosing balance 30 April: 2,140.10 EUR",
      "The balance went down by 175.30 EUR:"),
     ("Um wie viel hat sich mein Kontostand im April verändert?",
      "Saldo Anfang 01.04.2029: 1.980,10 EUR\nSaldo Ende 30.04.2029: 2.315,40 EUR",
      "Der Kontostand ist um 335.30 EUR gestiegen:"),
     ("¿Cuánto ha bajado mi saldo en abril?",
      "Opening balance 1 April: 2,140.10 EUR\nClosing balance 30 April: 2,315.40 EUR",
      "El saldo ha subido 175.30 EUR:")],
)  # fmt: skip
def test_how_a_balance_changed_is_worked_out_from_the_statements_two_lines(
    home: Path, database: Database, question: str, statement: str, answer: str
) -> None:
    """ "De combien mon solde a-t-il baissé ?": closing less opening, worked out by code (a
    small model read the salary as the change), said as it is (up, though asked "down"),
    with the two lines it comes from."""
    (home / "finance" / "statement-2029-04.txt").write_text(
        f"Bank statement April 2029\nSalary 30 April: +3,250.00 EUR\n{statement}\n"
    )
    index_folders(database, [home])
    agent, _ = _agent([call("spending", month="April"), "3,250.00 EUR."], folders=[home],
                      data=database)  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), question)
    lines = report.answer.split("\n")
    assert lines[0] == answer, report.answer
    assert lines[1:3] == [f"- {line}" for line in statement.split("\n")]


@pytest.mark.parametrize(
    ("words", "month"),
    [
        ("in April", "2029-04"),
        ("im März", "2029-03"),
        ("le mois dernier", "2029-04"),
        ("en junio", "2028-06"),  # a money question: the last June gone by
        ("this month", "2029-05"),
        ("April 2027", "2027-04"),
        ("at the bakery", None),
    ],
)
def test_a_month_is_read_from_the_users_words(words: str, month: str | None) -> None:
    assert read_month(words, NOW) == month


# -- memories, reminders, contacts ---------------------------------------------------------------


def test_a_memory_is_forgotten_after_the_dialog(database: Database) -> None:
    add_memory(database, "My bike lock code is 4711")
    add_memory(database, "Lisa cannot eat peanuts")
    answers = Answers()
    agent, _ = _agent([call("forget_fact", which="bike lock")], answers, data=database)
    report = agent.run_turn(Conversation(), "Forget my bike lock code")
    assert [c.name for c in report.calls] == ["recall", "forget"]
    assert [d.tool for d in answers.seen] == ["forget"]  # removing always asks
    assert [m.text for m in search_memories(database, "bike")] == []
    assert [m.text for m in search_memories(database, "Lisa")] == ["Lisa cannot eat peanuts"]


def test_a_memory_the_model_misnamed_is_found_by_the_words_of_the_message(
    database: Database,
) -> None:
    add_memory(database, "My bike lock code is 4711")
    add_memory(database, "My locker number is 112")
    answers = Answers()
    # Copied from an example, not the user's: the message's own words find the memory.
    agent, _ = _agent([call("forget_fact", which="my locker number?")], answers, data=database)
    report = agent.run_turn(Conversation(), "Forget what you know about my bike lock.")
    assert [d.tool for d in answers.seen] == ["forget"]
    assert [m.text for m in search_memories(database, "bike")] == []
    assert [m.text for m in search_memories(database, "locker")] == ["My locker number is 112"]
    assert "bike lock" in report.answer


def test_two_matching_memories_are_a_numbered_choice(database: Database) -> None:
    add_memory(database, "The bike shop is on Linienstraße")
    add_memory(database, "My bike lock code is 4711")
    agent, _ = _agent([call("forget_fact", which="bike")], data=database)
    conversation = Conversation()
    report = agent.run_turn(conversation, "Forget what you know about my bike")
    assert report.answer.startswith("Which one do you mean?\n1. ")
    lock = next(line[0] for line in report.answer.splitlines() if "lock" in line)
    agent.run_turn(conversation, lock)
    assert [m.text for m in search_memories(database, "bike")] == [
        "The bike shop is on Linienstraße"
    ]


def test_reminders_are_listed_and_one_is_cancelled_by_its_words(database: Database) -> None:
    store = ReminderStore(database)
    with clock.frozen_at(NOW):
        store.add("water the plants", datetime(2029, 5, 16, 18, 0).astimezone(), now=NOW)
        store.add("call the bank", datetime(2029, 5, 17, 9, 0).astimezone(), now=NOW)
        agent, _ = _agent([call("list_reminders")], data=database)
        listed = agent.run_turn(Conversation(), "Which reminders do I have?")
        assert listed.answer == (
            "Your reminders:\n- Wed 16 May 18:00: water the plants\n"
            "- Thu 17 May 09:00: call the bank"
        )
        answers = Answers()
        agent, _ = _agent([call("cancel_reminder", which="plants")], answers, data=database)
        report = agent.run_turn(Conversation(), "Cancel the reminder about the plants")
    assert [d.tool for d in answers.seen] == ["cancel_reminder"]
    assert [r.text for r in store.pending()] == ["call the bank"]
    assert report.answer == "Cancelled the reminder: water the plants"


# -- taken for another intent: the user's data says which ------------------------------------


@pytest.mark.parametrize("other_at", [datetime(2029, 5, 20, 9, 0), datetime(2029, 5, 15, 20, 0)])
def test_a_reminder_to_cancel_that_none_is_with_a_time_is_a_new_reminder(
    database: Database, other_at: datetime
) -> None:
    """A new reminder taken for cancelling one: no reminder holds its words, so its slots
    are filled for a new reminder, which is set; the other stays. Also when another is set
    at that time: "Rappelle-moi …" asks for a reminder, whatever else is then."""
    store = ReminderStore(database)
    answers = Answers()
    with clock.frozen_at(NOW):
        # Saved before Hearth kept where saved text came from: untrusted if it is read.
        store.add("renew the passport", other_at.astimezone(), now=NOW)
        agent, backend = _agent(
            [call("cancel_reminder", which="sortir les poubelles"),
             call("set_reminder", what="sortir les poubelles", when="ce soir à 20h")],
            answers,
            data=database,
        )  # fmt: skip
        report = agent.run_turn(
            Conversation(), "Rappelle-moi de sortir les poubelles ce soir à 20h"
        )
    # Code looked at the reminders itself (no lookup in the conversation), so the new one,
    # in the user's own words, is set without a dialog about untrusted text.
    assert [c.name for c in report.calls] == ["set_reminder"] and answers.seen == []
    assert backend.requests[-1].only_call == "set_reminder"
    due = {r.text: r.local_due().replace(tzinfo=None) for r in store.pending()}
    assert due == {
        "renew the passport": other_at,
        "sortir les poubelles": datetime(2029, 5, 15, 20, 0),
    }
    assert report.answer.startswith("Rappel")


@pytest.mark.parametrize(
    ("request_", "which", "stop"),
    [
        ("Cancel the 6pm reminder about the plants", "plants", "answered"),
        # Its words name none, but one is set then: not a new reminder, the question which.
        ("Cancel my 6pm reminder", "6pm reminder", "asked"),
    ],
)
def test_a_reminder_to_cancel_that_is_there_is_no_new_reminder(
    database: Database, request_: str, which: str, stop: str
) -> None:
    store = ReminderStore(database)
    with clock.frozen_at(NOW):
        store.add("water the plants", datetime(2029, 5, 15, 18, 0).astimezone(), now=NOW)
        store.add("call the bank", datetime(2029, 5, 17, 9, 0).astimezone(), now=NOW)
        agent, _ = _agent([call("cancel_reminder", which=which)], data=database)
        report = agent.run_turn(Conversation(), request_)
    assert "set_reminder" not in [c.name for c in report.calls]
    assert report.stop_reason == stop
    left = ["call the bank"] if stop == "answered" else ["water the plants", "call the bank"]
    assert [r.text for r in store.pending()] == left


def test_a_fact_to_forget_that_none_is_with_a_time_is_a_new_reminder(database: Database) -> None:
    add_memory(database, "My bike lock code is 4711")
    with clock.frozen_at(NOW):
        agent, _ = _agent(
            [call("forget_fact", which="water the plants"),
             call("set_reminder", what="water the plants", when="at 7pm")],
            data=database,
        )  # fmt: skip
        report = agent.run_turn(Conversation(), "Don't let me forget to water the plants at 7pm")
    # The memories were looked at by code alone: no lookup in the conversation.
    assert [c.name for c in report.calls] == ["set_reminder"]
    [reminder] = ReminderStore(database).pending()
    assert reminder.text == "water the plants"
    assert reminder.local_due().replace(tzinfo=None) == datetime(2029, 5, 15, 19, 0)
    assert [m.text for m in search_memories(database, "bike")] == ["My bike lock code is 4711"]


def test_a_fact_to_forget_without_a_time_is_not_a_reminder(database: Database) -> None:
    with clock.frozen_at(NOW):
        agent, _ = _agent([call("forget_fact", which="my old address")], data=database)
        report = agent.run_turn(Conversation(), "Forget my old address")
    assert [c.name for c in report.calls] == ["recall"]
    assert ReminderStore(database).pending() == []
    assert "old address" in report.answer


def test_a_days_question_taken_for_spending_shows_the_calendar(
    home: Path, radicale: RadicaleServer
) -> None:
    """No money word and a day named: the calendar's question, asked of the calendar (its
    slots filled anew), never the bank statements."""
    account = CalendarAccount(radicale.url, "alice", PASSWORD, name="Home")
    agent, _ = _agent(
        [call("spending"), call("show_calendar", when="vendredi après-midi")],
        folders=[home], calendar=account,
    )  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "Qu'est-ce que j'ai vendredi après-midi ?")
    names = [c.name for c in report.calls]
    assert "summarise_spending" not in names and "list_events" in names
    assert "vendredi" in report.answer.lower()


@pytest.mark.parametrize(
    "request_", ["What did I spend last week?", "Combien j'ai payé vendredi ?"]
)
def test_a_money_question_about_a_day_stays_with_the_statements(home: Path, request_: str) -> None:
    agent, _ = _agent([call("spending")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    assert "summarise_spending" in [c.name for c in report.calls]


@pytest.mark.parametrize(
    "request_",
    [
        "Wie lange muss ein Ei kochen, damit es weich ist?",
        "How long should you boil an egg?",
        "Combien de temps faut-il pour cuire des pâtes ?",
    ],
)
def test_a_general_question_taken_for_spending_looks_nothing_up(home: Path, request_: str) -> None:
    """No money, month or sum in it and nothing of the user's: a plain answer (the 0.5B model
    took the egg for a payee, and the look-ups after it made thirty calls)."""
    # (three answers: one asked as written, or through English in three writes)
    agent, _ = _agent([call("spending", merchant="Ei"), *["About six minutes."] * 3],
                      folders=[home])  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    assert report.calls == []
    assert report.answer == "About six minutes."


@pytest.mark.parametrize(
    "request_", ["How long is my notice period?", "How long is the notice period of the lease?"]
)
def test_a_question_of_the_users_taken_for_spending_is_asked_of_the_files(
    home: Path, database: Database, request_: str
) -> None:
    """No money in it, and of the user's own ("my …"), or of one thing, not a kind ("the
    lease", as "How long does the lasagne bake?" of the user's recipe)."""
    index_folders(database, [home])
    agent, _ = _agent(
        [call("spending"), call("ask_files"), "Three months, to the end of a month."],
        folders=[home], data=database,
    )  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    names = [c.name for c in report.calls]
    assert "summarise_spending" not in names and names[-1] == "read_file"
    assert report.calls[-1].arguments == {"path": "lease.txt"}
    assert report.answer.endswith("(From lease.txt.)")


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("Was hat der letzte Service am Auto gekostet?",
      [call("recall_fact", about="Service"), call("ask_files")]),
     ("What did the car service cost?", [call("just_answer")]),
     ("¿Cuánto costó el servicio del coche?",
      [call("recall_fact"), call("ask_files"), "How much did the car service cost?"])],
)  # fmt: skip
def test_what_something_cost_is_asked_of_the_files(
    home: Path, database: Database, request_: str, taken_for: list[str]
) -> None:
    """A question in the past tense of what something cost ("Was hat der letzte Service am
    Auto gekostet?") speaks of nothing of the user's, yet only their records answer it: it
    is asked of the files, not answered from the model's knowledge."""
    (home / "car").mkdir()
    (home / "car" / "service-history.txt").write_text(
        "Car: VW Golf (Auto)\n2028-05-12 service at AutoHaus Schmidt (servicio), 310 EUR\n"
    )
    index_folders(database, [home])
    agent, backend = _agent([*taken_for, "310 EUR."], folders=[home], data=database)
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    assert ("read_file", {"path": "car/service-history.txt"}) in [
        (c.name, c.arguments) for c in report.calls
    ]
    assert report.answer.startswith("310 EUR.") and "310 EUR" in _told(backend)


@pytest.mark.parametrize(
    "request_", ["Wie viel kostet ein Kilo Kaffee ungefähr?", "How much does a coffee cost?"]
)
def test_what_a_thing_costs_in_general_looks_nothing_up(
    home: Path, database: Database, request_: str
) -> None:
    agent, _ = _agent([call("recall_fact"), *["About 15 EUR."] * 3], folders=[home],
                      data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert report.calls == [] and report.answer == "About 15 EUR."


def test_a_new_contact_has_exactly_the_address_and_number_typed(radicale: RadicaleServer) -> None:
    account = CalendarAccount(radicale.url, "alice", PASSWORD, name="Home calendar")
    text = "Add Lukas Brandt to my contacts: lukas.brandt@example.de, +49 151 5550177."
    # The model copied the address as the name: the name is the request's words the
    # address spells.
    agent, _ = _agent([call("add_contact", name="lukas.brandt@example.de")], calendar=account)
    report = agent.run_turn(Conversation(), text)
    [card] = [c for c in find_contacts(account, "Lukas") if c.name == "Lukas Brandt"]
    assert (list(card.emails), list(card.phones)) == (
        ["lukas.brandt@example.de"],
        ["+49 151 5550177"],
    )
    assert report.answer == (
        "Added Lukas Brandt to your contacts: lukas.brandt@example.de, +49 151 5550177."
    )


@pytest.mark.parametrize(
    ("text", "given", "answer"),
    [("Just met our new neighbour from downstairs, Karim Haddad - really nice guy. His mobile "
      "is 0176 5550188. Can you save him in my contacts?", "Haddad Karim",
      "Added Karim Haddad to your contacts: 0176 5550188."),
     ("Komisch, Anna Schulz ist gar nicht in meinem Adressbuch. Leg sie bitte an: 0176 "
      "5550189.", "Anna", "Anna Schulz zu deinen Kontakten hinzugefügt: 0176 5550189."),
     # the family name alone, the whole name spelt by the address typed
     ("Add Lukas Brandt to my contacts: lukas.brandt@example.de, +49 151 5550177.", "Brandt",
      "Added Lukas Brandt to your contacts: lukas.brandt@example.de, +49 151 5550177."),
     # the family name alone, no address typed: the first name the request writes before it
     ("Weirdly Nina Sauer isn't in my contacts at all. Can you put her in? Her mobile is "
      "0171 5550103.", "Sauer", "Added Nina Sauer to your contacts: 0171 5550103."),
     # the model went on past the name with the request's words
     ("Add Jonas Weber to my contacts, his number is 0171 2233445",
      "Jonas Weber to my contacts, his number is 0171 2233445",
      "Added Jonas Weber to your contacts: 0171 2233445."),
     ("Ajoute Inès de la Fuente à mes contacts, son numéro c'est le 0171 2233446",
      "Inès de la Fuente à mes contacts, son numéro",
      "Inès de la Fuente ajouté à vos contacts : 0171 2233446."),
     # typed all in lower case, the model naming the address: capitals say nothing, the
     # word after the first name is the family name
     ("kannst du jamie clarke bei meinen kontakten anlegen? mail ist jamie@example.test, "
      "handy 0176 55501234", "Jamie@example.test",
      "Jamie Clarke zu deinen Kontakten hinzugefügt: jamie@example.test, 0176 55501234."),
     # … with the phone's capital at the start
     ("Can you add robin hale to my contacts? robin@example.test", "robin",
      "Added Robin Hale to your contacts: robin@example.test."),
     # a name typed in lower case is written with its capital
     ("add sam to my contacts please, sam@example.test", "sam",
      "Added Sam to your contacts: sam@example.test.")],
)  # fmt: skip
def test_a_new_contacts_name_is_as_the_request_writes_it(
    radicale: RadicaleServer, text: str, given: str, answer: str
) -> None:
    """The model wrote "Haddad Karim" of "…, Karim Haddad - …", "Anna" of "Anna Schulz":
    the request's order, and the family name it writes after the first."""
    account = CalendarAccount(radicale.url, "alice", PASSWORD, name="Home calendar")
    agent, _ = _agent([call("add_contact", name=given)], calendar=account)
    report = agent.run_turn(Conversation(), text)
    assert report.answer == answer


@pytest.mark.parametrize(
    ("who", "request_", "taken_for", "emails", "phones"),
    [
        ("Tomasz", "Tomasz has a new email address: tomasz@newmail.example - can you update it?",
         "find_contact", ["tomasz@newmail.example"], ["+48 600 111 222"]),
        ("Jarek", "Jarek hat eine neue Handynummer: 0176 5550123. Kannst du das ändern?",
         "add_contact", ["jarek@old.example"], ["0176 5550123"]),
        ("Mirek", "La nouvelle adresse de Mirek, c'est mirek.n@mail.example, tu peux mettre à "
         "jour sa fiche ?", "find_contact", ["mirek.n@mail.example"], ["+48 600 111 222"]),
        # the old one gone, said without "new"; the name only in the address and "Karla's"
        ("Karla", "Karla's work address doesn't work anymore, it's karla.nowak@home.example "
         "from now on. Fix it in my contacts please.", "add_contact",
         ["karla.nowak@home.example"], ["+48 600 111 222"]),
        # the model gave no name: the address spells the one the request writes
        ("Teo", "Teo's finally ditched his old email account - from now on he's "
         "teo.nowak@posteo.example and the old address won't work anymore. Could you swap it "
         "in my contacts?", "add_contact", ["teo.nowak@posteo.example"], ["+48 600 111 222"]),
        # the model gave no name, and no address spells it: the one name written that the
        # address book has
        ("Olek", "Olek’s finally got a new phone and his old number doesn't work anymore - "
         "the new one is 0176 5550188. Could you sort that out in my contacts?", "add_contact",
         ["olek@old.example"], ["0176 5550188"]),
        ("Zofia", "Zofia ya no usa su móvil de antes, el nuevo es el 0176 5550199. ¿Me lo "
         "cambias en los contactos?", "add_contact", ["zofia@old.example"], ["0176 5550199"]),
        # typed in lower case, with the possessive
        ("Wanda", "add wanda's new number 0176 5550177 to her contact", "add_contact",
         ["wanda@old.example"], ["0176 5550177"]),
        # typed in lower case, the name also inside the new address (kept as typed)
        ("Ula", "new email for ula: ula@newmail.example, can you update it", "add_contact",
         ["ula@newmail.example"], ["+48 600 111 222"]),
        # taken for a fact to keep
        ("Pia", "can you save 0176 5550166 as pia's new mobile number", "remember_fact",
         ["pia@old.example"], ["0176 5550166"]),
    ],
)  # fmt: skip
def test_a_new_address_or_number_of_someone_in_the_contacts_changes_their_card(
    radicale: RadicaleServer,
    who: str,
    request_: str,
    taken_for: str,
    emails: list[str],
    phones: list[str],
) -> None:
    """ "Tomasz has a new email address: …" taken for a lookup or a new card: the one card of
    that name changes (the dialog shows the old and the new), what is not said stays, and
    no second card is made."""
    account = CalendarAccount(radicale.url, "alice", PASSWORD, name="Home calendar")
    add_contact(account, f"{who} Nowak", emails=[f"{who.lower()}@old.example"],
                phones=["+48 600 111 222"])  # fmt: skip
    answers = Answers()
    given = {
        "Karla": "karla.nowak@home.example",
        "Teo": "",
        "Olek": "",
        "Zofia": "",
        "Wanda": "",
    }.get(who, who)  # the model's
    slots = {
        "find_contact": {"who": who},
        "remember_fact": {"fact": f"{who}'s new mobile number is {phones[0]}"},
    }.get(taken_for, {"name": given})
    chosen = call(taken_for, **slots)
    agent, _ = _agent([chosen, call("add_contact", name=who)], answers, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    assert [r.tool for r in answers.seen] == ["update_contact"], report.answer
    [card] = find_contacts(account, who)
    assert (card.name, list(card.emails), list(card.phones)) == (f"{who} Nowak", emails, phones)


def test_a_new_person_of_a_name_already_in_the_contacts_is_a_new_card(
    radicale: RadicaleServer,
) -> None:
    """ "my new colleague Wiktor": a new person, not a new address of "Wiktor Nowak"."""
    account = CalendarAccount(radicale.url, "alice", PASSWORD, name="Home calendar")
    add_contact(account, "Wiktor Nowak", emails=["wiktor@old.example"])
    answers = Answers()
    agent, _ = _agent([call("add_contact", name="Wiktor")], answers, calendar=account)
    report = agent.run_turn(
        Conversation(), "Add my new colleague Wiktor to my contacts: wk@work.example"
    )
    assert "update_contact" not in [c.name for c in report.calls], report.answer
    assert sorted(list(c.emails) for c in find_contacts(account, "Wiktor")) == [
        ["wiktor@old.example"],
        ["wk@work.example"],
    ]


def test_a_contact_whose_address_spells_no_name_is_asked_its_name(
    radicale: RadicaleServer,
) -> None:
    account = CalendarAccount(radicale.url, "alice", PASSWORD, name="Home calendar")
    agent, _ = _agent([call("add_contact", name="praxis@zahn.example")], calendar=account)
    conversation = Conversation()
    report = agent.run_turn(conversation, "Save my dentist in my contacts: praxis@zahn.example")
    assert report.answer == "What is the person's name?" and report.calls == []
    report = agent.run_turn(conversation, "Praxis Dr. Weiss")
    assert [c.name for c in find_contacts(account, "Weiss")] == ["Praxis Dr. Weiss"]


# -- answered in the request's language -------------------------------------------------------


def test_the_month_the_question_asks_wins_over_this_month_said_before_it(home: Path) -> None:
    """ "Intento controlar los gastos este mes... ¿cuánto me dejé en REWE en abril?": April,
    though the model copied "este mes" and the sentence before names this month."""
    agent, _ = _agent([call("spending", merchant="REWE", month="este mes")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(
            Conversation(),
            "Intento controlar un poco los gastos este mes... ¿cuánto me dejé en REWE en abril?",
        )
    assert "156.70" in report.answer and "abril" in report.answer, report.answer


def test_german_spending_is_answered_in_german_with_the_banks_own_figures(home: Path) -> None:
    agent, _ = _agent([call("spending", merchant="REWE", month="April")], folders=[home])
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), "Wie viel habe ich im April bei REWE ausgegeben?")
    assert (
        report.answer
        == "Deine Ausgaben im April 2029:\n- Rewe Markt GmbH: 156.70 EUR (4 Zahlungen)"
    )


def test_a_french_list_two_files_match_is_a_numbered_choice_in_french(home: Path) -> None:
    (home / "travel" / "shopping-list-lisbon.txt").write_text("1. sun hat\n")
    agent, _ = _agent([call("add_to_list", item="sandales", list="shopping")], folders=[home])
    conversation = Conversation()
    report = agent.run_turn(conversation, "Ajoute des sandales à ma liste shopping")
    assert report.answer.startswith("Quelle liste voulez-vous dire ?\n1. ")
    second = next(line for line in report.answer.splitlines() if line.startswith("2. "))
    done = agent.run_turn(conversation, "2")
    path = second.removeprefix("2. ")
    assert (home / path).read_text().splitlines()[-1] in ("2. sandales", "- sandales")
    assert done.answer == f"« sandales » ajouté à {path}."


def test_a_spanish_note_without_a_name_is_asked_for_in_spanish(home: Path) -> None:
    agent, _ = _agent([call("write_note", name="", content="")], folders=[home])
    conversation = Conversation()
    report = agent.run_turn(conversation, "Escribe una nota")
    assert report.answer == "¿Cómo debe llamarse el archivo?" and report.calls == []


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [
        ("Lundi j'ai la réunion budget, et la compta pose des questions sur la ligne voyages. "
         "On a dépassé de combien, d'après mon tableau de budget ?",
         call("find_free_time", when="lundi")),
        ("Lundi j'ai la réunion budget, et Sophie me dit que la compta a posé des questions "
         "sur la ligne voyages. On a dépassé de combien là-dessus, d'après mon tableau de "
         "budget de cette année ?", call("find_free_time")),
        ("Budget meeting on Monday. By how much are we over on travel, according to my budget "
         "sheet?", call("show_calendar", when="Monday")),
        ("Um wie viel haben wir bei Reisen überzogen, laut meiner Budgettabelle?",
         call("ask_files", about="Reisen")),
        ("¿Cuánto nos hemos pasado en viajes según mi hoja de presupuesto?",
         call("recall_fact", about="viajes")),
        # the line named by a word for travel expenses the model translates as no row's
        ("de combien on a dépassé le budget déplacements cette année ? chiffre exact stp",
         call("ask_files", about="budget déplacements")),
        # under the plan, taken for spending (whose sums would add the plan up)
        ("How much are we under plan on software, going by my budget sheet?",
         call("spending", merchant="Software")),
        ("Um wie viel liegen wir bei Hardware unter Plan, laut meiner Budgettabelle?",
         call("spending", merchant="Hardware", month="Plan")),
        ("How much are we under plan on software this year?",
         call("spending", merchant="Software")),
    ],
)  # fmt: skip
def test_how_far_a_budget_line_is_over_is_subtracted_by_code(
    home: Path, database: Database, request_: str, taken_for: str
) -> None:
    """ "On a dépassé de combien, d'après mon tableau de budget ?" taken for Monday's free
    time: the budget sheet answers it, its row "travel" (named in English or not), and the
    difference of its two amounts is code's, not the model's."""
    (home / "work").mkdir()
    shutil.copy(SEED / "work" / "budget-2029.csv", home / "work")
    # notes naming the meeting, Sophie and the budget more than the sheet does
    (home / "notes" / "kickoff.md").write_text(
        "# Kickoff, 14 May\nSophie: the budget meeting on Monday; travel budget questions "
        "from finance. Budget sheet by Friday.\n"
    )
    index_folders(database, [home])
    english = ["How much did we overspend on travel according to my budget table?"] * 3
    if "déplacements" in request_:
        english = ["By how much did we exceed the displacements budget this year?"] * 3
    agent, _ = _agent([taken_for, *english, "The model's sum."], folders=[home], data=database)
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    row, apart, spent, planned = next(
        line for line in (("software", "880", "3120", "4000"), ("hardware", "1800", "6200",
                          "8000"), ("travel", "1450", "7450", "6000"))
        if line[0] in request_.lower() or line[0] == "travel"
    )  # fmt: skip
    assert report.answer.startswith(apart), report.answer
    assert row in report.answer and spent in report.answer and planned in report.answer
    assert "budget-2029.csv" in report.answer


@pytest.mark.parametrize(
    ("request_", "turns", "left"),
    [
        ("Take the basil off my shopping list, I still have some.",
         [call("complete_todo", which="basil"),
          call("add_to_list", item="basil", list="shopping list")], "- oat milk\n"),
        ("J'ai encore du lait d'avoine, tu peux l'enlever de ma liste de courses ?",
         [call("cancel_event", event="lait d'avoine"),
          call("add_to_list", item="lait d'avoine", list="liste de courses"), "shopping list",
          "oat milk"], "- basil\n"),
        ("Streich bitte die Milch von der Einkaufsliste.",
         [call("add_to_list", item="Milch", list="Einkaufsliste"), "milk"], "- basil\n"),
        # an everyday grocery the glossary knows: no model step to put it in English
        ("Ya tengo albahaca en casa, quítala de la lista de la compra.",
         [call("add_to_list", item="albahaca", list="shopping list")], "- oat milk\n"),
    ],
)  # fmt: skip
def test_an_item_taken_off_a_list_kept_in_a_file_is_its_line_removed(
    home: Path, request_: str, turns: list[str], left: str
) -> None:
    """ "Take the basil off my shopping list" taken for a to-do done or an event cancelled:
    the list's line naming it (in its words or their English) goes, through the dialog; the
    other lines stay."""
    answers = Answers()
    agent, _ = _agent(turns, answers, folders=[home])
    report = agent.run_turn(Conversation(), request_)
    assert [r.tool for r in answers.seen] == ["write_file"], report.answer
    assert (home / "notes" / "shopping-list.md").read_text() == f"# Shopping list\n{left}"


def test_an_item_not_on_the_list_is_said_so_and_nothing_is_written(home: Path) -> None:
    answers = Answers()
    agent, _ = _agent([call("add_to_list", item="eggs", list="shopping list")], answers,
                      folders=[home])  # fmt: skip
    report = agent.run_turn(Conversation(), "Remove the eggs from my shopping list")
    assert report.answer == "“eggs” is not on notes/shopping-list.md." and answers.seen == []
    assert "eggs" not in (home / "notes" / "shopping-list.md").read_text()


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        ("Der Gartenverein hat geschrieben. Trag mir das bitte mit Uhrzeit in den Kalender ein.",
         ["gartenverein", "geschrieben"]),
        ("¿Me apuntas en el calendario el intercambio de semillas con su horario?",
         ["intercambio", "semillas"]),
        ("Ajoute la fête des voisins à mon calendrier", ["voisins", "fête"]),
    ],
)  # fmt: skip
def test_the_asking_to_put_something_in_the_calendar_is_no_word_to_look_for(
    request_: str, words: list[str]
) -> None:
    """ "Trag … ein", "bitte", "calendario": no text holds the thing by them ("trag" ends
    "Betrag", and a bank statement was read for the club's seed swap)."""
    assert telling_words(request_) == words


def test_how_much_more_or_less_is_no_word_to_look_for() -> None:
    """ "le plus haut sommet": a newsletter's "Plus: passkeys explained" holds no answer."""
    assert telling_words("quel est le plus haut sommet des Alpes ?") == ["alpes", "sommet", "haut"]
    assert "more" not in telling_words("which costs more, the train or the plane?")


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("La semana que viene tengo a ocho personas a cenar y quiero hacer la lasaña de verduras "
      "de mi receta. ¿Cuántas láminas y cuánta ricotta tengo que comprar?",
      call("find_free_time", when="la semana que viene", duration="")),
     ("Nächste Woche kommen acht Leute zum Essen, ich mach die Gemüselasagne nach meinem "
      "Rezept. Wie viel Ricotta brauche ich?", call("show_calendar", when="nächste Woche"))],
)  # fmt: skip
def test_a_question_answered_by_the_users_recipe_taken_for_the_calendar_reads_it(
    home: Path, database: Database, request_: str, taken_for: str
) -> None:
    """ "… de mi receta. ¿Cuántas láminas …?" taken for next week's free time: the recipe
    the user keeps answers it, not the calendar."""
    (home / "recipes").mkdir()
    shutil.copy(SEED / "recipes" / "lasagne.txt", home / "recipes")
    index_folders(database, [home])
    answer = "250 g ricotta for 4: 500 g for 8."
    agent, _ = _agent([taken_for, *["vegetable lasagne recipe ricotta"] * 3, answer, answer],
                      folders=[home], data=database)  # fmt: skip
    with clock.frozen_at(NOW):
        report = agent.run_turn(Conversation(), request_)
    assert "recipes/lasagne.txt" in report.answer, report.answer
    assert not any(c.name in ("find_free_time", "list_events") for c in report.calls)


@pytest.mark.parametrize(
    ("request_", "question"),
    [("Make a new packing list called camping.md with: tent, stove", "Saved camping.md."),
     # (the model's text none of the request's words: no name is made of it)
     ("Leg eine neue Einkaufsliste an: Milch, Brot", "Wie soll die Datei heißen?")],
)  # fmt: skip
def test_a_new_list_asked_for_is_a_new_note(home: Path, request_: str, question: str) -> None:
    """A new list asked for is written as a new file, not added to the one kept."""
    agent, _ = _agent([call("write_note", name="", content="tent, stove")], folders=[home])
    report = agent.run_turn(Conversation(), request_)
    assert (home / "notes" / "shopping-list.md").read_text() == (
        "# Shopping list\n- oat milk\n- basil\n"
    )
    assert report.answer == question
