"""A folder of personal documents made by code, with questions whose answers sit in known
passages: the corpus of `bench/documents.py` and of its test.

Ten kinds of document (leases and insurance policies as PDF, employment contracts and
prescriptions as Word files, appliance manuals and recipes in Markdown, meeting notes and
travel plans as text, spending as CSV, German leases as text, whose words are compounds).
Every document of a kind says the same things about a different subject ("the flat at
Alder Lane 14" gives 3 months' notice, the one at "Birch Row 2" gives 2; names carry a number,
so no two documents share one), so a question can only
be answered from its own document: the others are near-identical distractors, as a real
folder of leases or payslips is. Questions are worded as a person would ask, not copied from
the text ("How much notice do I have to give..."), and once more in other words.

Two more kinds of question test the tier by meaning (issue #39), written for each kind of
document before any was measured and not changed after: "meaning" says what it asks in words
the document does not use at all ("how hot should the oven be" for "bake at 180 degrees";
a German paraphrase for the German lease), "other_language" asks in German, French or Spanish
about an English document, or in English about the German lease. Only the names that pick
the document (an address, a policy number) stay as they are, as a person would copy them.
"""

from __future__ import annotations

import io
import random
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.tasks.world import minimal_pdf

# Words the subjects are made of.
FIRST = ("Alder", "Amber", "Ash", "Aspen", "Beech", "Birch", "Bramble", "Cedar", "Cherry",
    "Clover", "Copper", "Crane", "Elm", "Fern", "Finch", "Flint", "Hazel", "Heath", "Holly",
    "Ivy", "Juniper", "Larch", "Laurel", "Linden", "Maple", "Marsh", "Meadow", "Myrtle", "Oak",
    "Orchard", "Pine", "Poplar", "Quarry", "Rowan", "Sage", "Sorrel", "Spruce", "Willow",
    "Wren", "Yew")  # fmt: skip
SECOND = ("Lane", "Row", "Street", "Road", "Court", "Way", "Close", "Hill", "Gardens",
    "Terrace", "Walk", "Place", "Drive", "Mews", "Green", "Square", "Crescent", "Grove", "Rise",
    "Vale", "Park", "Yard", "Quay", "Bank", "Field", "Gate", "Cross", "Heights", "Brook",
    "Dale")  # fmt: skip
ITEMS = ("kettle", "toaster", "lamp", "rug", "kayak", "saddle", "ladder", "drill", "tent",
    "easel", "cello", "telescope", "hammock", "blender", "heater", "scooter", "helmet",
    "backpack", "tripod", "router", "printer", "monitor")  # fmt: skip
COLOURS = ("red", "blue", "green", "yellow", "black", "white", "grey", "orange", "purple",
    "silver", "golden", "teal")  # fmt: skip
CITIES = ("Lisbon", "Porto", "Madrid", "Seville", "Valencia", "Lyon", "Nantes", "Bordeaux",
    "Turin", "Milan", "Naples", "Verona", "Munich", "Leipzig", "Cologne", "Vienna", "Graz",
    "Prague", "Brno", "Krakow", "Gdansk", "Ghent", "Bruges", "Utrecht", "Leiden")  # fmt: skip
DRUGS = ("amoxicillin", "ibuprofen", "metformin", "lisinopril", "omeprazole", "sertraline",
    "cetirizine")  # fmt: skip
FOODS = ("lentil pie", "onion tart", "plum cake", "fish stew", "rye bread", "pumpkin soup",
    "apple crumble")  # fmt: skip
FILLER = (
    "This document was prepared with care and should be kept with your other papers.",
    "Please read every section before signing and ask if anything is unclear.",
    "Copies of this document may be requested at any time at no extra cost.",
    "All amounts are stated in euros and include the applicable taxes.",
    "Changes to this document are only valid when made in writing.",
    "The parties confirm that they have received a copy of these terms.",
    "Personal data is processed only to carry out this agreement.",
    "Questions about this document can be sent by post or by email.",
)


LANG = "other_language"


@dataclass(frozen=True)
class Question:
    """A question, the file that answers it, and the words of the answer."""

    text: str
    path: str
    answer: str
    # "plain"; "compound": a word of the question is part of a longer word of the text
    # ("Kaution" in "Mietkaution", "Ahornstr." for "Ahornstraße"); "plural": the question says
    # it in a plural the text does not use ("Kautionen"); "meaning": none of the document's
    # topic words ("how hot should the oven be"); "other_language": another language than
    # the document's.
    kind: str = "plain"


