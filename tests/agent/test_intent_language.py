"""The language an intent answers in (app/agent/intents/language.py) and the phrases it says
(app/agent/intents/phrases.py): every phrase and slot question in all four languages, days
and months written in each, English exactly as before, and a missing or broken translation
said in English instead of failing the turn."""

from __future__ import annotations

import re
import string
from datetime import date, datetime

import pytest

from app.agent.intents import phrases
from app.agent.intents.catalog import BY_RULE, INTENTS
from app.agent.intents.file_steps import telling_words
from app.agent.intents.language import (
    LANGUAGES,
    asks_a_question,
    asks_for_a_reminder,
    asks_for_free_time,
    asks_to_add_a_contact,
    asks_to_tick_off,
    language_of,
    language_of_talk,
    refers_to_someone,
    sentences,
    separate_questions,
)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("What's on tomorrow?", "en"),
        ("move my 1:1 with Sophie back by 30 minutes", "en"),
        ("How much did I spend at Casa do Rio in April?", "en"),
        ("Send the Lidl receipt to Marc", "en"),
        ("Book a table at Le Petit Bistro for Friday", "en"),
        ("Trag Zahnarzt übermorgen um 15 Uhr ein", "de"),
        ("Schick Jonas eine Mail mit dem Betreff Urlaub", "de"),
        ("Hab ich am Mittwoch Zeit?", "de"),
        ("Wie viel habe ich bei Casa do Rio ausgegeben?", "de"),
        ("Reserviere einen Tisch im The Kitchen", "de"),
        ("Was steht in meinem Mietvertrag zur Kündigung?", "de"),
        ("Ajoute un dîner avec Claire mardi prochain à 20h", "fr"),
        ("Combien j'ai dépensé chez Carrefour en janvier ?", "fr"),
        ("Rappelle-moi de payer le loyer", "fr"),
        ("Qu'y a-t-il dans mon dossier photos ?", "fr"),
        ("Réponds à Marc que c'est d'accord", "fr"),
        ("Pon una cena con Pablo el viernes a las 9 de la noche", "es"),
        ("Cambia la cena", "es"),
        ("¿Cuántos días tiene una semana?", "es"),
        ("Retrasa la reunión de las 10 media hora", "es"),
        ("Añade dentista pasado mañana a las 11", "es"),
        ("Escribe a Sophie que el Black Friday de Amazon empieza mañana", "es"),
    ],
)
def test_a_requests_language_is_read_from_its_own_words(text: str, language: str) -> None:
    assert language_of(text) == language


def test_the_catalogues_requests_are_read_in_the_language_their_task_names() -> None:
    """Every task's first request in the benchmark's catalogue: "-de", "-fr", "-es" tasks in
    that language, the others in English (names, brands and German street names in them)."""
    from bench.tasks.catalog import TASKS

    wrong = {}
    for task in TASKS:
        suffix = task.id.rsplit("-", 1)[-1]
        expected = suffix if suffix in ("de", "fr", "es") else "en"
        if (read := language_of(task.turns[0].text)) != expected:
            wrong[task.id] = read
    assert wrong == {}


@pytest.mark.parametrize("text", ["ok", "Sophie Martin", "2", "10:00", "bob@example.org", ""])
def test_a_request_with_nothing_telling_keeps_the_earlier_language_else_english(
    text: str,
) -> None:
    assert language_of(text) == "en"
    assert language_of(text, "fr") == "fr"
    assert language_of_talk(["Erinnere mich an die Steuer", "ok"], text) == "de"
    assert language_of_talk([], text) == "en"


def test_a_tie_keeps_the_earlier_language() -> None:
    assert language_of("Lisa y Paul", "en") == "es"  # one Spanish word: Spanish
    # "le" is French, "the" English: a tie goes to the language already spoken.
    assert language_of("the Le Monde", "fr") == "fr"
    assert language_of("the Le Monde", "en") == "en"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(phrases.PHRASES))
