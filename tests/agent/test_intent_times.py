"""Dates, times, durations and shifts from people's words, in four languages (no model)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.agent.intents.recognise import grounded
from app.agent.intents.when import (
    read_anchored,
    read_duration,
    read_relative,
    read_shift,
    read_when,
)
from connectors.folding import fold

# Tuesday 15 May 2029, 09:30.
NOW = datetime(2029, 5, 15, 9, 30, tzinfo=ZoneInfo("Europe/Berlin"))


@pytest.mark.parametrize(
    ("phrase", "day", "start"),
    [
        ("tomorrow", date(2029, 5, 16), None),
        ("morgen", date(2029, 5, 16), None),
        ("demain à 14h", date(2029, 5, 16), time(14)),
        ("mañana a las 3", date(2029, 5, 16), time(15)),
        ("übermorgen um 15 Uhr", date(2029, 5, 17), time(15)),
        ("the day after tomorrow at 9:30", date(2029, 5, 17), time(9, 30)),
        ("on Friday at 3pm", date(2029, 5, 18), time(15)),
        ("el viernes", date(2029, 5, 18), None),
        ("am Donnerstag um 10", date(2029, 5, 17), time(10)),
        ("next Tuesday", date(2029, 5, 22), None),
        ("nächsten Dienstag", date(2029, 5, 22), None),
        ("mardi prochain", date(2029, 5, 22), None),
        ("the Tuesday after next", date(2029, 5, 29), None),
        ("le 20 mai à 9h30", date(2029, 5, 20), time(9, 30)),
        ("el 20 de mayo", date(2029, 5, 20), None),
        ("May 20th at 5 pm", date(2029, 5, 20), time(17)),
        ("20.5.", date(2029, 5, 20), None),
        ("the 22nd", date(2029, 5, 22), None),
        # A number beside a weekday is its day of the month when that day is that weekday;
        # else a time ("Friday 10": 10 June is a Sunday).
        ("el viernes 25 a las 13:30", date(2029, 5, 25), time(13, 30)),
        ("Freitag, den 25.", date(2029, 5, 25), None),
        ("vendredi 25 à 14h", date(2029, 5, 25), time(14)),
        ("Friday 25", date(2029, 5, 25), None),
        ("Friday 10", date(2029, 5, 18), None),
        ("in 3 days", date(2029, 5, 18), None),
        ("in two hours", date(2029, 5, 15), time(11, 30)),
        ("dans une heure", date(2029, 5, 15), time(10, 30)),
        ("at noon", date(2029, 5, 15), time(12)),
        ("tomorrow from 2 to 4pm", date(2029, 5, 16), time(14)),
        # a colon after the time, before what it is for
        ("mañana a las 9 y media: llenar unas botellas", date(2029, 5, 16), time(9, 30)),
        ("morgen um 8: Müll rausbringen", date(2029, 5, 16), time(8)),
        ("tomorrow at 9:30: call the bank", date(2029, 5, 16), time(9, 30)),
        ("am 15.05. um 10", date(2029, 5, 15), time(10)),
        # a weekday's short English form after a word naming a day
        ("next wed same time", date(2029, 5, 16), None),
        ("on sat at 10", date(2029, 5, 19), time(10)),
        ("this fri", date(2029, 5, 18), None),
    ],
)
def test_a_phrase_names_its_day_and_time(phrase: str, day: date, start: time | None) -> None:
    when = read_when(phrase, NOW)
    assert when is not None
    assert (when.day, when.start) == (day, start)


@pytest.mark.parametrize(
    ("phrase", "day", "start"),
    [
        # The first, second, … or last weekday of a month named, or of the next month.
        ("on the first monday of next month, 8pm", date(2029, 6, 4), time(20)),
        ("am ersten Montag im nächsten Monat um 20 Uhr", date(2029, 6, 4), time(20)),
        ("le premier lundi du mois prochain à 20h", date(2029, 6, 4), time(20)),
        ("el primer lunes del mes que viene a las 20:00", date(2029, 6, 4), time(20)),
        ("the second Tuesday in June", date(2029, 6, 12), None),
        ("the last Friday of the month", date(2029, 5, 25), None),
        ("am letzten Freitag im Monat", date(2029, 5, 25), None),
        ("le dernier vendredi de juin", date(2029, 6, 29), None),
        ("el último viernes de junio", date(2029, 6, 29), None),
        ("the first Monday of the month", date(2029, 6, 4), None),  # May's is past
        # A week or two from a day: that day, weeks on.
        ("due a week from Friday", date(2029, 5, 25), None),
        ("a week on Friday", date(2029, 5, 25), None),
        ("Friday week", date(2029, 5, 25), None),
        ("two weeks from Monday", date(2029, 6, 4), None),
        ("a week from tomorrow", date(2029, 5, 23), None),
        ("a week from now", date(2029, 5, 22), None),
        ("three days from now", date(2029, 5, 18), None),
        ("in a fortnight", date(2029, 5, 29), None),
        ("dentro de tres días", date(2029, 5, 18), None),
        ("dentro de una hora", date(2029, 5, 15), time(10, 30)),
        # a week and two as said: eight days, fifteen days
        ("in acht Tagen", date(2029, 5, 22), None),
        ("dans quinze jours", date(2029, 5, 29), None),
        ("en quince días", date(2029, 5, 29), None),
        ("Freitag in einer Woche", date(2029, 5, 25), None),
        ("morgen in einer Woche", date(2029, 5, 23), None),
        ("vendredi en huit", date(2029, 5, 25), None),
        ("de hoy en ocho días", date(2029, 5, 22), None),
        # A weekday of a week named: that day of that week, not the whole week.
        ("Friday next week", date(2029, 5, 25), None),
        ("nächste Woche Freitag", date(2029, 5, 25), None),
        ("vendredi de la semaine prochaine", date(2029, 5, 25), None),
        ("el viernes de la semana que viene", date(2029, 5, 25), None),
        ("on Thursday this week", date(2029, 5, 17), None),
        ("Recuérdame pagar el alquiler el día 30 a las 9", date(2029, 5, 30), time(9, 0)),
        # ("in a" that is no count of weeks: "pencil in a coffee")
        (
            "Jamie's in Berlin next week - pencil in a coffee on the wednesday",
            date(2029, 5, 23),
            None,
        ),
        ("Jamie est là la semaine prochaine, mets en un café le mercredi", date(2029, 5, 23), None),
        # The end of a month.
        ("by the end of the month", date(2029, 5, 31), None),
        ("bis Ende des Monats", date(2029, 5, 31), None),
        ("à la fin du mois prochain", date(2029, 6, 30), None),
        ("a finales de mes", date(2029, 5, 31), None),
        ("à la fin du mois d'avril", date(2029, 4, 30), None),  # just past: this year's
        ("the second Monday in March", date(2030, 3, 11), None),
    ],
)
def test_days_counted_from_a_month_or_a_day(phrase: str, day: date, start: time | None) -> None:
    when = read_when(phrase, NOW)
    assert when is not None
    assert (when.day, when.days, when.start) == (day, 1, start)


@pytest.mark.parametrize("phrase", ["last Friday", "letzten Freitag", "next week", "in a week"])
def test_a_weekday_or_week_alone_is_read_as_before(phrase: str) -> None:
    when = read_when(phrase, NOW)
    assert when is not None
    expected = {
        "last Friday": (date(2029, 5, 11), 1),
        "letzten Freitag": (date(2029, 5, 11), 1),
        "next week": (date(2029, 5, 21), 7),
        "in a week": (date(2029, 5, 22), 1),
    }
    assert (when.day, when.days) == expected[phrase]


def test_the_spanish_afternoon_runs_into_the_evening() -> None:
    """ "¿Tengo algo el jueves de la semana que viene por la tarde?" asks about a dinner
    invitation: yoga at 18:30 and a concert at 20:00 are in it."""
    when = read_when("el jueves de la semana que viene por la tarde", NOW)
    assert when is not None
    start, end = when.window(NOW)
    assert (start.date(), start.hour, end.hour) == (date(2029, 5, 24), 12, 21)


def test_parts_of_the_day_and_weeks_are_windows() -> None:
    afternoon = read_when("Friday afternoon", NOW)
    assert afternoon is not None
    start, end = afternoon.window(NOW)
    assert (start.hour, end.hour, start.date()) == (12, 18, date(2029, 5, 18))
    week = read_when("next week", NOW)
    assert week is not None and (week.day, week.days) == (date(2029, 5, 21), 7)
    weekend = read_when("this weekend", NOW)
    assert weekend is not None and (weekend.day, weekend.days) == (date(2029, 5, 19), 2)
    gap = read_when("Monday between 8 and 1", NOW)
    assert gap is not None and (gap.start, gap.end) == (time(8), time(13))


@pytest.mark.parametrize(
    "phrase",
    ["the offsite will be on 12-13 June in Potsdam", "12–13 June", "12 to 13 June",
     "du 12 au 13 juin", "vom 12. bis 13. Juni", "del 12 al 13 de junio"],
)  # fmt: skip
def test_two_days_of_a_month_are_the_stretch_between_them_and_no_time(phrase: str) -> None:
    """ "12-13 June" had been read as 13 June at 13:00 (the first day taken for an hour)."""
    when = read_when(phrase, NOW)
    assert when is not None
    assert (when.day, when.days, when.start, when.end) == (date(2029, 6, 12), 2, None, None)
    # a time span on one day is still one
    one = read_when("Saturday 2 June 10:00-13:00", NOW)
    assert one is not None and (one.days, one.start, one.end) == (1, time(10), time(13))


@pytest.mark.parametrize(
    ("phrase", "day", "part"),
    [
        # Spanish "mañana" is tomorrow, and "la mañana" the morning: "esta mañana" is today's.
        ("llamaron esta mañana", date(2029, 5, 15), (8, 12)),
        ("mañana por la mañana", date(2029, 5, 16), (8, 12)),
        ("el viernes por la mañana", date(2029, 5, 18), (8, 12)),
        ("hasta mañana", date(2029, 5, 16), None),
    ],
)
def test_spanish_morning_and_tomorrow(phrase: str, day: date, part: tuple[int, int] | None) -> None:
    when = read_when(phrase, NOW)
    assert when is not None and (when.day, when.part, when.day_given) == (day, part, True)


@pytest.mark.parametrize(
    ("phrase", "day", "part"),
    [
        # After a weekday, "heute" or "gestern", German "Morgen" is the morning, not tomorrow.
        ("Hab ich am Donnerstag morgen schon was vor?", date(2029, 5, 17), (8, 12)),
        ("Freitag Morgen", date(2029, 5, 18), (8, 12)),
        ("heute Morgen", date(2029, 5, 15), (8, 12)),
        ("morgen früh", date(2029, 5, 16), (8, 12)),
        # A weekday and a part of the day written as one word.
        ("am Freitagabend", date(2029, 5, 18), (18, 22)),
        ("Montagnachmittag", date(2029, 5, 21), (12, 18)),
        ("Samstagvormittag", date(2029, 5, 19), (8, 12)),
        ("Donnerstagmorgen", date(2029, 5, 17), (8, 12)),
        ("morgen Abend", date(2029, 5, 16), (18, 22)),  # still tomorrow evening
    ],
)
def test_german_parts_of_a_named_day(phrase: str, day: date, part: tuple[int, int]) -> None:
    when = read_when(phrase, NOW)
    assert when is not None and (when.day, when.part) == (day, part)


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("tomorrow from 7 to 8 am", time(7), time(8)),  # "am" of a range holds for both
        ("from 6 to 11am", time(6), time(11)),
        ("tomorrow from 7 to 8", time(19), time(20)),  # nobody means seven at night
        ("from 7 to 8 pm", time(19), time(20)),
        ("from 11 to 1", time(11), time(13)),
        ("von 9 bis 21 Uhr", time(9), time(21)),  # a 24-hour end says nothing of the start
        ("from 9 to 11pm", time(21), time(23)),
    ],
)
def test_a_range_reads_its_morning_or_afternoon_from_either_end(
    phrase: str, start: time, end: time
) -> None:
    when = read_when(phrase, NOW)
    assert when is not None and (when.start, when.end) == (start, end)


@pytest.mark.parametrize(
    "phrase",
    [
        "El jueves, de ocho y media a diez y media de la noche.",
        "Thursday from half past eight to half past ten in the evening",
        "Donnerstag von halb neun bis halb elf abends",
        "jeudi de huit heures et demie à dix heures et demie du soir",
        "Thursday from 8:30 to 10:30 pm",
    ],
)
def test_a_range_ending_in_the_evening_starts_in_the_evening(phrase: str) -> None:
    """ "de ocho y media a diez y media de la noche": the evening said at the end holds for
    the start too, as "am" does in "from 7 to 8 am"."""
    when = read_when(phrase, NOW)
    assert when is not None
    assert (when.day, when.start, when.end) == (date(2029, 5, 17), time(20, 30), time(22, 30))


@pytest.mark.parametrize(
    ("phrase", "start"),
    [
        ("Wednesday afternoon, say around 3", time(15)),
        ("Wednesday around 3.", time(15)),
        ("Mittwoch so gegen 3", time(15)),
        ("mercredi vers 15h", time(15)),
        ("el miércoles sobre las 3", time(15)),
        ("el miércoles hacia las 4 de la tarde", time(16)),
        ("Wednesday at about 10", time(10)),
    ],
)
def test_an_hour_said_roughly_is_a_time(phrase: str, start: time) -> None:
    when = read_when(phrase, NOW)
    assert when is not None and (when.day, when.start) == (date(2029, 5, 16), start)


@pytest.mark.parametrize(
    "phrase", ["Wednesday with about 3 people", "around 3 of us on Wednesday", "about 2 weeks"]
)
def test_a_rough_number_that_is_no_hour_is_no_time(phrase: str) -> None:
    found = read_when(phrase, NOW)
    assert found is None or found.start is None


@pytest.mark.parametrize(
    ("phrase", "day", "start"),
    [
        ("er kommt am selben Tag, aber schon um 11 statt um 15 Uhr", date(2029, 5, 15), time(11)),
        ("at 11 instead of 3pm", date(2029, 5, 15), time(11)),
        ("à 11h au lieu de 15h", date(2029, 5, 15), time(11)),
        ("a las 11 en vez de a las 15", date(2029, 5, 15), time(11)),
        ("Monday instead of Friday at 3", date(2029, 5, 21), time(15)),
        ("el lunes en vez del viernes", date(2029, 5, 21), None),
        ("le lundi au lieu du vendredi", date(2029, 5, 21), None),
        ("Montag statt Freitag", date(2029, 5, 21), None),
    ],
)
def test_the_time_or_day_a_new_one_replaces_is_no_part_of_it(
    phrase: str, day: date, start: time | None
) -> None:
    """ "um 11 statt um 15 Uhr" is 11 o'clock, not 11 to 15; "Montag statt Freitag" Monday."""
    when = read_when(phrase, NOW)
    assert when is not None and (when.day, when.start, when.end) == (day, start, None)