@dataclass
class Document:
    path: str
    kind: str  # pdf / docx / md / txt / csv
    body: object  # pages (pdf), [(level, text)] (docx), text (others)
    questions: list[Question]


def filler(rng: random.Random, sentences: int) -> str:
    return " ".join(rng.choice(FILLER) for _ in range(sentences))


def _lease(rng: random.Random, subject: str, n: int) -> Document:
    months, rent, deposit = rng.randint(1, 6), rng.randint(6, 19) * 100, rng.randint(2, 3)
    path = f"home/leases/lease-{n:05}.pdf"
    pages = [
        f"Residential lease. The landlord lets the flat at {subject} to the tenant. "
        f"The monthly rent for {subject} is {rent} euros, paid on the first day of each month. "
        + filler(rng, 4),
        f"Deposit. The tenant pays a deposit of {deposit} months of rent before moving in. "
        + filler(rng, 5),
        f"Termination. Either party may end the tenancy of {subject} by giving {months} "
        f"months notice in writing. " + filler(rng, 4),
    ]
    return Document(
        path,
        "pdf",
        pages,
        [
            Question(
                f"How much notice do I have to give to leave the flat at {subject}?",
                path,
                f"{months} months notice",
            ),
            Question(f"What is the rent for {subject}?", path, f"{rent} euros"),
            # The deposit clause does not name the flat: only its document does.
            Question(
                f"How big is the deposit for the flat at {subject}?",
                path,
                f"{deposit} months of rent",
            ),
            Question(
                f"If I want to move out of {subject}, how far ahead must I tell the landlord?",
                path,
                f"{months} months notice",
                "meaning",
            ),
            Question(f"Wie viel Miete zahle ich für {subject}?", path, f"{rent} euros", LANG),
            Question(
                f"Quel est le préavis pour quitter l'appartement {subject} ?",
                path,
                f"{months} months notice",
                LANG,
            ),
        ],
    )


# German streets are compounds: "Ahorn" + "straße".
DE_FIRST = ("Ahorn", "Birken", "Buchen", "Eichen", "Erlen", "Eschen", "Fichten", "Kastanien",
    "Linden", "Tannen", "Weiden", "Ulmen", "Rosen", "Flieder", "Holunder")  # fmt: skip
DE_SECOND = ("straße", "weg", "allee", "gasse", "ring", "platz")
DE_FILLER = (
    "Dieser Vertrag ist sorgfältig aufzubewahren.",
    "Änderungen dieses Vertrags bedürfen der Schriftform.",
    "Beide Parteien bestätigen den Erhalt einer Abschrift.",
    "Alle Beträge verstehen sich in Euro einschließlich Nebenkosten.",
    "Personenbezogene Daten werden nur zur Durchführung dieses Vertrags verarbeitet.",
    "Sollte eine Bestimmung unwirksam sein, bleiben die übrigen Bestimmungen gültig.",
    "Mündliche Nebenabreden wurden nicht getroffen und gelten nicht.",
    "Der Vermieter kann die Wohnung nach vorheriger Ankündigung besichtigen.",
    "Für Schäden durch unsachgemäßen Gebrauch haftet der Mieter.",
    "Gerichtsstand ist der Ort, an dem die Wohnung liegt.",
)


