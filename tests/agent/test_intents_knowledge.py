"""A question about the world asked in German, French or Spanish is asked of the model in
English and its answer said in the user's language (`app.agent.intents.knowledge`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.agent.gate.policy import ContextState
from app.agent.intents.knowledge import knowledge_question, through_english
from app.agent.intents.router import IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import SYSTEM_PROMPT, Conversation
from app.agent.turn.loop import Agent
from app.llm.scripted import ScriptedBackend
from tests.agent.test_intents import Answers
from tests.scripting import call


@pytest.mark.parametrize(
    ("request_", "language", "question"),
    [
        ("Was ist die Hauptstadt von Kanada?", "de", "Was ist die Hauptstadt von Kanada?"),
        ("Apropos Italien: Wie heißt die Hauptstadt von Sizilien?", "de",
         "Apropos Italien: Wie heißt die Hauptstadt von Sizilien?"),
        ("J'ai un doute. Qui a peint la Joconde ?", "fr", "Qui a peint la Joconde ?"),
        ("¿Cuántos lados tiene un hexágono?", "es", "¿Cuántos lados tiene un hexágono?"),
    ],
)  # fmt: skip
def test_a_question_about_the_world_in_another_language_is_asked_in_english(
    request_: str, language: str, question: str
) -> None:
    assert knowledge_question(request_, language) == question  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("request_", "language"),
    [
        ("What is the capital of Canada?", "en"),  # asked as written
        ("Wann ist mein Zahnarzttermin?", "de"),  # the user's own
        ("Qu'est-ce qu'elle a dit ?", "fr"),  # someone named before
        ("Hier sollen es 25 Grad werden. Wie viel ist das in Fahrenheit?", "de"),  # said before
        ("Hoy ha sido un día largo.", "es"),  # no question
        ("¿Tengo algo ese día después de comer?", "es"),  # "tengo": the user; "ese día"
        ("¿Cuánto gastamos en abril?", "es"),  # "gastamos": the user with others
        ("Est-ce que ce jour-là c'est libre ?", "fr"),  # "ce jour-là": named before
    ],
)
def test_talk_english_and_questions_needing_what_came_before_are_asked_as_written(
    request_: str, language: str
) -> None:
    assert knowledge_question(request_, language) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("request_", "language"),
    [
        ("¿Cuántos gramos tiene un kilo?", "es"),  # "gramos" is no "we"
        ("¿Cuántos primos tenía Mozart?", "es"),
        ("Welcher ist der größte Planet in unserem Sonnensystem?", "de"),  # "our" of everyone
        ("Quelle est la plus grande planète de notre système solaire ?", "fr"),
        ("Wie weit ist unser Mond entfernt?", "de"),
    ],
)
def test_words_like_we_or_ours_of_everyone_leave_a_question_about_the_world(
    request_: str, language: str
) -> None:
    assert knowledge_question(request_, language) == request_  # type: ignore[arg-type]


def test_a_question_reported_without_a_mark_is_asked_by_its_own_words() -> None:
    """ "Meine Tochter fragt, wie viele Beine eine Spinne hat.": the reported question, found
    apart from the talk around it, is what is asked."""
    request_ = "Meine Tochter fragt mich, wie viele Beine eine Spinne hat. Ich komm nicht drauf."
    assert knowledge_question(request_, "de") is None
    asked = "wie viele Beine eine Spinne hat"
    assert knowledge_question(request_, "de", asked) == asked


def test_the_answer_is_written_in_english_and_said_in_the_users_language() -> None:
    writes: list[tuple[str, str, bool]] = []
    replies = iter(["What is the capital of Canada?", "Ottawa.", "Ottawa."])

    def write(system: str, user: str, stream: bool) -> str:
        writes.append((system, user, stream))
        return next(replies)

    assert through_english(write, "Was ist die Hauptstadt von Kanada?", "de", "SYSTEM") == "Ottawa."
    (_, asked, quiet), (system, english, silent), (to_german, said, streamed) = writes
    assert asked == "Translate into English: Was ist die Hauptstadt von Kanada?"
    assert (system, english) == ("SYSTEM", "What is the capital of Canada?")
    assert "German" in to_german and said == "Translate into German: Ottawa."
    # only the answer in the user's language reaches the window as it is written
    assert (quiet, silent, streamed) == (False, False, True)


def test_nothing_written_in_english_gives_no_answer() -> None:
    assert through_english(lambda *_: "", "¿Quién escribió el Quijote?", "es", "S") == ""


def _agent(turns: list[str], home: Path) -> tuple[Agent, ScriptedBackend]:
    backend = ScriptedBackend.from_data({"format": "qwen3.5", "intents": True, "turns": turns})
    registry = build_registry(folders=[home])
    agent = Agent(backend, registry, ContextState(allowed_folders=[str(home)]), confirmer=Answers())
    agent.front = IntentRouter()
    return agent, backend


def test_a_german_question_is_answered_through_english_and_an_english_one_as_asked(
    tmp_path: Path,
) -> None:
    question = "Wie viele Tage hat ein Schaltjahr?"
    turns = [call("just_answer"), "How many days does a leap year have?", "366.", "366 Tage."]
    agent, backend = _agent(turns, tmp_path)
    conversation = Conversation()
    report = agent.run_turn(conversation, question)
    assert (report.calls, report.answer) == ([], "366 Tage.")
    assert conversation.messages[-1].content == "366 Tage."
    answered = backend.requests[-2]
    assert answered.tool_choice == "none"
    assert answered.messages == [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "How many days does a leap year have?"},
    ]
    # asked in English, one plain answer with the conversation
    agent, backend = _agent([call("just_answer"), "366 days."], tmp_path)
    report = agent.run_turn(Conversation(), "How many days does a leap year have?")
    assert report.answer == "366 days."
    assert backend.requests[-1].messages[-1]["content"] == "How many days does a leap year have?"


def test_a_refused_question_is_asked_once_more_alone(tmp_path: Path) -> None:
    """ "I apologize, but I can't assist with that request." for a harmless question (the
    0.5B coding model's): the question is asked once more, alone, under a plain instruction;
    that answer is the one kept. In German through English the same, before translating."""
    refusal = "I apologize, but I can't assist with that request."
    request_ = "Finally finished that novel last night. Who wrote The Remains of the Day?"
    agent, backend = _agent([call("just_answer"), refusal, "Kazuo Ishiguro."], tmp_path)
    conversation = Conversation()
    report = agent.run_turn(conversation, request_)
    assert (report.calls, report.answer) == ([], "Kazuo Ishiguro.")
    assert conversation.messages[-1].content == "Kazuo Ishiguro."
    assert backend.requests[-1].messages[-1]["content"] == "Who wrote The Remains of the Day?"
    german = [call("just_answer"), "How many legs does a spider have?", refusal, "Eight.",
              "Acht."]  # fmt: skip
    agent, backend = _agent(german, tmp_path)
    report = agent.run_turn(Conversation(), "Wie viele Beine hat eine Spinne?")
    assert report.answer == "Acht."
    # a refusal asked again that refuses again is said as it is
    agent, _ = _agent([call("just_answer"), refusal, refusal], tmp_path)
    assert agent.run_turn(Conversation(), "Who wrote Hamlet?").answer == refusal


def test_refused_talk_is_replied_to_once_more(tmp_path: Path) -> None:
    refusal = "I'm sorry, but I can't help with that."
    agent, backend = _agent([call("just_answer"), refusal, "Mondays are the worst!"], tmp_path)
    report = agent.run_turn(Conversation(), "Ugh, what a Monday.")
    assert report.answer == "Mondays are the worst!"
    assert backend.requests[-1].messages == [
        {"role": "system", "content": "Reply to the user's message briefly and kindly."},
        {"role": "user", "content": "Ugh, what a Monday."},
    ]


def test_translations_are_the_models_most_likely_words_and_the_answer_a_sample(
    tmp_path: Path,
) -> None:
    """A translation has one right answer: written greedily (sampled, the 0.5B model gave the
    same German question two translations in one turn); the answer keeps the app's sampling."""
    turns = [call("just_answer"), "How many days does a leap year have?", "366.", "366 Tage."]
    agent, backend = _agent(turns, tmp_path)
    agent.run_turn(Conversation(), "Wie viele Tage hat ein Schaltjahr?")
    to_english, answered, to_german = backend.requests[-3:]
    assert to_english.sampling.temperature == 0.0 and to_german.sampling.temperature == 0.0
    assert answered.sampling.temperature == agent.sampling.temperature > 0.0


@pytest.mark.parametrize(
    ("request_", "turns", "answer"),
    [
        ("Long night, the neighbours partied till three and I'm useless today. Anyway, which "
         "planet is the biggest one?", [call("something_else"), "Jupiter."], "Jupiter."),
        ("Mein Neffe macht gerade Hausaufgaben und ich steh auf dem Schlauch. Wie viele "
         "Kontinente gibt es?", [call("something_else"), "continents",
                                 "How many continents are there?", "Seven.", "Sieben."],
         "Sieben."),
        # who is right about a claim told before: the claim is asked about, "we" or not
        ("Sam and I had a whole debate at dinner: Pluto is still a planet, right? We said "
         "yes. Were we actually wrong??", [call("something_else"), "Yes, since 2006."],
         "Yes, since 2006."),
        ("Ma sœur dit que la Grande Muraille se voit depuis l'espace. Qui a raison ?",
         [call("something_else"), "Great Wall", "Non, à l'œil nu elle ne se voit pas."],
         "Non, à l'œil nu elle ne se voit pas."),
        # a question taken for a reminder, none asked for
        ("My sister's flying in tomorrow and only thinks in Fahrenheit. It's about 20 degrees "
         "here this week - what is that in Fahrenheit, so I can tell her what to pack?",
         [call("set_reminder", what="tell her what to pack", when="tomorrow"), "68 °F."],
         "68 °F."),
        # a bet to settle, taken for a reminder or a move
        ("Settle something for me: my flatmate swears Sydney is the capital of Australia and "
         "we've got a fiver riding on it. Who wins?",
         [call("set_reminder", what="capital of Australia", when=""), "You do: Canberra."],
         "You do: Canberra."),
        ("Un collègue jure que la capitale de l'Australie, c'est Sydney. J'ai comme un "
         "doute… tu peux nous départager ?",
         [call("move_event", event="collègue", to=""), "capital Australia",
          "C'est Canberra."], "C'est Canberra."),
    ],
)  # fmt: skip
def test_a_question_of_general_knowledge_taken_for_something_else_is_answered_plainly(
    tmp_path: Path, request_: str, turns: list[str], answer: str
) -> None:
    """Chatter, then a question about the world, taken for something the catalogue lacks:
    answered plainly (no tool), not handed to the loop that would search every store."""
    agent, backend = _agent(turns, tmp_path)
    report = agent.run_turn(Conversation(), request_)
    assert (report.calls, report.answer) == ([], answer)
    assert all(r.tool_choice == "none" for r in backend.requests[1:])  # no tool offered


def test_a_question_of_a_day_taken_for_something_else_is_left_to_the_loop(
    tmp_path: Path,
) -> None:
    """ "… What's the weather going to be like tomorrow in Hamburg?": a plain answer cannot
    know it; the loop (with its web search) takes it."""
    agent, backend = _agent([call("something_else"), "I can't know that."], tmp_path)
    report = agent.run_turn(
        Conversation(), "I'm driving up north later. What's the weather like in Hamburg tomorrow?"
    )
    assert report.answer == "I can't know that."
    assert backend.requests[-1].tools and backend.requests[-1].tool_choice != "none"