@pytest.mark.parametrize(
    ("phrase", "start"),
    [
        ("at 7 in the morning", time(7)),  # not 19:00, as "at 7" alone is read
        ("tomorrow at 6 in the morning", time(6)),
        ("um 7 morgens", time(7)),
        ("a las 7 de la mañana", time(7)),
        ("3 in the afternoon", time(15)),  # no "at": the part of the day makes it a time
        ("the thursday, three in the afternoon", time(15)),
        ("8 in the evening", time(20)),
        ("at 10 at night", time(22)),
        ("sechs abends", time(18)),
        ("5 du soir", time(17)),
        ("las 4 de la tarde", time(16)),
    ],
)
def test_a_part_of_the_day_after_an_hour_says_which_half_of_the_day(
    phrase: str, start: time
) -> None:
    when = read_when(phrase, NOW)
    assert when is not None and when.start == start


@pytest.mark.parametrize(
    "phrase", ["esa mañana a las 9", "aquella mañana", "an diesem Morgen um 9", "am selben Morgen"]
)
def test_a_morning_pointed_back_at_is_no_tomorrow(phrase: str) -> None:
    """ "esa mañana", "an diesem Morgen": the morning of a day said before, not "mañana",
    "morgen" (tomorrow)."""
    when = read_when(phrase, NOW)
    assert when is None or not when.day_given


