"""A fact an email is asked to give, looked up where the user keeps it: the event's notes in
a real Radicale calendar, the message answered on real Dovecot + aiosmtpd. A scripted model
picks the intent, copies the answer's words and writes the body; code finds what to read,
checks the answer is the text's own, and the dialog shows the email before it goes out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from app.agent.documents.document_index import index_folders
from app.agent.gate.policy import ContextState
from app.agent.intents.mail_facts import told_of
from app.agent.intents.router import IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.scripted import ScriptedBackend
from app.store.database import Database
from connectors.calendar import CalendarAccount, create_event
from connectors.mail import MailAccount
from tests.agent.test_intents import TZ, Answers
from tests.agent.test_intents_mail import _deliver_dated, _remove_from, mail
from tests.agent.test_intents_personal import _agent, account, database, server
from tests.agent.test_mail_agent import USERS, servers
from tests.scripting import call
from tests.support.mail_servers import Dovecot, SmtpServer

__all__ = ["account", "database", "mail", "server", "servers"]  # the real servers, shared

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")
_, BOB = USERS
HALL = "St. Mark's church hall"


@pytest.fixture(autouse=True)
def _no_mail_left(servers: tuple[Dovecot, SmtpServer]) -> Iterator[None]:
    """Bob's messages go after each test: the next one delivers its own."""
    yield
    _remove_from(servers, BOB)


def _rehearsal(account: CalendarAccount) -> None:
    create_event(account, "Choir rehearsal", datetime(2029, 5, 16, 19, 0),
                 datetime(2029, 5, 16, 21, 0), tz=TZ,
                 description=f"At {HALL}. We sing the Brahms Requiem.")  # fmt: skip


def _bobs_mail(servers: tuple[Dovecot, SmtpServer]) -> None:
    _deliver_dated(servers, f"Bob Stone <{BOB}>", "Choir tomorrow",
                   "I'll be a bit late to choir tomorrow, sorry!",
                   "Mon, 14 May 2029 18:00:00 +0000")  # fmt: skip


def _reply_shown(turns: list[str], request: str, **tools: object) -> tuple[str, str]:
    """`request` run on the scripted `turns`: the answer, and the body of the one reply the
    dialog shows (declined: nothing is sent)."""
    answers = Answers(approve=False)
    report = _agent(turns, answers, **tools).run_turn(Conversation(), request)
    [shown] = answers.seen
    assert shown.tool == "reply_email", report.answer
    return report.answer, str(shown.arguments["body"])


@pytest.mark.parametrize(
    ("request_", "question"),
    [
        ("… and maybe mention which book we're discussing, she probably forgot",
         "which book we're discussing"),
        ("Reply that it's fine. Let him know where we're meeting.", "where we're meeting"),
        ("Antworte ihm, dass es passt, und sag ihm auch, wo wir uns treffen.",
         "wo wir uns treffen"),
        ("Réponds-lui que c'est bon et dis-lui à quelle heure ça commence.",
         "à quelle heure ça commence"),
        ("Contéstale que vale y dile dónde ensayamos", "dónde ensayamos"),
        # a thing of the user's to send, by its name, to whom said or not
        ("Could you email Tom the booking number for my Lisbon hotel?",
         "the booking number for my Lisbon hotel"),
        ("Mándale a Priya la dirección del hotel", "la dirección del hotel"),
        ("Tu peux lui envoyer un mail avec le nom et l'adresse de l'hôtel ?",
         "le nom et l'adresse de l'hôtel"),
        ("Schick ihr eine Mail mit der Adresse vom Hotel", "der Adresse vom Hotel"),
    ],
)  # fmt: skip
def test_what_a_request_asks_an_email_to_tell_is_read_from_it(request_: str, question: str) -> None:
    told = told_of(request_)
    assert told is not None and told.question == question


@pytest.mark.parametrize(
    "request_",
    [
        "Tell him that I'll be late.",  # said, nothing to look up
        "Ask her where we're meeting.",  # asked of her (`asking`)
        "Sag ihm, dass ich komme.",
        "Dis-lui que je viens demain.",
    ],
)
def test_a_request_that_says_its_message_or_asks_tells_nothing_to_look_up(request_: str) -> None:
    assert told_of(request_) is None


