"""A general-knowledge question asked in German, French or Spanish, answered through English.

A small model knows far less when asked in another language than in English: "Was ist die
Hauptstadt von Australien?" got "Sydney" where "What is the capital of Australia?" got
"Canberra". Measured on 18 such questions in German, French and Spanish (`bench/knowledge.py`:
mountains, capitals, authors, a spider's legs), Qwen2.5-Coder-1.5B answered 10 right asked as
written and 17 with the question translated into English, answered in English and the answer
translated back; the 0.5B model 6 and 9; in 2.1 times the seconds. So a question about the
world, asked in one of those languages, is asked in English and its answer said in the user's
language: three short writes instead of one, and only for a question, never for talk. (The
answer's wording suffers a little in the translation back: "acht Fäden" for eight legs.)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app.agent.intents.language import (
    Language,
    points_back,
    refers_to_someone,
    speaks_of_the_user,
    the_question,
    translation,
)

_NAMES = {"de": "German", "fr": "French", "es": "Spanish"}
# The narrow question that translates a message into English (the lookups ask it too).
TO_ENGLISH = "You translate messages into English. Write only the English translation."

# A narrow question to the model: (system prompt, user text, stream to the user) -> its text.
Write = Callable[[str, str, bool], str]

# A coding model's refusal of a harmless question: "I apologize, but I can't assist with that
# request." (the 0.5B model, asked who wrote a novel, or how many legs a spider has).
_REFUSAL = re.compile(
    r"^\W*(?:i'?m sorry|i am sorry|i apologi[sz]e|sorry|unfortunately)\b[^.!?]{0,40}?"
    r"\b(?:can'?t|cannot|can not|am unable to|unable to|am not able to)\s+"
    r"(?:assist|help|answer|provide|comply)",
    re.IGNORECASE,
)
# The question asked once more after a refusal: with no persona or conversation around it.
ANSWER_PLAINLY = "Answer the user's question briefly and directly."
REPLY_PLAINLY = "Reply to the user's message briefly and kindly."


def refused(answer: str) -> bool:
    """Whether `answer` is a refusal to answer at all."""
    return bool(_REFUSAL.search(answer.replace("’", "'")))


def knowledge_question(request: str, language: Language, asked: str | None = None) -> str | None:
    """The question of `request` to answer through English (`asked`: its own words, apart
    from the talk around it, when known), or None: the request is in English, asks nothing,
    or asks about the user, someone named before or something said before ("und die von
    Kalabrien?" needs the turn before it)."""
    if language not in _NAMES:
        return None
    question = (asked or the_question(request)).strip()
    if not question or (asked is None and not question.endswith("?")):
        return None
    someone = refers_to_someone(re.sub(r"['’]", " ", question))  # "qu'elle", "l'a-t-il"
    if speaks_of_the_user(question) or someone or points_back(question):
        return None
    return question


def through_english(
    write: Write, question: str, language: Language, system: str, translate: Write | None = None
) -> str:
    """`question` asked in English under `system`, the answer said in `language` (streamed to
    the user as it is written); "" when a step gave nothing. `translate`: how the two
    translations are written (`write` if not given)."""
    translate = translate or write
    english = translate(TO_ENGLISH, f"Translate into English: {question}", False)
    if not english:
        return ""
    answer = write(system, english, False)
    if refused(answer):
        answer = write(ANSWER_PLAINLY, english, False)
    if not answer or refused(answer):
        return ""
    return translate(*translation(language, answer), True)