@pytest.mark.parametrize(
    ("phrase", "day", "part"),
    [("add a 2 hour block to write the report tomorrow morning", date(2029, 5, 16), (8, 12)),
     ("a 2-hour block tomorrow morning", date(2029, 5, 16), (8, 12)),
     ("ein Block von 2 Stunden morgen früh", date(2029, 5, 16), (8, 12)),
     ("bloque de 2 horas mañana por la mañana", date(2029, 5, 16), (8, 12))],
)  # fmt: skip
def test_a_number_of_hours_is_a_length_not_a_clock_time(
    phrase: str, day: date, part: tuple[int, int]
) -> None:
    """ "a 2 hour block … tomorrow morning": tomorrow morning, no time at 2:00."""
    when = read_when(phrase, NOW)
    assert when is not None and (when.day, when.start, when.part) == (day, None, part)
    assert read_duration(phrase) == timedelta(hours=2)


def test_a_number_of_hours_after_the_is_no_day_of_the_month() -> None:
    """ "the 2 hour meeting at 3": today's 3pm, not the 2nd."""
    when = read_when("the 2 hour meeting at 3", NOW)
    assert when is not None and not when.day_given and when.start == time(15)


def test_a_number_word_before_a_part_of_the_day_without_a_connector_is_no_time() -> None:
    when = read_when("one morning last week", NOW)
    assert when is not None and when.start is None and when.part == (8, 12)


