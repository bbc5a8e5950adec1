"""A request's telling words in English, for looking up things kept in English.

People often ask in their own language about mail and files written in another: "Wann wird
das Wasser abgestellt?" about the building manager's English email. A word search in the
request's language finds nothing there, so when it found nothing the model is asked one
narrow question, the question's key words in English, and the search is tried once more with
those. Only the search uses them: the answer is still given from the text found, in the
request's language.
"""

from __future__ import annotations

from app.agent.intents.recognise import WORD
from app.agent.intents.router import Doing

_PROMPT = (
    "Write the key words of the user's message in English: the names and the things it is "
    "about, as they would appear in an email or a file. Write only the words, separated by "
    "spaces, at most six, nothing else."
)
_MOST = 6


def english_words(doing: Doing, text: str) -> str:
    """`text`'s key words in English (names kept); "" when the request is in English already
    or the model gave nothing usable."""
    if doing.language == "en" or not text.strip():
        return ""
    written = doing.write(_PROMPT, text)
    words = [w.strip(".'-") for w in WORD.findall(written.split("\n")[0])]
    return " ".join(w for w in words[:_MOST] if w)