def test_every_phrase_is_in_all_four_languages_with_the_same_facts(key: str) -> None:
    phrase = phrases.PHRASES[key]
    assert set(phrase) == set(LANGUAGES)
    assert all(phrase[language].strip() for language in LANGUAGES)
    # Every translation says the same facts (no fact lost, none made up).
    assert {language: _fields(phrase[language]) for language in LANGUAGES} == {
        language: _fields(phrase["en"]) for language in LANGUAGES
    }


def test_every_slot_question_of_the_catalogue_has_its_translations() -> None:
    asked = {
        slot.question for intent in (*INTENTS, *BY_RULE) for slot in intent.slots if slot.question
    }
    missing = {
        question: [
            lang for lang in LANGUAGES[1:] if not phrases.QUESTIONS.get(question, {}).get(lang)
        ]
        for question in asked
    }
    assert {q: langs for q, langs in missing.items() if langs} == {}
    for question in asked:
        assert phrases.question("en", question) == question
        assert all(phrases.question(lang, question).rstrip().endswith("?") for lang in LANGUAGES)


def test_a_question_with_no_translation_is_asked_in_english() -> None:
    assert phrases.question("de", "What colour should it be?") == "What colour should it be?"


def test_english_phrases_read_as_the_steps_always_wrote_them() -> None:
    at = datetime(2029, 5, 4, 8, 0)
    assert phrases.say("en", "reminder_set", at=at, what="call mum") == (
        f"Reminder set for {at:%A %d %B at %H:%M}: call mum"
    )
    start, end = datetime(2029, 5, 18, 14), datetime(2029, 5, 18, 15)
    assert phrases.say("en", "event_added", title="Dentist", start=start, end=end) == (
        f"Added “Dentist” on {start:%A %d %B}, {start:%H:%M}–{end:%H:%M}."
    )
    last = datetime(2029, 5, 20)
    assert phrases.say("en", "day_range", start=start, last=last) == (
        f"{start:%a %d %b} to {last:%a %d %b}"
    )
    assert phrases.say("en", "in_month", month=date(2029, 4, 1)) == " in April 2029"
    assert phrases.dated("en", start, "wd") == "Fri"


@pytest.mark.parametrize(
    ("language", "day", "short", "month"),
    [
        ("en", "Friday 04 May", "Fri 04 May", "May 2029"),
        ("de", "Freitag, 4. Mai", "Fr 4. Mai", "Mai 2029"),
        ("fr", "vendredi 4 mai", "ven. 4 mai", "mai 2029"),
        ("es", "viernes 4 de mayo", "vie 4 may", "mayo de 2029"),
    ],
)
def test_days_and_months_are_written_in_the_phrases_language(
    language: str, day: str, short: str, month: str
) -> None:
    moment = datetime(2029, 5, 4, 8, 0)
    assert phrases.dated(language, moment, "day") == day  # type: ignore[arg-type]
    assert phrases.dated(language, moment, "dd") == short  # type: ignore[arg-type]
    assert phrases.dated(language, moment, "month") == month  # type: ignore[arg-type]
    assert phrases.dated(language, moment, "%H:%M") == "08:00"  # type: ignore[arg-type]


def test_facts_go_in_exactly_as_the_data_has_them() -> None:
    said = phrases.say("fr", "spent_total", totals="156.70 EUR", during="",
                       lines="- Casa do Rio: 156.70 EUR")  # fmt: skip
    assert "156.70 EUR" in said and "Casa do Rio" in said
    assert phrases.say("es", "saved", path="notas/Lista de la compra.md") == (
        "notas/Lista de la compra.md guardado."
    )


def test_a_missing_or_broken_translation_is_said_in_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(phrases.PHRASES, "saved", {"en": "Saved {path}.", "de": "{pfad} da."})
    assert phrases.say("de", "saved", path="a.md") == "Saved a.md."
    assert phrases.say("fr", "saved", path="a.md") == "Saved a.md."
    assert phrases.say("xx", "saved", path="a.md") == "Saved a.md."  # type: ignore[arg-type]