@pytest.mark.parametrize(
    "phrase", ["dinner with Sam", "the dentist", "Sophie", "send it", "I sat down", "mon ami"]
)
def test_words_without_a_day_or_time_are_no_time(phrase: str) -> None:
    assert read_when(phrase, NOW) is None


@pytest.mark.parametrize(
    ("phrase", "minutes"),
    [
        ("30 minutes", 30),
        ("an hour", 60),
        ("1.5 hours", 90),
        ("90 min", 90),
        ("half an hour", 30),
        ("2h", 120),
        ("eine Stunde", 60),
        ("une demi-heure", 30),
        ("media hora", 30),
        ("an hour and a half", 90),
        ("a 30-minute call", 30),
        ("a 2-hour workshop", 120),
        ("eine 45-minütige Besprechung", 45),
        # clock times written "9h" beside a length are no part of it
        ("bloquer trois heures d'affilée entre 9h et 17h", 180),
        ("une réunion de 2h à 10h", 120),
        # the half of a clock time is no part of a length said after it
        ("a las cuatro y media de la tarde, y ponle una hora más o menos", 60),
        ("una hora y media", 90),
        ("Il me faut deux bonnes heures tranquilles", 120),  # a word of how between
        ("I need two quiet hours for the budget", 120),
        ("zwei ruhige Stunden am Stück", 120),
        ("dos buenas horas", 120),
        ("a good hour", 60),
        ("zwei Stunden und eine halbe", 150),
        # spoken German's "eine"
        ("erinner mich bitte ne stunde vorher", 60),
        ("'ne Stunde vorher", 60),
        # an hour and a half said without "una", in one German word, in tens of minutes
        ("el viernes por la tarde necesito hora y media para ir al banco", 90),
        ("anderthalb Stunden", 90),
        ("eineinhalb Stunden für die Steuer", 90),
        ("noventa minutos", 90),
        ("sixty minutes", 60),
    ],
)
def test_durations(phrase: str, minutes: int) -> None:
    assert read_duration(phrase) == timedelta(minutes=minutes)