def _mietvertrag(rng: random.Random, subject: str, n: int) -> Document:
    """A German lease: its words are compounds (Mietkaution, Kündigungsfrist, Ahornstraße)."""
    first, second = rng.choice(DE_FIRST), rng.choice(DE_SECOND)
    street = f"{first}{second} {n}"
    asked_street = f"{first}str. {n}" if second == "straße" else street
    rent, deposit, months = rng.randint(6, 19) * 100, rng.randint(2, 3), rng.randint(1, 6)
    path = f"wohnen/mietvertrag-{n:05}.txt"
    # A lease has many clauses, and all of them belong to the flat: its address (the title)
    # alone cannot say which clause is meant, the clause's own word must.
    text = "\n\n".join(
        (
            f"Mietvertrag für die Wohnung in der {street}. " + " ".join(rng.sample(DE_FILLER, 5)),
            f"Miete. Die monatliche Grundmiete beträgt {rent} Euro, zahlbar zum dritten "
            "Werktag. " + " ".join(rng.sample(DE_FILLER, 5)),
            "Mietzeit. Das Mietverhältnis beginnt mit der Schlüsselübergabe und läuft auf "
            "unbestimmte Zeit. " + " ".join(rng.sample(DE_FILLER, 5)),
            "Nebenkostenabrechnung. Über die Vorauszahlungen wird jährlich abgerechnet. "
            + " ".join(rng.sample(DE_FILLER, 5)),
            "Schönheitsreparaturen. Der Mieter streicht die Wände bei Auszug nicht. "
            + " ".join(rng.sample(DE_FILLER, 5)),
            "Haustierhaltung. Kleintiere sind erlaubt; für Hunde und Katzen ist die "
            "Zustimmung des Vermieters nötig. " + " ".join(rng.sample(DE_FILLER, 5)),
            "Hausordnung. Die Ruhezeiten sind von 22 bis 6 Uhr einzuhalten. "
            + " ".join(rng.sample(DE_FILLER, 5)),
            f"Mietkaution. Der Mieter zahlt vor dem Einzug eine Mietkaution von {deposit} "
            "Monatsmieten. " + " ".join(rng.sample(DE_FILLER, 5)),
            f"Kündigungsfrist. Die Kündigungsfrist beträgt {months} Monate zum Monatsende. "
            + " ".join(rng.sample(DE_FILLER, 5)),
        )
    )
    deposit_answer = f"{deposit} Monatsmieten"
    return Document(
        path,
        "txt",
        text + "\n",
        [
            Question(
                f"Wie hoch ist die Kaution für die Wohnung in der {asked_street}?",
                path,
                deposit_answer,
                "compound",
            ),
            Question(
                f"Wie lange gilt die Kündigung für die Wohnung {street}?",
                path,
                f"{months} Monate",
                "compound",
            ),
            Question(
                f"Wie hoch sind die Kautionen für die Wohnung in der {street}?",
                path,
                deposit_answer,
                "plural",
            ),
            Question(
                f"Darf ich in der Wohnung {street} einen Hund haben?",
                path,
                "Zustimmung des Vermieters",
                "meaning",
            ),
            Question(
                f"How much is the security deposit for the flat at {street}?",
                path,
                deposit_answer,
                LANG,
            ),
            Question(
                f"How much notice must I give to leave the flat at {street}?",
                path,
                f"{months} Monate",
                LANG,
            ),
        ],
    )


def _contract(rng: random.Random, subject: str, n: int) -> Document:
    company = f"{subject.split()[0]} {rng.choice(['Logistics', 'Foods', 'Media', 'Labs'])} {n}"
    weeks, days = rng.randint(2, 12), rng.randint(20, 32)
    path = f"work/contract-{n:05}.docx"
    blocks = [
        (1, f"Employment contract with {company}"),
        (0, f"This contract is made between {company} and the employee. " + filler(rng, 3)),
        (2, "Working hours"),
        (0, "The normal working week is forty hours, Monday to Friday. " + filler(rng, 3)),
        (2, "Holidays"),
        (0, f"The employee is entitled to {days} days of paid leave per calendar year."),
        (2, "Notice period"),
        (0, f"After the probation period, {company} and the employee may terminate this "
            f"contract with {weeks} weeks notice. " + filler(rng, 2)),
    ]  # fmt: skip
    return Document(
        path,
        "docx",
        blocks,
        [
            Question(
                f"What is the notice period in my contract with {company}?",
                path,
                f"{weeks} weeks notice",
            ),
            Question(
                f"How many holidays do I get at {company}?", path, f"{days} days of paid leave"
            ),
            Question(
                f"How many days off am I allowed each year at {company}?",
                path,
                f"{days} days of paid leave",
                "meaning",
            ),
            Question(
                f"If I quit {company}, how long do I have to keep working there?",
                path,
                f"{weeks} weeks notice",
                "meaning",
            ),
            Question(
                f"¿Cuántos días de vacaciones tengo en {company}?",
                path,
                f"{days} days of paid leave",
                LANG,
            ),
        ],
    )


def _policy(rng: random.Random, subject: str, n: int) -> Document:
    number, excess = f"HP-{n:06}", rng.randint(1, 9) * 50
    path = f"finance/insurance/policy-{n:05}.pdf"
    pages = [
        f"Home insurance policy {number} for the house at {subject}. " + filler(rng, 5),
        f"Water damage. Claims for water damage under policy {number} carry an excess of "
        f"{excess} euros. " + filler(rng, 4),
    ]
    return Document(
        path,
        "pdf",
        pages,
        [
            Question(f"What's the excess for a leak on policy {number}?", path, f"{excess} euros"),
            Question(
                f"If a pipe bursts in the house on policy {number}, how much do I pay myself?",
                path,
                f"{excess} euros",
                "meaning",
            ),
            Question(
                f"Wie hoch ist die Selbstbeteiligung bei einem Wasserschaden für Police {number}?",
                path,
                f"{excess} euros",
                LANG,
            ),
        ],
    )