def test_no_step_or_router_writes_a_sentence_of_its_own() -> None:
    """The words the user reads are all in phrases.py: no step returns or asks with an
    English sentence written in place (a prompt to the model is no answer)."""
    from pathlib import Path

    folder = Path(phrases.__file__).parent
    sentence = re.compile(r"""(?:return|Ask\(|numbered\(|_say\(doing,)\s*f?["'][A-Z][a-z]+ """)
    for name in ("calendar_steps", "mail_steps", "personal_steps", "file_steps", "router"):
        text = (folder / f"{name}.py").read_text()
        assert sentence.findall(text) == [], name


@pytest.mark.parametrize(
    ("text", "split"),
    [
        ("Wann war nochmal die Kontrolle bei Dr. Roth?", 1),  # a title's point
        ("Am 22. Mai habe ich frei. Was ist am 3. Juni?", 2),  # a German day's point
        ("Mme. Dupont a écrit. Tu peux répondre ?", 2),
        ("ok.. what have I got on this friday? trying to see", 3),
    ],
)
def test_a_titles_or_a_days_point_ends_no_sentence(text: str, split: int) -> None:
    assert len(sentences(text)) == split


@pytest.mark.parametrize(
    ("question", "free"),
    [
        ("when am I free on Thursday?", True),
        ("wann kann ich vorbeischauen?", True),
        ("Hab ich Freitag Zeit?", True),
        ("quand est-ce que je suis libre ?", True),
        ("¿Cuándo tengo un hueco?", True),
        ("when was my check-up at Dr Lee's again?", False),
        ("do you know when the delivery is supposed to come?", False),
        ("Was hab ich am Freitag?", False),  # "Freitag" is no "frei"
        ("what time does the concert start?", False),  # a time asked, not free time
        ("¿A qué hora es la cena?", False),
        # when something makes the user be somewhere: when it is, not free time
        ("When do I need to be home for it?", False),
        ("Wann muss ich zu Hause sein?", False),
        ("Quand est-ce que je dois être là ?", False),
        ("¿Cuándo tengo que estar en casa?", False),
        # when the user can, not when something is that they do
        ("when can we meet next week?", True),
        ("quand est-ce que je peux passer ?", True),
        ("¿Cuándo puedo pasar?", True),
        ("when do i fly to lisbon again??", False),
        ("Wann habe ich den Zahnarzt?", False),
        ("quand est-ce que je pars à Lisbonne ?", False),
        ("when am I seeing Tom?", False),
    ],
)
def test_free_time_is_asked_for_by_its_words_or_the_user_asking_when_they_can(
    question: str, free: bool
) -> None:
    assert asks_for_free_time(question) is free


def test_short_names_are_telling_and_the_asking_sentence_leads() -> None:
    words = telling_words(
        "someone wants to meet next week. when was my check-up at Dr. Lee's again?",
        first="when was my check-up at Dr. Lee's again?",
    )
    assert words[0] == "lee" and words.index("check") < words.index("someone")
    assert "again" not in words
    assert telling_words("I saw the film with Tom") == ["tom", "film"]  # not "saw", "the"


@pytest.mark.parametrize(
    ("text", "ticks"),
    [
        ("Esta mañana devolví los libros, ¿me lo tachas de la lista?", True),
        ("Táchalo de la lista", True),
        ("Ajoute-le à mes tâches pour jeudi", False),  # French "tâches" are tasks
        ("Quelles tâches me restent ?", False),
    ],
)
def test_spanish_crossing_off_is_no_french_task(text: str, ticks: bool) -> None:
    assert asks_to_tick_off(text) is ticks


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ("¿Qué me ha escrito Lena sobre las entregas de junio?", True),
        ("¿Qué me ha mandado Tom?", True),
        ("What did Sophie write about the invoice? She wrote yesterday", True),
        ("Was hat mir Jonas geschrieben?", True),
        ("Qu'est-ce que Priya m'a écrit ?", True),
        ("¿Qué hay en mis notas sobre las entregas?", False),
        # the user's mail said to hold it
        ("also need the booking code, its somewhere in my mails", True),
        ("Der Code steht irgendwo in meinen Mails", True),
        ("c'est dans mes mails quelque part", True),
        ("lo tengo en mis correos", True),
        ("it's somewhere in my notes", False),
        ("what did the bank send me last", True),
    ],
)
def test_a_request_saying_it_was_written_to_the_user_speaks_of_a_message(
    request_: str, message: bool
) -> None:
    """ "Qué me ha escrito Lena": an email holds it rather than a file holding as much."""
    from app.agent.intents.language import speaks_of_a_message

    assert speaks_of_a_message(request_) is message