@pytest.mark.parametrize(
    ("copied", "told"),
    [(HALL, True),  # the notes' own words
     ("the Philharmonie", False)],  # made up: nothing is told but what the user said
)  # fmt: skip
def test_a_reply_asked_to_say_where_gives_the_place_the_events_notes_hold(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    copied: str,
    told: bool,
) -> None:
    """The request names the rehearsal; the place is in its notes, not in the request. The
    model copies it, code checks the words are the notes' own, and the reply says it beside
    what the user asked to say. Nothing goes out before approval."""
    _rehearsal(account)
    _bobs_mail(servers)
    answer, body = _reply_shown(
        [call("reply_to_email", which="Bob", message="No problem, see you there."),
         copied,
         "Hi Bob,\n\nNo problem at all, see you there.\n\nBest"],
        "Bob wrote that he'll be late to choir rehearsal tomorrow. Answer him that it's no "
        "problem, see you there, and let him know where we're rehearsing, he's new.",
        mail=mail, calendar=account,
    )  # fmt: skip
    assert (copied in body) == told, (answer, body)
    assert "no problem" in body.lower()
    assert "let him know" not in body.lower() and ("rehearsing:" in body) == told
    assert servers[1].relay.deliveries == 0


@pytest.mark.parametrize(
    ("request_", "said"),
    [
        ("Antworte Bob, dass ich mich freue, und sag ihm, wann ich am Donnerstag Zeit habe.",
         "freue mich"),
        ("Reply to Bob that I'd love to meet and tell him when I'm free on Thursday.",
         "love to meet"),
        ("Réponds à Bob que ça me ferait plaisir et dis-lui quand je suis libre jeudi.",
         "plaisir"),
        ("Contesta a Bob que me encantaría y dile cuándo tengo tiempo el jueves.",
         "encantaría"),
        # the model turned the asking round ("tell me when"): the request's own words
        ("Write back to Bob that coffee sounds great and tell him when I'm free on Thursday.",
         "coffee sounds great"),
    ],
)  # fmt: skip
def test_a_reply_asked_to_say_when_the_user_is_free_gives_the_calendars_free_times(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    request_: str,
    said: str,
) -> None:
    """ "…, und sag ihm, wann ich am Donnerstag Zeit habe": what to tell is the user's free
    time that day, which the calendar gives (no model step); the reply says it beside what
    the user asked to say, and not "sag ihm"."""
    create_event(account, "Dentist", datetime(2029, 5, 17, 9, 0), datetime(2029, 5, 17, 12, 0),
                 tz=TZ)  # fmt: skip
    _bobs_mail(servers)
    answer, body = _reply_shown(
        [call("reply_to_email", which="Bob", message=request_.replace("tell him", "tell me")),
         "Hi Bob", "Hi Bob", "Hi Bob"],
        request_, mail=mail, calendar=account,
    )  # fmt: skip
    assert "12:00–18:00" in body, (answer, body)
    assert "08:00–09:00" in body and said in body.lower()
    assert not re.search(r"\b(?:sag ihm|tell him|tell me|dis-lui|dile)\b", body.lower()), body