@pytest.mark.parametrize(
    "phrase",
    [
        "dinner with Sam on Friday",
        "Trag den Zahnarzt am Freitag ein",
        "an h",
        "at 10-12",
        "Ich habe keine Stunde Zeit",
    ],
)
def test_words_holding_a_number_word_and_a_letter_are_no_length(phrase: str) -> None:
    assert read_duration(phrase) is None


@pytest.mark.parametrize(
    ("phrase", "said_in_digits"),
    [
        ("Friday at half five instead", "Friday at 17:30"),
        ("at half past five", "at 17:30"),
        ("at quarter to one", "at 12:45"),
        ("at three thirty", "at 15:30"),
        ("at five", "at 5"),
        ("am Freitag um halb acht", "am Freitag um 19:30"),
        ("um Viertel nach drei", "um 15:15"),
        ("um halb neun morgens", "um 8:30 morgens"),
        ("vendredi à cinq heures et demie", "vendredi à 17:30"),
        ("à six heures moins le quart", "à 17:45"),
        ("à six heures", "à 6 heures"),
        ("el jueves a las cinco y media", "el jueves a las 17:30"),
        ("a la una", "a la 1"),
        ("el jueves a las cinco", "el jueves a las 5"),
        # the hour in digits, the half or quarter in words
        ("mañana a las 9 y media", "mañana a las 9:30"),
        ("morgen um halb 9", "morgen um 8:30"),
        ("demain à 9 heures et quart", "demain à 9:15"),
    ],
)
def test_a_clock_time_in_words_is_read_as_in_digits(phrase: str, said_in_digits: str) -> None:
    """ "halb sechs", "half five", "las cinco y media": the time the same words in digits
    give (with their reading of the afternoon)."""
    in_words, in_digits = read_when(phrase, NOW), read_when(said_in_digits, NOW)
    assert in_words is not None and in_digits is not None
    assert (in_words.day, in_words.start) == (in_digits.day, in_digits.start)


