"""Questions answered from wherever the user keeps the answer, end to end: real files in an
allowed folder, real Dovecot for the mail, a real Radicale calendar, a scripted model that
picks the intent and answers only from the one text code read for it.

Each test proves which source code chose (the file or the email holding most of the question's
words), what the narrow question to the model held, and that a calendar question about
something no event names is answered from the mail before any event is guessed.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from app import clock
from app.agent.gate.policy import ContextState
from app.agent.intents.language import asks_to_put_in_the_calendar
from app.agent.intents.router import IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent, TurnReport
from app.llm.backend import StepRequest
from app.llm.scripted import ScriptedBackend
from app.store.database import Database
from app.store.models import MemoryRecord
from app.store.reminders import ReminderStore
from connectors.calendar import CalendarAccount, create_event, list_events
from connectors.contacts import find_contacts
from connectors.folding import fold
from connectors.mail import MailAccount
from tests.agent.test_intents import TZ, Answers, _all, at
from tests.agent.test_intents_mail import _deliver_dated, _empty_inbox, _remove_from
from tests.agent.test_intents_personal import NOW, account, database, server
from tests.agent.test_mail_agent import USERS, _account, _deliver, servers
from tests.scripting import call, through_english
from tests.support.mail_servers import Dovecot, SmtpServer

__all__ = ["account", "database", "server", "servers"]  # Radicale and the mail servers, shared

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")
ALICE = next(iter(USERS))
COURIER = "tracking@parcels.example"


@pytest.fixture
def mail(servers: tuple[Dovecot, SmtpServer]) -> MailAccount:
    return _account(servers, ALICE)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "Documents"
    (folder / "travel").mkdir(parents=True)
    (folder / "travel" / "lisbon-itinerary.md").write_text(
        "# Lisbon, 2-5 June\nHotel: Casa do Rio, Rua da Prata 12\n"
    )
    (folder / "lease.txt").write_text("Tenancy agreement\nPets are allowed with consent.\n")
    return folder


def _agent(turns: list[str], home: Path, **tools: object) -> tuple[Agent, ScriptedBackend]:
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    registry = build_registry(folders=[home], **tools)
    agent = Agent(backend, registry, ContextState(allowed_folders=[str(home)]), confirmer=Answers())
    agent.front = IntentRouter()
    return agent, backend


def _deliver_flight(servers: tuple[Dovecot, SmtpServer]) -> None:
    """The airline's booking email, the one a flight question is answered from."""
    _deliver(servers[0], ALICE, "booking@airline.example", "Booking confirmed: Berlin-Lisbon",
             "Flight LH 1166 to Lisbon leaves Berlin on Friday 8 June at 07:05.")  # fmt: skip


def _told(backend: ScriptedBackend) -> str:
    """What the last narrow question to the model held (its user message)."""
    return str(backend.requests[-1].messages[-1]["content"])


def test_a_text_holding_a_word_of_the_question_and_one_of_its_english_answers_it(
    home: Path,
) -> None:
    """ "Wann ist die erste Lieferung für Nordwind?" taken for free time: the notes hold
    "Nordwind" of the German and "first" of the English (the model wrote "Northwind"), two
    telling words, so they plainly answer it; no day is asked."""
    (home / "work").mkdir()
    (home / "work" / "nordwind-kickoff.md").write_text(
        "# Kickoff Nordwind\nDecisions:\n- First delivery on 4 June.\n"
    )
    agent, backend = _agent(
        [call("find_free_time"), "When is the first shipment for Northwind?", "Am 4. Juni."],
        home,
    )
    report = agent.run_turn(Conversation(), "Wann ist die erste Lieferung für Nordwind?")
    assert report.answer.startswith("Am 4. Juni.")
    assert "First delivery on 4 June" in _told(backend)


@pytest.mark.parametrize(
    ("read_as", "kept"),
    [("190 °C for 20 minutes.", False), ("At 190 °C for 40 minutes.", True),
     (f"190 degrees, 40 minutes, in {clock.now().year} as every year.", True)],
)  # fmt: skip
def test_an_answer_with_a_number_the_text_does_not_hold_shows_the_text_instead(
    home: Path, read_as: str, kept: bool
) -> None:
    """The model misread the recipe ("20 minutes"): a number the file does not hold is the
    model's own, so the file is shown, which the user can read; a true reading is kept."""
    (home / "recipes").mkdir()
    (home / "recipes" / "lasagne.txt").write_text(
        "Vegetable lasagne (serves 4)\n- 12 lasagne sheets\nBake at 190 °C for 40 minutes.\n"
    )
    agent, _ = _agent([call("ask_files", about="lasagne oven"), read_as], home)
    report = agent.run_turn(Conversation(), "How hot and how long does my lasagne bake?")
    assert report.answer.startswith(read_as) == kept
    assert "40 minutes" in report.answer and "(From recipes/lasagne.txt.)" in report.answer


@pytest.mark.parametrize(
    ("read_as", "kept"),
    [("Il n'y a pas d'hôtel à Lisbonne dans ce fichier.", False),
     ("L'hôtel Casa do Rio, Rua da Prata 12.", True),
     ("Il n'y a pas de piscine, mais l'hôtel est Casa do Rio.", True)],
)  # fmt: skip
def test_an_answer_saying_there_is_none_of_what_the_text_holds_shows_the_text_instead(
    home: Path, read_as: str, kept: bool
) -> None:
    """ "c'est où déjà l'hôtel à lisbonne ?" answered "Il n'y a pas d'hôtel" of the itinerary
    naming the hotel: a "there is no" of a thing asked about that the text holds is false,
    and the text is shown; a "no" of something else stands."""
    agent, _ = _agent([call("ask_files", about="hôtel lisbonne"), "hotel Lisbon", read_as], home)
    report = agent.run_turn(Conversation(), "c'est où déjà l'hôtel à lisbonne ?")
    assert report.answer.startswith(read_as) == kept, report.answer
    assert "Casa do Rio" in report.answer and "lisbon-itinerary.md" in report.answer


@pytest.mark.parametrize(
    "question",
    ["Le colis m'a écrit ce matin, pas eu le temps d'ouvrir. Il arrive quand, en deux mots ?",
     "My parcel people wrote this morning and I had no time to open it. When's it coming?"],
)  # fmt: skip
def test_an_answer_saying_the_question_again_shows_the_text_instead(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path, question: str
) -> None:
    """The 0.5B model, asked what an email says, wrote the user's message back word for
    word: an answer made of the request's words and hardly any of the text's is none, and
    the text itself is shown."""
    _deliver(servers[0], ALICE, COURIER, "Your parcel 4711 is on its way",
             "Your parcel arrives on Thursday 17 May between 10:00 and 14:00.")  # fmt: skip
    english = [] if question.startswith("My") else ["parcel"]  # the French looked up in English
    agent, _ = _agent([call("ask_files", about="parcel"), *english, question], home, mail=mail)
    report = agent.run_turn(Conversation(), question)
    assert "Your parcel arrives on Thursday 17 May between 10:00" in report.answer
    assert question not in report.answer


@pytest.mark.parametrize(
    ("question", "read_as"),
    [("Did anyone email me about my parcel?", "No one email me about my parcel."),
     ("Hat mir jemand wegen meinem Paket geschrieben?",
      "Niemand hat mir wegen meinem Paket geschrieben.")],
)  # fmt: skip
def test_a_no_made_of_the_questions_words_shows_the_text_found_instead(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    home: Path,
    question: str,
    read_as: str,
) -> None:
    """The email about the parcel was found, and the 0.5B model answered "No one email me
    about my parcel.": a "no" in the request's own words answers nothing; the text is
    shown."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, COURIER, "Your parcel 4711 is on its way",
             "Your parcel arrives on Thursday 17 May between 10:00 and 14:00.")  # fmt: skip
    agent, _ = _agent([call("find_emails", about="parcel"), *[read_as] * 3], home, mail=mail)
    report = agent.run_turn(Conversation(), question)
    assert "Thursday 17 May between 10:00" in report.answer and read_as not in report.answer


@pytest.mark.parametrize(
    ("question", "read_as", "kept"),
    [
        ("What time does my Porto flight leave?", "The email is about your flight.", False),
        ("What time does my Porto flight leave?", "It leaves at 07:05.", True),
        ("What's the booking code for my Porto flight?", "Your flight is booked.", False),
        ("What's the booking code for my Porto flight?", "QX7P2L (LH 1166, 07:05).", True),
        # numbers of the text, but not its code
        ("What's the booking code for my Porto flight?", "Your flight is LH 1166.", False),
        # "the code" asked beside the booking it is of
        ("¿me buscas lo del vuelo a Oporto? necesito el código",
         "El correo es: booking@example.", False),
    ],
)  # fmt: skip
def test_an_answer_leaving_out_the_time_or_code_asked_shows_the_text_instead(
    home: Path, question: str, read_as: str, kept: bool
) -> None:
    """The model wrote around what was asked ("The email is about your flight."): the text
    holding the time or the code is shown instead; an answer saying it is kept."""
    (home / "travel" / "flight.txt").write_text(
        "Flight LH 1166 to Porto, departs Berlin 07:05. Booking code: QX7P2L.\n"
    )
    agent, _ = _agent([call("ask_files", about="flight Porto"), read_as], home)
    report = agent.run_turn(Conversation(), question)
    assert report.answer.startswith(read_as) == kept
    assert "07:05" in report.answer and "travel/flight.txt" in report.answer


def test_a_question_an_email_holds_is_answered_from_that_email(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, COURIER, "Your parcel 4711 is on its way",
             "Your parcel arrives on Thursday 17 May between 10:00 and 14:00.")  # fmt: skip
    agent, backend = _agent(
        [call("ask_files", about="parcel"), "Thursday 17 May, 10:00 to 14:00."], home, mail=mail
    )
    report = agent.run_turn(Conversation(), "When is my parcel coming?")
    assert report.calls[-1].name == "read_email"
    assert "between 10:00 and 14:00" in _told(backend)  # the email's own text, nothing else
    assert "Casa do Rio" not in _told(backend)
    assert backend.requests[-1].tool_choice == "none" and not backend.requests[-1].tools
    assert report.answer == (
        "Thursday 17 May, 10:00 to 14:00.\n\n"
        f"(From the email of {COURIER}, “Your parcel 4711 is on its way”.)"
    )


@pytest.mark.parametrize(
    ("question", "answer", "shown"),
    [
        ("Maria emailed about the offsite. By when does she need my dietary requirements?",
         "By Friday.", "By Friday.\n\nIn the text: 13 June; 18 May"),
        ("Maria hat wegen des Offsites geschrieben. Bis wann braucht sie meine Essenswünsche?",
         "Bis Freitag.", "Bis Freitag.\n\nIm Text: 13 June; 18 May"),
        # the answer gives the day: nothing added
        ("Maria emailed about the offsite. By when does she need my dietary requirements?",
         "By Friday 18 May; the offsite is 12-13 June.",
         "By Friday 18 May; the offsite is 12-13 June."),
    ],
)  # fmt: skip
def test_an_answer_to_when_without_the_days_the_email_gives_shows_them_beside_it(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    home: Path,
    question: str,
    answer: str,
    shown: str,
) -> None:
    """ "By when does she need …?" answered "By Friday": the days the email gives, as it
    writes them, are shown beside the model's words (a small model drops the date)."""
    maria = "Maria Klein <maria@work.example>"
    _deliver(servers[0], ALICE, maria, "Offsite planning",
             "Hi all, the offsite will be on 12-13 June in Potsdam. Please send me your "
             "dietary requirements by Friday 18 May.")  # fmt: skip
    agent, _ = _agent([call("find_emails", about="Maria offsite"), answer], home, mail=mail)
    try:
        report = agent.run_turn(Conversation(), question)
    finally:
        _remove_from(servers, "maria@work.example")
    assert f"\n\n{shown}\n\n(" in report.answer, report.answer


@pytest.mark.parametrize(
    ("question", "translated"),
    [("Est-ce que Maria m'a écrit pour l'offsite ? Elle voulait savoir quoi ?",
      "Elle demande vos besoins alimentaires d'ici vendredi."),
     ("Hat Maria wegen dem Offsite geschrieben? Was wollte sie wissen?",
      "Sie fragt bis Freitag nach deinen Essenswünschen."),
     ("¿Maria me escribió por lo del offsite? ¿Qué quería saber?",
      "Pide tus necesidades alimentarias antes del viernes.")],
)  # fmt: skip
def test_an_answer_the_model_wrote_in_english_is_said_in_the_users_language(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    home: Path,
    question: str,
    translated: str,
) -> None:
    """Asked in French, the small model answers from the email in English: the answer is
    put into the user's language (a translation, its most likely words)."""
    _empty_inbox(servers)  # Maria's one email: what else is there decides the steps
    maria = "Maria Klein <maria@work.example>"
    _deliver(servers[0], ALICE, maria, "Offsite planning",
             "Hi all, please send me your dietary requirements by Friday.")  # fmt: skip
    english = "She asks for your dietary requirements by Friday."
    agent, backend = _agent([call("find_emails", about="Maria offsite"), english, translated],
                            home, mail=mail)  # fmt: skip
    try:
        report = agent.run_turn(Conversation(), question)
    finally:
        _remove_from(servers, "maria@work.example")
    assert f"\n\n{translated}\n\n(" in report.answer, report.answer
    last = backend.requests[-1]
    assert "Translate into" in str(last.messages) and last.sampling.temperature == 0.0


def test_a_question_a_file_holds_is_answered_from_the_file_beside_the_mail(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, "agent@flats.example", "Viewing on Monday",
             "The viewing of the flat is on Monday at 5 pm.")  # fmt: skip
    agent, backend = _agent(
        [call("ask_files", about="lease pets"), "Pets are allowed with consent."], home,
        mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "What does my lease say about pets?")
    assert "Pets are allowed with consent." in _told(backend)
    assert report.answer.endswith("(From lease.txt.)")


