"""How often a real model picks the right intent, and keeps grounded slots (issue #35).

    python -m bench.intent_recognition --model PATH.gguf [--markdown]

Requests in English, German, French and Spanish, worded apart from the intents' own examples;
each with the intent a person would expect. Prints accuracy per language, the confusions, and
seconds per request against a bare prompt evaluation of the same length in the same run.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections import Counter

from app.agent.intents.recognise import recognise, recognition_request
from app.llm.runtime import LocalModel, RuntimeSettings

CASES: list[tuple[str, str, str]] = [
    ("en", "What do I have going on Thursday?", "show_calendar"),
    ("en", "Is my Saturday morning free?", "show_calendar"),
    ("en", "When's the parents' evening?", "show_calendar"),
    ("en", "Pencil in dinner with Sam on the Tuesday after next", "add_event"),
    ("en", "Book a haircut for Friday at 4", "add_event"),
    ("en", "Can you shift tomorrow's 1:1 back by 30 minutes?", "move_event"),
    ("en", "Scrap the piano lesson tonight", "cancel_event"),
    ("en", "I need a two-hour gap on Monday between 8 and 1", "find_free_time"),
    ("en", "Anything from Lena about the invoice?", "find_emails"),
    ("en", "Tell Anna by email I'm running ten minutes late", "send_email"),
    ("en", "Answer Tom's message saying Friday works for me", "reply_to_email"),
    ("en", "Don't let me forget to water the plants at 7pm", "set_reminder"),
    ("en", "Note that my bike lock code is 4711", "remember_fact"),
    ("en", "Put 'renew passport' on my list of things to do", "add_todo"),
    ("en", "What's Jamie's phone number?", "find_contact"),
    ("en", "Thanks, that's all!", "just_answer"),
    ("en", "How many legs does a spider have?", "just_answer"),
    ("de", "Was steht morgen in meinem Kalender?", "show_calendar"),
    ("de", "Trag mir Zahnarzt am Freitag um 10 Uhr ein", "add_event"),
    ("de", "Verschieb das Meeting mit Jonas auf Donnerstag 14 Uhr", "move_event"),
    ("de", "Schreib Maria eine Mail, dass ich später komme", "send_email"),
    ("de", "Erinnere mich morgen früh an die Steuererklärung", "set_reminder"),
    ("de", "Danke dir!", "just_answer"),
    ("fr", "Qu'est-ce que j'ai vendredi après-midi ?", "show_calendar"),
    ("fr", "Ajoute un déjeuner avec Paul jeudi à midi", "add_event"),
    ("fr", "Annule le rendez-vous chez le dentiste", "cancel_event"),
    ("fr", "Rappelle-moi d'appeler maman dans deux heures", "set_reminder"),
    ("fr", "Cherche sur internet les horaires du Louvre", "search_web"),
    ("es", "¿Qué tengo mañana?", "show_calendar"),
    ("es", "Pon una reunión con Ana el lunes a las 9", "add_event"),
    ("es", "Mándale un correo a Tom diciendo que llego tarde", "send_email"),
    ("es", "Recuérdame comprar pan a las 6", "set_reminder"),
    ("es", "¿Cuál es la capital de Perú?", "just_answer"),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument(
        "--variant",
        choices=("single", "staged", "both"),
        default="both",
        help="one choice among all intents, area then intent, or both in one run",
    )
    args = parser.parse_args(argv)
    model = LocalModel(args.model, RuntimeSettings(n_ctx=4096, n_threads=2, seed=1))
    model.load()
    cancel = threading.Event()
    # Baseline: the recognition prompt evaluated once, cold (the tool block every request
    # shares); each request is then measured with the prompt cached.
    started = time.perf_counter()
    model.warm(recognition_request("…"), cancel)
    cold = time.perf_counter() - started
    variants = ["single", "staged"] if args.variant == "both" else [args.variant]
    right: dict[str, Counter[str]] = {v: Counter() for v in variants}
    seconds: dict[str, float] = dict.fromkeys(variants, 0.0)
    total: Counter[str] = Counter()
    wrong: list[str] = []
    for language, text, expected in CASES:
        total[language] += 1
        for variant in variants:
            started = time.perf_counter()
            got = recognise(model, text, cancel, staged=variant == "staged")
            seconds[variant] += time.perf_counter() - started
            name = got.intent.name if got else "(none)"
            mark = "" if name == expected else "✗"
            if mark:
                wrong.append(f"{variant} {language}: {text!r} → {name} (expected {expected})")
            else:
                right[variant][language] += 1
            slots = got.slots if got else {}
            print(f"{variant:6} {name:16} {mark:1} {text}  {slots}", flush=True)
    per = len(CASES)
    print()
    header = " | ".join(variants)
    print(f"| language | {header} | of |")
    print("|---|" + "---|" * len(variants) + "---|")
    for language in total:
        cells = " | ".join(str(right[v][language]) for v in variants)
        print(f"| {language} | {cells} | {total[language]} |")
    cells = " | ".join(str(sum(right[v].values())) for v in variants)
    print(f"| all | {cells} | {per} |")
    for variant in variants:
        print(
            f"{variant}: {seconds[variant] / per:.2f} s per request with the prompt cached; the "
            f"shared prompt cold {cold:.2f} s (ratio {seconds[variant] / per / cold:.2f})"
        )
    for line in wrong:
        print("miss:", line)
    model.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