@pytest.mark.parametrize(
    ("request_", "english", "said"),
    [
        ("Bob kommt morgen später zur Chorprobe, hat er geschrieben. Antworte ihm, dass das "
         "kein Problem ist, und sag ihm bitte, wo wir proben.",
         "Bob is coming later to choir rehearsal tomorrow, he wrote. Answer him that that is "
         "no problem, and please tell him where we rehearse.",
         "kein problem"),
        ("Bob arrivera en retard à la répétition de chorale demain. Réponds-lui que ce n'est "
         "pas grave et précise-lui où on répète.",
         None, "pas grave"),  # the glossary knows "répétition", "chorale": no translation
        ("Bob llega tarde al ensayo del coro mañana. Contéstale que no pasa nada y dile dónde "
         "ensayamos.",
         None, "no pasa nada"),
    ],
)  # fmt: skip
def test_a_reply_in_another_language_finds_the_event_by_its_english_and_gives_the_place(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    request_: str,
    english: str | None,
    said: str,
) -> None:
    """The request names the rehearsal in its own language: the event is found by the
    request's English (the glossary's, else the model's), the place copied from its notes,
    and the reply holds both what the user said and the place."""
    _rehearsal(account)
    _bobs_mail(servers)
    answer, body = _reply_shown(
        [call("reply_to_email", which="Bob", message=said), *([english] if english else []),
         HALL, said],
        request_, mail=mail, calendar=account,
    )  # fmt: skip
    assert HALL in body, (answer, body)
    assert said in body.lower()
    assert servers[1].relay.deliveries == 0


@pytest.mark.parametrize(
    ("request_", "copied", "said", "news"),
    [
        ("Bob wrote that he's stuck in traffic and will miss the start. Reply that it's fine, "
         "we'll wait for him.",
         "I'm stuck in traffic and will miss the start. It's fine, we'll wait for him.",
         "we'll wait for him", "traffic"),
        ("Bob hat geschrieben, dass er im Stau steht und den Anfang verpasst. Antworte ihm, "
         "dass wir natürlich auf ihn warten.",
         "Ich stehe im Stau und verpasse den Anfang. Wir warten natürlich auf ihn.",
         "warten", "Stau"),
    ],
)  # fmt: skip
def test_a_reply_leaves_out_the_news_the_request_reports_before_what_to_say(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    request_: str,
    copied: str,
    said: str,
    news: str,
) -> None:
    """ "Bob wrote that …" reports his news; what to say follows the second "that". The
    model copied both into the message: the reply says only what the user asked to say."""
    _bobs_mail(servers)
    answer, body = _reply_shown(
        [call("reply_to_email", which="Bob", message=copied), copied], request_, mail=mail
    )
    assert said in body, (answer, body)
    assert news not in body
    assert servers[1].relay.deliveries == 0


def _with_a_budget_sheet(
    turns: list[str], home: Path, database: Database, mail: MailAccount
) -> tuple[Agent, Answers]:
    """An agent over a folder holding a budget table, indexed as the app's background
    indexer does, and a user who denies every dialog (nothing goes out)."""
    (home / "work").mkdir()
    (home / "work" / "budget-2030.csv").write_text(
        "line,planned_eur,spent_eur\ntravel,3000,3650\nsoftware,4000,3120\n"
    )
    index_folders(database, [home])
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    answers = Answers(approve=False)
    registry = build_registry(folders=[home], data=database, mail=mail)
    agent = Agent(backend, registry, ContextState(allowed_folders=[str(home)]), confirmer=answers)
    agent.front = IntentRouter()
    return agent, answers


@pytest.mark.parametrize(
    ("request_", "english"),
    [
        ("Bob asked me how much we've spent on travel this year and what we had planned. Look "
         "it up in the budget sheet and send him an email with both figures.", None),
        ("Bob quiere saber cuánto hemos gastado en viajes y cuánto estaba presupuestado. "
         "Mándale un correo con esos números, están en la hoja del presupuesto.",
         "how much we have spent on travel and how much was budgeted"),
        ("Bob will wissen, wie viel wir dieses Jahr für Reisen ausgegeben haben und wie viel "
         "eingeplant war. Schick ihm die beiden Zahlen aus der Budgettabelle.",
         "how much we spent on travel this year and how much was planned"),
    ],
)  # fmt: skip
def test_what_the_recipient_asked_is_answered_from_the_row_of_the_table_it_names(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    tmp_path: Path,
    database: Database,
    request_: str,
    english: str | None,
) -> None:
    """Bob's question is reported, and the request says nothing else to write: the email
    is the table's row his words name ("viajes", "Reisen": the row "travel", by their
    English), its figures as the file has them, with no model step but the translation.
    The file is found by the document index, as in the app. The dialog shows it; nothing
    goes out before approval."""
    _bobs_mail(servers)
    turns = [call("send_email", to="Bob", message="both figures"), *([english] if english else [])]
    agent, answers = _with_a_budget_sheet(turns, tmp_path, database, mail)
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    body = shown.arguments["body"]
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB], report.answer
    assert "travel: planned eur 3000, spent eur 3650" in body, body
    assert "4000" not in body and "3120" not in body
    # the subject is what he asked, not the model's words for the request
    assert shown.arguments["subject"].lower().startswith(("how much", "cuánto", "wie viel"))
    assert servers[1].relay.deliveries == 0