@pytest.mark.parametrize(
    "phrase",
    ["Envía el correo a dos personas", "at one of the cafés", "à deux pas de chez moi",
     "for two hours", "I have two kids", "Bloque deux heures jeudi pour le rapport",
     "Let us meet at two locations", "Invita a las dos amigas"],
)  # fmt: skip
def test_a_number_word_that_is_no_clock_time_is_no_time(phrase: str) -> None:
    found = read_when(phrase, NOW)
    assert found is None or found.start is None


@pytest.mark.parametrize(
    ("phrase", "minutes"),
    [
        ("back by 30 minutes", 30),
        ("push it by 15 min", 15),
        ("an hour earlier", -60),
        ("eine Stunde später", 60),
        ("avancer de 15 minutes", -15),
        ("retrasar media hora", 30),
    ],
)
def test_shifts_have_a_direction(phrase: str, minutes: int) -> None:
    assert read_shift(phrase) == timedelta(minutes=minutes)


def test_a_shift_without_direction_or_amount_is_none() -> None:
    assert read_shift("move it") is None
    assert read_shift("30 minutes") is None


@pytest.mark.parametrize(
    ("phrase", "minutes"),
    [
        ("Décale le cours de piano de ce soir d'une heure", 60),
        ("Décale le dentiste de 15 minutes", 15),
        ("Verschieb den Zahnarzt um eine Stunde", 60),
        ("Move the dentist by 30 minutes", 30),
        ("Shift the call by half an hour", 30),
    ],
)
def test_moving_by_an_amount_without_a_direction_is_later(phrase: str, minutes: int) -> None:
    assert read_shift(phrase) == timedelta(minutes=minutes)


