"""Everyday sums worked out by code (`intents.sums`), in the four languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.agent.intents.language import Language
from app.agent.intents.router import IntentRouter
from app.agent.intents.sums import worked_out
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.loop import Agent
from app.llm.scripted import ScriptedBackend
from tests.scripting import call


@pytest.mark.parametrize(
    ("text", "language", "answer"),
    [
        ("quick one, dinner came to 87 euros and there were 3 of us. how much does everyone "
         "owe?", "en", "€87 ÷ 3 = €29 each."),
        ("split the $60 taxi 4 ways", "en", "$60 ÷ 4 = $15 each."),
        ("Wir waren zu dritt essen, die Rechnung war 94,50 €. Wie viel zahlt jeder?", "de",
         "94,50 € ÷ 3 = 31,50 € pro Person."),
        ("on était 4 au resto, 130 euros au total, ça fait combien par personne ?", "fr",
         "130 € ÷ 4 = 32,50 € par personne."),
        ("éramos cinco y la cena costó 112 euros, ¿cuánto paga cada uno?", "es",
         "112 € ÷ 5 = 22,40 € por persona."),
        # "a 3-course dinner" is no three people
        ("a 3-course dinner for 2 came to 87 euros, how much each?", "en",
         "€87 ÷ 2 = €43.50 each."),
        # a third of a cent is rounded
        ("100 euros between 3 people, how much each?", "en", "€100 ÷ 3 = €33.33 each."),
        # a tip added on top, then shared
        ("dinner for 4 of us came to 138 euros and i wanna add a 10% tip on top, how much "
         "does everyone pay?", "en", "€138 + 10 % = €151.80; ÷ 4 = €37.95 each."),
        ("Wir waren zu viert essen, 138 Euro plus 10 % Trinkgeld, wie viel zahlt jeder?", "de",
         "138 € + 10 % = 151,80 €; ÷ 4 = 37,95 € pro Person."),
        ("éramos 3, la cena fueron 90 euros con una propina del 10 %, ¿cuánto paga cada uno?",
         "es", "90 € + 10 % = 99 €; ÷ 3 = 33 € por persona."),
        ("what's a 15% tip on 64 euros?", "en", "15 % of €64 is €9.60."),
        ("wie viel sind 20 Prozent von 85?", "de", "20 % von 85 sind 17."),
        # a temperature in the other scale, a length in minutes
        ("Il fait 68 °F à New York selon mon amie, ça fait combien en Celsius ?", "fr",
         "68 °F, c'est 20 °C."),
        ("what is 20 degrees celsius in fahrenheit", "en", "20 °C is 68 °F."),
        ("Wie viel sind 100 Grad Fahrenheit in Celsius?", "de", "100 °F sind 37,8 °C."),
        ("uf, qué día. oye, ¿cuántos minutos son 3 horas y media?", "es", "Son 210 minutos."),
        # a measure in another unit of its kind
        ("dis, au fait, un pouce ça fait combien de centimètres déjà ?", "fr",
         "1 in, c'est 2,54 cm."),
        ("how many grams in an ounce", "en", "1 oz is 28.35 g."),
        ("Was sind 5 Meilen in Kilometern?", "de", "5 mi sind 8,05 km."),
        ("¿cuántos kilos son 10 libras?", "es", "10 lb son 4,54 kg."),
        ("a 3 m cable, how long is that in feet?", "en", "3 m is 9.84 ft."),
        ("quick q - how many tablespoons are in a cup?", "en", "1 cup (US) is 16 tbsp."),
        ("¿cuántas cucharadas tiene una taza?", "es", "1 cup (US) son 16 tbsp."),
    ],
)  # fmt: skip
def test_a_shared_bill_or_a_percentage_is_worked_out(
    text: str, language: Language, answer: str
) -> None:
    assert worked_out(text, language) == answer


@pytest.mark.parametrize(
    "text",
    [
        "I spent 40 euros at the market on Friday",  # no one to share it with
        "Lunch with 3 people on Friday at 12",  # no amount
        "we were 3 at dinner: 40 euros for food and 20 euros for wine, how much each?",  # two
        "How much did I spend on groceries in April?",
        "it was 30 C today, way too hot",  # no other scale asked for
        "What's the boiling point of water in Fahrenheit?",  # no temperature given
        "I ran 5 miles today",  # no other unit asked for
        "buy 2 kg apples and 500 g flour",  # two amounts, none asked
        "add 2 lb of flour to the list, about 1 kg",
        "is 5 km more than 3 miles?",
        "Put a 10 km run in my calendar for tomorrow at 7",
        "how many km is it to Lisbon?",  # one unit, no amount
        "add 2 tbsp of sugar and a cup of milk to the list",
    ],
)
def test_no_sum_is_made_up_where_the_request_asks_none(text: str) -> None:
    assert worked_out(text, "en") is None


@pytest.mark.parametrize(
    ("request_", "taken_for", "answer"),
    [
        ("quick one, dinner came to 87 euros and there were 3 of us. how much does everyone "
         "owe?", call("spending"), "€87 ÷ 3 = €29 each."),
        ("Wir waren zu viert beim Italiener, 98 Euro zusammen. Wie viel muss jeder zahlen?",
         call("just_answer"), "98 € ÷ 4 = 24,50 € pro Person."),
        ("dis, au fait, un pouce ça fait combien de centimètres déjà ?",
         call("show_calendar"), "1 in, c'est 2,54 cm."),
    ],
)  # fmt: skip
def test_a_sum_taken_for_spending_or_a_plain_answer_is_worked_out_by_code(
    request_: str, taken_for: str, answer: str
) -> None:
    """The 0.5B model took a shared bill for the user's spending and answered "Everyone owes
    5,000 euros.": code divides, no tool runs and the model writes nothing."""
    backend = ScriptedBackend.from_data(
        {"format": "qwen3.5", "intents": True, "turns": [taken_for, "Everyone owes 5,000 euros."]}
    )
    agent = Agent(backend, build_registry())
    agent.front = IntentRouter()
    report = agent.run_turn(Conversation(), request_)
    assert report.answer == answer and report.calls == []