@pytest.mark.parametrize(
    ("request_", "english"),
    [
        ("Bob asked about the travel line. Reply to his mail with the planned and spent "
         "figures from my budget sheet.", []),
        ("Bob hat nach der Zeile für Reisen gefragt. Antworte ihm mit den Zahlen aus meiner "
         "Budgettabelle.", ["figures budget table", "Bob asked about the line for travel."]),
    ],
)  # fmt: skip
def test_a_reply_carrying_figures_from_a_file_gives_the_row_the_request_names(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    tmp_path: Path,
    database: Database,
    request_: str,
    english: list[str],
) -> None:
    """ "… with the planned and spent figures from my budget sheet": the reply is the row
    the request names ("the travel line"), as the file has it; nothing else is made up."""
    _bobs_mail(servers)
    said = "the figures" if request_.startswith("Bob asked") else "die Zahlen"
    turns = [call("reply_to_email", which="Bob", message=said), *english, *["English."] * 2]
    agent, answers = _with_a_budget_sheet(turns, tmp_path, database, mail)
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    body = shown.arguments["body"]
    assert shown.tool == "reply_email" and "travel: planned eur 3000, spent eur 3650" in body, (
        report.answer
    )
    assert "4000" not in body


@pytest.mark.parametrize(
    "request_",
    [
        "Bob wrote that he'll be late to choir rehearsal tomorrow. Answer him that it's no "
        "problem and remind him of the booking reference for the hall.",
        "Bob kommt morgen später zur Choir rehearsal. Antworte ihm, dass das passt, und nenn "
        "ihm die Buchungsnummer für den Saal.",
        "Bob kommt morgen später zur Choir rehearsal. Antworte ihm, dass das passt, und "
        "bestätig ihm die Buchungsnummer für den Saal.",
    ],
)
def test_a_reply_telling_a_record_by_its_name_copies_it_from_the_event(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    request_: str,
) -> None:
    """ "Remind him of the booking reference": a record named, not asked with "which"; it is
    copied from the notes of the event the request names, checked as the notes' own."""
    create_event(account, "Choir rehearsal", datetime(2029, 5, 16, 19, 0),
                 datetime(2029, 5, 16, 21, 0), tz=TZ,
                 description="Hall booking reference: HB-4471.")  # fmt: skip
    _bobs_mail(servers)
    said = "no problem" if request_.startswith("Bob wrote") else "das passt"
    answer, body = _reply_shown(
        [call("reply_to_email", which="Bob", message=said), "HB-4471", said], request_,
        mail=mail, calendar=account,
    )  # fmt: skip
    assert "HB-4471" in body, (answer, body)
    assert said in body.lower()