def _manual(rng: random.Random, subject: str, n: int) -> Document:
    model = f"KX-{n:05}"
    years, weeks = rng.randint(1, 5), rng.randint(2, 12)
    path = f"manuals/{model.lower()}.md"
    text = (
        f"# {subject.split()[0]} coffee machine {model}\n\n{filler(rng, 3)}\n\n"
        f"## Cleaning\n\nDescale the {model} every {weeks} weeks with the supplied tablets.\n\n"
        f"## Warranty\n\nThe {model} is guaranteed for {years} years from the date of "
        f"purchase. {filler(rng, 2)}\n"
    )
    return Document(
        path,
        "md",
        text,
        [
            Question(f"How long is the warranty on my {model}?", path, f"{years} years"),
            Question(f"How often should I descale the {model}?", path, f"every {weeks} weeks"),
            Question(
                f"For how long will they fix my {model} for free if it breaks?",
                path,
                f"{years} years",
                "meaning",
            ),
            Question(
                f"How often do I need to get the limescale out of the {model}?",
                path,
                f"every {weeks} weeks",
                "meaning",
            ),
            Question(
                f"Combien de temps dure la garantie de ma {model} ?", path, f"{years} years", LANG
            ),
        ],
    )


def _recipe(rng: random.Random, subject: str, n: int) -> Document:
    dish = f"{subject.split()[0]} {rng.choice(FOODS)} {n}"
    temperature, minutes = rng.randint(14, 23) * 10, rng.randint(2, 12) * 5
    path = f"recipes/recipe-{n:05}.md"
    text = (
        f"# {dish.title()}\n\n## Ingredients\n\nFlour, butter, salt and what the season offers.\n\n"
        f"## Method\n\nBake the {dish} at {temperature} degrees for {minutes} minutes.\n"
    )
    question = f"At what temperature do I bake the {dish}?"
    answer = f"{temperature} degrees"
    return Document(
        path,
        "md",
        text,
        [
            Question(question, path, answer),
            Question(f"How hot should the oven be for the {dish}?", path, answer, "meaning"),
            Question(f"Bei wie viel Grad backe ich {dish}?", path, answer, LANG),
        ],
    )


def _meeting(rng: random.Random, subject: str, n: int) -> Document:
    project = f"{subject.split()[0]}-{n}"
    day, month = rng.randint(1, 28), rng.choice(["March", "April", "May", "June"])
    path = f"work/notes/meeting-{n:05}.txt"
    text = (
        f"Meeting notes, project {project}\n\n{filler(rng, 3)}\n\n"
        f"Decisions: the {project} report will be delivered by {day} {month}.\n\n"
        f"{filler(rng, 3)}\n"
    )
    question = f"When is the {project} report due?"
    answer = f"{day} {month}"
    return Document(
        path,
        "txt",
        text,
        [
            Question(question, path, answer),
            Question(f"What is the deadline for the {project} write-up?", path, answer, "meaning"),
            Question(f"¿Cuándo hay que entregar el informe de {project}?", path, answer, LANG),
        ],
    )


def _trip(rng: random.Random, subject: str, n: int) -> Document:
    city, code, terminal = rng.choice(CITIES), f"HX{n:05}", rng.randint(1, 4)
    path = f"travel/trip-{n:05}.txt"
    text = (
        f"Trip to {city}\n\nHotel near {subject}. {filler(rng, 2)}\n\n"
        f"Flight {code} to {city} leaves from terminal {terminal}; be there two hours early.\n"
    )
    question = f"Which terminal does flight {code} leave from?"
    answer = f"terminal {terminal}"
    return Document(
        path,
        "txt",
        text,
        [
            Question(question, path, answer),
            Question(
                f"Where in the airport do I go to catch flight {code}?", path, answer, "meaning"
            ),
            Question(f"De quel terminal part le vol {code} ?", path, answer, LANG),
        ],
    )