def _flight_asked(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    day: str,
) -> tuple[TurnReport, ScriptedBackend]:
    """ "What time is my flight to Lisbon [on `day`]?", with a dentist on Friday 18 May and the
    airline's email in the mailbox."""
    create_event(account, "Dentist", at(18, 9), at(18, 10), tz=TZ)
    _deliver_flight(servers)
    agent, backend = _agent(
        [call("show_calendar", when=day, event="my flight to Lisbon"), "At 07:05 on 8 June."],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    request = f"What time is my flight to Lisbon{' on ' + day if day else ''}?"
    return agent.run_turn(Conversation(), request), backend


@pytest.mark.parametrize(
    ("question", "read_as", "kept"),
    [("what time does my flight to lisbon leave?", "It leaves at 9:40.", False),
     ("what time does my flight to lisbon leave?", "It leaves at 07:05.", True),
     ("when do i land in lisbon?", "At 7:05.", False)],
)  # fmt: skip
def test_a_time_of_leaving_answered_with_the_arrivals_shows_the_text_instead(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    home: Path,
    question: str,
    read_as: str,
    kept: bool,
) -> None:
    """ "departs Berlin (BER) 07:05, arrives Lisbon 09:40" read as "It leaves at 9:40": the
    time the text gives for the other leg is no answer; the text is shown."""
    _deliver(servers[0], ALICE, "booking@airline.example", "Booking confirmed: Berlin-Lisbon",
             "Flight LH 1166, Friday 8 June, departs Berlin (BER) 07:05, arrives Lisbon "
             "09:40.")  # fmt: skip
    try:
        agent, _ = _agent([call("find_emails", about="flight Lisbon"), read_as], home, mail=mail)
        report = agent.run_turn(Conversation(), question)
    finally:
        _remove_from(servers, "booking@airline.example")
    assert (read_as in report.answer) == kept, report.answer
    assert "departs Berlin (BER) 07:05" in report.answer or kept


def test_a_calendar_question_no_event_names_is_answered_from_the_mail(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    report, backend = _flight_asked(servers, mail, account, home, "")
    names = [c.name for c in report.calls]
    assert names[0] == "list_events" and names[-1] == "read_email"
    assert "07:05" in _told(backend) and "Dentist" not in _told(backend)
    assert report.answer.startswith("At 07:05 on 8 June.\n\n(From the email of booking@")


def test_a_days_question_no_event_names_lists_the_day_and_what_the_mail_holds(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """ "What time is my flight to Lisbon on Friday?": no event is the flight; Friday's
    calendar is listed, and the email that plainly holds the question's words answers it."""
    report, _ = _flight_asked(servers, mail, account, home, "Friday")
    listed, found = report.answer.split("\n\n", 1)
    assert listed.startswith("For Friday 18 May your calendar has:") and "Dentist" in listed
    assert found.startswith("At 07:05 on 8 June.\n\n(From the email of booking@")


def test_a_calendar_question_an_event_names_stays_with_the_calendar(
    mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    create_event(account, "Jazz concert", at(24, 20), at(24, 22), tz=TZ)
    agent, _ = _agent(
        [call("show_calendar", when="", event="the jazz concert")],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "When is the jazz concert?")
    assert [c.name for c in report.calls] == ["list_events", "list_events"]
    assert report.answer.startswith("Jazz concert: ") and "20:00" in report.answer


@pytest.mark.parametrize(
    ("request_", "first", "second", "told"),
    # (told: the English words of a German question to find the file, then the answer)
    [("When is Mum's birthday, and what gift ideas do I have for her?",
      call("show_calendar", when="", event="Mum's birthday"), call("ask_files", about="gift ideas"),
      ["Gardening gloves and a rose."]),
     ("Wann hat Mama Geburtstag, und welche Ideen für Geschenke hab ich?",
      call("show_calendar", when="", event="Mama Geburtstag"),
      call("ask_files", about="Ideen für Geschenke"),
      ["gift ideas", "Gartenhandschuhe und eine Rose."]),
     # the model wrote the whole message back: the file's text is shown
     ("When is Mum's birthday, and what gift ideas do I have for her?",
      call("show_calendar", when="", event="Mum's birthday"), call("ask_files", about="gift ideas"),
      ["When is Mum's birthday, and what gift ideas do I have for her?"])],
)  # fmt: skip
def test_two_questions_asked_together_are_each_answered(
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    first: str,
    second: str,
    told: str,
) -> None:
    """The calendar answers the first (when), the files the second (the ideas): the answers
    one after the other."""
    title = "Mum's birthday" if request_.startswith("When") else "Mamas Geburtstag"
    create_event(account, title, at(20, 10), at(20, 11), tz=TZ)
    (home / "gift-ideas.md").write_text("# Gift ideas\n- Mum: gardening gloves, a rose\n")
    agent, backend = _agent([first, second, *told], home, mail=mail, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    # the file's answer is asked of the whole message: "her" is Mum
    assert _told(backend).endswith(f"Question: {request_}")
    when, ideas = report.answer.split("\n\n", 1)
    assert when.startswith(f"{title}: ") and "20" in when, report.answer
    shown = told[-1] if told[-1] != request_ else "The file gift-ideas.md:\n# Gift ideas"
    assert ideas.startswith(shown) and "gift-ideas.md" in ideas, report.answer


@pytest.mark.parametrize(
    ("request_", "translated"),
    # (translated: the model's words, then the whole request, looked for in English)
    [("when's the seed swap?", []),
     ("Wann ist der Seed Swap?", ["seed swap", "When is the seed swap?"]),
     ("Où a lieu le seed swap ?", ["seed swap", "Where is the seed swap?"]),
     ("¿Cuándo es el seed swap?", ["seed swap", "When is the seed swap?"])],
)  # fmt: skip
def test_a_question_taken_for_a_move_that_names_no_change_is_answered(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    translated: list[str],
) -> None:
    """The model took "when's the seed swap?" for moving an event and named no new time: no
    event holds its words (also in English), so none is moved or offered; the question is
    answered from the club's email."""
    _deliver(servers[0], ALICE, "info@seeds.example", "Seed swap",
             "Our seed swap is on Saturday 2 June, 10:00-13:00.")  # fmt: skip
    create_event(account, "Piano lesson", at(15, 18), at(15, 19), tz=TZ)
    agent, backend = _agent(
        [call("move_event", event="seed swap", to="next Tuesday at 3pm"), *translated,
         call("show_calendar", event="seed swap"), "On Saturday 2 June, 10:00-13:00."],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "update_event" not in [c.name for c in report.calls]
    assert report.answer.startswith("On Saturday 2 June, 10:00-13:00.")
    assert "seed swap is on Saturday 2 June" in _told(backend)


def test_the_second_of_two_questions_taken_for_a_plain_answer_is_looked_up_when_theirs(
    mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """ "When is my dentist appointment, and what's the hotel in Lisbon called?": the second
    taken for the model's own answer (it made a name up); the message speaks of the user's
    own, and their files hold the hotel: it is answered from them."""
    create_event(account, "Dentist", at(22, 9), at(22, 10), tz=TZ)
    agent, backend = _agent(
        [call("show_calendar", when="", event="dentist"), call("just_answer"),
         "Casa do Rio, Rua da Prata 12."],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(
        Conversation(), "When is my dentist appointment, and what's the hotel in Lisbon called?"
    )
    when, hotel = report.answer.split("\n\n", 1)
    assert when.startswith("Dentist: ") and "Casa do Rio" in _told(backend), report.answer
    assert hotel.startswith("Casa do Rio, Rua da Prata 12.\n\n(From "), report.answer


def test_an_event_asked_about_is_shown_with_its_notes(account: CalendarAccount, home: Path) -> None:
    create_event(account, "Hiking trip", at(19, 9), at(19, 17), tz=TZ, location="Grunewald",
                 description="Meet at the station at 8:30.\nBring water and lunch.")  # fmt: skip
    agent, _ = _agent([call("show_calendar", when="Saturday", event="the hiking trip")], home,
                      calendar=account)  # fmt: skip
    report = agent.run_turn(Conversation(), "Where do we meet for the hiking trip on Saturday?")
    assert report.answer == (
        "Hiking trip: Sat 19 May, 09:00–17:00 (Grunewald)\n"
        "Meet at the station at 8:30. Bring water and lunch."
    )


def test_a_question_about_the_users_own_things_taken_for_chat_is_answered_from_them(
    mail: MailAccount, home: Path
) -> None:
    agent, backend = _agent([call("just_answer"), "Casa do Rio, Rua da Prata 12."], home, mail=mail)
    report = agent.run_turn(Conversation(), "What's the name of my hotel in Lisbon?")
    assert "read_file" in [c.name for c in report.calls] and "Casa do Rio" in _told(backend)
    assert report.answer.startswith("Casa do Rio, Rua da Prata 12.\n\n(From ")
    # A general question is answered by the model, nothing looked up; so is one about the
    # user's own things that nothing they keep plainly holds.
    agent, _ = _agent([call("just_answer"), "Leonardo da Vinci."], home, mail=mail)
    report = agent.run_turn(Conversation(), "Who painted the hotel's Mona Lisa in Lisbon?")
    assert (report.calls, report.answer) == ([], "Leonardo da Vinci.")
    agent, _ = _agent([call("just_answer"), "Nice to meet you, Tom!"], home, mail=mail)
    report = agent.run_turn(Conversation(), "My name is Tom")
    assert report.answer == "Nice to meet you, Tom!"
    assert all(c.name.startswith("search_") for c in report.calls)


@pytest.mark.parametrize(
    "question",
    [
        "Estoy rellenando un formulario para el viaje a Lisboa y me piden los datos del "
        "alojamiento. ¿Cómo se llamaba el hotel y qué número de reserva tenía?",
        "Für die Anmeldung brauche ich die Buchungsnummer vom Hotel in Lissabon.",
        "Je dois remplir un formulaire. Comment s'appelait l'hôtel à Lisbonne déjà ?",
    ],
)
def test_a_record_or_a_name_asked_back_taken_for_chat_is_answered_from_the_users_things(
    mail: MailAccount, home: Path, question: str
) -> None:
    # No "my" in them: a booking number, or a name the user knew, is theirs all the same.
    # the words in English (a model step) find the English itinerary
    english = "hotel Lisbon booking number"
    said = "Casa do Rio, Rua da Prata 12."
    agent, backend = _agent([call("just_answer"), english, said], home, mail=mail)
    report = agent.run_turn(Conversation(), question)
    assert "read_file" in [c.name for c in report.calls] and "Casa do Rio" in _told(backend)
    answer, cited = report.answer.split("\n\n")
    assert answer == said and "travel/lisbon-itinerary.md" in cited  # in their language


def test_a_name_asked_back_of_general_knowledge_is_answered_plainly(
    mail: MailAccount, home: Path
) -> None:
    agent, backend = _agent([call("just_answer"), *through_english("Titanic.")], home, mail=mail)
    question = "¿Cómo se llamaba el barco que se hundió en 1912?"
    report = agent.run_turn(Conversation(), question)
    assert (report.calls, report.answer) == ([], "Titanic.")
    # asked in English, the answer said in Spanish
    translated, answered, said = backend.requests[-3:]
    assert translated.messages[-1]["content"] == f"Translate into English: {question}"
    assert answered.messages[-1]["content"] == "(the question in English)"
    assert said.messages[-1]["content"] == "Translate into Spanish: (the answer in English)"


def test_a_question_naming_a_document_is_about_it_whatever_intent_it_was_taken_for(
    home: Path,
) -> None:
    (home / "todo.txt").write_text("TODO\n- call the bank\n- fix the bike\n- buy stamps\n")
    agent, backend = _agent([call("list_todos"), "Four things."], home)
    report = agent.run_turn(Conversation(), "How many things are in my todo.txt?")
    assert "read_file" in [c.name for c in report.calls] and "list_tasks" not in str(report.calls)
    # Counted by code, the heading no item: the model is not asked.
    assert report.answer == (
        "Three items:\n- call the bank\n- fix the bike\n- buy stamps\n\n(From todo.txt.)"
    )
    assert not backend.requests[-1].messages[-1]["content"].startswith("The file")


def test_words_of_the_slot_the_user_did_not_write_pick_no_text(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, COURIER, "Your parcel 4711 is on its way",
             "Your parcel arrives on Thursday 17 May between 10:00 and 14:00.")  # fmt: skip
    (home / "statements-notes.txt").write_text("Bank statements, information and notes.\n")
    agent, backend = _agent(
        [call("ask_files", about="Parcel information from your bank statements, notes"),
         "Thursday 17 May."], home, mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "When is my parcel coming?")
    assert "between 10:00 and 14:00" in _told(backend)
    assert report.answer.startswith("Thursday 17 May.\n\n(From the email of ")


def test_when_the_user_must_be_home_for_a_delivery_is_when_it_comes_not_free_time(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """ "When do I need to be home for it?" taken for free time: it asks when the parcel
    comes, which its email says."""
    _deliver(servers[0], ALICE, COURIER, "Your parcel 4711 is on its way",
             "Your parcel arrives on Thursday 17 May between 10:00 and 14:00.")  # fmt: skip
    agent, _ = _agent(
        [call("find_free_time", when="this week"), "Thursday 17 May, 10:00 to 14:00."],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    try:
        report = agent.run_turn(
            Conversation(), "I've got a parcel coming this week. When do I need to be home for it?"
        )
    finally:
        _remove_from(servers, COURIER)
    assert "find_free_time" not in [c.name for c in report.calls], report.answer
    assert report.answer.startswith("Thursday 17 May, 10:00 to 14:00.")


def test_a_question_nothing_holds_says_so(mail: MailAccount, home: Path) -> None:
    agent, _ = _agent([call("ask_files", about="warranty")], home, mail=mail)
    report = agent.run_turn(Conversation(), "How long is the warranty on the dishwasher?")
    assert report.answer == "I found nothing in your files or emails about that."
    assert "read_email" not in [c.name for c in report.calls]
    assert report.answer == "I found nothing in your files or emails about that."


def test_a_narrow_mail_search_lists_and_answers_from_the_newest(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, "Lena Vogt <lena@nordwind.example>", "Warehouse move",
             "We move to the new warehouse on 13 June; deliveries pause that week.")  # fmt: skip
    agent, backend = _agent(
        [call("find_emails", about="Lena Nordwind"), "Nordwind moves on 13 June."], home,
        mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "Any news from Lena at Nordwind?")
    listed, answered = report.answer.split("\n\n", 1)
    assert listed.startswith("I found 1 email:\n- Lena Vogt <lena@nordwind.example>: “Warehouse")
    # word from her: her newest email, summed up (no file is looked at)
    assert answered == (
        "From Lena Vogt <lena@nordwind.example>, “Warehouse move”:\nNordwind moves on 13 June."
    )
    assert "deliveries pause that week" in _told(backend)
    assert "search_files" not in [c.name for c in report.calls]


@pytest.mark.parametrize(
    ("request_", "about"),
    [
        ("Any news from Lena at Nordwind?", "Lena Nordwind"),
        ("Hat sich Lena von Nordwind schon gemeldet?", "Lena Nordwind"),
        ("Des nouvelles de Lena, chez Nordwind ?", "Lena Nordwind"),
    ],
)
def test_word_from_someone_is_answered_from_their_email_not_notes_naming_them(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    home: Path,
    request_: str,
    about: str,
) -> None:
    # The notes name Lena and Nordwind; her email names Nordwind only in her address. Word
    # from her is her email.
    _empty_inbox(servers)
    (home / "nordwind-kickoff.md").write_text(
        "# Kickoff Nordwind\nPresent: Sophie, Alex, Lena (Nordwind, by phone)\n"
        "- First delivery on 4 June.\n"
    )
    _deliver(servers[0], ALICE, "Lena Vogt <lena@nordwind.example>", "Delivery plan",
             "Three deliveries in June: the 4th, 13th and 25th. Best, Lena")  # fmt: skip
    agent, backend = _agent(
        [call("find_emails", about=about), "Three deliveries: 4, 13 and 25 June."], home,
        mail=mail,
    )  # fmt: skip
    try:
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "lena@nordwind.example")
    assert "13th" in _told(backend) and "by phone" not in _told(backend)
    assert "Three deliveries: 4, 13 and 25 June." in report.answer


def test_days_asked_of_an_email_writing_them_as_ordinals_are_said_with_their_month(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    """ "did lena from nordwind ever get back to me about the june deliveries? which days
    are they" answered "the 4th, 13th and 25th": the days the email gives, with the month
    its sentence names, are said beside (her email, not the notes naming her)."""
    _empty_inbox(servers)
    (home / "nordwind-kickoff.md").write_text(
        "# Kickoff Nordwind\nPresent: Sophie, Alex, Lena (Nordwind, by phone)\n"
        "- First delivery on 4 June.\n"
    )
    _deliver(servers[0], ALICE, "Lena Vogt <lena@nordwind.example>", "Delivery plan",
             "Ahead of our call on 23 May, the plan: 3 deliveries in June, on the 4th, 13th "
             "and 25th. Best, Lena")  # fmt: skip
    agent, _ = _agent([call("find_emails", about="Lena June deliveries"),
                       "On the 4th, 13th and 25th."], home, mail=mail)  # fmt: skip
    try:
        report = agent.run_turn(
            Conversation(),
            "did lena from nordwind ever get back to me "
            "about the june deliveries? which days are they",
        )
    finally:
        _remove_from(servers, "lena@nordwind.example")
    assert "13 June" in report.answer and "25 June" in report.answer, report.answer


def test_the_users_own_thing_taken_for_a_web_search_is_found_among_their_files(
    home: Path,
) -> None:
    """ "find my lisbon itinerary" taken for a web search: the file holding its words
    answers; nothing goes to the web."""
    agent, _ = _agent(
        [call("search_web", query="lisbon itinerary"), "Hotel: Casa do Rio, Rua da Prata 12."],
        home,
    )
    report = agent.run_turn(Conversation(), "find my lisbon itinerary")
    assert "web_search" not in [c.name for c in report.calls]
    assert "Casa do Rio" in report.answer and "lisbon-itinerary.md" in report.answer


def test_a_question_taken_for_a_mail_search_is_answered_from_a_file_holding_more(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver_flight(servers)  # names Lisbon, not the hotel
    agent, backend = _agent(
        [call("find_emails", about="hotel in Lisbon"), "Casa do Rio, Rua da Prata 12."], home,
        mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "What's the name of my hotel in Lisbon?")
    assert "Casa do Rio" in _told(backend) and "LH 1166" not in _told(backend)
    assert report.answer == "Casa do Rio, Rua da Prata 12.\n\n(From travel/lisbon-itinerary.md.)"


def test_a_wide_mail_search_only_lists(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    for n in range(4):
        _deliver(servers[0], ALICE, "news@club.example", f"Club news {n}", f"Issue {n}.")
    agent, _ = _agent([call("find_emails", about="club news")], home, mail=mail)
    report = agent.run_turn(Conversation(), "Any club news?")
    assert report.answer.startswith("I found 4 emails:")
    assert "read_email" not in [c.name for c in report.calls]


def test_a_question_whose_model_words_find_many_emails_is_answered_from_the_one_it_names(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    # The model's words hold a common one ("Also"): many messages; the request's own words
    # name the airline's. What it asks is answered from it, not a list of the others.
    for n in range(4):
        _deliver(servers[0], ALICE, "news@club.example", f"Club news {n}", f"Also issue {n}.")
    _deliver_flight(servers)
    agent, backend = _agent(
        [call("find_emails", about="Also what time the plane leaves"), "At 07:05."], home,
        mail=mail,
    )  # fmt: skip
    try:
        report = agent.run_turn(
            Conversation(),
            "Doing the online check-in for my Lisbon flight - could you dig it out of my emails? "
            "Also what time does the plane actually leave Berlin, I've forgotten",
        )
    finally:
        for sender in ("news@club.example", "booking@airline.example"):
            _remove_from(servers, sender)  # the module's other searches
    assert "07:05" in _told(backend) and "Club news" not in report.answer
    assert report.answer.startswith("At 07:05.\n\n(From the email of booking@airline")


def test_of_many_emails_holding_a_word_those_whose_subject_holds_more_are_read_first(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    # The airline's email is older than four newsletters about Lisbon; its subject holds
    # "Berlin" and "Lisbon" both: it is among those read, and answers.
    _deliver_dated(servers, "booking@airline.example", "Booking confirmed: Berlin-Lisbon",
                   "Flight LH 1166 to Lisbon leaves Berlin on Friday 8 June at 07:05.",
                   "Fri, 11 May 2029 21:10:00 +0200")  # fmt: skip
    for n in range(4):
        _deliver_dated(servers, "news@travel.example", f"Travel news {n}",
                       f"Lisbon and Berlin flight deals, issue {n}.",
                       f"Mon, 14 May 2029 1{n}:00:00 +0200")  # fmt: skip
    agent, backend = _agent([call("just_answer"), "At 07:05."], home, mail=mail)
    try:
        report = agent.run_turn(
            Conversation(), "my Lisbon flight from Berlin, what time does it leave? check my emails"
        )
    finally:
        for sender in ("news@travel.example", "booking@airline.example"):
            _remove_from(servers, sender)  # the module's other searches
    read = [c.arguments["email_id"] for c in report.calls if c.name == "read_email"]
    assert len(read) <= 3 and "07:05" in _told(backend)
    assert report.answer.startswith("At 07:05.\n\n(From the email of booking@airline")


# -- an event from the message it is in ---------------------------------------------------------


def test_an_invitation_in_an_email_becomes_the_event_after_the_dialog(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    invitation = "We're doing a barbecue at my place on Saturday 26 May from 16:00. Come along!"
    _deliver_dated(servers, "Tom Becker <tom@example.test>", "Barbecue?", invitation,
                   "Thu, 10 May 2029 19:02:00 +0200")  # fmt: skip
    # A newer "PS" about the same barbecue names no day: the invitation is the one read.
    _deliver_dated(servers, "Tom Becker <tom@example.test>", "Re: Barbecue?",
                   "PS: Sam is welcome too.", "Sat, 12 May 2029 10:30:00 +0200")  # fmt: skip
    answers = Answers()
    agent, backend = _agent(
        [call("add_event", title="barbecue at Tom's", when=""), "Saturday 26 May from 16:00"],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    agent.confirmer = answers
    report = agent.run_turn(Conversation(), "Tom invited me to a barbecue, add it to my calendar")
    assert "Come along!" in _told(backend)  # the model copied the day from the email itself
    [shown] = answers.seen
    assert shown.tool == "create_event" and shown.arguments["start"] == "2029-05-26T16:00"
    added = [e.start for e in _all(account) if e.title == "Barbecue at Tom's"]
    assert added == [at(26, 16)]
    assert report.answer.startswith("Added “Barbecue at Tom's”")


def _event_from_mail(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    turns: list[str],
    request: str,
    sender: str,
) -> tuple[TurnReport, Answers]:
    """`request` run on the scripted `turns` with `sender`'s email delivered (and taken out
    after, for the module's other searches); the answer and the dialogs shown."""
    answers = Answers()
    agent, _ = _agent(turns, home, mail=mail, calendar=account)
    agent.confirmer = answers
    try:
        return agent.run_turn(Conversation(), request), answers
    finally:
        _remove_from(servers, sender)


def test_an_events_end_is_the_one_its_sentence_says_where_the_copy_left_it_out(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """ "Saturday 2 June, 10:00" copied of "… on Saturday 2 June at the community garden,
    10:00-13:00": the event ends at 13:00, as the email says, not an hour after it starts."""
    _deliver_dated(servers, "Garden Club <info@gardenclub.example>",
                   "Garden Club news: seed swap on 2 June",
                   "Dear members, our seed swap is on Saturday 2 June at the community garden, "
                   "10:00-13:00. Bring seeds.", "Wed, 2 May 2029 18:10:00 +0200")  # fmt: skip
    turns = [call("add_event", title="Intercambio de semillas", when=""),
             "seed swap garden club", "Saturday 2 June, 10:00", "seed swap"]  # fmt: skip
    request = ("Me llegó un correo del club de jardinería sobre un intercambio de semillas. "
               "¿Me lo apuntas en el calendario con su horario?")  # fmt: skip
    report, answers = _event_from_mail(servers, mail, account, home, turns, request,
                                       "info@gardenclub.example")  # fmt: skip
    assert answers.seen, report.answer
    [shown] = answers.seen
    assert (shown.arguments["start"], shown.arguments["end"]) == (
        "2029-06-02T10:00",
        "2029-06-02T13:00",
    ), report.answer


@pytest.mark.parametrize(
    ("said", "copied", "end"),
    [("on Tuesday 22 May 2029 at 13:00 (about 30 minutes) at Praxis Dr. Lee.",
      "Tuesday 22 May 2029 at 13:00", "2029-05-22T13:30"),
     # the model copied nothing the text holds: the sentence is read whole
     ("on Tuesday 22 May 2029 at 13:00 (about 30 minutes) at Praxis Dr. Lee.", "",
      "2029-05-22T13:30"),
     ("am Dienstag, 22. Mai 2029 um 13:00 Uhr. Die Untersuchung dauert etwa 45 Minuten.",
      "Dienstag, 22. Mai 2029 um 13:00 Uhr", "2029-05-22T14:00"),
     # a time before it is no length
     ("on Tuesday 22 May 2029 at 13:00; please arrive 15 minutes early.",
      "Tuesday 22 May 2029 at 13:00", "2029-05-22T14:00")],
)  # fmt: skip
def test_an_events_length_is_the_one_its_sentence_says(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    said: str,
    copied: str,
    end: str,
) -> None:
    """ "… at 13:00 (about 30 minutes)": the event from the practice's email ends half an
    hour after it starts, as the email's sentence says (a length in another sentence, or
    a time to arrive before it, is not the event's)."""
    body = f"This confirms your check-up {said}"
    _deliver_dated(servers, "Praxis Dr. Lee <practice@drlee.example>", "Your appointment", body,
                   "Mon, 14 May 2029 08:00:00 +0200")  # fmt: skip
    turns = [call("add_event", title="Check-up Dr. Lee", when=""), copied]
    request = "Dr Lee's practice emailed me about my check-up, put it in my calendar please"
    report, answers = _event_from_mail(servers, mail, account, home, turns, request,
                                       "practice@drlee.example")  # fmt: skip
    assert [shown.tool for shown in answers.seen] == ["create_event"], report.answer
    assert (answers.seen[0].arguments["start"], answers.seen[0].arguments["end"]) == (
        "2029-05-22T13:00",
        end,
    )


_SCREENING = "Put the Perfect Days screening from the Paradiso newsletter in my calendar, 2 hours."


@pytest.mark.parametrize(
    ("copied", "request_", "when"),
    [("Wed 20:00, Paris, Texas", _SCREENING, ""),  # more than the day, and short names
     ("Wed 20:00", _SCREENING, ""),
     # the request says only the week: the text says the day
     ("Wed 20:00", "Sam a très envie d'aller voir Perfect Days au Paradiso, d'après leur "
      "newsletter ça passe la semaine prochaine. Tu peux me le mettre dans l'agenda ? Compte "
      "deux heures.", "la semaine prochaine")],
)  # fmt: skip
def test_a_day_of_the_week_a_newsletter_names_is_of_the_week_its_sentence_names(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    copied: str,
    request_: str,
    when: str,
) -> None:
    """ "Next week: Perfect Days (Wed 20:00), Paris, Texas (Fri 21:00).": the model copies
    "Wed 20:00" (and more); the screening is on Wednesday of next week, two hours long as
    asked, also where the request says only the week."""
    _deliver_dated(servers, "Cinema Paradiso <program@paradiso.example>",
                   "Next week at Cinema Paradiso",
                   "Next week: Perfect Days (Wed 20:00), Paris, Texas (Fri 21:00).",
                   "Sun, 13 May 2029 09:00:00 +0200")  # fmt: skip
    turns = [call("add_event", title="Perfect Days", when=when, duration="2 hours"), copied]
    report, answers = _event_from_mail(servers, mail, account, home, turns, request_,
                                       "program@paradiso.example")  # fmt: skip
    [shown] = answers.seen
    assert shown.tool == "create_event", report.answer
    assert (shown.arguments["start"], shown.arguments["end"]) == (
        "2029-05-23T20:00",
        "2029-05-23T22:00",
    )


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [
        ("Le cabinet du Dr Lee m'a envoyé un mail pour confirmer mon rendez-vous. Tu peux le "
         "mettre dans mon agenda ?", call("add_todo", title="confirm my meeting", due="")),
        ("Dr Lee's practice confirmed my check-up by email, can you put it in my calendar?",
         call("find_emails", about="check-up")),
        ("Die Praxis von Dr. Lee hat den Termin bestätigt, trag ihn bitte in meinen Kalender "
         "ein", call("remember_fact", fact="Termin bestätigt")),
        ("La consulta del Dr. Lee me confirmó la cita por correo, ¿la pones en mi calendario?",
         call("reply_to_email", which="Dr. Lee", message="")),
        ("Die Praxis Dr. Lee hat mir doch wegen nem Termin geschrieben – trag den bitte in "
         "meinen Kalender ein", call("add_event", title="Termin Praxis Dr. Lee", when="")),
        ("Die Praxis Dr. Lee hat mir doch wegen nem Termin geschrieben – trag den bitte in "
         "meinen Kalender ein", call("ask_files", question="Termin Praxis Dr. Lee")),
        # typed in lower case, in shorthand
        ("j'ai reçu un mail du cabinet du dr lee pour un rdv, tu peux me le mettre dans "
         "l'agenda stp ?", call("add_event", title="rdv", when="")),
        ("j'ai reçu un mail du cabinet du dr lee pour un rdv, tu peux me le mettre dans "
         "l'agenda stp ?", call("add_event", title="mettre dans l'agenda", when="")),
    ],
)  # fmt: skip
@pytest.mark.parametrize("title", ["Dr Lee", "Trag den bitte in meinen Kalender ein"])
def test_a_request_to_put_something_in_the_calendar_is_a_new_event_whatever_it_was_taken_for(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    taken_for: str,
    title: str,
) -> None:
    """Taken for a to-do, a mail search, a memory or a reply: what is asked for is an event,
    its day copied from the practice's email (found by the doctor's name in any language);
    the dialog shows it. A title that is only the asking ("trag den bitte in meinen Kalender
    ein") names nothing: the request's other words find the email."""
    _deliver_dated(servers, "Praxis Dr. Lee <practice@drlee.example>", "Your appointment",
                   "We confirm your check-up on Tuesday 22 May 2029 at 13:00.",
                   "Mon, 14 May 2029 08:00:00 +0200")  # fmt: skip
    turns = [taken_for, call("add_event", title=title, when=""),
             "Tuesday 22 May 2029 at 13:00"]  # fmt: skip
    report, answers = _event_from_mail(servers, mail, account, home, turns, request_,
                                       "practice@drlee.example")  # fmt: skip
    assert [r.tool for r in answers.seen] == ["create_event"], report.answer
    assert answers.seen[0].arguments["start"] == "2029-05-22T13:00"
    assert "Lee" in answers.seen[0].arguments["title"]
    assert "Kalender" not in answers.seen[0].arguments["title"]
    assert [e.start for e in _all(account)] == [at(22, 13)]


@pytest.mark.parametrize(
    ("request_", "title", "english"),
    [
        ("Me llegó un correo del club de jardinería sobre un intercambio de semillas el mes que "
         "viene. Me apetece ir, ¿me lo apuntas en el calendario con su horario?",
         "Intercambio de semillas", "seed swap of the gardening club"),
        ("The garden club is doing a seed swap next month, I'd like to go - can you put it in "
         "my calendar?", "seed swap", None),
        # the model's translation buries the word the glossary knows ("Gartenverein":
        # "garden"), which is searched first
        ("Der Gartenverein hat wegen einer Saatgut-Tauschbörse geschrieben. Trag mir das "
         "bitte mit Uhrzeit in den Kalender ein.", "Saatgut-Tauschbörse",
         "The association wrote because of an exchange meeting. Please enter it with the time "
         "in the calendar."),
    ],
)  # fmt: skip
def test_putting_in_the_calendar_what_shares_a_word_with_an_event_there_adds_a_new_one(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    title: str,
    english: str | None,
) -> None:
    """Taken for a new event in a close call with a move, and "club" is in "Book club": a
    request to put something in the calendar is still a new event, its day and time copied
    from the club's email; the book club stays where it is."""
    create_event(account, "Book club", at(23, 19), at(23, 21), tz=TZ)
    _deliver_dated(servers, "Garden Club <info@gardenclub.example>",
                   "Garden Club news: seed swap on 2 June",
                   "Dear members, our seed swap is on Saturday 2 June at the community garden, "
                   "10:00-13:00.", "Mon, 14 May 2029 08:00:00 +0200")  # fmt: skip
    answers = Answers()
    turns = [call("add_event", title=title, when="", location="Club"),
             *([english] if english else []), "Saturday 2 June 10:00-13:00",
             *(["Seed swap"] if english else [])]  # fmt: skip
    agent, _ = _close_agent(turns, "add_event", "move_event", home, mail=mail, calendar=account)
    agent.confirmer = answers
    try:
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "info@gardenclub.example")
    assert [r.tool for r in answers.seen] == ["create_event"], report.answer
    assert answers.seen[0].arguments["start"] == "2029-06-02T10:00"
    assert [e.start for e in _all(account) if e.title == "Book club"] == [at(23, 19)]


@pytest.mark.parametrize(
    "request_",
    ["What's in my calendar on Friday?", "Take the dentist off my calendar",
     "Was steht im Kalender?", "¿Qué tengo en mi agenda mañana?"],
)  # fmt: skip
def test_asking_about_the_calendar_or_taking_off_it_is_no_new_event(request_: str) -> None:
    assert not asks_to_put_in_the_calendar(request_)
    assert not asks_to_put_in_the_calendar("where is my pencil in the drawer?")


@pytest.mark.parametrize(
    "request_",
    ["Jamie's over in Berlin next week - can you pencil in a coffee with him on the wednesday?",
     "pencil me in for the book club on friday"],
)  # fmt: skip
def test_pencilling_in_says_the_calendar_by_itself(request_: str) -> None:
    assert asks_to_put_in_the_calendar(request_)


def test_a_day_the_email_does_not_hold_is_asked_for(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, "Rita <rita@example.test>", "Picnic soon",
             "Let's have a picnic in the park soon, I'll let you know when.")  # fmt: skip
    agent, _ = _agent(
        [call("add_event", title="picnic", when=""), "Sunday 27 May at 12:00"],  # not in the email
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "Add Rita's picnic to my calendar")
    assert (report.stop_reason, report.answer) == ("asked", "When should it be? (a day and a time)")
    assert "create_event" not in [c.name for c in report.calls]


def test_a_day_without_a_time_in_the_email_asks_the_time_then_adds_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, "Maria Klein <maria@work.example>", "Offsite planning",
             "Hi all, the offsite will be on 12 June in Potsdam.")  # fmt: skip
    agent, _ = _agent([call("add_event", title="offsite", when=""), "12 June"], home, mail=mail,
                      calendar=account)  # fmt: skip
    conversation = Conversation()
    first = agent.run_turn(conversation, "Maria wrote about the offsite. Put it in my calendar.")
    assert first.stop_reason == "asked" and first.answer.startswith("At what time on")
    agent.run_turn(conversation, "at 9")
    june = datetime(2029, 6, 12).astimezone()
    added = [e.start for e in list_events(account, june, june + timedelta(days=1), tz=TZ)]
    assert added == [datetime(2029, 6, 12, 9).astimezone()]


@pytest.mark.parametrize(
    ("request_", "when", "said"),
    [("Maria wrote about the offsite. Put it in my calendar.", "offsite", "Added “Offsite”"),
     ("Maria hat wegen dem Offsite geschrieben, trag das bitte in meinen Kalender ein",
      "", "„Offsite“ eingetragen")],
)  # fmt: skip
def test_days_the_email_spans_without_a_time_are_an_all_day_event(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    when: str,
    said: str,
) -> None:
    # The model wrote the title as the time ("offsite"), or none: the email's days, all day.
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Maria Klein <maria@work.example>", "Offsite planning",
             "Hi all, the offsite will be on 12-13 June in Potsdam.")  # fmt: skip
    agent, _ = _agent([call("add_event", title="Offsite", when=when), "12-13 June"], home,
                      mail=mail, calendar=account)  # fmt: skip
    try:
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "maria@work.example")
    june = datetime(2029, 6, 11).astimezone()
    added = [e for e in list_events(account, june, june + timedelta(days=4), tz=TZ)
             if "offsite" in e.title.lower()]  # fmt: skip
    assert [(e.all_day, str(e.start)[:10], str(e.end)[:10]) for e in added] == [
        (True, "2029-06-12", "2029-06-14")  # the day after the last, as iCalendar keeps it
    ], report.answer
    assert report.answer.startswith(said), report.answer


def test_a_day_the_model_wrote_in_the_requests_language_is_read_from_the_emails_sentence(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """Asked in German about an English email, the model wrote the day in German ("Dienstag,
    22. Mai …"), which the email does not hold: the one sentence naming the appointment and
    a day says it, as code reads it."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Praxis Dr. Lee <praxis@drlee.example>", "Your appointment",
             "Dear Alex, this confirms your check-up appointment on Tuesday 22 May 2029 at "
             "13:00 at Praxis Dr. Lee. Please bring your insurance card.")  # fmt: skip
    german = "Dienstag, 22. Mai 2029 um 13 Uhr"
    agent, _ = _agent([call("add_event", title="Arztpraxis Termin", when=""), *[german] * 3],
                      home, mail=mail, calendar=account)  # fmt: skip
    try:
        report = agent.run_turn(
            Conversation(),
            "Die Arztpraxis hat mir doch per Mail einen Termin bestätigt, kannst du mir den "
            "bitte in den Kalender eintragen?",
        )
    finally:
        _remove_from(servers, "praxis@drlee.example")
    day = datetime(2029, 5, 22).astimezone()
    added = [e.start for e in list_events(account, day, day + timedelta(days=1), tz=TZ)]
    assert added == [datetime(2029, 5, 22, 13).astimezone()], report.answer


def test_a_new_event_named_only_as_an_appointment_in_an_email_is_not_the_one_asked_for(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """ "add a dentist appointment": the practice's email confirms a "check-up appointment",
    which shares only the word for any event: not the dentist's; the day is asked."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Praxis Dr. Lee <praxis@drlee.example>", "Your appointment",
             "Dear Alex, this confirms your check-up appointment on Tuesday 22 May 2029 at "
             "13:00 at Praxis Dr. Lee.")  # fmt: skip
    agent, _ = _agent([call("add_event", title="Dentist appointment", when=""),
                       *["Tuesday 22 May 2029 at 13:00"] * 2], home, mail=mail,
                      calendar=account)  # fmt: skip
    try:
        report = agent.run_turn(Conversation(), "add a dentist appointment")
    finally:
        _remove_from(servers, "praxis@drlee.example")
    assert "create_event" not in [c.name for c in report.calls], report.answer
    assert report.stop_reason == "asked", report.answer


def test_a_day_beside_something_else_in_the_email_is_not_the_events(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    decisions = "Thanks everyone. Decisions: first delivery on 4 June, weekly call on Wednesdays."
    _deliver(servers[0], ALICE, "Sophie Martin <sophie@example.test>", "Kickoff", decisions)
    agent, _ = _agent(
        [call("add_event", title="meeting with Sophie", when=""), "4 June"],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "Schedule a meeting with Sophie")
    assert (report.stop_reason, report.answer) == ("asked", "When should it be? (a day and a time)")
    assert "create_event" not in [c.name for c in report.calls]


def test_a_german_question_about_an_english_email_is_looked_up_in_english(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, "manager@building.example", "Water shut-off on Tuesday",
             "The water will be turned off on Tuesday 22 May from 9:00 to 12:00.")  # fmt: skip
    agent, backend = _agent(
        [call("ask_files", about="Wasser abgestellt"), "When will the water be turned off for us?",
         "Am Dienstag, 22. Mai, von 9:00 bis 12:00."],
        home, mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "Wann wird bei uns das Wasser abgestellt?")
    searched = [c.arguments["query"] for c in report.calls if c.name == "search_emails"]
    assert {"abgestellt", "wasser"} <= set(searched[0].lower().split())  # the user's words first
    assert any("water" in q for q in searched)  # then the model's English key words
    asked = [str(r.messages[0]["content"]) for r in backend.requests]
    assert any("translate messages into English" in a for a in asked)
    assert "turned off on Tuesday 22 May" in _told(backend)
    assert report.answer.startswith("Am Dienstag, 22. Mai, von 9:00 bis 12:00.\n\n(")
    assert "manager@building.example" in report.answer


def test_an_english_question_nothing_holds_is_not_translated(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    agent, backend = _agent([call("ask_files", about="passport renewal")], home, mail=mail)
    report = agent.run_turn(Conversation(), "When does my passport need renewing?")
    assert report.calls and all(c.status == "ok" for c in report.calls)
    assert not any("in English" in str(r.messages[0]["content"]) for r in backend.requests)
    assert "read_email" not in [c.name for c in report.calls]
    assert report.answer == "I found nothing in your files or emails about that."
    assert report.answer == "I found nothing in your files or emails about that."


def test_a_word_inside_another_word_does_not_pick_the_source(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    (home / "piano-recital.txt").write_text("The piano recital is on Sunday at 16:00.\n")
    agent, backend = _agent(
        [call("ask_files", about="cita médico"), "doctor appointment"], home, mail=mail
    )
    report = agent.run_turn(Conversation(), "¿Qué llevo a la cita con el médico?")
    assert all("recital" not in str(r.messages) for r in backend.requests[1:])
    assert report.answer == "No he encontrado nada sobre eso en tus archivos ni en tus correos."


def test_a_mail_search_in_french_finds_the_english_email(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, COURIER, "Your parcel 4711 is on its way",
             "Your parcel arrives on Thursday 17 May between 10:00 and 14:00.")  # fmt: skip
    agent, _ = _agent(
        [call("find_emails", about="colis"), "Jeudi 17 mai, entre 10h et 14h."],
        home, mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "Des nouvelles de mon colis ?")
    searched = [c.arguments["query"] for c in report.calls if c.name == "search_emails"]
    assert searched[0] == "colis" and "parcel" in searched
    assert "Your parcel 4711 is on its way" in report.answer
    assert "Jeudi 17 mai, entre 10h et 14h." in report.answer


# -- a note taken from what the user keeps ------------------------------------------------------


def test_a_note_named_after_an_email_is_written_from_that_email(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, "priya@example.test", "Soup recipe",
             "Here it is: tomato soup. 1 kg tomatoes, 2 onions, simmer 30 minutes.")  # fmt: skip
    request = "Save the soup recipe Priya sent me as soup.txt"
    agent, backend = _agent(
        [call("write_note", name="soup.txt", content=request),
         "```text\nTomato soup: 1 kg tomatoes, 2 onions, simmer 30 minutes.\n```"],
        home, mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request)
    # The email's text comes last and alone (a small model copies what it read last).
    assert _told(backend).endswith("1 kg tomatoes, 2 onions, simmer 30 minutes.")
    assert request in str(backend.requests[-1].messages[0]["content"])
    assert "Casa do Rio" not in _told(backend)
    assert (home / "soup.txt").read_text() == (
        "Tomato soup: 1 kg tomatoes, 2 onions, simmer 30 minutes.\n"
    )
    # written from the email, not dictated: what went in is shown
    assert report.answer == (
        "Saved soup.txt.\n\nTomato soup: 1 kg tomatoes, 2 onions, simmer 30 minutes."
    )


def test_a_note_naming_nothing_the_user_keeps_asks_what_it_should_say(
    mail: MailAccount, home: Path
) -> None:
    agent, _ = _agent([call("write_note", name="ideas.md", content="")], home, mail=mail)
    conversation = Conversation()
    asked = agent.run_turn(conversation, "Save this as a note called ideas.md")
    assert (asked.stop_reason, asked.answer) == ("asked", "What should the note say?")
    assert not (home / "ideas.md").exists()
    agent.run_turn(conversation, "buy a kite")
    assert (home / "ideas.md").read_text() == "buy a kite\n"


@pytest.mark.parametrize("gap", ["June delivery dates: ...", "Lieferungen im Juni …", "[dates]"])
def test_a_note_the_model_left_a_gap_in_is_written_from_the_email_the_request_names(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path, gap: str
) -> None:
    """The model gave a heading and a gap for text it did not have: the email the request
    names is read and the note written from it, not the gap."""
    _deliver(servers[0], ALICE, "lena@nordwind.example", "Deliveries in June",
             "Hi! Our deliveries in June: the 4th, the 13th and the 25th. Lena")  # fmt: skip
    agent, backend = _agent(
        [call("write_note", name="deliveries.md", content=gap),
         "June deliveries: 4 June, 13 June, 25 June"],
        home, mail=mail,
    )  # fmt: skip
    agent.run_turn(
        Conversation(),
        "Lena sent me the June delivery dates, can you put them in a note called deliveries.md",
    )
    assert "the 4th, the 13th and the 25th" in _told(backend)
    assert (home / "deliveries.md").read_text() == "June deliveries: 4 June, 13 June, 25 June\n"


@pytest.mark.parametrize("echoed", ["deliveries.md", "the June delivery dates", ""])
def test_a_note_the_model_wrote_nothing_of_the_email_for_is_the_emails_text(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path, echoed: str
) -> None:
    """Asked to copy the dates from the email, the model wrote the file's name, the
    request's words back, or nothing: the note is the email's text as it was read."""
    _deliver(servers[0], ALICE, "lena@nordwind.example", "Deliveries in June",
             "Hi! Our deliveries in June: the 4th, the 13th and the 25th. Lena")  # fmt: skip
    agent, _ = _agent(
        [call("write_note", name="deliveries.md", content=""), echoed], home, mail=mail
    )
    try:
        agent.run_turn(
            Conversation(), "Lena sent me the June delivery dates, note them in deliveries.md"
        )
    finally:
        _remove_from(servers, "lena@nordwind.example")
    assert "the 4th, the 13th and the 25th" in (home / "deliveries.md").read_text()


@pytest.mark.parametrize(
    ("request_", "taken_for", "english"),
    [
        ("Lena from Nordwind sent the June delivery dates and I keep digging the mail out. "
         "Jot them down in a little note in my notes folder? Call it deliveries.md",
         call("something_else"), ()),
        ("Lena von Nordwind hat die Liefertermine für Juni geschickt. Schreib sie mir in eine "
         "Notiz im Ordner Notizen, nenn sie lieferungen.md",
         call("just_answer"), ("notes",)),
    ],
)  # fmt: skip
def test_a_note_asked_for_by_its_file_name_is_written_in_the_folder_named_from_the_email(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    home: Path,
    database: Database,
    request_: str,
    taken_for: str,
    english: tuple[str, ...],
) -> None:
    """The model found no intent for it: a new file named and "jot down", "schreib" is a
    note; the folder the request names ("in my notes folder", by its English in German)
    is where it goes, its text the email's."""
    (home / "notes").mkdir()
    # a file holding as many of the words: the request says the dates were sent, the email
    (home / "notes" / "kickoff.md").write_text("Kickoff with Lena, Nordwind: June delivery.\n")
    _deliver(servers[0], ALICE, "lena@nordwind.example", "Deliveries in June",
             "Hi! Our deliveries in June: the 4th, the 13th and the 25th. Lena")  # fmt: skip
    written = "June deliveries: 4 June, 13 June, 25 June"
    from app.agent.documents.document_index import index_folders

    index_folders(database, [home])  # as the app's background indexer does
    # in German, the folder's name in English ("Notizen": "notes"); the email is found by
    # its sender's name and address ("Lena", "nordwind") in the request's own words
    turns = [taken_for, written, *english]
    agent, backend = _agent(turns, home, mail=mail, data=database)
    report = agent.run_turn(Conversation(), request_)
    [note] = [n for n in (home / "notes").glob("*.md") if n.name != "kickoff.md"]
    assert note.read_text() == written + "\n", report.answer
    assert any("the 4th, the 13th and the 25th" in str(r.messages) for r in backend.requests)
    assert not any("Kickoff with Lena" in str(r.messages) for r in backend.requests)


def test_a_german_note_named_after_an_english_email_is_found_by_its_english_words(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, "priya@example.test", "That soup recipe",
             "The soup recipe: 1 kg tomatoes, 2 onions, simmer 30 minutes.")  # fmt: skip
    _deliver(servers[0], ALICE, "priya@example.test", "Book club", "I'll be late on Monday.")
    request = "Speichere das Suppenrezept von Priya als suppe.txt"
    agent, backend = _agent(
        [call("write_note", name="suppe.txt", content=""), "soup recipe Priya",
         "Tomatensuppe: 1 kg Tomaten, 2 Zwiebeln, 30 Minuten köcheln."],
        home, mail=mail,
    )  # fmt: skip
    agent.run_turn(Conversation(), request)
    # Only "Priya" was found in the user's words (one word: chance); the English search found
    # the email holding "soup", "recipe" and "Priya", and the note was written from it.
    assert "1 kg tomatoes" in _told(backend)
    assert (home / "suppe.txt").read_text().startswith("Tomatensuppe: 1 kg Tomaten")


def test_a_calendar_question_with_no_day_is_answered_from_what_the_mail_plainly_holds(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    _deliver_flight(servers)
    agent, backend = _agent(
        [call("show_calendar", when="a qué hora", event=""), "flight Lisbon",
         "Sale el viernes 8 de junio a las 07:05."],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "¿A qué hora sale mi vuelo a Lisboa?")
    assert "07:05" in _told(backend)
    assert report.answer.startswith("Sale el viernes 8 de junio a las 07:05.\n\n(")
    # One word in common is no evidence: the day is asked instead.
    agent, _ = _agent(
        [call("show_calendar", when="a qué hora", event=""), "weekend"], home, mail=mail,
        calendar=account,
    )  # fmt: skip
    asked = agent.run_turn(Conversation(), "¿Qué hay a qué hora el finde?")
    assert (asked.stop_reason, asked.answer) == ("asked", "¿Qué día quieres decir?")


def test_a_calendar_question_with_nothing_copied_looks_for_what_the_request_names(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """The model filled no slot: the request's own words are looked for, in the calendar
    first, then in what the mail plainly holds; a request naming nothing shows today."""
    create_event(account, "Dentist", at(17, 9), at(17, 10), tz=TZ)
    create_event(account, "Stand-up", at(15, 9), at(15, 9, 15), tz=TZ)
    _deliver_flight(servers)
    agent, backend = _agent(
        [call("show_calendar"), "At 07:05 on Friday 8 June."], home, mail=mail, calendar=account
    )
    report = agent.run_turn(Conversation(), "What time is my flight to Lisbon?")
    assert report.calls[-1].name == "read_email" and "07:05" in _told(backend)
    assert report.answer.startswith("At 07:05 on Friday 8 June.\n\n(From the email of booking@")
    agent, _ = _agent([call("show_calendar")], home, mail=mail, calendar=account)
    report = agent.run_turn(Conversation(), "When do I see the dentist?")
    assert report.answer.startswith("Dentist: ") and "09:00" in report.answer
    agent, _ = _agent([call("show_calendar")], home, mail=mail, calendar=account)
    report = agent.run_turn(Conversation(), "What's on my calendar?")
    assert "Stand-up" in report.answer and "Dentist" not in report.answer  # today, 15 May


def test_a_question_taken_for_free_time_is_answered_from_the_mail_before_the_day_is_asked(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    _empty_inbox(servers)  # the flight's email alone: no other test's "call" in the mail
    _deliver_flight(servers)
    agent, backend = _agent(
        [call("find_free_time", when=""), "flight Lisbon", "A las 07:05 del 8 de junio."],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "¿A qué hora sale mi vuelo a Lisboa?")
    assert "07:05" in _told(backend)
    assert report.answer.startswith("A las 07:05 del 8 de junio.\n\n(")
    # A free-time question the mail does not plainly answer is asked its day.
    agent, _ = _agent([call("find_free_time", when="")], home, mail=mail, calendar=account)
    asked = agent.run_turn(Conversation(), "Find me a free hour for a call")
    assert (asked.stop_reason, asked.answer) == ("asked", "Which day?")
    assert "read_email" not in [c.name for c in asked.calls]


def test_a_question_taken_for_free_time_with_no_day_copied_is_answered_from_the_mail(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    _deliver(servers[0], ALICE, "Hausverwaltung <office@landlord.example>", "Lift works",
             "The lift in the building is out of service on 16 May, 10:00-12:00.")  # fmt: skip
    agent, backend = _agent(
        [call("find_free_time", when="When", duration="off"), "On 16 May, 10:00 to 12:00."],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "When is the lift out of service?")
    assert "10:00-12:00" in _told(backend) and report.calls[-1].name == "read_email"
    assert report.answer.startswith("On 16 May, 10:00 to 12:00.\n\n(From the email of ")
    # Nothing plainly holds it: the day is asked.
    agent, _ = _agent([call("find_free_time", when="someday", duration="an hour")], home,
                      mail=mail, calendar=account)  # fmt: skip
    asked = agent.run_turn(Conversation(), "Find me an hour someday for the piano")
    assert (asked.stop_reason, asked.answer) == ("asked", "Which day should I look at?")


def test_a_when_question_taken_for_free_time_is_answered_from_the_dated_mail(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    database: Database,
    home: Path,
) -> None:
    """ "el paquete de Kiezbuch… ¿sabes qué día me lo traen?": one word of it in two emails
    (no plain answer) and in April's bank statement, but a question of when: the one that
    names a day still to come answers."""
    from app.agent.documents.document_index import index_folders

    (home / "girokonto-2029-04.csv").write_text(  # paid Kiezbuch in April: dated, past
        "Datum;Empfänger;Betrag\n2029-04-12;Kiezbuch;-18,90\n2029-04-20;Stadtwerke;-86,40\n"
    )
    index_folders(database, [home])
    shop = "Kiezbuch <letters@kiezbuch.example>"
    _deliver(
        servers[0],
        ALICE,
        shop,
        "Your parcel is on its way",
        "Your parcel from Kiezbuch will be delivered on Thursday 17 May, 10:00-14:00.",
    )
    _deliver(servers[0], ALICE, shop, "New in May", "Our favourite new books this month.")
    try:
        agent, backend = _agent(
            [call("find_free_time", when=""),
             "Hey, the package from Kiezbuch that I ordered... do you know what day it comes?",
             "El jueves 17 de mayo."],
            home, mail=mail, calendar=account, data=database,
        )  # fmt: skip
        report = agent.run_turn(
            Conversation(), "oye, el paquete de Kiezbuch que pedí... ¿sabes qué día me lo traen?"
        )
    finally:
        _remove_from(servers, "letters@kiezbuch.example")  # the module's other searches
    assert "Thursday 17 May" in _told(backend), (report.answer, [c.name for c in report.calls])
    assert report.answer.startswith("El jueves 17 de mayo.\n\n(")


@pytest.mark.parametrize(
    ("request_", "taken_for", "told"),
    [
        ("my brother wants to visit next week and I don't want to double-book. when was the "
         "check-up at Dr Roth's again?",
         call("find_free_time", when="next week", duration="2 hours"), "Tuesday 22 May"),
        ("Nächste Woche will mich jemand treffen, ich will nichts doppelt belegen. Wann war "
         "nochmal die Kontrolle bei Dr. Roth?",
         call("find_free_time", when="nächste Woche"), "Dienstag, 22. Mai"),
    ],
)  # fmt: skip
def test_a_question_of_when_a_thing_is_taken_for_free_time_on_a_day_said_is_looked_up(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    taken_for: str,
    told: str,
) -> None:
    """A day said around the question ("next week") made the model look for free time, but
    the question asks when a thing is: the mail that dates it answers, not a week of free
    slots. (A question asking for free time keeps looking for it: the test above.)"""
    practice = "Praxis Dr. Roth <praxis@roth.example>"
    _deliver(servers[0], ALICE, practice, "Ihr Termin / your appointment",
             "Your check-up (Kontrolle) is on Tuesday 22 May at 13:00 (Dienstag, 22. Mai, "
             "13:00 Uhr), Lindenweg 3.")  # fmt: skip
    try:
        agent, backend = _agent(
            [taken_for, "the check-up", "Tuesday 22 May at 13:00."],
            home, mail=mail, calendar=account,
        )  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "praxis@roth.example")
    assert told in _told(backend), (report.answer, [c.name for c in report.calls])
    assert "find_free_time" not in [c.name for c in report.calls]


def test_a_when_question_is_answered_by_the_email_dating_it_not_the_one_holding_more_words(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """ "I ordered a lamp from Lumina last week … when is the delivery supposed to come?":
    the shop's "your order has shipped" holds more of the words, the carrier's notice names
    the day ("delivered", found by the stem of "delivery")."""
    _deliver(
        servers[0],
        ALICE,
        "Lumina <shop@lumina.example>",
        "Your Lumina order has shipped",
        "Your order 5512 (1 lamp, 89.00 EUR) from Lumina has shipped. Thanks for ordering!",
    )
    _deliver(
        servers[0],
        ALICE,
        "Parcelo <noreply@parcelo.example>",
        "Your parcel is coming",
        "Your parcel from Lumina will be delivered on Friday 18 May between 9:00 and 12:00.",
    )
    try:
        agent, backend = _agent(
            [call("find_free_time", when="last week", duration="2 hours"),
             "Friday 18 May between 9:00 and 12:00."],
            home, mail=mail, calendar=account,
        )  # fmt: skip
        report = agent.run_turn(
            Conversation(),
            "I ordered a lamp from Lumina last week. any idea when the delivery is supposed to "
            "come? I need to be home for it",
        )
    finally:
        _remove_from(servers, "shop@lumina.example")
        _remove_from(servers, "noreply@parcelo.example")
    assert "Friday 18 May" in _told(backend), (report.answer, [c.name for c in report.calls])
    assert "(From the email of Parcelo" in report.answer


@pytest.mark.parametrize(
    ("subject", "body", "when", "request_", "stand_up"),
    [("Gas works", "The gas in the building is shut off on Wednesday 16 May from 10:00.",
      "30 minutes before the gas is off",
      "Remind me 30 minutes before the gas is shut off to fill the kettle", False),
     # the day's one event is what a reminder is before only when nothing the user keeps
     # dates what the request names: the mail says when the heating goes off on Wednesday,
     # so the Wednesday stand-up is not it
     ("Heating works", "The heating in the building is off on Wednesday 16 May from 10:00.",
      "30 minutes before the heating is off",
      "On Wednesday remind me 30 minutes before the heating goes off to fill the kettle", True)],
)  # fmt: skip
def test_a_reminder_before_something_the_mail_dates_is_set_before_it(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    database: Database,
    subject: str,
    body: str,
    when: str,
    request_: str,
    stand_up: bool,
) -> None:
    if stand_up:
        create_event(account, "Stand-up", at(16, 8), at(16, 8, 30), tz=TZ)
    _deliver(servers[0], ALICE, "Hausverwaltung <office@landlord.example>", subject, body)
    agent, _ = _agent(
        [call("set_reminder", what="fill the kettle", when=when),
         "Wednesday 16 May from 10:00"],
        home, mail=mail, calendar=account, data=database,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    [reminder] = ReminderStore(database).pending()
    assert reminder.due == at(16, 9, 30)
    assert report.answer.startswith("Reminder set for ")


@pytest.mark.parametrize(
    ("request_", "slot", "due"),
    [("Remind me at 7pm the evening before the pharmacy pickup deadline that I still need my "
      "prescription", "7pm", at(18, 19)),
     ("Remind me the evening before the pharmacy pickup deadline to get my prescription",
      "the evening", at(18, 18)),
     ("Remind me the day before the pharmacy pickup deadline to get my prescription", "",
      at(18, 9))],
)  # fmt: skip
def test_a_reminder_days_before_a_day_the_mail_gives_is_set_at_the_time_said_beside(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    database: Database,
    request_: str,
    slot: str,
    due: datetime,
) -> None:
    """ "At 7pm the evening before the pickup deadline": a day before the day the email gives
    (without a time of its own), at the time said beside it, else the evening's start, else
    the morning; not today at 7pm."""
    _deliver(servers[0], ALICE, "Apotheke <info@apotheke.example>", "Your order",
             "Your order is ready for pickup until Saturday 19 May.")  # fmt: skip
    try:
        agent, _ = _agent(
            # (the model adds a time the email does not give: the words it holds are kept)
            [call("set_reminder", what="get my prescription", when=slot),
             "Saturday 19 May from 16:00"],
            home, mail=mail, calendar=account, data=database,
        )  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "info@apotheke.example")
    assert [r.due for r in ReminderStore(database).pending()] == [due], report.answer


@pytest.mark.parametrize(
    ("request_", "due"),
    [("Remind me at 6pm the day before the barbecue to buy charcoal", at(25, 18)),
     ("Rappelle-moi la veille du barbecue à 20h d'acheter du charbon", at(25, 20)),
     ("Erinner mich am Vorabend vom Barbecue um 19 Uhr, Kohle zu kaufen", at(25, 19)),
     ("Recuérdame la noche anterior a la barbacoa que compre carbón", at(25, 18)),
     ("Erinnere mich am Abend vor dem Barbecue um 19 Uhr daran, Kohle zu kaufen",
      at(25, 19))],
)  # fmt: skip
def test_a_reminder_the_day_before_an_event_is_set_on_that_day_at_the_time_said(
    account: CalendarAccount, home: Path, database: Database, request_: str, due: datetime
) -> None:
    """The day before the event, at the clock time said beside, else the part of the day's
    start ("la noche anterior": the evening); in four languages."""
    create_event(account, "Barbecue at Tom's", at(26, 16), at(26, 20), tz=TZ)
    agent, _ = _agent(
        [call("set_reminder", what="charcoal", when="the day before"), "barbecue", "barbecue"],
        home, calendar=account, data=database,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert [r.due for r in ReminderStore(database).pending()] == [due], report.answer


@pytest.mark.parametrize(
    ("request_", "slots", "start"),
    [("Add 'pack the car' to my calendar the evening before the barbecue at 7pm",
      {"title": "pack the car", "when": "the evening before the barbecue at 7pm"}, at(25, 19)),
     ("When is Tom's barbecue? Put 'buy charcoal' in my calendar that morning at 10",
      {"title": "buy charcoal", "when": "that morning at 10"}, at(26, 10)),
     ("Trag mir am Tag vor dem Barbecue um 18 Uhr Kohle kaufen ein",
      {"title": "Kohle kaufen", "when": "am Tag vor dem Barbecue um 18 Uhr"}, at(25, 18))],
)  # fmt: skip
def test_a_new_event_said_from_another_is_on_the_day_and_time_counted_from_it(
    account: CalendarAccount,
    home: Path,
    database: Database,
    request_: str,
    slots: dict[str, str],
    start: datetime,
) -> None:
    """ "the evening before the barbecue at 7pm", "When is Tom's barbecue? … that morning at
    10": a new event's day counted from the event the calendar holds, at the time said;
    not today."""
    create_event(account, "Barbecue at Tom's", at(26, 16), at(26, 20), tz=TZ)
    agent, _ = _agent([call("add_event", **slots), "barbecue", "barbecue"], home,
                      calendar=account, data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    added = list_events(account, at(15, 0), at(28, 0), tz=TZ)
    assert [(e.title.lower(), e.start) for e in added if "Barbecue" not in e.title] == [
        (slots["title"].lower(), start)
    ], report.answer


def test_a_reminder_before_something_copied_whole_is_of_what_follows_it(
    account: CalendarAccount, home: Path, database: Database
) -> None:
    """The model copied the whole request as what to remind of: the reminder says what
    follows the thing it is before ("préparer ma carte vitale"), not the request. Before
    something nothing dates, at a time said beside it, the day is asked, not today taken."""
    create_event(account, "Dentist", at(22, 10), at(22, 11), tz=TZ)
    request_ = ("Rappelle-moi la veille du rendez-vous chez le dentiste à 20h de préparer ma "
                "carte vitale.")  # fmt: skip
    agent, _ = _agent([call("set_reminder", what=request_, when="20h")], home,
                      calendar=account, data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    due = [(r.text, r.due) for r in ReminderStore(database).pending()]
    assert due == [("préparer ma carte vitale", at(21, 20))], report.answer
    agent, _ = _agent([call("set_reminder", what="pack", when="7pm"), "none", "none"], home,
                      calendar=account, data=database)  # fmt: skip
    asked = agent.run_turn(Conversation(), "Remind me at 7pm the evening before the ferry")
    assert asked.stop_reason == "asked" and len(ReminderStore(database).pending()) == 1


@pytest.mark.parametrize(
    "request_",
    ["Recuérdame dos días antes de la barbacoa para cancelar la reserva del coche",
     "Remind me two days before the barbecue to cancel the car booking",
     "Erinnere mich zwei Tage vor dem Barbecue, die Autoreservierung abzusagen"],
)  # fmt: skip
def test_a_reminder_before_an_event_taken_for_cancelling_one_is_a_new_reminder(
    account: CalendarAccount, home: Path, database: Database, request_: str
) -> None:
    """ "Recuérdame … para cancelar …" taken for cancelling a reminder, none of which holds
    its words: an amount before something is a time, and asking to be reminded, a new one is
    set by the event's start."""
    create_event(account, "Barbecue at Tom's", at(26, 16), at(26, 20), tz=TZ)
    agent, _ = _agent(
        [call("cancel_reminder", which="cancelar la reserva"),
         call("set_reminder", what="cancel the car booking", when="two days before"),
         "barbecue", "barbecue"],
        home, calendar=account, data=database,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert [r.due for r in ReminderStore(database).pending()] == [at(24, 16)], report.answer


@pytest.mark.parametrize(
    ("sender", "body", "request_", "slot", "english", "when", "due"),
    [("Hausverwaltung <verwaltung@haus.example>",
      "Das Wasser wird am Mittwoch, 16. Mai, von 10:00 bis 12:00 Uhr abgestellt.",
      "Die Hausverwaltung stellt morgen das Wasser ab. Erinnere mich 15 Minuten bevor es "
      "abgestellt wird, damit ich Flaschen fülle.", "15 Minuten bevor es abgestellt wird",
      ["property management water turned off"], "Mittwoch, 16. Mai, von 10:00",
      at(16, 9, 45)),
     ("Stadtwerke <info@power.example>",
      "The power in your street will be cut on Thursday 17 May from 14:00 for maintenance.",
      "so they're cutting the power on thursday. can you remind me half an hour before it "
      "happens? need to charge my laptop", "half an hour before it happens", [],
      "Thursday 17 May from 14:00", at(17, 13, 30)),
     # named in Spanish or French, dated in an English email: its sentence holds the thing
     # by its English ("barbacoa": "barbecue"); the "Budget meeting", which holds "meet"
     # but not "Lee", is not the appointment
     ("Tom <tom@post.example>",
      "We're doing a barbecue at my place on Saturday 26 May from 16:00. Tom",
      "Recuérdame dos días antes de la barbacoa de Tom que tengo que comprar carbón.",
      "before", ["Remember two days before Tom's barbacoa."] * 2,
      "Saturday 26 May from 16:00", at(24, 16)),
     ("Praxis Dr. Lee <praxis@post.example>",
      "Dear patient, your appointment is on Tuesday 22 May at 10:00.",
      "Rappelle-moi la veille du rendez-vous chez le Dr Lee à 20h de préparer ma carte.",
      "before", ["Meet with Dr. Lee"] * 2, "Tuesday 22 May at 10:00", at(21, 20))],
)  # fmt: skip
def test_a_reminder_before_something_named_by_it_is_set_before_what_the_sentence_before_names(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    database: Database,
    sender: str,
    body: str,
    request_: str,
    slot: str,
    english: list[str],
    when: str,
    due: datetime,
) -> None:
    """ "… before it goes off": "it" names nothing to look for; the sentence before the one
    asking says what ("the water"), and the email dating that sets the reminder's time, and
    its words for when are shown beside the reminder. (A German request's words are looked
    for in English too: one more model turn.)"""
    create_event(account, "Budget meeting", at(21, 9, 30), at(21, 10, 30), tz=TZ)
    address = sender.split("<")[1].rstrip(">")
    _deliver(servers[0], ALICE, sender, "Notice", body)
    try:
        agent, _ = _agent(
            [call("set_reminder", what="fill", when=slot), *english, when],
            home, mail=mail, calendar=account, data=database,
        )  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, address)
    assert [r.due for r in ReminderStore(database).pending()] == [due], report.answer
    assert when in report.answer  # when the thing is, as the text says it


def test_a_word_of_time_names_no_event_a_reminder_is_set_before(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    database: Database,
) -> None:
    """ "… turning the water off this week. remind me half an hour before": "week" is no word
    of the "Weekend at the lake"; the email dating the water's shut-off sets the time, found
    by "water" where the longer words ("management", "building", "turning") found none; no
    "half" is left of "half an hour" in what to remind of."""
    create_event(account, "Weekend at the lake", at(26, 0), at(28, 0), tz=TZ)
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Hausverwaltung <verwaltung@haus.example>", "Water shut-off",
             "The water will be turned off on Wednesday 16 May from 10:00 to 12:00.")  # fmt: skip
    try:
        agent, _ = _agent(
            [call("set_reminder", what="fill some bottles", when="half an hour before"),
             "Wednesday 16 May from 10:00"],
            home, mail=mail, calendar=account, data=database,
        )  # fmt: skip
        report = agent.run_turn(
            Conversation(),
            "the building management is turning the water off this week. remind me half an "
            "hour before to fill some bottles",
        )
    finally:
        _remove_from(servers, "verwaltung@haus.example")
    [reminder] = ReminderStore(database).pending()
    assert (reminder.due, reminder.text) == (at(16, 9, 30), "fill some bottles"), report.answer


@pytest.mark.parametrize(
    ("request_", "slots", "read", "said"),
    [("¿qué día me llega el paquete de DHL? ponme un recordatorio esa mañana a las 9 para no "
      "salir de casa", {"what": "no salir de casa", "when": "esa mañana a las 9"},
      ["parcel DHL arrives", "Thursday 17 May between 10:00"], "jueves 17 de mayo"),
     ("When is my parcel coming? Remind me that morning at 9 to stay in.",
      {"what": "stay in", "when": "that morning at 9"}, ["Thursday 17 May between 10:00"],
      "Thursday 17 May"),
     ("Mon colis arrive quel jour ? Rappelle-moi ce matin-là à 9h de rester à la maison.",
      {"what": "rester à la maison", "when": "ce matin-là à 9h"},
      ["parcel arrives", "Thursday 17 May between 10:00"], "jeudi 17 mai"),
     ("Wann kommt mein Paket? Erinnere mich an dem Tag um 9, dass ich zu Hause bleibe.",
      {"what": "zu Hause bleiben", "when": "an dem Tag um 9"},
      ["parcel", "Thursday 17 May between 10:00"], "Donnerstag, 17. Mai")],
)  # fmt: skip
def test_a_reminder_on_the_day_pointed_back_at_is_set_on_the_day_the_question_before_finds(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    database: Database,
    request_: str,
    slots: dict[str, str],
    read: list[str],
    said: str,
) -> None:
    """ "¿qué día me llega el paquete? ponme un recordatorio esa mañana a las 9": "esa
    mañana" is not tomorrow ("mañana") but the morning of the day the question asks, which
    the email holding its words gives; the answer says that day."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "DHL <noreply@dhl.example>", "Your parcel arrives on Thursday",
             "Your parcel 00340434161094 will be delivered on Thursday 17 May between 10:00 "
             "and 14:00.")  # fmt: skip
    try:
        agent, _ = _agent([call("set_reminder", **slots), *read], home, mail=mail,
                          calendar=account, data=database)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "noreply@dhl.example")
    [reminder] = ReminderStore(database).pending()
    assert reminder.due == at(17, 9), report.answer
    assert said in report.answer
    # (no word of the day pointed back at is left in what to remind of)
    assert fold(reminder.text).split()[0] not in {"esa", "that", "ce", "an", "a"}, reminder.text


@pytest.mark.parametrize(
    ("request_", "body", "slots", "read", "text"),
    [("die hausverwaltung hat doch geschrieben, dass das wasser abgestellt wird. erinner mich "
      "bitte ne stunde vorher, dass ich noch wasser abfülle",
      "Das Wasser wird am Mittwoch, 16. Mai, von 10:00 bis 12:00 Uhr abgestellt.",
      {"what": "wasser abgestellt wird", "when": "ne stunde vorher, dass ich noch wasser abfülle"},
      ["property management water turned off", "Mittwoch, 16. Mai, von 10:00"], "wasser abfülle"),
     ("The building management wrote that the water will be turned off. Remind me an hour "
      "before to fill some bottles.",
      "The water will be turned off on Wednesday 16 May, 10:00 to 12:00.",
      {"what": "water turned off", "when": "an hour before"}, ["Wednesday 16 May, 10:00"],
      "fill some bottles")],
)  # fmt: skip
def test_a_reminder_before_something_told_before_is_of_what_the_asking_sentence_says_to_do(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    database: Database,
    request_: str,
    body: str,
    slots: dict[str, str],
    read: list[str],
    text: str,
) -> None:
    """The model's text was what the reminder is before ("wasser abgestellt wird"); the
    sentence asking says what to do ("…, dass ich noch wasser abfülle"): that is the text,
    set an hour before the time the email gives. (`read`: the German's English words, and
    the model's reading of the email's time.)"""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Hausverwaltung <verwaltung@haus.example>", "Notice", body)
    try:
        agent, _ = _agent([call("set_reminder", **slots), *read], home, mail=mail,
                          calendar=account, data=database)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "verwaltung@haus.example")
    [reminder] = ReminderStore(database).pending()
    assert (reminder.due, reminder.text) == (at(16, 9), text), report.answer


@pytest.mark.parametrize(
    ("request_", "answer"),
    [("C'est quoi l'adresse mail de Greta déjà ?",
      "Greta Lind n'est pas dans vos contacts, mais vous écrit depuis greta@post.example."),
     ("What's Greta's email again?",
      "Greta Lind is not in your contacts, but writes to you from greta@post.example."),
     ("Wie war nochmal Gretas Mailadresse?",
      "Greta Lind ist nicht in deinen Kontakten, schreibt dir aber von greta@post.example.")],
)  # fmt: skip
def test_an_email_address_no_card_holds_is_the_one_their_emails_come_from(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    answer: str,
) -> None:
    """No card of that name, but she writes to the user: her address is the one her emails
    come from, said so, in the request's language, with no model step."""
    _deliver(servers[0], ALICE, "Greta Lind <greta@post.example>", "Plan", "See you soon!")
    try:
        agent, _ = _agent([call("find_contact", who="Greta")], home, mail=mail,
                          calendar=account)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "greta@post.example")
    assert report.answer == answer


def test_a_new_contact_the_model_named_no_one_is_the_one_name_written_the_mail_knows(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """ "Jamie isn't in my address book yet - can you add them? use the email address they
    wrote to me from", the model naming no one: the one name written that a sender has."""
    _deliver(servers[0], ALICE, "Jamie Clarke <jamie.c@post.example>", "Hi", "Hello there!")
    try:
        agent, _ = _agent([call("add_contact", name="")], home, mail=mail, calendar=account)
        report = agent.run_turn(
            Conversation(),
            "Jamie isn't in my address book yet - can you "
            "add them? use the email address they wrote to me from",
        )
    finally:
        _remove_from(servers, "jamie.c@post.example")
    [card] = find_contacts(account, "Jamie")
    assert card.emails == ("jamie.c@post.example",), report.answer


@pytest.mark.parametrize(
    ("request_", "name", "taken_for"),
    [("Leg Clara Voss bitte als Kontakt an. Ihre Mailadresse findest du in ihren Mails an "
      "mich, die Handynummer ist 0171 5550188.", "Clara Voss", None),
     ("Add Nora Lind to my contacts, her address is in her emails to me. Mobile 0171 5550188.",
      "Nora Lind", None),
     # taken for an email to her, or a look at her card: the address book is what is asked
     ("Komisch, Mara Holm ist gar nicht in meinem Adressbuch, dabei schreiben wir uns "
      "dauernd. Leg sie doch bitte an, Handy 0171 5550188 – ihre Mailadresse siehst du ja an "
      "ihren Nachrichten.", "Mara Holm", call("send_email", to="Mara Holm", message="Hallo")),
     ("Weird, Ida Berg isn't in my contacts even though we email all the time. Can you save "
      "her? Her address is in her emails to me, mobile 0171 5550188.", "Ida Berg",
      call("find_contact", who="Ida Berg"))],
)  # fmt: skip
def test_a_new_contacts_address_said_to_be_in_their_mail_is_taken_from_it(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    name: str,
    taken_for: str | None,
) -> None:
    """The card gets the address of the one sender of that name (the dialog shows it before
    the card is made), the number as typed, the name once though the model wrote it over and
    over."""
    address = name.lower().replace(" ", ".") + "@post.example"
    _deliver(servers[0], ALICE, f"{name} <{address}>", "Hello", "See you soon!")
    try:
        turns = [call("add_contact", name=f"{name} {name} {name}")]
        agent, _ = _agent([*([taken_for] if taken_for else []), *turns], home, mail=mail,
                          calendar=account)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, address)
    cards = [c for c in find_contacts(account, name) if c.name == name]
    assert [(list(c.emails), list(c.phones)) for c in cards] == [([address], ["0171 5550188"])], (
        report.answer
    )


@pytest.mark.parametrize(
    "request_",
    ["could you look up the opening hours of the Pergamon museum",
     "¿me buscas el horario de apertura del museo Pergamon?"],
)  # fmt: skip
def test_no_email_answers_a_question_naming_a_place_none_of_them_names(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path, request_: str
) -> None:
    """The pharmacy's email holds "opening hours" but not "Pergamon": it is not about the
    museum, and its hours are not the museum's."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Apotheke am Markt <info@apotheke.example>", "Your order",
             "Your order is ready. Opening hours: Mon-Sat 8:00-19:00.")  # fmt: skip
    try:
        answer = "The opening hours of the Pergamon museum are Mon-Sat 8:00-19:00."
        agent, _ = _agent([call("find_emails", about="Pergamon Museum opening hours"),
                           *[answer] * 4], home, mail=mail)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "info@apotheke.example")
    assert "8:00" not in report.answer and "Apotheke" not in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "named"),
    [("Lena Sommer fehlt noch in meinem Adressbuch. Leg sie bitte an, Mail und Handynr. stehen "
      "in der people.csv", "Sommer"),
     ("add Lena Sommer to my contacts - her details are in people.csv", "Lena Sommer Lena Sommer"),
     ("Ajoute Lena Sommer à mes contacts, tout est dans people.csv", "lena sommer")],
)  # fmt: skip
def test_a_new_contacts_details_are_read_from_the_file_the_request_names(
    account: CalendarAccount, home: Path, request_: str, named: str
) -> None:
    """The one line of the named file holding the name gives the address and the number
    (the dialog shows them before the card is made), and the name as the file writes it
    where the model copied part of it."""
    (home / "people.csv").write_text(
        "name,email,phone\nLena Sommerfeld,lena.s@post.example,+49 30 5550190\n"
        "Lena Sommer,lena@post.example,+49 171 5550199\nTom Becker,tom@post.example,0170 555\n"
    )
    agent, _ = _agent([call("add_contact", name=named)], home, calendar=account)
    report = agent.run_turn(Conversation(), request_)
    cards = [c for c in find_contacts(account, "Sommer") if c.name == "Lena Sommer"]
    assert [(list(c.emails), list(c.phones)) for c in cards] == [
        (["lena@post.example"], ["+49 171 5550199"])
    ], report.answer


@pytest.mark.parametrize(
    ("request_", "text"),
    [("remind me about mum's birthday the day before", "mum's birthday"),
     # only what it is of left: the event's title
     ("Erinner mich am Vortag an Mums Geburtstag", "Mum's birthday")],
)  # fmt: skip
def test_a_reminder_the_day_before_an_all_day_event_goes_off_in_the_morning(
    account: CalendarAccount, home: Path, database: Database, request_: str, text: str
) -> None:
    """An all-day event starts at midnight: the day before, the reminder goes off in the
    morning, not at midnight; its text is what it is of, without "the day before"."""
    create_event(account, "Mum's birthday", date(2029, 5, 20), date(2029, 5, 21), tz=TZ)
    agent, _ = _agent([call("set_reminder", what=request_, when=""), *["Mum's birthday"] * 2],
                      home, calendar=account, data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    [reminder] = ReminderStore(database).pending()
    assert (reminder.due, reminder.text) == (at(19, 9), text), report.answer


def test_a_reminder_an_hour_before_an_event_is_set_by_the_events_start(
    account: CalendarAccount, home: Path, database: Database
) -> None:
    create_event(account, "Zahnarzt Dr. Roth", at(18, 14), at(18, 15), tz=TZ)
    agent, _ = _agent(
        [call("set_reminder", what="Zahnarzt", when="")], home, calendar=account, data=database
    )
    agent.run_turn(Conversation(), "Erinnere mich eine Stunde vor dem Zahnarzt")
    [reminder] = ReminderStore(database).pending()
    assert reminder.due == at(18, 13)
    # Nothing holds what it is before: the time is asked.
    agent, _ = _agent([call("set_reminder", what="call", when="")], home, calendar=account,
                      data=database)  # fmt: skip
    asked = agent.run_turn(Conversation(), "Remind me ten minutes before the ferry")
    assert asked.stop_reason == "asked" and asked.answer.startswith("When should I remind you?")


@pytest.mark.parametrize(
    ("request_", "what", "when", "text"),
    [("can you check when my flight to lisbon leaves and put a reminder the evening before to "
      "pack", "my flight to Lisbon leaves on Friday morning", "the evening before to pack",
      "pack"),
     ("Erinner mich am Abend vorher, um zu packen - wann geht nochmal mein Flug nach Lissabon?",
      "Flug nach Lissabon am Freitagmorgen", "am Abend vorher", "packen")],
)  # fmt: skip
def test_a_reminder_before_something_is_of_what_the_request_says_after_before(
    account: CalendarAccount,
    home: Path,
    database: Database,
    request_: str,
    what: str,
    when: str,
    text: str,
) -> None:
    """The model's text was its own ("… on Friday morning"): what the request says to do
    after "before" is the reminder's text, the evening before the flight."""
    create_event(account, "Flight to Lisbon", datetime(2029, 6, 8, 7, 5, tzinfo=TZ),
                 datetime(2029, 6, 8, 9, 40, tzinfo=TZ), tz=TZ)  # fmt: skip
    agent, _ = _agent([call("set_reminder", what=what, when=when), *["flight Lisbon"] * 3],
                      home, calendar=account, data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    reminders = ReminderStore(database).pending()
    assert [(r.due.date(), r.text) for r in reminders] == [(date(2029, 6, 7), text)], report.answer


@pytest.mark.parametrize(
    ("request_", "what"),
    [("mets-moi un rappel 2h avant le dentiste", "2h before the dentist"),
     ("Erinner mich 2h vorher an den Zahnarzt", "Zahnarzt"),
     ("remind me 2h before the dentist", "dentist")],
)  # fmt: skip
def test_hours_written_2h_before_an_event_are_an_amount_not_two_oclock(
    account: CalendarAccount, home: Path, database: Database, request_: str, what: str
) -> None:
    """ "2h avant le dentiste": two hours before the dentist's start, not a reminder at
    02:00."""
    create_event(account, "Dentist", at(18, 14), at(18, 15), tz=TZ)
    agent, _ = _agent([call("set_reminder", what=what, when=""), *["dentist"] * 2], home,
                      calendar=account, data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    reminders = ReminderStore(database).pending()
    assert [r.due for r in reminders] == [at(18, 12)], report.answer


@pytest.mark.parametrize(
    ("request_", "turns"),
    [
        ("Samstag geht's ja wandern. Erinner mich doch bitte eine halbe Stunde bevor wir uns "
         "treffen.", [call("set_reminder", what="wandern",
                           when="eine halbe Stunde bevor wir uns treffen"), "meet"]),
        ("We're off hiking on Saturday. Remind me half an hour before we set off.",
         [call("set_reminder", what="hiking", when="half an hour before we set off"), "set off"]),
        # the model's time is its own: the request says no clock time, only an amount before
        ("Am Samstag gehen wir wandern 🥾 Erinnere mich bitte eine halbe Stunde vorher.",
         [call("set_reminder", what="please a halbe Stunde vorher", when="Sonntag um 9 Uhr"),
          "hike"]),
        # the model's text is the request's "remind me" sentence
        ("Samedi on part en randonnée. Rappelle-moi une demi-heure avant le départ, s'il te "
         "plaît.", [call("set_reminder", what="rappelle-moi une demi-heure avant le départ",
                         when="s'il te plaît"), "departure"]),
    ],
)  # fmt: skip
def test_a_reminder_before_what_no_event_is_called_is_set_by_the_one_event_of_the_day_said(
    account: CalendarAccount, home: Path, database: Database, request_: str, turns: list[str]
) -> None:
    """ "… bevor wir uns treffen": no event holds its words (their English "meet" holds
    Monday's "Budget meeting"); the request names Saturday, whose one event is the hike."""
    create_event(account, "Hike in Grunewald", at(19, 8, 30), at(19, 14), tz=TZ)
    create_event(account, "Budget meeting", at(21, 9, 30), at(21, 10, 30), tz=TZ)
    agent, _ = _agent(turns, home, calendar=account, data=database)
    report = agent.run_turn(Conversation(), request_)
    [reminder] = ReminderStore(database).pending()
    assert reminder.due == at(19, 8), report.answer
    # what it is for, not the request's "remind me"
    assert not re.search(r"(?i)remind|rappel|erinner", reminder.text), reminder.text
    if "départ" in request_ or "🥾" in request_:
        # only what it is before is left, or only the time: the event's title says it
        assert reminder.text == "Hike in Grunewald"


@pytest.mark.parametrize(
    ("request_", "english"),
    [
        ("When's choir rehearsal this week? Remind me an hour before to print the scores.",
         None),
        ("Wann ist diese Woche Chorprobe? Erinner mich eine Stunde vorher, dass ich die Noten "
         "drucke.", "When is choir rehearsal this week?"),
        ("C'est quand la répétition de chorale cette semaine ? Rappelle-moi une heure avant, "
         "pour imprimer les partitions.", "When is the choir rehearsal this week?"),
        ("¿Cuándo es el ensayo del coro esta semana? Recuérdame una hora antes que tengo que "
         "imprimir las partituras.", "When is the choir rehearsal this week?"),
        # asked after a dash, and taken for a lookup
        ("Wann ist diese Woche eigentlich Chorprobe? Ich soll die Noten mitbringen – erinner "
         "mich doch eine Stunde vorher, dass ich sie drucke.",
         "When is choir rehearsal this week actually?"),
    ],
)  # fmt: skip
def test_a_reminder_before_the_event_asked_about_is_set_by_its_start_and_shows_it(
    account: CalendarAccount,
    home: Path,
    database: Database,
    request_: str,
    english: str | None,
) -> None:
    """ "When is …? Remind me an hour before": before what, the sentence asking says (in
    English when it is in another language); the reminder is set by the event's start, and
    the answer shows the event, which answers "when". Taken for a lookup, "erinner mich"
    after a dash is still a reminder."""
    create_event(account, "Choir rehearsal", at(16, 19), at(16, 21), tz=TZ)
    turns = [call("set_reminder", what="print the scores", when="an hour before")]
    if "–" in request_:
        turns = [call("ask_files", about="Chorprobe"), *turns]
    agent, _ = _agent(turns + ([english] if english else []), home, calendar=account,
                      data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    [reminder] = ReminderStore(database).pending()
    assert reminder.due == at(16, 18), report.answer
    assert "Choir rehearsal" in report.answer and "19:00" in report.answer
    assert fold(reminder.text.split()[0]) not in {"vorher", "avant", "antes", "dass", "pour"}


# -- a second look: a lookup that finds nothing passes the request to a close one ------------------


class _Close(ScriptedBackend):
    """A model whose choice is close between `first` and `second` (`first` a little ahead,
    also when asked again among the few best); slots and answers as scripted."""

    def __init__(self, turns: list[str], first: str, second: str) -> None:
        base = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
        super().__init__(base.turns, base.format)
        self.intents = True
        self.scores = {first: -0.3, second: -0.9}

    def score_replies(
        self, request: StepRequest, replies: Sequence[str], cancel: threading.Event
    ) -> dict[str, float] | None:
        return {reply: self.scores.get(reply, -6.0) for reply in replies}


def _close_agent(
    turns: list[str], first: str, second: str, home: Path, **tools: object
) -> tuple[Agent, _Close]:
    backend = _Close(turns, first, second)
    registry = build_registry(folders=[home], **tools)
    agent = Agent(backend, registry, ContextState(allowed_folders=[str(home)]), confirmer=Answers())
    agent.front = IntentRouter()
    return agent, backend


def test_a_question_taken_for_a_contact_no_one_is_is_answered_from_the_close_lookup(
    account: CalendarAccount, home: Path
) -> None:
    (home / "wifi-guest.txt").write_text('Guest wifi: network "Wrangel-Guest".\n')
    agent, backend = _close_agent(
        [call("find_contact", who="guest wifi"), call("ask_files", about="guest wifi"),
         "Wrangel-Guest."],
        "find_contact", "ask_files", home, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "What's the guest wifi called?")
    assert report.calls[0].name == "find_contact"
    assert "read_file" in [c.name for c in report.calls]
    assert "Wrangel-Guest" in _told(backend)
    assert report.answer == "Wrangel-Guest.\n\n(From wifi-guest.txt.)"


def test_when_the_close_lookup_finds_nothing_either_the_first_answer_is_said(
    account: CalendarAccount, home: Path
) -> None:
    agent, _ = _close_agent(
        [call("find_contact", who="guest wifi"), call("ask_files", about="guest wifi")],
        "find_contact", "ask_files", home, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "What's the guest wifi called?")
    assert report.answer == "I found no contact called “guest wifi”."
    # A close intent that is no lookup (a new email) is never run in its place.
    agent, _ = _close_agent(
        [call("find_contact", who="guest wifi")], "find_contact", "send_email", home,
        calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "What's the guest wifi called?")
    assert report.calls[0].name == "find_contact" and report.stop_reason == "answered"
    # Only reads follow: the card by the thing's other names ("wlan"), the plain look at the
    # files, and at the calendar for an event named
    reads = {"find_contact", "search_files", "search_documents", "list_events"}
    assert {c.name for c in report.calls[1:]} <= reads
    assert report.answer == "I found no contact called “guest wifi”."


def test_a_question_of_when_a_text_answers_also_says_when_the_event_it_names_is(
    account: CalendarAccount, home: Path
) -> None:
    """ "When is Mum's birthday, and what gift ideas do I have for her?": the gift ideas are
    in a file, the day is the calendar's; both are said (each question asked alone). Asked
    only the ideas, the file's answer alone."""
    create_event(account, "Mum's birthday", date(2029, 5, 20), date(2029, 5, 21), tz=TZ)
    (home / "gift-ideas.md").write_text("# Gift ideas\nMum: gardening gloves, a rose bush\n")
    agent, _ = _agent(
        [call("ask_files", about="Mum's birthday"), call("ask_files", about="gift ideas"),
         "Gardening gloves, a rose bush."],
        home, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(
        Conversation(), "When is Mum's birthday, and what gift ideas do I have for her?"
    )
    assert report.answer.startswith("Mum's birthday: Sun 20 May, all day\n\n")
    assert "Gardening gloves, a rose bush.\n\n(From gift-ideas.md.)" in report.answer
    agent, _ = _agent(
        [call("ask_files", about="gift ideas Mum"), "Gardening gloves, a rose bush."],
        home, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "What gift ideas do I have for Mum's birthday?")
    assert report.answer.startswith("Gardening gloves, a rose bush.")


def test_when_the_close_lookup_searched_only_the_mail_the_files_are_looked_at_too(
    mail: MailAccount, account: CalendarAccount, database: Database, home: Path
) -> None:
    """Taken for a contact ("Mein Hausarzt"), then for the mail: neither holds it, but a file
    the document index finds plainly does; its answer is said, not "no contact"."""
    from app.agent.documents.document_index import index_folders

    (home / "health").mkdir()
    (home / "health" / "vaccinations.md").write_text(
        "# Vaccinations\nTetanus: March 2021 (next due 2031)\nMeasles: childhood\n"
    )
    index_folders(database, [home])
    agent, backend = _close_agent(
        [call("find_contact", who="Mein Hausarzt"), call("find_emails", about="Tetanus"),
         "Tetanus", "My GP wants to know when I was last vaccinated against tetanus.",
         "Im März 2021."],
        "find_contact", "find_emails", home, calendar=account, mail=mail, data=database,
    )  # fmt: skip
    request = (
        "Mein Hausarzt will wissen, wann ich zuletzt gegen Tetanus geimpft wurde. "
        "Steht das irgendwo bei mir?"
    )
    report = agent.run_turn(Conversation(), request)
    assert "search_emails" in [c.name for c in report.calls]
    assert "Tetanus: March 2021" in _told(backend)
    assert report.answer.startswith("Im März 2021.\n\n(")


@pytest.mark.parametrize(
    ("request_", "translated"),
    [("¿A qué hora tengo hoy el dentista?", ["What time do I have the dentist today?"]),
     ("Um wie viel Uhr ist heute der Dentist-Termin?", ["What time is the dentist today?"]),
     ("When's the dentist today?", [])],
)  # fmt: skip
def test_a_question_no_lookup_answers_that_names_an_event_is_answered_from_the_calendar(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    translated: list[str],
) -> None:
    """Taken for a contact (the dentist's number?), then for the files and mail: none holds
    it (an email holding one of its words is no answer to a second guess), but today's
    calendar has an event the request names. Its time is the answer."""
    _deliver(servers[0], ALICE, "jamie@example.test", "Long time no see",
             "I finally found a dentist I like. Coffee one afternoon?")  # fmt: skip
    create_event(account, "Dentist", at(15, 14), at(15, 15), tz=TZ)
    create_event(account, "Piano lesson", at(15, 18), at(15, 19), tz=TZ)
    agent, _ = _close_agent(
        [call("find_contact", who="dentista"), call("ask_files", about="dentista"),
         *translated, "You found a dentist you like."],
        "find_contact", "ask_files", home, calendar=account, mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "14:00" in report.answer and "Dentist" in report.answer
    assert "Piano" not in report.answer


def test_a_question_naming_part_of_an_events_title_is_not_answered_with_that_event(
    account: CalendarAccount, home: Path
) -> None:
    """ "What's Tom's number?" finds no contact: the event "Lunch with Tom" is not what it
    asks about, so the answer stays that no contact was found."""
    create_event(account, "Lunch with Tom", at(15, 12), at(15, 13), tz=TZ)
    agent, _ = _close_agent(
        [call("find_contact", who="Tom"), call("ask_files", about="Tom")],
        "find_contact", "ask_files", home, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "What's Tom's number?")
    assert report.answer == "I found no contact called “Tom”."


def test_memories_holding_none_of_the_words_give_way_to_the_mail_that_names_them(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path, database: Database
) -> None:
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=datetime(2029, 5, 1, tzinfo=TZ), text="Alex cycles."))
    _deliver(servers[0], ALICE, "Jonas Weber <jonas@work.example>", "Slides for the kickoff",
             "Hi Alex, attached is the agenda for Monday's kickoff. Jonas")  # fmt: skip
    agent, _ = _close_agent(
        [call("recall_fact", about="Jonas wrote"), call("find_emails", about="Jonas"),
         "The agenda for Monday's kickoff."],
        "recall_fact", "find_emails", home, mail=mail, data=database,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), "¿Qué me escribió Jonas?")
    # (what someone wrote is looked for in the mail straight away: no memory is read)
    assert "search_emails" in [c.name for c in report.calls]
    assert "Slides for the kickoff" in report.answer and "Alex cycles" not in report.answer


def test_a_question_no_contact_answers_is_answered_from_the_note_that_plainly_holds_it(
    account: CalendarAccount, home: Path
) -> None:
    """No close lookup to try: the file holding the question's words answers it."""
    (home / "plumber.txt").write_text("Plumber: Installateur Krause, phone 030 7654321.\n")
    agent, backend = _agent(
        [call("find_contact", who="plumber"), "030 7654321."], home, calendar=account
    )
    report = agent.run_turn(Conversation(), "What's the plumber's phone number?")
    assert report.calls[0].name == "find_contact" and "030 7654321" in _told(backend)
    assert report.answer == "030 7654321.\n\n(From plumber.txt.)"


@pytest.mark.parametrize(
    ("question", "chosen", "english", "general"),
    [
        ("random one - my flatmate and I are arguing about this. what temperature does water "
         "boil at in fahrenheit?", call("ask_files", about="water boiling temperature"), None,
         True),
        ("Petite question de culture générale, ma fille me demande : c'est qui qui a peint la "
         "Joconde déjà ?", call("recall_fact", about="Joconde painter"), "who painted Mona Lisa",
         True),
        ("My son asked at dinner and I had no idea. How many legs does a spider have?",
         call("find_emails", about="spider legs"), None, True),
        # Taken for a plain answer, but "my flatmate" is of the user's: still not looked up.
        ("random one - my flatmate and I are arguing about this. what temperature does water "
         "boil at in fahrenheit?", call("just_answer"), None, True),
        # What is asked is named before the question: "gros blanc" ("my mind is blank") in
        # the question; the crossword's clue in the sentence before it.
        ("Ma nièce fait ses devoirs et me demande la formule chimique de l'eau… j'ai un gros "
         "blanc, c'est quoi déjà ?", call("ask_files", about="formule chimique"), "white, right",
         True),
        ("Estoy con el crucigrama del domingo y me falta una: capital de Australia, 8 letras. "
         "¿Cuál es?", call("recall_fact", about="capital"), "crossword Sunday capital Australia",
         True),
        # A question only asking to be told: what the sentence before asks inside it.
        ("pregunta tonta jaja, mi sobrina está haciendo un trabajo del cole y quiere saber "
         "cuántas patas tiene una araña. ¿me lo dices?", call("recall_fact", about="araña"),
         "how many legs a spider has", True),
        # Reported without a question mark, the asking verb followed by a word of when or a
        # preposition, and the user's own words about it after ("… and I have no clue").
        ("Meine Tochter fragt mich gerade, wie viele Beine eine Spinne hat. Ich komm nicht "
         "drauf.", call("recall_fact", about="Beine Spinne"), "how many legs a spider has",
         True),
        ("Mon fils me demande quelle est la plus haute montagne d'Afrique, je ne sais plus.",
         call("ask_files", about="montagne Afrique"), "highest mountain in Africa", True),
        ("My niece keeps asking me how far away the moon is and I honestly have no clue.",
         call("recall_fact", about="moon"), None, True),
        ("Mi hija me pregunta en qué año llegó el hombre a la luna, y no me acuerdo.",
         call("recall_fact", about="luna"), "what year man reached the moon", True),
        ("Mein Neffe schreibt ein Referat und fragt mich, in welchem Jahr die Mauer gefallen "
         "ist. Ich bin mir nicht mehr sicher - weißt du das?", call("ask_files", about="Mauer"),
         "what year the wall fell", True),
        ("My neighbour keeps asking me when the water is off and I have no idea.",
         call("recall_fact", about="water"), None, False),
        ("Mein Neffe hat mich gefragt, wo die Party am Samstag ist. Weißt du's?",
         call("ask_files", about="Party"), "where the party is on Saturday", False),
        # An item of the user's is called by the word the question names ("the concert").
        ("Got the tickets ages ago. What time does the concert start?",
         call("ask_files", about="concert start"), None, False),
        # Two of the question's words are in one text: the landlord's email.
        ("Heard something about the building. Is there any water shut-off on Wednesday?",
         call("find_emails", about="water"), None, False),
        ("Planning the trip. Where is the hotel in Lisbon?",
         call("ask_files", about="hotel Lisbon"), None, False),
        # "he", "it": someone or something named before, which the user knows.
        ("The landlord wrote to everyone. What did he say?", call("find_emails", about="x"),
         None, False),
        ("I'm going out tonight. When does it start?", call("ask_files", about="start"), None,
         False),
        # A question alone may be of the user's though nothing holds it.
        ("How long is the warranty on the dishwasher?", call("ask_files", about="warranty"),
         None, False),
    ],
)  # fmt: skip
def test_a_question_asked_apart_is_answered_plainly_unless_the_users_things_name_it(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    database: Database,
    home: Path,
    question: str,
    chosen: str,
    english: str | None,
    general: bool,
) -> None:
    """A question asked apart from what is said about the user, whose own clause speaks of no
    one, and whose words nothing the user keeps (a file, the mail, the calendar, a memory)
    names, is general knowledge taken for a lookup: the model answers it, no tool is called,
    and nothing read reaches the model. The landlord's email about the water holds one of
    four words of the first, "Sunday brunch" one of the crossword's in English, the shopping
    list one of "white, right" ("blanc, …"): no reason to look. Else the lookup looks."""
    with database.session() as session, session.begin():
        session.add(MemoryRecord(created=NOW, text="Alex's partner is Sam."))
    create_event(account, "Concert: Jazz Quartet", at(24, 20), at(24, 22), tz=TZ)
    create_event(account, "Sunday brunch", at(20, 11), at(20, 13), tz=TZ)
    create_event(account, "Party at Jonas's", at(19, 20), at(19, 23), tz=TZ)
    (home / "shopping-list.md").write_text("- white beans\n- oat milk\n")
    landlord = "Hausverwaltung <office@landlord.example>"
    _deliver(servers[0], ALICE, landlord, "Water shut-off on Wednesday",
             "The water is off on Wednesday 16 May from 9:00 to 13:00.")  # fmt: skip
    try:
        # (three plain answers: one asked as written, or through English in three writes)
        turns = [chosen, *([english] if english else []), *["Plain answer."] * 3]
        agent, backend = _agent(turns, home, mail=mail, calendar=account, data=database)
        report = agent.run_turn(Conversation(), question)
    finally:
        _remove_from(servers, "office@landlord.example")
    if not general:
        assert report.calls, report.answer
        return
    assert (report.calls, report.answer) == ([], "Plain answer.")
    assert not agent.context.read_private and not agent.context.tainted
    plain = _asked_plainly(backend)
    # the request, or its question alone when that says what it asks
    # (a question reported inside a sentence is asked as one: "¿Cuántas patas tiene …?")
    shown = _shown(plain).strip("¿?")
    assert plain.tool_choice == "none" and shown and shown.lower() in question.lower()
    assert "shut-off" not in str(plain.messages)


def _asked_plainly(backend: ScriptedBackend) -> StepRequest:
    """The step that asked the model the user's question: the plain answer's, or the first of
    the three through English (`knowledge`) when it was asked in another language."""
    english = [
        r for r in backend.requests
        if str(r.messages[-1]["content"]).startswith("Translate into English: ")
    ]  # fmt: skip
    if english and english[-1] is backend.requests[-3]:
        return english[-1]
    return backend.requests[-1]


@pytest.mark.parametrize(
    "question",
    [
        "My sister's flying in from Boston tomorrow and she only thinks in Fahrenheit, which "
        "drives me up the wall. Anyway, it's supposed to be about 20 degrees here this week - "
        "what is that in Fahrenheit, so I can tell her what to pack?",
        "Ma belle-mère arrive de Chicago demain. Il fera environ 25 degrés ici : ça fait "
        "combien en Fahrenheit, pour que je puisse lui dire quoi emporter ?",
        "Mein Onkel kommt morgen aus Texas. Hier sollen es 25 Grad werden, wie viel ist das in "
        "Fahrenheit, damit ich es ihm sagen kann?",
    ],
)
def test_a_question_taken_for_an_email_the_request_never_names_is_answered_plainly(
    mail: MailAccount,
    account: CalendarAccount,
    database: Database,
    home: Path,
    question: str,
) -> None:
    """Taken for reading "the email from the school", though the request speaks of no
    message: its asking clause (not the clause saying what the answer is for, "so I can tell
    her what to pack") speaks of no one, and nothing the user keeps names it, so the model
    answers and no tool is called; shown the whole request, since "that" points back at the
    degrees said before it."""
    english = [] if question.startswith("My") else ["how much is that in Fahrenheit"]
    turns = [call("read_email", which="the email from the school"), *english, "Plain answer."]
    agent, backend = _agent(turns, home, mail=mail, calendar=account, data=database)
    report = agent.run_turn(Conversation(), question)
    assert (report.calls, report.answer) == ([], "Plain answer.")
    plain = backend.requests[-1]
    assert plain.tool_choice == "none" and plain.messages[-1]["content"] == question


@pytest.mark.parametrize(
    ("request_", "chosen", "shown"),
    [
        ("Sam y yo estamos cocinando y discutimos tonterías. Él dice que la luz tarda un "
         "minuto en llegar del Sol, yo digo que no. ¿Cuántos minutos tarda la luz del Sol en "
         "llegar a la Tierra?", call("ask_files", about="luz del Sol"),
         "¿Cuántos minutos tarda la luz del Sol en llegar a la Tierra?"),
        ("Meine Schwester behauptet, der Mount Everest ist 9000 Meter hoch. Wie hoch ist der "
         "Mount Everest?", call("recall_fact", about="Mount Everest"),
         "Wie hoch ist der Mount Everest?"),
        # after a dash
        ("no idea why but my mind just went blank - which metal melts at the lowest "
         "temperature again?", call("ask_files", about="metal"),
         "which metal melts at the lowest temperature again?"),
        # "here" needs what is said around it: the whole request
        ("We're visiting Lisbon this weekend. What's the oldest building here?",
         call("ask_files", about="oldest building"),
         "We're visiting Lisbon this weekend. What's the oldest building here?"),
    ],
)  # fmt: skip
def test_a_general_question_is_answered_apart_from_the_chatter_around_it(
    account: CalendarAccount,
    database: Database,
    home: Path,
    request_: str,
    chosen: str,
    shown: str,
) -> None:
    """What is said around a general question ("Él dice que … un minuto") is no part of the
    answer, and a small model repeats it: the model is shown the question alone when it says
    itself what it asks; the conversation keeps the user's whole message."""
    english = [] if request_.startswith(("We're", "no idea")) else ["English words."]
    agent, backend = _agent([chosen, *english, *["Plain answer."] * 3], home,
                            calendar=account, data=database)  # fmt: skip
    conversation = Conversation()
    report = agent.run_turn(conversation, request_)
    assert (report.calls, report.answer) == ([], "Plain answer.")
    assert _shown(_asked_plainly(backend)) == shown
    assert conversation.messages[0].content == request_


@pytest.mark.parametrize(
    ("request_", "chosen", "shown"),
    [
        # the question reported in the sentence before "do you know?"
        ("My son is doing a project on space and asked me how far away the moon is. I had "
         "no idea, do you know roughly?", call("recall_fact", about="the moon"),
         "How far away the moon is?"),
        ("Oye, mi sobrina me ha preguntado en qué año cayó el Muro de Berlín y me he quedado "
         "en blanco. ¿Tú lo sabes?", call("recall_fact", about="Muro de Berlín"),
         "¿En qué año cayó el Muro de Berlín?"),
        ("Meine Tochter hat mich gefragt, wie viele Monde der Jupiter hat. Weißt du das "
         "zufällig?", call("ask_files", about="Jupiter"), "Wie viele Monde der Jupiter hat?"),
        ("Random question - my niece asked me at breakfast how many bones a grown-up has and "
         "I totally blanked. Do you know?", call("recall_fact", about="bones"),
         "How many bones a grown-up has?"),
        # the question and "do you know?" in one sentence
        ("Ma fille m'a demandé au dîner combien de continents il y a, tu sais ?",
         call("recall_fact", about="continents"), "Combien de continents il y a?"),
        ("Mein Sohn hat mich beim Essen gefragt, wie hoch der Mount Everest ist, weißt du "
         "das?", call("recall_fact", about="Mount Everest"), "Wie hoch der Mount Everest ist?"),
        # the answers to choose from after the question, and chatter about "us" before it
        ("Ma femme et moi on se dispute depuis ce matin : c'est quoi la capitale du Canada, "
         "Toronto ou Ottawa ?", call("find_emails", about="Canada"),
         "c'est quoi la capitale du Canada"),
    ],
)  # fmt: skip
def test_a_general_question_reported_before_a_do_you_know_is_answered_plainly(
    account: CalendarAccount,
    database: Database,
    home: Path,
    request_: str,
    chosen: str,
    shown: str | None,
) -> None:
    """ "… asked me how far away the moon is. Do you know roughly?": what is asked is the
    reported question, which speaks of no one and names nothing the user keeps; the model
    answers it, asked as the question it reports ("How far away the moon is?": the 0.5B
    model answered 6 of 8 such right, 1 of 8 shown the whole message), and no tool is
    called."""
    english = [] if request_.startswith(("My", "Random")) else ["English words."]
    assert _answered_plainly([chosen, *english], home, account, database, request_) == (
        shown or request_
    )


def test_a_reported_question_taken_for_a_fact_to_keep_is_asked_as_the_question_it_reports(
    account: CalendarAccount, database: Database, home: Path
) -> None:
    """Taken for a fact to keep (an answer the model made up), then looked up and nothing
    found: the model answers the question the message reports, asked as one."""
    request_ = ("Random question - my niece asked me at breakfast how many bones a grown-up "
                "has and I totally blanked. Do you know?")  # fmt: skip
    chosen = call("remember_fact", fact="The number of bones a grown-up has is 20.")
    shown = _answered_plainly([chosen], home, account, database, request_)
    assert shown == "How many bones a grown-up has?"


def _answered_plainly(
    turns: list[str], home: Path, account: CalendarAccount, database: Database, request_: str
) -> str:
    """What the model was asked to answer after its `turns`, a plain answer with no tool
    called or offered (the question alone, or the whole request)."""
    agent, backend = _agent([*turns, *["Plain answer."] * 3], home, calendar=account,
                            data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert (report.calls, report.answer) == ([], "Plain answer.")
    assert backend.requests[-1].tool_choice == "none"
    return _shown(_asked_plainly(backend))


def _shown(plain: StepRequest) -> str:
    """The user's words a plain answer's step showed the model (to translate, or to answer)."""
    return str(plain.messages[-1]["content"]).removeprefix("Translate into English: ")


@pytest.mark.parametrize(
    ("request_", "chosen"),
    [
        ("Long day today, meetings back to back. Quick one while I cook: how many bones are "
         "in the human body?", call("show_calendar", when="today")),
        ("Heute war echt viel los. Sag mal, wie viele Herzen hat ein Oktopus?",
         call("list_todos")),
        ("Journée chargée aujourd'hui ! Au fait, quelle est la plus haute montagne d'Afrique ?",
         call("find_free_time", when="aujourd'hui")),
        ("Uf, hoy ha sido un día de locos. Estamos viendo un documental y nos ha entrado la "
         "duda: ¿cuál es el desierto más grande del mundo?", call("show_calendar", when="hoy")),
    ],
)  # fmt: skip
def test_a_general_question_after_chatter_naming_a_day_is_no_look_at_the_calendar(
    account: CalendarAccount, database: Database, home: Path, request_: str, chosen: str
) -> None:
    """The day is the chatter's ("today was busy"), the question asks no when and names no
    day, and nothing the user keeps holds its words: the model answers it, no tool is
    called, the calendar is not listed in front of the user."""
    create_event(account, "Team meeting", at(15, 14), at(15, 15), tz=TZ)
    english = [] if request_.startswith("Long day") else ["English words."]
    assert request_.endswith(_answered_plainly([chosen, *english], home, account, database,
                                               request_))  # fmt: skip


@pytest.mark.parametrize(
    ("request_", "chosen"),
    [("quel est le plus haut sommet des Alpes ?", call("show_calendar", event="Alpes")),
     ("what's the longest river in africa?", call("list_todos")),
     ("¿cuántos huesos tiene el cuerpo humano?", call("list_reminders"))],
)  # fmt: skip
def test_a_general_question_alone_taken_for_the_calendar_is_answered_plainly(
    account: CalendarAccount, database: Database, home: Path, request_: str, chosen: str
) -> None:
    """A question of general knowledge, all the request says, taken for the calendar, the
    to-dos or the reminders: nothing the user keeps is searched (a newsletter is no source for
    the Alps), the model answers."""
    english = [] if request_.startswith("what") else ["English words."]
    assert request_.endswith(_answered_plainly([chosen, *english], home, account, database,
                                               request_))  # fmt: skip


@pytest.mark.parametrize(
    "request_",
    [
        "Friday I'd like to block three hours in a row for the tax return, between 9 and 5. "
        "Does it fit?",
        "Freitag will ich mir drei Stunden am Stück für die Steuer blocken, zwischen 9 und 17 "
        "Uhr. Passt das?",
    ],
)
def test_a_question_needing_the_sentence_before_it_stays_with_the_calendar(
    account: CalendarAccount, database: Database, home: Path, request_: str
) -> None:
    """ "Does it fit?" says nothing of what it asks: the sentence before does, and it is the
    calendar's (free time on Friday), not a general question for the model."""
    create_event(account, "Team lunch", at(18, 12), at(18, 13), tz=TZ)
    agent, _ = _agent(
        [call("find_free_time", when="Friday", duration="3 hours"), *["English words."] * 3],
        home, calendar=account, data=database,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "find_free_time" in [c.name for c in report.calls], report.answer


@pytest.mark.parametrize(
    ("request_", "chosen"),
    [
        ("Me apetece ir al cine el viernes por la tarde. ¿Tengo algo ese día después de comer?",
         call("find_free_time")),
        ("J'ai envie d'aller au cinéma vendredi après-midi. Est-ce que ce jour-là c'est libre ?",
         call("find_free_time")),
        ("Ich will Freitag ins Kino. Ist an diesem Tag nach dem Mittagessen schon was?",
         call("show_calendar")),
    ],
)  # fmt: skip
def test_a_question_pointing_back_at_a_day_named_before_is_the_calendars(
    account: CalendarAccount, database: Database, home: Path, request_: str, chosen: str
) -> None:
    """ "¿Tengo algo ese día …?": "ese día" is the Friday named before, and "tengo" the user:
    no general question, never answered by the model alone."""
    create_event(account, "Haircut", at(18, 16), at(18, 17), tz=TZ)
    agent, _ = _agent([chosen, *["English words."] * 4], home, calendar=account,
                      data=database)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "list_events" in [c.name for c in report.calls], report.answer
    assert "Haircut" in report.answer


@pytest.mark.parametrize(
    ("request_", "chosen", "filled", "time"),
    [
        ("Can you pop my appointment with the tax advisor on Thursday in? She just confirmed "
         "it on the phone.", call("move_event", event="tax advisor appointment on Thursday"),
         call("add_event", title="appointment with the tax advisor", when="Thursday"),
         "at 3pm"),
        ("¿Me apuntas la cita con la asesora fiscal el jueves? Me la acaba de confirmar por "
         "teléfono, y ya sabes que si no está en el calendario se me olvida.",
         call("find_contact", who="asesora fiscal"),
         call("add_event", title="cita con la asesora fiscal", when="el jueves"),
         "A las tres de la tarde. Calcula una hora."),
    ],
)  # fmt: skip
def test_an_appointment_to_put_down_without_a_time_asks_it_then_adds_the_event(
    account: CalendarAccount, home: Path, request_: str, chosen: str, filled: str, time: str
) -> None:
    """Taken for moving an event the calendar does not hold (a new event the close second),
    or for a contact: an appointment put down is a new event; its time is asked, then it is
    added on the day said, nothing else moved."""
    create_event(account, "Car service", at(17, 8), at(17, 9), tz=TZ)
    name = chosen.split("<function=", 1)[1].split(">", 1)[0]
    agent, _ = _close_agent([chosen, filled], name, "add_event", home, calendar=account)
    conversation = Conversation()
    first = agent.run_turn(conversation, request_)
    assert first.stop_reason == "asked", first.answer
    assert not {"create_event", "update_event"} & {c.name for c in first.calls}
    second = agent.run_turn(conversation, time)
    [made] = [c for c in second.calls if c.name == "create_event"]
    assert made.arguments["start"] == "2029-05-17T15:00", second.answer
    assert sorted(e.start for e in _all(account)) == [at(17, 8), at(17, 15)]


@pytest.mark.parametrize(
    "request_",
    ["quick q - where did I put the notes from the car service? some txt file I think",
     "¿Dónde guardé las notas del servicio del coche? Un txt, creo"],
)  # fmt: skip
def test_a_contact_lookup_that_names_no_one_looks_in_the_files(home: Path, request_: str) -> None:
    """Taken for a contact's details with no one named, and no card's word asked for: the
    files are looked at, not "Whom should I look up?"."""
    (home / "car").mkdir()
    (home / "car" / "service-history.txt").write_text(
        "Car service notes\n2029-03-12 oil change at AutoHaus Mitte, next one due in 2030.\n"
    )
    answer = "The oil change was on 12 March at AutoHaus Mitte."
    agent, _ = _agent([call("find_contact", who=""), *["car service notes"] * 3, answer] * 2,
                      home)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "car/service-history.txt" in report.answer, report.answer
    assert report.stop_reason == "answered"


def test_a_topic_asked_after_a_question_about_someones_email_is_no_general_question(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    """ "What did the landlord say in his last email? Something about the heating?": the
    last question names a topic, the one before whose it is: never answered as general
    knowledge ("Heating is a process that …")."""
    _deliver(servers[0], ALICE, "Hausverwaltung Lindner <service@lindner-hv.example>",
             "Water shut-off on Wednesday 16 May",
             "The water will be turned off on Wednesday 16 May from 10:00 to 12:00.")  # fmt: skip
    agent, backend = _agent(
        [call("find_emails", about="heating"), *["The water is turned off on 16 May."] * 4],
        home, mail=mail,
    )  # fmt: skip
    try:
        report = agent.run_turn(
            Conversation(),
            "What did the landlord say in his last email? Something about the heating?",
        )
    finally:
        _remove_from(servers, "service@lindner-hv.example")
    assert all(r.tool_choice != "none" or "text below" in str(r.messages) or
               "Translate" in str(r.messages) for r in backend.requests), report.answer  # fmt: skip
    assert "Water shut-off" in report.answer or "water" in report.answer, report.answer


@pytest.mark.parametrize(
    "request_",
    ["Sam voudrait prévenir sa sœur de l'endroit où on loge à Lisbonne. C'est quoi déjà le nom "
     "de l'hôtel, et tu as le numéro de réservation quelque part ?",
     "Sam wants to tell his sister where we're staying in Lisbon. What's the hotel again, and "
     "do you have the booking number somewhere?"],
)  # fmt: skip
def test_a_booking_number_taken_for_a_contact_is_looked_up_in_the_files(
    home: Path, request_: str
) -> None:
    """A booking's number asked beside a person named (Sam), taken for Sam's card: the files
    hold it, not the address book."""
    (home / "travel" / "lisbon-itinerary.md").write_text(
        "# Lisbon, 2-5 June\nHotel: Casa do Rio, Rua da Prata 12\nBooking number: 55120\n"
    )
    answer = "Casa do Rio, booking number 55120."
    agent, _ = _agent([call("find_contact", who="Sam"), *["hotel Lisbon booking number"] * 2,
                       answer, answer], home)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "55120" in report.answer and "lisbon-itinerary.md" in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("I'm planning to work from home tomorrow, but I've got a feeling the building management "
      "sent round something about the water being off? What hours was that?",
      call("find_free_time", when="tomorrow", duration="")),
     ("Oye, ¿la administración mandó algo sobre el corte de agua de mañana? ¿A qué horas era?",
      call("find_free_time", when="mañana", duration=""))],
)  # fmt: skip
def test_a_question_about_what_was_sent_taken_for_the_calendar_is_answered_from_the_mail(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    request_: str,
    taken_for: str,
) -> None:
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Hausverwaltung Lindner <service@lindner-hv.example>",
             "Water shut-off on Wednesday 16 May",
             "The water will be turned off on Wednesday 16 May from 10:00 to 12:00.")  # fmt: skip
    answer = "From 10:00 to 12:00 on Wednesday 16 May."
    agent, _ = _agent([taken_for, call("find_emails", about="water"), *[answer] * 3],
                      home, mail=mail, calendar=account)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "10:00" in report.answer and "Water shut-off" in report.answer, report.answer
    assert "find_free_time" not in [c.name for c in report.calls]


@pytest.mark.parametrize(
    "request_",
    ["How do I get off the TechWeekly newsletter? It's getting annoying",
     "Wie melde ich mich eigentlich von diesem TechWeekly-Newsletter ab? Nervt langsam",
     "Comment je me désabonne de TechWeekly ?"],
)  # fmt: skip
def test_how_to_unsubscribe_answered_without_the_link_shows_the_email_with_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path, request_: str
) -> None:
    """The small model's answer to "how do I unsubscribe?" leaves out the link the email
    gives: the email's text is shown, link and all."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "TechWeekly <news@techweekly.example>", "TechWeekly #230",
             "This week: five laptops. Unsubscribe at techweekly.example/unsubscribe.")  # fmt: skip
    garbage = "Ich habe mich von diesem Newsletter abgehalten."
    agent, _ = _agent([call("find_emails", about="TechWeekly"), *[garbage] * 3], home,
                      mail=mail)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "techweekly.example/unsubscribe" in report.answer, report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("those techweekly newsletters are really getting on my nerves. can you bring up the page "
      "where I can unsubscribe from them?", call("search_web", query="techweekly newsletters")),
     ("Öffne mir bitte die Seite, wo ich mich von TechWeekly abmelden kann",
      call("find_emails", about="TechWeekly")),
     ("Désabonne-moi de TechWeekly, stp", call("just_answer"))],
)  # fmt: skip
def test_asked_to_be_taken_to_the_unsubscribe_page_it_is_opened_from_the_email(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    home: Path,
    request_: str,
    taken_for: str,
) -> None:
    """Whatever it was taken for, the page the newsletter's email gives for leaving it is
    opened (through the gate, as every call: the address is the email's, not the model's)."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "TechWeekly <news@techweekly.example>", "TechWeekly #230",
             "This week: five laptops. Read more at techweekly.example/230. Unsubscribe at "
             "techweekly.example/unsubscribe.")  # fmt: skip
    agent, _ = _agent([taken_for], home, mail=mail)
    try:
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "news@techweekly.example")
    # (".example" resolves nowhere: the opener's check stops it before any dialog)
    opened = [c.arguments for c in report.calls if c.name == "open_item"]
    assert opened == [{"url": "https://techweekly.example/unsubscribe"}], report.answer


@pytest.mark.parametrize(
    ("said", "shown"),
    [("El vuelo sale el 9 de junio de 2029 a las 07:05.", False),  # the 9 of "09:40"
     ("El vuelo sale el 8 de junio de 2029 a las 07:05.", True)],
)  # fmt: skip
def test_an_answer_naming_a_day_the_email_does_not_is_replaced_by_the_email(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    home: Path,
    said: str,
    shown: bool,
) -> None:
    """ "¿cuándo sale mi vuelo a lisboa?" answered "el 9 de junio" of a booking for 8 June:
    a day the email does not say is the model's, and the email's own text is shown; the
    right day is kept."""
    _empty_inbox(servers)
    booked = "Flight LH 1166 on 8 June 2029 departs Berlin 07:05, arrives Lisbon 09:40."
    _deliver(servers[0], ALICE, "booking@airline.example", "Booking confirmation: Berlin - Lisbon",
             booked)  # fmt: skip
    agent, _ = _agent([call("find_emails", about="vuelo Lisboa"), *[said] * 3], home, mail=mail,
                      calendar=account)  # fmt: skip
    try:
        report = agent.run_turn(Conversation(), "¿cuándo sale mi vuelo a lisboa?")
    finally:
        _remove_from(servers, "booking@airline.example")
    assert (said in report.answer) is shown, report.answer
    assert "8 June 2029" in report.answer or "8 de junio" in report.answer


def test_when_the_user_flies_with_the_code_in_their_mails_is_no_free_time_and_shows_the_code(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount, home: Path
) -> None:
    """ "when do i fly to lisbon again?? also need the booking code …, its somewhere in my
    mails" taken for free time ("when do I" asks when something is, not when the user can):
    the mail answers; the model's answer naming the return flight and not the code is
    replaced by the email's text."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "booking@airline.example", "Booking confirmation: Berlin - Lisbon",
             "Flight LH 1166, Friday 8 June 2029, departs Berlin (BER) 07:05.\n"
             "Booking code: QX7P2L. Return: LH 1167, Sunday 17 June 2029, 10:35.")  # fmt: skip
    agent, _ = _agent(
        [call("find_free_time"), "The flight LH 1167, Sunday 17 June 2029, 10:35 is booked."],
        home, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(
        Conversation(),
        "when do i fly to lisbon again?? also need the booking code for the flight, its "
        "somewhere in my mails",
    )
    assert "find_free_time" not in [c.name for c in report.calls]
    assert "QX7P2L" in report.answer and "07:05" in report.answer


@pytest.mark.parametrize(
    ("request_", "asked"),
    [("did the garden club say when the seed swap is?",
      "did the garden club say when the seed swap is?"),
     # the words asking to look and tell left out: the model answered "Yes, I can find …"
     ("can you find the email from the garden club and tell me when the seed swap is",
      "when the seed swap is?")],
)  # fmt: skip
def test_of_several_emails_found_the_one_whose_subject_names_the_question_answers_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path, request_: str, asked: str
) -> None:
    """ "did the garden club say when the seed swap is?": the club's two emails are found;
    the older one's subject names the seed swap, the newer is about a work day: the older
    answers."""
    _empty_inbox(servers)
    club = "Garden Club <info@club.example>"
    _deliver_dated(servers, club, "Garden Club news: seed swap on 2 June",
                   "Our seed swap is on Saturday 2 June, 10:00-13:00.",
                   "Wed, 02 May 2029 18:10:00 +0200")  # fmt: skip
    _deliver_dated(servers, club, "Reminder: work day at the community garden",
                   "Work day this Saturday from 9:00. Gloves provided.",
                   "Sat, 12 May 2029 08:00:00 +0200")  # fmt: skip
    try:
        agent, backend = _agent([call("find_emails", about="garden club"),
                                 "On Saturday 2 June, 10:00-13:00."], home, mail=mail)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "info@club.example")
    assert "seed swap is on Saturday 2 June" in _told(backend), report.answer
    assert _told(backend).endswith(f"Question: {asked}")
    assert "On Saturday 2 June, 10:00-13:00." in report.answer


def test_of_many_emails_from_someone_those_whose_subject_names_the_question_answer_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    """ "¿qué me escribió sophie sobre la factura?" with the model's topic "Sophie's number?":
    her four emails are found; the two whose subject names the invoice (by the glossary's
    English) are listed and read, not all four only listed."""
    _empty_inbox(servers)
    sophie = "Sophie Martin <sophie@post.example>"
    for subject, body, sent in [
        ("Invoice 2029-117 from Nordwind", "Nordwind's invoice 2029-117 is due on 31 May.",
         "Wed, 09 May 2029 09:00:00 +0200"),
        ("Re: Invoice 2029-117 from Nordwind", "Paid it today, all fine.",
         "Mon, 14 May 2029 10:00:00 +0200"),
        ("Kickoff follow-up", "Thanks for the kickoff.", "Mon, 14 May 2029 11:00:00 +0200"),
        ("Budget sheet", "Here is the budget sheet.", "Tue, 15 May 2029 08:00:00 +0200"),
    ]:  # fmt: skip
        _deliver_dated(servers, sophie, subject, body, sent)
    try:
        agent, _ = _agent([call("find_emails", about="Sophie's number?"),
                           *["La factura está pagada."] * 3], home, mail=mail)  # fmt: skip
        report = agent.run_turn(Conversation(), "¿qué me escribió sophie sobre la factura?")
    finally:
        _remove_from(servers, "sophie@post.example")
    assert "Budget sheet" not in report.answer and "Kickoff" not in report.answer, report.answer
    # (short: shown as written, the reply and the message it answers)
    assert "Paid it today" in report.answer and "due on 31 May" in report.answer


def test_a_reply_is_read_with_the_message_it_answers(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path
) -> None:
    """ "check if anna said what time dinner is on friday": her newest email, "Re: Dinner on
    Friday", says "see you then"; the time is in the message it answers, which the model is
    given beside it."""
    _empty_inbox(servers)
    anna = "Anna Schulz <anna@post.example>"
    _deliver_dated(servers, anna, "Dinner on Friday", "Hi Alex, dinner at mine on Friday at 7?",
                   "Sun, 06 May 2029 12:40:00 +0200")  # fmt: skip
    _deliver_dated(servers, anna, "Re: Dinner on Friday", "Great, see you then! Anna",
                   "Mon, 07 May 2029 08:05:00 +0200")  # fmt: skip
    try:
        agent, backend = _agent([call("find_emails", about="Anna dinner"), "At 7."], home,
                                mail=mail)  # fmt: skip
        report = agent.run_turn(
            Conversation(), "hey can u check if anna said what time dinner is on friday"
        )
    finally:
        _remove_from(servers, "anna@post.example")
    told = _told(backend)
    assert "see you then" in told and "on Friday at 7?" in told, report.answer
    assert "At 7." in report.answer


@pytest.mark.parametrize(
    "request_", ["Was hat mir Anna wegen Freitag geschrieben?", "What did Anna write about Friday?"]
)
def test_what_someone_wrote_in_a_short_email_is_shown_as_they_wrote_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, home: Path, request_: str
) -> None:
    """The 0.5B model's German summary of Anna's two lines was nonsense ("Anna schrieb, dass
    Anna Freitag mit einem Brot von Weißwine geschrieben hat"): a short message is shown as
    it is, the model not asked."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Anna Schulz <anna@post.example>", "Re: Dinner on Friday",
             "Great, see you then! Could you bring a bottle of white wine? Anna")  # fmt: skip
    try:
        agent, _ = _agent([call("find_emails", about="Anna"), *["Anna brings bread."] * 3],
                          home, mail=mail)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "anna@post.example")
    assert "Could you bring a bottle of white wine?" in report.answer, report.answer
    assert "Anna brings bread." not in report.answer