@pytest.mark.parametrize(
    ("clause", "someone"),
    [
        ("combien de continents il y a", False),
        ("y a-t-il plus de lunes autour de Jupiter", False),
        ("combien de temps il faut pour cuire un oeuf", False),
        ("wie viele Planeten es gibt", False),
        ("il a quel âge", True),
        ("what did she say", True),
        ("was hat er geschrieben", True),
    ],
)
def test_a_pronoun_standing_for_no_one_refers_to_no_one(clause: str, someone: bool) -> None:
    """ "Il y a", "es gibt": a question about the world, not about someone named before."""
    assert refers_to_someone(clause) is someone


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Find me an hour for the tax papers and put it in my calendar", True),
        ("Such mir zwei Stunden am Freitag", True),
        ("Trouve-moi une demi-heure demain", True),
        ("Cherche-moi deux bonnes heures", True),
        ("Find the email from Tom", False),
        ("I need to find the hours sheet", False),
        ("find my notes about the 2 hours meeting", False),
        # needed, the day said between
        ("ich brauch am donnerstag nachmittag zwei stunden am stück, wann geht das?", True),
        ("j'ai besoin de deux heures jeudi après-midi, c'est possible quand ?", True),
        ("I need to pay two hours of parking", False),
    ],
)
def test_a_length_of_time_to_find_asks_for_free_time(text: str, asks: bool) -> None:
    assert asks_for_free_time(text) is asks


def test_a_picture_ends_a_sentence() -> None:
    """ "Mein Klaviervorspiel rückt näher 😬 Kannst du mich … erinnern?": the emoji ends the
    sentence before it, so the request that follows asks for a reminder."""
    text = "Mein Klaviervorspiel rückt näher 😬 Kannst du mich am Tag davor ans Üben erinnern?"
    assert sentences(text) == [
        "Mein Klaviervorspiel rückt näher 😬",
        "Kannst du mich am Tag davor ans Üben erinnern?",
    ]
    assert asks_for_a_reminder(text)
    assert asks_for_a_reminder("Big day tomorrow 🎉 remind me at 7 to iron the shirt")
    assert not asks_for_a_reminder("Big day tomorrow 🎉 what's on my calendar?")


@pytest.mark.parametrize(
    ("text", "adds"),
    [("Ajoute Julie Martin à mes contacts, julie@example.fr", True),
     ("Guarda a Pedro Ruiz en mis contactos", True),
     ("Anna ist nicht in meinem Adressbuch. Leg sie bitte an.", True),
     # no one added to the address book
     ("What's Tom's number in my contacts?", False),
     ("Send Anna the address from my contacts", False),
     ("My contacts are a mess. Add a reminder to tidy them on Friday.", False),
     ("Put the dentist in my calendar on Friday at 10", False)],
)  # fmt: skip
def test_adding_someone_to_the_address_book(text: str, adds: bool) -> None:
    assert asks_to_add_a_contact(text) is adds


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("When is Mum's birthday, and what gift ideas do I have for her?",
         ["When is Mum's birthday?", "what gift ideas do I have for her?"]),
        ("Prepare me for the Nordwind call: when is it, and what's their delivery plan?",
         ["Prepare me for the Nordwind call: when is it?",
          "Prepare me for the Nordwind call: what's their delivery plan?"]),
        ("Where do we meet on Saturday? And what time does the hike start on Sunday?",
         ["Where do we meet on Saturday?", "what time does the hike start on Sunday?"]),
        ("Quand est l'anniversaire de maman, et quelles idées de cadeau j'ai pour elle ?",
         ["Quand est l'anniversaire de maman?", "quelles idées de cadeau j'ai pour elle?"]),
        # one question, or a second that names nothing of its own, or an act asked for
        ("When and where is the meeting?", []),
        ("What time is it and where?", []),
        ("What did Sophie say about the invoice and when do we pay it?", []),
        ("What is the capital of France and what is its population?", []),
        ("What do I have on Friday, and can you add lunch with Tom at 1?", []),
        ("Can you tell me when the water is off tomorrow?", []),
    ],
)  # fmt: skip
def test_two_questions_asked_together_are_told_apart(text: str, parts: list[str]) -> None:
    assert separate_questions(text) == parts


