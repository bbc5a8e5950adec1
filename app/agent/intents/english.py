"""A request's telling words in English, for looking up things kept in English.

People often ask in their own language about mail and files written in another: "Wann wird
das Wasser abgestellt?" about the building manager's English email. A word search in the
request's language finds nothing there, so when it found nothing the model is asked to
translate the request, and the search is tried once more with the translation's telling words.
Translating is what a small model does best of such questions: asked for "the key words in
English" the 0.5B model wrote German back, or an answer ("Aguardo más información."), while
its translations name the things asked about ("food", "balance", "dentist"). Only the search
uses them: the answer is still given from the text found, in the request's language.
"""

from __future__ import annotations

from app.agent.intents.glossary import in_english
from app.agent.intents.knowledge import TO_ENGLISH
from app.agent.intents.language import is_function_word
from app.agent.intents.recognise import WORD
from app.agent.intents.router import Doing
from connectors.folding import fold

_MOST = 8
# Words a small model wraps a translation in ("Translate to English: …").
_ABOUT_TRANSLATING = {"translate", "translated", "translation", "english", "message"}


def english_words(doing: Doing, text: str) -> str:
    """`text`'s telling words in English (names kept); "" when the request is in English
    already or the model gave nothing usable."""
    if doing.language == "en" or not text.strip():
        return ""
    if text in doing.english:  # asked again in the same turn (a second search of the same)
        return doing.english[text]
    # everyday things from the glossary first; the model translates the rest, unless every
    # telling word is one ("le plombier": "plumber", no model step)
    telling = [w for w in WORD.findall(text) if len(w) > 2 and not is_function_word(w)]
    known = [english for w in telling if (english := in_english(w))]
    words = known
    if len(known) < len(telling) or not known:
        written = doing.write(TO_ENGLISH, f"Translate into English: {text}", exact=True)
        words = [*known, *(w.strip(".'-") for w in WORD.findall(written))]
    kept = dict.fromkeys(
        w for w in words
        if len(w) > 2 and fold(w) not in _ABOUT_TRANSLATING and not is_function_word(w)
    )  # fmt: skip
    doing.english[text] = " ".join(list(kept)[:_MOST])
    return doing.english[text]
