"""General-knowledge questions in German, French and Spanish: asked as written against asked
through English (`app.agent.intents.knowledge`), right answers counted, same model, same run;
and questions reported before "do you know?", shown whole against asked as one.

A small model knows less when asked in another language; this measures how many of the
questions below each way answers right (a name or number the answer must hold, in the
question's language or in English). Greedy decoding, so one run per model is the figure.

    python bench/knowledge.py --model <a GGUF, e.g. Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf>
"""

from __future__ import annotations

import argparse
import re
import threading
import time

from _common import report

from app.agent.intents.knowledge import through_english
from app.agent.intents.language import reported_question, sentences
from app.agent.turn.chat import SYSTEM_PROMPT
from app.llm.backend import SamplingSettings, StepRequest
from app.llm.runtime import LocalModel, RuntimeSettings

# (language, question, what a right answer holds)
QUESTIONS = [
    ("de", "Was ist der höchste Berg Deutschlands?", r"zugspitze"),
    ("de", "Was ist die Hauptstadt von Kanada?", r"ottawa"),
    ("de", "Wie viele Beine hat eine Spinne?", r"\b(8|acht|eight)\b"),
    ("de", "Wer hat den Faust geschrieben?", r"goethe"),
    ("de", "Wie viele Tage hat ein Schaltjahr?", r"366"),
    ("de", "Was ist die Hauptstadt von Australien?", r"canberra"),
    ("fr", "Quel est le plus haut sommet d'Allemagne ?", r"zugspitze"),
    ("fr", "Quelle est la capitale de l'Australie ?", r"canberra"),
    ("fr", "Combien de côtés a un hexagone ?", r"\b(6|six)\b"),
    ("fr", "Qui a peint la Joconde ?", r"vinci"),
    ("fr", "Quelle est la plus grande planète du système solaire ?", r"jupiter"),
    ("fr", "Combien de pattes a une araignée ?", r"\b(8|huit|eight)\b"),
    ("es", "¿Cuál es la capital de Japón?", r"tok[iy]o"),
    ("es", "¿Quién escribió Don Quijote?", r"cervantes"),
    ("es", "¿Cuál es el océano más grande del mundo?", r"pac[ií]fic"),
    ("es", "¿En qué año llegó el hombre a la Luna?", r"1969"),
    ("es", "¿Cuántos lados tiene un hexágono?", r"\b(6|seis|six)\b"),
    ("es", "¿Cuál es la capital de Australia?", r"canberra"),
]
# Questions someone asked the user, reported before "do you know?": shown whole against the
# reported question asked as one (`general.general_question`).
REPORTED = [
    ("Random question - my niece asked me at breakfast how many bones a grown-up has and I "
     "totally blanked. Do you know?", r"206"),
    ("My son is doing a project on space and asked me how far away the moon is. I had no idea, "
     "do you know roughly?", r"384|238|380|385|239"),
    ("My daughter asked me what the capital of Australia is and I wasn't sure. Do you know?",
     r"canberra"),
    ("My nephew wants to know how many legs a spider has, and I forgot. Any idea?",
     r"\b(8|eight)\b"),
    ("A friend asked me who painted the Mona Lisa and I blanked. Do you remember?", r"vinci"),
    ("My kid asked me what the largest planet is and I couldn't remember. Do you know?",
     r"jupiter"),
    ("We were arguing at dinner about when the Berlin Wall fell. Do you know?", r"1989"),
    ("My partner asked how many sides a hexagon has and I drew a blank. Do you know?",
     r"\b(6|six)\b"),
]  # fmt: skip
SAMPLING = SamplingSettings(temperature=0.0, top_k=1, max_tokens=80)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", help="write the results here as JSON")
    args = parser.parse_args(argv)
    model = LocalModel(args.model, RuntimeSettings(n_ctx=4096, n_threads=args.threads, seed=1))
    model.load()
    cancel = threading.Event()

    def write(system: str, user: str, _stream: bool = False) -> str:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        request = StepRequest(messages=messages, sampling=SAMPLING, tool_choice="none")
        return model.step(request, lambda _event: None, cancel).text.strip()

    right = {"as_written": 0, "through_english": 0}
    seconds = {"as_written": 0.0, "through_english": 0.0}
    rows = []
    for language, question, holds in QUESTIONS:
        started = time.perf_counter()
        plain = write(SYSTEM_PROMPT, question)
        seconds["as_written"] += time.perf_counter() - started
        started = time.perf_counter()
        english = through_english(write, question, language, SYSTEM_PROMPT)  # type: ignore[arg-type]
        seconds["through_english"] += time.perf_counter() - started
        row: dict[str, object] = {"question": question, "as_written": plain,
                                  "through_english": english}  # fmt: skip
        for way, answer in (("as_written", plain), ("through_english", english)):
            found = bool(re.search(holds, answer.lower()))
            row[f"{way}_right"] = found
            right[way] += found
        rows.append(row)
        print(
            f"{question}\n  as written:      {plain[:100]!r}\n  through English: {english[:100]!r}"
        )
    for message, holds in REPORTED:
        reported = reported_question(sentences(message)[0]) or message
        shown = f"{reported[:1].upper()}{reported[1:]}?" if reported != message else message
        for way, asked in (("whole", message), ("reported", shown)):
            answer = write(SYSTEM_PROMPT, asked)
            found = bool(re.search(holds, answer.lower()))
            right[f"reported_{way}"] = right.get(f"reported_{way}", 0) + found
            rows.append({"question": asked, "answer": answer, "right": found})
    print(
        f"reported questions, right of {len(REPORTED)}: shown whole "
        f"{right.get('reported_whole', 0)}, asked as the question reported "
        f"{right.get('reported_reported', 0)}"
    )
    ratio = seconds["through_english"] / max(seconds["as_written"], 1e-9)
    print(
        f"right of {len(QUESTIONS)}: as written {right['as_written']}, through English "
        f"{right['through_english']}; seconds through English {ratio:.2f}x as written"
    )
    report("knowledge", {"model": args.model, "right": right, "seconds": seconds, "rows": rows},
           args.json)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
