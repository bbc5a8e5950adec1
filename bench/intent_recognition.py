"""How often a real model picks the right intent, and keeps grounded slots (issue #35).

    python -m bench.intent_recognition --model PATH.gguf [--cases test|dev|casual]

Requests in English, German, French and Spanish, worded apart from the intents' own examples;
each with the intent a person would expect (`--cases casual`: 112 requests as people type
them, with context, from bench/cases/casual_requests.jsonl; `--variant scored` for the
app's way). Prints accuracy per language, the confusions, and
seconds per request against a bare prompt evaluation of the same length in the same run.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from collections import Counter
from pathlib import Path

from app.agent.intents.catalog import INTENTS
from app.agent.intents.recognise import choice_request, recognise, recognition_request
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


# A second set for choosing between recognition designs (kept apart from CASES, which only
# measures): every intent, each language, worded apart from both CASES and the examples.
DEV_CASES: list[tuple[str, str, str]] = [
    ("en", "Am I busy next Wednesday afternoon?", "show_calendar"),
    ("en", "What time is my flight on Sunday?", "show_calendar"),
    ("en", "Add a vet appointment for Rex on the 14th at 9:30", "add_event"),
    ("en", "Push my 3 o'clock back an hour", "move_event"),
    ("en", "Call off tomorrow's team meeting", "cancel_event"),
    ("en", "Where can I fit a 90 minute workout this week?", "find_free_time"),
    ("en", "Have I heard back from the insurance company?", "find_emails"),
    ("en", "Open the latest message from my sister and tell me what she wants", "read_email"),
    ("en", "Write back to Carla that I can't make it", "reply_to_email"),
    ("en", "Email the plumber and ask when he can come", "send_email"),
    ("en", "Ping me in 20 minutes to check the oven", "set_reminder"),
    ("en", "Remember that the wifi password at grandma's is on the fridge", "remember_fact"),
    ("en", "Do you remember where I parked?", "recall_fact"),
    ("en", "I need to buy stamps, add that to my to-dos", "add_todo"),
    ("en", "Show me my open tasks", "list_todos"),
    ("en", "Mark 'book flights' as done", "complete_todo"),
    ("en", "How do I reach Uncle Ben?", "find_contact"),
    ("en", "Search online for the opening hours of the city library", "search_web"),
    ("en", "Hello there, how are you?", "just_answer"),
    ("en", "What's 15% of 80?", "just_answer"),
    ("en", "Rename the file notes.txt to old-notes.txt", "something_else"),
    ("de", "Was habe ich nächste Woche vor?", "show_calendar"),
    ("de", "Leg mir ein Abendessen mit Oma am Sonntag um 18 Uhr an", "add_event"),
    ("de", "Kannst du den Friseurtermin eine halbe Stunde nach hinten legen?", "move_event"),
    ("de", "Sag das Training am Mittwoch ab", "cancel_event"),
    ("de", "Gibt es Post von der Krankenkasse?", "find_emails"),
    ("de", "Schick Thomas eine E-Mail, dass das Paket angekommen ist", "send_email"),
    ("de", "Notier dir, dass mein Kennzeichen B-XY 123 ist", "remember_fact"),
    ("de", "Setz Blumen gießen auf meine To-do-Liste", "add_todo"),
    ("de", "Wie viele Einwohner hat Berlin?", "just_answer"),
    ("de", "Such im Netz nach dem Wetter in Hamburg", "search_web"),
    ("fr", "Est-ce que je suis libre samedi soir ?", "show_calendar"),
    ("fr", "Programme un rendez-vous chez le médecin lundi à 9h", "add_event"),
    ("fr", "Décale la réunion de demain à 16h", "move_event"),
    ("fr", "J'ai reçu un mail de la banque ?", "find_emails"),
    ("fr", "Envoie un courriel à Luc pour lui dire merci", "send_email"),
    ("fr", "Quelles sont mes tâches en cours ?", "list_todos"),
    ("fr", "Bonjour, ça va ?", "just_answer"),
    ("fr", "Quel est le numéro de téléphone de Camille ?", "find_contact"),
    ("es", "¿Qué tengo el viernes por la tarde?", "show_calendar"),
    ("es", "Agenda una cita con el dentista el martes a las 5", "add_event"),
    ("es", "Cancela la clase de guitarra del jueves", "cancel_event"),
    ("es", "¿Me escribió Carmen?", "find_emails"),
    ("es", "Contesta a Luis que sí voy", "reply_to_email"),
    ("es", "Avísame a las 8 para sacar la basura", "set_reminder"),
    ("es", "Apunta en mis tareas llamar al banco", "add_todo"),
    ("es", "Ya terminé la tarea de lavar el coche", "complete_todo"),
    ("es", "Gracias por todo", "just_answer"),
    # The intents for files, documents, spending, forgetting, reminders and contacts.
    ("en", "Drop the note about my old phone number from your memory", "forget_fact"),
    ("de", "Lösch, was du über meinen Nachbarn weißt", "forget_fact"),
    ("en", "Any reminders coming up?", "list_reminders"),
    ("fr", "Quels rappels sont programmés ?", "list_reminders"),
    ("en", "Remove my reminder about the car wash", "cancel_reminder"),
    ("es", "Quita el recordatorio de la farmacia", "cancel_reminder"),
    ("en", "New contact: Greta Holm, greta.holm@example.se", "add_contact"),
    ("de", "Füg Paul Weber zu meinen Kontakten hinzu, 0171 2345678", "add_contact"),
    ("en", "According to my notes, what's the gate code?", "ask_files"),
    ("fr", "Que dit mon contrat de travail sur les congés ?", "ask_files"),
    ("en", "List the documents in my taxes folder", "show_folder"),
    ("es", "¿Qué hay en mi carpeta de viajes?", "show_folder"),
    ("en", "Save a note named garden.txt: mow lawn, prune roses", "write_note"),
    ("de", "Leg eine Datei ideen.md an mit: Fahrradtour, Picknick", "write_note"),
    ("en", "Add batteries to the hardware store list", "add_to_list"),
    ("fr", "Mets du café sur ma liste de courses", "add_to_list"),
    ("en", "Please open the photo sunset.jpg", "open_file"),
    ("de", "Mach mir die Präsentation auf", "open_file"),
    ("en", "What did I spend on fuel last month?", "spending"),
    ("es", "¿Cuánto gasté en Mercadona en marzo?", "spending"),
]


# A third set: requests as people type them (a sentence or two of context, then what they
# want), the first turns of sixteen-task sets written apart from the app by helpers that read
# only the benchmark's format and seed, after they were used as development sets; each with
# the intents that lead to the right end (`bench/cases/casual_requests.jsonl`).
CASUAL_FILE = Path(__file__).parent / "cases" / "casual_requests.jsonl"


def casual_cases() -> list[tuple[str, str, str]]:
    """The casual requests, the accepted intents joined by "|"."""
    rows = [json.loads(line) for line in CASUAL_FILE.read_text("utf-8").splitlines() if line]
    return [(r["language"], r["text"], "|".join(r["intents"])) for r in rows]


def dump_scores(model_path: str, cases: list[tuple[str, str, str]], out: Path) -> int:
    """Each intent's score for each request, written out so that designs of the choice can
    be compared without running the model again; prints the accuracy and the misses."""
    model = LocalModel(model_path, RuntimeSettings(n_ctx=8192, n_threads=2, seed=1))
    model.load()
    cancel = threading.Event()
    names = [intent.name for intent in INTENTS]
    model.warm(choice_request("…"), cancel)
    rows = []
    right = Counter[str]()
    for language, text, expected in cases:
        started = time.perf_counter()
        scores = model.score_replies(choice_request(text), names, cancel)
        assert scores is not None
        best = max(names, key=lambda name: scores[name])
        right[language] += best in expected.split("|")
        took = time.perf_counter() - started
        rows.append(
            {"language": language, "text": text, "expected": expected, "scores": scores,
             "seconds": took}
        )  # fmt: skip
        mark = "" if best in expected.split("|") else f"✗ (expected {expected})"
        print(f"{took:5.2f} s {best:16} {mark} {text}", flush=True)
    out.write_text(json.dumps({"rows": rows}, indent=1, ensure_ascii=False), "utf-8")
    total = Counter(language for language, _, _ in cases)
    cells = ", ".join(f"{lang} {right[lang]}/{total[lang]}" for lang in total)
    print(f"scored as replies: {sum(right.values())}/{len(rows)} ({cells})")
    model.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument(
        "--variant",
        choices=("scored", "written", "staged", "all"),
        default="all",
        help="the intent chosen by calibrated likelihood, by writing the call, area then "
        "intent by writing, or all three in one run",
    )
    parser.add_argument(
        "--cases",
        choices=("test", "dev", "casual"),
        default="test",
        help="the measuring set (default), the set for choosing between designs, or the "
        "requests worded as people type them (bench/cases/casual_requests.jsonl)",
    )
    parser.add_argument(
        "--scores",
        type=Path,
        help="only score every intent for each request (no slots) and write the scores to "
        "this JSON file",
    )
    args = parser.parse_args(argv)
    cases = {"test": CASES, "dev": DEV_CASES}.get(args.cases) or casual_cases()
    if args.scores:
        return dump_scores(args.model, cases, args.scores)
    model = LocalModel(args.model, RuntimeSettings(n_ctx=8192, n_threads=2, seed=1))
    model.load()
    cancel = threading.Event()
    # Baseline: the recognition prompt evaluated once, cold (the tool block every request
    # shares); each request is then measured with the prompt cached.
    started = time.perf_counter()
    model.warm(recognition_request("…"), cancel)
    cold = time.perf_counter() - started
    variants = ["scored", "written", "staged"] if args.variant == "all" else [args.variant]
    right: dict[str, Counter[str]] = {v: Counter() for v in variants}
    seconds: dict[str, float] = dict.fromkeys(variants, 0.0)
    total: Counter[str] = Counter()
    wrong: list[str] = []
    for language, text, expected in cases:
        total[language] += 1
        for variant in variants:
            started = time.perf_counter()
            got = recognise(
                model, text, cancel, staged=variant == "staged", scored=variant == "scored"
            )
            seconds[variant] += time.perf_counter() - started
            name = got.intent.name if got else "(none)"
            mark = "" if name in expected.split("|") else "✗"
            if mark:
                wrong.append(f"{variant} {language}: {text!r} → {name} (expected {expected})")
            else:
                right[variant][language] += 1
            slots = got.slots if got else {}
            print(f"{variant:7} {name:16} {mark:1} {text}  {slots}", flush=True)
    per = len(cases)
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