def test_a_measure_asked_of_something_taken_for_spending_is_answered_plainly(
    tmp_path: Path,
) -> None:
    """ "un marathon complet ça fait combien de km exactement ?" taken for spending at
    "Marathon": no money is asked; the model answers, no statement is read."""
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": [
        call("spending", merchant="Marathon", month=""), "42,195 km."]})  # fmt: skip
    agent = Agent(backend, build_registry([tmp_path]))
    agent.front = IntentRouter()
    report = agent.run_turn(
        Conversation(), "au fait un marathon complet ça fait combien de km exactement ?"
    )
    assert report.answer == "42,195 km." and report.calls == [], report.answer


@pytest.mark.parametrize(
    ("request_", "taken_for", "asked"),
    [
        ("Dis, comment on dit « je suis en retard, commencez sans moi » en allemand ? c'est "
         "pour mes collègues", call("ask_files", about="allemand"),
         "Translate into German: je suis en retard, commencez sans moi"),
        ("how do you say \"thank you for dinner\" in Spanish?", call("find_emails", about="dinner"),
         "Translate into Spanish: thank you for dinner"),
        ("¿Cómo se dice buenos días en alemán?", call("just_answer"),
         "Translate into German: buenos días"),
    ],
)  # fmt: skip
def test_a_phrase_asked_in_another_language_is_translated_without_a_tool(
    request_: str, taken_for: str, asked: str
) -> None:
    """ "comment on dit « … » en allemand ?" taken for a look through the files: the words
    are translated by a narrow question to the model, and nothing is looked up."""
    backend = ScriptedBackend.from_data(
        {"format": "qwen3.5", "intents": True,
         "turns": [taken_for, "Ich bin spät dran, fangt ohne mich an."]}
    )  # fmt: skip
    agent = Agent(backend, build_registry())
    agent.front = IntentRouter()
    report = agent.run_turn(Conversation(), request_)
    assert report.answer == "Ich bin spät dran, fangt ohne mich an." and report.calls == []
    assert backend.requests[-1].messages[-1]["content"] == asked


@pytest.mark.parametrize(
    "text",
    ["translate this email into German", "What is the capital of Germany?",
     "what is in my calendar in German time", "Can you email Tom in English?"],
)  # fmt: skip
def test_no_translation_is_read_where_no_words_are_asked_in_another_language(text: str) -> None:
    from app.agent.intents.language import asks_for_a_translation

    assert asks_for_a_translation(text) is None