@pytest.mark.parametrize(
    ("request_", "asks"),
    [
        ("dis, j'ai un truc jeudi soir ? sam voudrait aller au ciné", True),
        ("do I have something on Friday evening?", True),
        ("got anything thursday night?", True),
        ("est-ce que j'ai quelque chose samedi ?", True),
        # told, not asked
        ("j'ai un truc jeudi soir, je ne peux pas", False),
        ("I have something on Friday, so not then", False),
        # what is on a list or a note is no question of the calendar
        ("what's on my to-do list that's due this week?", False),
        ("what's on my shopping list", False),
        ("hey what's on my plate tomorrow", True),
    ],
)
def test_asking_whether_anything_is_on_by_the_voice_alone_asks_whats_on(
    request_: str, asks: bool
) -> None:
    from app.agent.intents.language import asks_whats_on

    assert asks_whats_on(request_) is asks


@pytest.mark.parametrize(
    ("request_", "rest"),
    [("pon una alarma para mañana a las 7 para llamar a mi madre",
      "para mañana a las 7 para llamar a mi madre"),
     ("set an alarm for 6:30 to catch the train", "for 6:30 to catch the train"),
     ("Stell mir einen Wecker für 7, ich muss zum Zug", "für 7, ich muss zum Zug"),
     ("mets une alarme à 7h pour le train", "à 7h pour le train"),
     # a reminder asked for by name
     ("ponme un recordatorio para mañana a las 9 y media: llenar unas botellas de agua",
      "mañana a las 9 y media: llenar unas botellas de agua"),
     ("Can you set a reminder for friday at 9 to water plants", "friday at 9 to water plants"),
     ("stell mir eine Erinnerung für morgen um 8: Müll rausbringen",
      "morgen um 8: Müll rausbringen"),
     # its time said between
     ("Leg mir an dem Tag um 8 eine Erinnerung an, dass ich zuhause bleibe",
      ", dass ich zuhause bleibe"),
     ("ponme para mañana a las 9 un recordatorio de llamar a Tom", "llamar a Tom"),
     ("mets-moi demain à 8h un rappel pour sortir les poubelles", "sortir les poubelles")],
)  # fmt: skip
def test_an_alarm_or_a_reminder_asked_for_by_name_is_a_reminder(request_: str, rest: str) -> None:
    from app.agent.intents.language import without_remind_me

    assert asks_for_a_reminder(request_) and without_remind_me(request_) == rest


@pytest.mark.parametrize(
    ("text", "asked"),
    [("what do i owe stadtwerke", True), ("como se llama el hotel", True),
     ("Wie gesagt, wann kommt Tom?", True),
     # a question word opening a remark
     ("Como ya sabes, Sam es vegano", False), ("como te dije, mañana no puedo", False),
     ("Wie gesagt, Sam ist Veganer", False)],
)  # fmt: skip
def test_a_question_is_asked_with_or_without_its_mark(text: str, asked: bool) -> None:
    assert asks_a_question(text) == asked