@pytest.mark.parametrize(
    ("request_", "turns"),
    [
        ("Priya part aussi à Lisbonne en juin et voudrait le même hôtel que moi. Tu peux lui "
         "envoyer un mail avec le nom et l'adresse de l'hôtel ? Tout est dans mon itinéraire.",
         [call("send_email", to="Priya", message="Tu peux lui envoyer un mail avec le nom et "
               "l'adresse de l'hôtel ?"), "name address hotel",
          "Priya is also going to Lisbon in June and wants the same hotel as me.",
          "Casa do Rio, Rua da Prata 12"]),
        ("Send Priya the address of my hotel in Lisbon, it's in my itinerary.",
         [call("send_email", to="Priya", message="the address of my hotel"),
          "Casa do Rio, Rua da Prata 12"]),
        # the trip's event names Lisbon but holds no booking number: the itinerary does,
        # after "booking" (the small model answered "none" both times)
        ("Could you email Priya the booking number for my Lisbon hotel?",
         [call("send_email", to="Priya", message="send the booking number for my hotel"),
          "none", "none", "55120"]),
    ],
)  # fmt: skip
def test_an_email_asked_to_carry_a_fact_gives_it_from_the_file_that_holds_it(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    tmp_path: Path,
    database: Database,
    request_: str,
    turns: list[str],
) -> None:
    """ "un mail avec le nom et l'adresse de l'hôtel", "send … the address of my hotel": what
    the email says is the fact, copied from the itinerary and checked as the file's own (not
    from the trip's event, which does not hold it); the request's words asking for it are
    not the message."""
    if "booking number" in request_:
        create_event(account, "Lisbon", datetime(2029, 6, 8, 7, 0),
                     datetime(2029, 6, 11, 20, 0), tz=TZ,
                     description="Flight TP 553 from Berlin.")  # fmt: skip
    (tmp_path / "travel").mkdir()
    (tmp_path / "travel" / "lisbon-itinerary.md").write_text(
        "# Lisbon, 8-11 June\n- 8 June: arrive 09:40, hotel Casa do Rio, Rua da Prata 12 "
        "(booking 55120)\n- 11 June: fly back 18:05\n"
    )
    index_folders(database, [tmp_path])
    _deliver_dated(
        servers,
        f"Priya Nair <{BOB}>",
        "Lisbon in June?",
        "Which hotel was it?",
        "Mon, 14 May 2029 18:00:00 +0000",
    )  # her address, in the mailbox
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True,
                                         "turns": [*turns, "Plain words."]})  # fmt: skip
    answers = Answers(approve=False)
    registry = build_registry(folders=[tmp_path], data=database, mail=mail, calendar=account)
    agent = Agent(backend, registry, ContextState(allowed_folders=[str(tmp_path)]),
                  confirmer=answers)  # fmt: skip
    agent.front = IntentRouter()
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    body = str(shown.arguments["body"])
    assert shown.tool == "send_email" and turns[-1] in body, report.answer
    assert "TP 553" not in body
    assert "Tu peux" not in body and "itinerary" not in body


def _over_a_folder(turns: list[str], folder: Path, database: Database, **tools: object
                   ) -> tuple[Agent, Answers]:  # fmt: skip
    """An agent over `folder`, indexed as the app's background indexer does, and a user who
    denies every dialog (nothing goes out)."""
    index_folders(database, [folder])
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    answers = Answers(approve=False)
    registry = build_registry(folders=[folder], data=database, **tools)
    agent = Agent(backend, registry, ContextState(allowed_folders=[str(folder)]),
                  confirmer=answers)  # fmt: skip
    agent.front = IntentRouter()
    return agent, answers


_RECIPE = (
    "Vegetable lasagne (serves 4)\n- 12 lasagne sheets\n- 500 g passata\n- 250 g ricotta\n"
    "Bake at 190 °C for 40 minutes."
)