def _prescription(rng: random.Random, subject: str, n: int) -> Document:
    doctor, drug, dose = f"Dr. {subject.split()[0]} {n}", rng.choice(DRUGS), rng.randint(1, 8) * 50
    path = f"health/prescription-{n:05}.docx"
    blocks = [
        (1, f"Prescription from {doctor}"),
        (0, filler(rng, 2)),
        (2, "Medication"),
        (0, f"{doctor} prescribed {drug} {dose} mg, to be taken twice daily with food."),
    ]
    question = f"What dose of {drug} did {doctor} prescribe?"
    answer = f"{dose} mg"
    return Document(
        path,
        "docx",
        blocks,
        [
            Question(question, path, answer),
            Question(
                f"How many milligrams of {drug} did {doctor} tell me to take?",
                path,
                answer,
                "meaning",
            ),
            Question(f"Welche Dosis {drug} hat mir {doctor} verschrieben?", path, answer, LANG),
        ],
    )


def _spending(rng: random.Random, subject: str, n: int) -> Document:
    rows = ["date,shop,item,amount"]
    item, price = f"{rng.choice(COLOURS)} {rng.choice(ITEMS)} {n}", f"{rng.randint(5, 900)}.00"
    for day in range(1, 29):
        if day == 14:
            rows.append(f"2026-05-{day:02},{subject} Store,{item},{price}")
        else:
            rows.append(f"2026-05-{day:02},Market,groceries,{rng.randint(5, 90)}.00")
    path = f"finance/spending-{n:05}.csv"
    question = f"How much did I pay for the {item}?"
    return Document(
        path,
        "csv",
        "\n".join(rows) + "\n",
        [
            Question(question, path, price),
            Question(f"What did the {item} cost me?", path, price, "meaning"),
            Question(f"Combien ai-je payé pour le {item} ?", path, price, LANG),
        ],
    )


# The same questions in other words than the documents use: what a word index cannot match.
SYNONYMS = {
    "notice": "warning",
    "rent": "monthly payment",
    "deposit": "security money",
    "holidays": "vacation days",
    "excess": "deductible",
    "leak": "burst pipe",
    "warranty": "guarantee",
    "descale": "decalcify",
    "bake": "cook",
    "temperature": "oven setting",
    "report": "write-up",
    "due": "expected",
    "terminal": "departure hall",
    "dose": "amount",
    "prescribe": "give me",
    "pay": "spend",
}


def reworded(question: Question) -> Question:
    """`question` with its topic words swapped for synonyms ("rent" → "monthly payment")."""
    words = [SYNONYMS.get(word.lower(), word) for word in question.text.split(" ")]
    return Question(" ".join(words), question.path, question.answer)


KINDS: tuple[Callable[[random.Random, str, int], Document], ...] = (
    _lease,
    _contract,
    _policy,
    _manual,
    _recipe,
    _meeting,
    _trip,
    _prescription,
    _spending,
    _mietvertrag,
)


def documents(files: int, seed: int = 23) -> list[Document]:
    """`files` documents, the kinds in turn, each about its own subject."""
    rng = random.Random(seed)
    subjects = [f"{a} {b} {n}" for n in range(1, 100) for a in FIRST for b in SECOND]
    rng.shuffle(subjects)
    return [KINDS[n % len(KINDS)](rng, subjects[n], n) for n in range(files)]


def write(document: Document, folder: Path) -> None:
    target = folder / document.path
    target.parent.mkdir(parents=True, exist_ok=True)
    if document.kind == "pdf":
        target.write_bytes(pdf_pages(list(document.body)))  # type: ignore[call-overload]
    elif document.kind == "docx":
        write_docx(target, list(document.body))  # type: ignore[call-overload]
    else:
        target.write_text(str(document.body))


def pdf_pages(pages: list[str]) -> bytes:
    """A PDF with one page per text (lines wrapped), joined with pypdf."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in pages:
        one = minimal_pdf("\n".join(textwrap.wrap(page, 90)))
        writer.add_page(PdfReader(io.BytesIO(one)).pages[0])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def write_docx(path: Path, blocks: list[tuple[int, str]]) -> None:
    from docx import Document as Word

    document = Word()
    for level, text in blocks:
        if level:
            document.add_heading(text, level=level)
        else:
            document.add_paragraph(text)
    document.save(str(path))


def make_corpus(folder: Path, files: int, seed: int = 23) -> list[Question]:
    """Write the corpus into `folder`; its questions, one or two per document."""
    made = documents(files, seed)
    for document in made:
        write(document, folder)
    return [question for document in made for question in document.questions]