@pytest.mark.parametrize(
    "phrase",
    ["Move my 2-hour workshop to Friday", "Verschieb das Meeting um 15 Uhr", "the plumber needs "
     "two hours", "Move the 90-minute call to Thursday at 3pm"],
)  # fmt: skip
def test_a_length_or_a_new_time_is_no_shift(phrase: str) -> None:
    assert read_shift(phrase) is None


@given(st.integers(min_value=0, max_value=6), st.integers(min_value=0, max_value=400))
def test_a_weekday_is_always_ahead_within_a_week(weekday: int, offset: int) -> None:
    now = NOW + timedelta(days=offset)
    name = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    when = read_when(f"on {name[weekday]}", now)
    assert when is not None
    assert when.day.weekday() == weekday
    assert 0 <= (when.day - now.date()).days < 7


def test_grounding_keeps_copied_words_and_drops_invented_ones() -> None:
    request = "Pencil in dinner with Sam on the Tuesday after next"
    assert grounded("dinner with Sam", request)
    assert grounded("the Tuesday after next", request)
    assert not grounded("John", request)
    assert not grounded("2029-05-29", request)
    assert grounded("Zoë", "email zoe about it")  # accents folded
    assert fold("Übermorgen") == "ubermorgen"


def test_a_short_name_is_said_in_its_possessive() -> None:
    assert grounded("Tom", "What's Tom's number?")  # "tom's" is Tom's, as "Sophie's"
    assert grounded("Tom", "Chris' and Tom’s plans")
    assert not grounded("Tom", "What's Tim's number?")


def test_a_compound_holds_its_head_but_a_word_inside_another_is_not_said() -> None:
    assert grounded("Arzttermin", "Verschieb meinen Zahnarzttermin")  # the compound's head
    assert grounded("Zahnarzt", "Verschieb meinen Zahnarzttermin")  # its first part
    assert not grounded("cita", "¿Cuándo es el recital de piano?")
    assert not grounded("rent", "call my parents")


def test_a_translated_title_is_put_back_in_the_users_words_only_where_it_lines_up() -> None:
    from app.agent.intents.recognise import in_users_words

    request = "Ajoute un déjeuner avec Priya jeudi à midi"
    assert in_users_words("Dinner with Priya jeudi", request, NOW) == "déjeuner avec Priya"
    assert in_users_words("dinner with Sam", "Pencil in dinner with Sam", NOW) == "dinner with Sam"
    # More translated words before the anchor than the request has: another order, kept.
    other = "Remind me of the tax return, Erinnere mich"
    assert in_users_words(other, "Erinnere mich an die Steuer", NOW) == other
    # only the little word between the user's translated: the user's words whole
    spanish = "Apúntame una reunión con Jonas el lunes que viene a las 3 de la tarde"
    assert in_users_words("Reunion with Jonas", spanish, NOW) == "reunión con Jonas"
    # a little word before them is no part of the title to put back
    assert in_users_words("the Zahnarzt", "Trag Zahnarzt am Montag ein", NOW) == "the Zahnarzt"


@pytest.mark.parametrize(
    ("phrase", "offset", "named"),
    [
        ("30 minutes before the water is turned off", -30, "the water is turned off"),
        ("Remind me an hour before my dentist appointment, please", -60, "my dentist appointment"),
        ("eine Stunde vor dem Zahnarzt", -60, "dem zahnarzt"),
        ("une demi-heure avant le cours", -30, "le cours"),
        ("diez minutos después de la cena", 10, "la cena"),
    ],
)
def test_an_amount_before_or_after_something_named_is_read(
    phrase: str, offset: int, named: str
) -> None:
    assert read_relative(phrase) == (timedelta(minutes=offset), named)


