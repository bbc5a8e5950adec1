"""Intents and their typed slots, declared once, like tools.

An intent is a request people make often ("what's on tomorrow", "move my 1:1 back by half an
hour"), with the details it needs as slots. The model only picks the intent and copies the
slots out of the user's words (`recognise`); code resolves them against the clock and the
user's data and runs the steps (`steps`), as ordinary tool calls through the gate.

A slot's kind says how code reads it: `when` a day and/or time in words, `duration` and
`shift` amounts of time, `person` a name or address, `thing` words that name an item the user
has (an event, an email, a to-do), `text` free text the user wants written. Slots that the
steps need and the user left out are asked for, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.llm.tools import ToolSpec

SlotKind = Literal["when", "duration", "shift", "person", "thing", "text"]

# Long enough for a sentence someone dictates, short enough that a small model cannot wander.
_MAX_LENGTH: dict[SlotKind, int] = {
    "when": 80,
    "duration": 40,
    "shift": 60,
    "person": 80,
    "thing": 100,
    "text": 400,
}


@dataclass(frozen=True)
class Slot:
    name: str
    kind: SlotKind
    description: str
    # Asked for when missing (the user's answer fills it next turn); empty: not asked.
    question: str = ""
    # The model may leave it out. Other slots must be written (the grammar says so): a small
    # model closes an all-optional call at once; what it invents is dropped as ungrounded.
    optional: bool = False
    # A `when` slot the model left out or did not copy is read from the whole request
    # (the model may translate "morgen" to "tomorrow"); off where the request holds two
    # times and only the slot says which is meant (a move's new time).
    read_request: bool = True
    # A `text` the model reworded or translated (not the user's words, so dropped) is taken
    # from the user's own message instead of asked for: an email's body is then written from
    # it in the user's language, a reminder says it as the user did. So is a `thing` the
    # steps find among the user's own items by its words (a to-do, a memory, a reminder):
    # the item holding the most of the message's words is the one meant.
    from_request: bool = False
    # A `text` the model translated is cut from the user's own words before it is asked
    # for (`recognise.plan_said`): an event's title ("una cena con Tom": "cena con Tom").
    cut_from_request: bool = False

    @property
    def required(self) -> bool:
        return bool(self.question)

    def schema(self) -> dict[str, Any]:
        return {
            "type": "string",
            "maxLength": _MAX_LENGTH[self.kind],
            "description": self.description,
        }


@dataclass(frozen=True)
class Intent:
    """One request people make, as the model is offered it: a name, a line saying when it
    fits with an example, and its slots."""

    name: str
    description: str
    slots: tuple[Slot, ...] = ()
    # Messages that mean this, in several languages and wordings: shown to the model as
    # worked examples (a small model matches a demonstration better than a definition).
    examples: tuple[str, ...] = ()
    # Only reads: a question it cannot answer without a slot the user left out may be about
    # something they keep ("what time is my flight?" taken for free time), so the mail and
    # files are looked at, and answer if they plainly hold the question's words, before the
    # slot is asked.
    looks_up: bool = False

    @property
    def spec(self) -> ToolSpec:
        return ToolSpec(
            self.name,
            self.description,
            {
                "type": "object",
                "properties": {slot.name: slot.schema() for slot in self.slots},
                "required": [slot.name for slot in self.slots if not slot.optional],
            },
        )

    def slot(self, name: str) -> Slot | None:
        return next((slot for slot in self.slots if slot.name == name), None)


# The two ways out: a plain answer (no tool at all) and today's free loop.
JUST_ANSWER = "just_answer"
SOMETHING_ELSE = "something_else"

_WHEN = "the day and/or time exactly as the user wrote it, e.g. 'tomorrow at 3pm'"
_EVENT = "words naming the event as the user wrote them, e.g. 'dentist' or '1:1 with Sophie'"
# Named in the model's own words (misspelt, translated): the request's words name it.
_WHICH_EMAIL = Slot(
    "which", "thing", "sender or subject words naming the email", "Which email?", from_request=True
)

INTENTS: tuple[Intent, ...] = (
    Intent(
        JUST_ANSWER,
        "Greetings, thanks, small talk, opinions and general knowledge questions that need "
        "none of the user's data. Example: 'good morning!'",
        examples=(
            "Good morning, Hearth!",
            "Who painted the Mona Lisa?",
            "Merci beaucoup !",
            "Erklär mir kurz, was Photosynthese ist",
        ),
    ),
    Intent(
        "show_calendar",
        "Look at the user's calendar: what is on a day or period, whether they are free then, "
        "or when a particular event is. Example: 'what's on tomorrow?', 'when is my dentist "
        "appointment?'",
        (
            Slot("when", "when", _WHEN),
            Slot("event", "thing", "words naming one event asked about, if any", optional=True),
        ),
        examples=(
            "What's my day look like?",
            "Hab ich am Mittwoch Zeit?",
            "¿Estoy libre el sábado?",
            "What time is the school concert?",
            "Montre-moi mon agenda de la semaine prochaine",
            "Wann ist mein Termin beim Friseur?",
        ),
    ),
    Intent(
        "add_event",
        "Put a new event in the calendar. Example: 'add lunch with Tom on Friday at 1pm'",
        (
            Slot(
                "title",
                "text",
                "what the event is, e.g. 'lunch with Tom'",
                "What is it?",
                cut_from_request=True,
            ),
            # Not asked before the steps: they first look for the day in the email or file
            # the request is about ("add Tom's barbecue"), then ask (`calendar_steps.add`).
            Slot("when", "when", _WHEN),
            Slot("duration", "duration", "how long, if said, e.g. '2 hours'", optional=True),
            Slot("location", "thing", "where, if said", optional=True),
        ),
        examples=(
            "Schedule a call with the bank on Monday at 11",
            "Mets une réunion avec Claire demain à 15h",
            "Termin: Elternabend am 12. Juni um 19 Uhr",
        ),
    ),
    Intent(
        "move_event",
        "Move or reschedule an existing event to another time, shift it earlier or later, or "
        "change how long it lasts or where it is. Example: 'move the dentist to Thursday at "
        "10', 'push my 1:1 back by 30 minutes'",
        (
            Slot("event", "thing", _EVENT, "Which event should I move?"),
            Slot(
                "to",
                "when",
                "the new day and/or time as written, e.g. 'Thursday at 10'",
                optional=True,
                read_request=False,
            ),
            Slot(
                "shift",
                "shift",
                "a move by an amount as written, e.g. 'back by 30 minutes'",
                optional=True,
            ),
            Slot(
                "length",
                "duration",
                "its new length as written, if said, e.g. '2 hours'",
                optional=True,
            ),
            Slot("place", "thing", "its new place as written, if said", optional=True),
        ),
        examples=(
            "Can we push the team lunch to 1pm?",
            "Leg den Zahnarzt auf nächsten Montag",
            "Retrasa la reunión de las 10 media hora",
            "Move my call with the bank an hour earlier",
        ),
    ),
    Intent(
        "cancel_event",
        "Cancel or delete an existing event. Example: 'cancel piano tonight'",
        (
            Slot("event", "thing", _EVENT, "Which event should I cancel?"),
            Slot("when", "when", "the event's day as written, if said", optional=True),
        ),
        examples=(
            "Drop the gym session on Thursday",
            "Lösch den Termin mit Herrn Braun",
            "Supprime le cours de yoga de demain",
        ),
    ),
    Intent(
        "find_free_time",
        "Find a free time of a given length. Example: 'find me two free hours on Monday morning'",
        (
            # asked by the steps, unless the soonest free time is to be booked
            Slot("when", "when", "the day or period to search, as written", optional=True),
            Slot("duration", "duration", "how long, e.g. 'an hour'"),
        ),
        examples=(
            "When do I have a free hour tomorrow?",
            "Find 45 minutes for a call on Friday",
            "Trouve-moi un créneau de deux heures jeudi",
        ),
        looks_up=True,
    ),
    Intent(
        "find_emails",
        "Find or list emails, by sender or subject. Example: 'did Lena write about the invoice?'",
        (Slot("about", "thing", "sender names or subject words as written", optional=True),),
        examples=(
            "Did the landlord email me?",
            "Hat mir die Schule geschrieben?",
            "¿Tengo correos de Amazon?",
        ),
    ),
    Intent(
        "read_email",
        "Read or summarise a particular email. Example: 'what did Priya's last email say?'",
        (_WHICH_EMAIL,),
        examples=(
            "What does the email from the school say?",
            "Lies mir die Mail vom Vermieter vor",
            "Résume le dernier mail de Julie",
        ),
    ),
    Intent(
        "reply_to_email",
        "Reply to an email the user received. Example: 'reply to Tom that Friday works'",
        (
            _WHICH_EMAIL,
            Slot(
                "message",
                "text",
                "what the reply should say",
                "What should the reply say?",
                from_request=True,
            ),
        ),
        examples=(
            "Reply to the landlord that Tuesday is fine",
            "Antworte Petra, dass ich komme",
            "Réponds à Marc que c'est d'accord",
        ),
    ),
    Intent(
        "send_email",
        "Write a new email to someone. Example: 'email Anna that I'm running late'",
        (
            Slot("to", "person", "the recipient's name or address", "Who should I write to?"),
            Slot(
                "message",
                "text",
                "what the email should say",
                "What should the email say?",
                from_request=True,
            ),
            Slot("subject", "text", "the subject, if the user gave one", optional=True),
        ),
        examples=(
            "Send Olivia an email asking for the slides",
            "Schick Jonas eine Mail mit dem Betreff Urlaub",
            "Écris à Sophie que le dîner est annulé",
        ),
    ),
    Intent(
        "set_reminder",
        "Remind the user of something at a time. Example: 'remind me to call mum at 6'",
        (
            Slot(
                "what",
                "text",
                "what to remind of",
                "What should I remind you of?",
                from_request=True,
            ),
            Slot("when", "when", _WHEN, "When should I remind you?"),
        ),
        examples=(
            "Remind me at 5 to pick up the kids",
            "Erinnere mich in einer Stunde an den Kuchen",
            "Rappelle-moi demain matin de payer le loyer",
        ),
    ),
    Intent(
        "remember_fact",
        "Remember a fact about the user for later. Example: 'remember that my locker is 42'",
        (Slot("fact", "text", "the fact to remember", "What should I remember?"),),
        examples=(
            "Keep in mind that my passport number ends in 42",
            "Merk dir, dass Lisa Erdnüsse nicht verträgt",
            "Recuerda que mi talla de zapato es 41",
        ),
    ),
    Intent(
        "recall_fact",
        "Look up something the user asked Hearth to remember. Example: 'what's my locker number?'",
        (Slot("about", "thing", "the words to look for", optional=True),),
        examples=(
            "What did I tell you about Lisa?",
            "Was weißt du über mein Auto?",
            "¿Qué te dije sobre mi talla?",
        ),
    ),
    Intent(
        "add_todo",
        "Add an item to the to-do list. Example: 'add buy milk to my to-dos for Friday'",
        (
            Slot("title", "text", "the to-do", "What should the to-do say?", from_request=True),
            Slot("due", "when", "when it is due, if said", optional=True),
        ),
        examples=(
            "Add 'call the plumber' to my tasks",
            "Schreib Müll rausbringen auf meine Aufgabenliste",
            "Ajoute acheter du lait à ma liste de tâches",
        ),
    ),
    Intent(
        "list_todos",
        "Show the to-do list or open tasks. Example: 'what's on my to-do list?'",
        (Slot("due", "when", "a due day, if said", optional=True),),
        examples=(
            "What's left on my task list?",
            "Welche Aufgaben habe ich noch offen?",
            "¿Qué tareas tengo pendientes?",
        ),
    ),
    Intent(
        "complete_todo",
        "Mark a to-do as done. Example: 'tick off the insurance task'",
        (Slot("which", "thing", "words naming the to-do", "Which to-do?", from_request=True),),
        examples=(
            "I've done the tax return, tick it off",
            "Hak die Aufgabe Fahrrad reparieren ab",
            "Marque la tâche courses comme faite",
        ),
    ),
    Intent(
        "find_contact",
        "Look up someone's email address or phone number. Example: 'what's Sophie's number?'",
        (Slot("who", "person", "the person's name", "Whom should I look up?"),),
        examples=(
            "What's Nadia's email address?",
            "Wie ist die Telefonnummer von Opa?",
            "¿Cuál es el correo de Pablo?",
        ),
        looks_up=True,  # "mi cafetería favorita… ¿cuál era?" names no one: a memory holds it
    ),
    Intent(
        "search_web",
        "Search the web for current or outside information. Example: 'search the web for "
        "train strikes this week'",
        (Slot("query", "text", "what to search for", "What should I search for?"),),
        examples=(
            "Look up the weather in Lisbon online",
            "Such im Internet nach Zugverbindungen nach Köln",
            "Busca en la web recetas de paella",
        ),
    ),
    Intent(
        "forget_fact",
        "Forget something the user asked Hearth to remember. Example: 'forget my old address'",
        (
            Slot(
                "which",
                "thing",
                "words naming what to forget",
                "What should I forget?",
                from_request=True,
            ),
        ),
        examples=(
            "Delete what you know about my old car",
            "Vergiss meine alte Telefonnummer",
            "Oublie ce que je t'ai dit sur mon voisin",
        ),
    ),
    Intent(
        "list_reminders",
        "Show the reminders that are set. Example: 'what reminders do I have?'",
        examples=(
            "Show me my reminders",
            "Welche Erinnerungen habe ich?",
            "¿Qué recordatorios tengo?",
        ),
    ),
    Intent(
        "cancel_reminder",
        "Cancel a reminder. Example: 'cancel the reminder about the dentist'",
        (
            Slot(
                "which", "thing", "words naming the reminder", "Which reminder?", from_request=True
            ),
        ),
        examples=(
            "Delete the reminder to call the bank",
            "Lösch die Erinnerung an den Müll",
            "Supprime le rappel pour le pain",
        ),
    ),
    Intent(
        "add_contact",
        "Add a person to the contacts, with an email address or phone number. Example: "
        "'add Mia Lang to my contacts, mia@example.org'",
        (Slot("name", "person", "the person's name", "Whom should I add?"),),
        examples=(
            "Save Karl Berg in my address book: +49 170 1234567",
            "Ajoute Julie Martin à mes contacts, julie@example.fr",
            "Guarda a Pedro Ruiz en mis contactos",
        ),
    ),
    Intent(
        "ask_files",
        "A question answered from the user's own files, notes or documents. Example: "
        "'what does my lease say about pets?'",
        (Slot("about", "thing", "words naming the file or its subject", optional=True),),
        examples=(
            "What's the wifi password in my notes?",
            "Was steht in meinem Mietvertrag zur Kündigung?",
            "¿Cuánto dura la garantía según el documento de la lavadora?",
        ),
    ),
    Intent(
        "show_folder",
        "List what is in one of the user's folders. Example: 'what's in my photos folder?'",
        (Slot("folder", "thing", "the folder's name", optional=True),),
        examples=(
            "Show me the files in my work folder",
            "Was liegt in meinem Ordner Rechnungen?",
            "Qu'y a-t-il dans mon dossier photos ?",
        ),
    ),
    Intent(
        "write_note",
        "Write a new note or text file. Example: 'make a note called ideas.md with: ...'",
        (
            Slot("name", "thing", "the file's name", "What should the file be called?"),
            # Not asked before the steps: "save the soup recipe Priya sent me as soup.txt"
            # names where the text is, and the steps take it from there (else they ask).
            Slot("content", "text", "what the note says"),
        ),
        examples=(
            "Create a file gifts.txt saying: scarf for Mum, book for Dad",
            "Schreib eine Notiz urlaub.md mit: Sonnenbrille, Pass",
            "Crea una nota llamada compras.txt con: pan, leche",
        ),
    ),
    Intent(
        "add_to_list",
        "Add an item to one of the user's lists kept in a file (shopping, packing, books). "
        "Example: 'put milk on my shopping list'",
        (
            Slot("item", "text", "the item to add", "What should I add?"),
            Slot("list", "thing", "words naming the list", "Which list?"),
        ),
        examples=(
            "Put sunglasses on my packing list",
            "Setz Brot auf die Einkaufsliste",
            "Ajoute le livre Dune à ma liste de lecture",
        ),
    ),
    Intent(
        "open_file",
        "Open one of the user's files in its usual app. Example: 'open the invoice.pdf'",
        (Slot("which", "thing", "the file's name", "Which file should I open?"),),
        examples=(
            "Open my CV for me",
            "Öffne die Datei rechnung.pdf",
            "Abre el archivo presupuesto.xlsx",
        ),
    ),
    Intent(
        "spending",
        "How much the user spent or received, from their bank statements. Example: 'how "
        "much did I spend at the bakery in March?'",
        (
            Slot("merchant", "thing", "the shop or payee, if said", optional=True),
            Slot("month", "when", "the month, if said", optional=True, read_request=False),
        ),
        examples=(
            "What did I pay at Lidl last month?",
            "Wie viel habe ich im Februar ausgegeben?",
            "Combien j'ai dépensé chez Carrefour en janvier ?",
        ),
    ),
    Intent(
        SOMETHING_ELSE,
        "Anything else, and requests that need several of the kinds above at once. Example: "
        "'rename the file notes.txt'",
        examples=(
            "Rename my file draft.txt to final.txt",
            "Lies die Mail von Paul und trag den Termin in meinen Kalender ein",
            "Copia la dirección del correo de Ana en mis contactos",
        ),
    ),
)

# Intents code routes a request to by what it plainly says (`rules`), never offered to the
# model: each intent offered shifts a small model's choice among the others (offered, "open
# the BBC website" moved the 0.5B off four catalogue tasks, "When is my parcel coming?" among
# them).
BY_RULE: tuple[Intent, ...] = (
    Intent(
        "open_website",
        "Open a website, named or by its address, in the user's browser. Example: 'open the "
        "BBC website'",
        (Slot("site", "thing", "the website's name or address", "Which website should I open?"),),
        examples=(
            "Pull up the Deutsche Bahn website",
            "Öffne mir die Seite von Wikipedia",
            "Ouvre le site de la SNCF",
        ),
    ),
)

BY_NAME = {intent.name: intent for intent in (*INTENTS, *BY_RULE)}


@dataclass(frozen=True)
class Area:
    """A first, coarser choice for two-stage recognition: which part of the user's life a
    message is about; the intents of that area are then offered alone."""

    name: str
    description: str
    intents: tuple[str, ...]

    @property
    def spec(self) -> ToolSpec:
        return ToolSpec(self.name, self.description, {"type": "object", "properties": {}})


AREAS: tuple[Area, ...] = (
    Area("chat", "Small talk, thanks, general knowledge: needs none of the user's data.",
         (JUST_ANSWER,)),
    Area("calendar", "The user's calendar: events, appointments, meetings, free time.",
         ("show_calendar", "add_event", "move_event", "cancel_event", "find_free_time")),
    Area("mail", "The user's email: finding, reading, replying to or writing emails.",
         ("find_emails", "read_email", "reply_to_email", "send_email")),
    Area("personal", "Reminders, things to remember, the to-do list, contacts' details.",
         ("set_reminder", "remember_fact", "recall_fact", "forget_fact", "list_reminders",
          "cancel_reminder", "add_todo", "list_todos", "complete_todo", "find_contact",
          "add_contact")),
    Area("web", "Searching the internet.", ("search_web",)),
    Area("files", "The user's files, notes, documents and bank statements.",
         ("ask_files", "show_folder", "write_note", "add_to_list", "open_file", "spending")),
    Area("other", "Anything else, or several steps at once.", (SOMETHING_ELSE,)),
)  # fmt: skip
AREA_BY_NAME = {area.name: area for area in AREAS}