@pytest.mark.parametrize(
    ("request_", "turns", "opening"),
    [("Can you mail Bob my recipe for the vegetable lasagne?",
      [call("send_email", to="Bob", message="my recipe for the vegetable lasagne")],
      "Here is my recipe for the vegetable lasagne:"),
     ("Kannst du Bob mein Rezept für die Gemüselasagne per Mail schicken?",
      [call("send_email", to="Bob", message="Gemüselasagne"), "vegetable lasagne recipe"],
      "Hier ist mein Rezept für die Gemüselasagne:"),
     ("¿Puedes enviarle a Bob por correo mi receta de la lasaña de verduras?",
      [call("send_email", to="Bob", message="receta"), "vegetable lasagna recipe"],
      "Aquí tienes mi receta de la lasaña de verduras:"),
     # no "my": the thing the user has saved
     ("Bob me mandó su sopa y le prometí la receta de la lasaña de verduras que tengo "
      "guardada. ¿Se la mandas tú?",
      [call("send_email", to="Bob", message="la receta"), "vegetable lasagna recipe"],
      "Aquí tienes la receta de la lasaña de verduras:"),
     ("Bob wants the vegetable lasagne recipe I saved. Can you send it to him?",
      [call("send_email", to="Bob", message="the recipe")],
      "Here is the vegetable lasagne recipe:")],
)  # fmt: skip
def test_a_file_of_the_users_sent_by_email_is_its_text_in_the_email(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    tmp_path: Path,
    database: Database,
    request_: str,
    turns: list[str],
    opening: str,
) -> None:
    """ "Mail Bob my recipe for the vegetable lasagne": the file that plainly is it (its
    words, in the request's language or in English) is the email's text, as the file has
    it, after a line saying what it is; no model writes it. The dialog shows it first."""
    _bobs_mail(servers)
    (tmp_path / "recipes").mkdir()
    (tmp_path / "recipes" / "lasagne.txt").write_text(_RECIPE + "\n")
    (tmp_path / "notes.md").write_text("Lasagne night at Bob's on Friday.\n")
    agent, answers = _over_a_folder(turns, tmp_path, database, mail=mail)
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    body = str(shown.arguments["body"])
    assert shown.tool == "send_email" and f"{opening}\n\n{_RECIPE}" in body, report.answer
    assert "Friday" not in body and servers[1].relay.deliveries == 0


def test_an_email_about_a_thing_of_the_users_does_not_carry_its_file(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, tmp_path: Path, database: Database
) -> None:
    """ "Email Bob about my lasagne recipe": what the email is about, written by the model,
    not the file sent."""
    _bobs_mail(servers)
    (tmp_path / "recipes").mkdir()
    (tmp_path / "recipes" / "lasagne.txt").write_text(_RECIPE + "\n")
    said = "I will send you the lasagne recipe soon."
    turns = [call("send_email", to="Bob", message="about my lasagne recipe"), said]
    agent, answers = _over_a_folder(turns, tmp_path, database, mail=mail)
    agent.run_turn(Conversation(), "Email Bob about my lasagne recipe")
    [shown] = answers.seen
    assert "190" not in str(shown.arguments["body"])


def test_a_record_told_with_the_clause_saying_which_goes_in_a_letter_of_the_users_words(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """ "… dass wir am Donnerstag, den 24. Mai überweisen, und bestätig ihr die
    Bestellnummer, die die Buchhaltung auf der Überweisung haben will": the clause saying
    which number is part of what to tell, not of what to say; the body the model wrote went
    nowhere, so the user's own words are the letter, the number on a line of its own."""
    _deliver_dated(servers, f"Sophie Martin <{BOB}>", "Re: Invoice 2029-117 from Nordwind",
                   "Alex, one more thing: finance needs the purchase order number on the "
                   "transfer: PO-5521.", "Mon, 14 May 2029 18:00:00 +0000")  # fmt: skip
    request = (
        "Sophie hakt wegen der Nordwind-Rechnung nach. Schreib ihr bitte zurück, dass wir am "
        "Donnerstag, den 24. Mai überweisen, und bestätig ihr die Bestellnummer, die die "
        "Buchhaltung auf der Überweisung haben will."
    )
    junk = ("Hallo Sophie,\n\nHier ist mein Angebot um die Buchhaltung auf der Überweisung zu "
            "überweisen am Donnerstag, den 24. Mai:\n\n1. Ich werde diese Buchhaltungen "
            "durchzustellen.")  # fmt: skip
    turns = [call("reply_to_email", which="Sophie", message=request), "purchase order number",
             "PO-5521", junk]  # fmt: skip
    try:
        answer, body = _reply_shown(turns, request, mail=mail)
    finally:
        _remove_from(servers, BOB)
    assert "Wir überweisen am Donnerstag, den 24. Mai." in body, (answer, body)
    assert "PO-5521" in body and "Angebot" not in body