@pytest.mark.parametrize(
    ("phrase", "offset"),
    [
        ("Remind me an hour before to print the scores", -60),
        ("erinner mich zwei Stunden vorher, dass ich Snacks besorge", -120),
        ("eine Stunde davor", -60),
        # a day pointed back at: that day, no amount before or after
        ("ponme un recordatorio esa mañana a las 9", 0),
        ("remind me that morning at 9", 0),
        ("rappelle-moi ce jour-là à 9h", 0),
        ("erinnere mich am selben Abend um 8", 0),
        ("an diesem Morgen um 9", 0),
        ("el mismo día a las 10", 0),
        ("rappelle-moi une heure avant, pour les partitions", -60),
        ("recuérdame una hora antes que tengo que imprimirlas", -60),
        ("and the day before", -24 * 60),
    ],
)
def test_an_amount_before_or_after_what_the_sentences_around_name_is_read_as_it(
    phrase: str, offset: int
) -> None:
    """Nothing named after "before": what the sentences around name, as "it" would."""
    assert read_anchored(phrase) == (timedelta(minutes=offset), "it")


@pytest.mark.parametrize(
    ("phrase", "named"),
    [
        ("remind me at 7pm the evening before the pharmacy pickup that I need my prescription",
         "the pharmacy pickup"),
        ("the day before the barbecue at 6pm", "the barbecue"),
        ("rappelle-moi la veille du barbecue à 20h", "barbecue"),
        ("erinner mich am Vorabend vom Grillen um 19 Uhr", "vom grillen"),
        ("erinnere mich am Tag davor um 8", "it"),
        ("recuérdamelo la noche anterior a la barbacoa", "la barbacoa"),
        ("un jour avant le rendez-vous à 9 heures", "le rendez-vous"),
        ("a day before the 3 meetings", "the 3 meetings"),  # a number, not a clock time
        ("Erinnere mich am Abend vor dem Konzert um 18 Uhr daran, die Karten auszudrucken",
         "dem konzert"),
        ("remind me the morning before the flight", "the flight"),
    ],
)  # fmt: skip
def test_the_day_before_something_is_read_without_the_clock_time_said_beside(
    phrase: str, named: str
) -> None:
    """ "The evening before", "la veille", "am Vortag" say a day before without an amount; a
    clock time beside is when on that day, not part of what is named."""
    assert read_relative(phrase) == (timedelta(days=-1), named)


@pytest.mark.parametrize("phrase", ["Remind me after lunch", "remind me at 5 to call mum", ""])
def test_no_amount_or_nothing_named_is_no_relative_time(phrase: str) -> None:
    assert read_relative(phrase) is None


@pytest.mark.parametrize(
    "phrase",
    ["Saturday and Sunday", "samstag und sonntag", "samedi et dimanche", "el sábado y el domingo"],
)
def test_two_days_one_after_the_other_are_both(phrase: str) -> None:
    """ "what have I got on, Saturday and Sunday?": both days, not the first or the last."""
    when = read_when(phrase, NOW)
    assert when is not None and (when.day, when.days) == (date(2029, 5, 19), 2)
    # two days apart are each their own ("Friday and Monday" is no stretch of four)
    apart = read_when("Friday and Monday", NOW)
    assert apart is not None and apart.days == 1


def test_an_english_verb_is_said_in_its_ing_form_and_back() -> None:
    assert grounded("hike", "Hiking trip")
    assert grounded("hiking", "we hike on Saturday")
    assert grounded("dance", "Dancing class")
    assert not grounded("hike", "Hikaru's visit")
    assert not grounded("ring", "Rent due")
    assert not grounded("soupe", "Priya's soup")  # another language's word, not a verb form


@pytest.mark.parametrize(
    ("phrase", "hour"),
    [("el sábado por la mañana … a eso de las 7", 7), ("Saturday morning. At 7", 7),
     ("samedi matin vers 7", 7), ("Samstag morgens so gegen 7", 7),
     ("el sábado a las 7", 19), ("mañana a las 7", 19), ("Saturday morning at 3pm", 15)],
)  # fmt: skip
def test_a_bare_hour_is_in_the_morning_when_the_morning_is_said(phrase: str, hour: int) -> None:
    when = read_when(phrase, NOW)
    assert when is not None and when.start == time(hour), when
