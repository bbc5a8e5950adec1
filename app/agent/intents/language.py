"""Which of the languages the intents answer in (English, German, French, Spanish) a request
is written in, read by code from its function words and letters.

The model is not asked: a small model answers in English whatever it is told, and one step
more would cost every request. A request's little words ("the", "mir", "avec", "para") and
letters ("ß", "ñ", "qu'") say its language even when names and brands in it are English
("Schick Jonas die Notes vom Meeting"). Words shared by two languages ("de", "la", "in")
count for neither. A request with no such word ("ok", "Sophie Martin", "2") keeps the
conversation's earlier language, else English.
"""

from __future__ import annotations

import re
from typing import Literal

from app.agent.intents.when import DAY_AND_PART_NAMES, MOVING_VERBS
from connectors.folding import fold

Language = Literal["en", "de", "fr", "es"]
LANGUAGES: tuple[Language, ...] = ("en", "de", "fr", "es")
DEFAULT: Language = "en"
# Each language's English name, for a prompt that asks the model to write in it (a small
# model keeps to "in German" better than to "in the language of the request").
_NAMES: dict[str, str] = {"de": "German", "fr": "French", "es": "Spanish"}


def in_their_language(language: str, line: bool = False) -> str:
    """The sentence a prompt ends with asking the model to write in `language` by its name
    ("Write it in German."; `line`: on a line of its own); "" for English, whose prompts
    are kept as they were measured."""
    name = _NAMES.get(language)
    if name is None:
        return ""
    return f"\nWrite it in {name}." if line else f" Write it in {name}."


def english_instead(text: str, language: str) -> bool:
    """Whether the model wrote `text` in English though asked to write in `language` ("No,
    Maria has not replied to the email." for a question in French)."""
    if language not in _NAMES:
        return False
    found = {str(key): count for key, count in scores(text).items()}
    english = found.get("en", 0)
    return english >= 2 and english > 2 * found.get(language, 0)


def translation(language: str, text: str) -> tuple[str, str]:
    """The system prompt and the request of `text`'s translation into `language` (one of
    the other three)."""
    return translation_into(_NAMES[language], text)


def translation_into(name: str, text: str) -> tuple[str, str]:
    """The same, into the language of English name `name` ("Portuguese")."""
    return (
        f"You translate messages into {name}. Write only the {name} translation.",
        f"Translate into {name}: {text}",
    )


# Languages named in the four languages (folded), by the English name a prompt uses.
_LANGUAGE_NAMED = {
    "english": "English", "englisch": "English", "anglais": "English", "ingles": "English",
    "german": "German", "deutsch": "German", "allemand": "German", "aleman": "German",
    "french": "French", "franzosisch": "French", "francais": "French", "frances": "French",
    "spanish": "Spanish", "spanisch": "Spanish", "espagnol": "Spanish", "espanol": "Spanish",
    "italian": "Italian", "italienisch": "Italian", "italien": "Italian", "italiano": "Italian",
    "portuguese": "Portuguese", "portugiesisch": "Portuguese", "portugais": "Portuguese",
    "portugues": "Portuguese", "dutch": "Dutch", "niederlandisch": "Dutch",
    "neerlandais": "Dutch", "holandes": "Dutch",
}  # fmt: skip
_A_LANGUAGE = "|".join(sorted(_LANGUAGE_NAMED, key=len, reverse=True))
# Asking how something is said in another language, or for its translation (folded): "how
# do you say … in German", "translate … into Spanish", "wie sagt man … auf Französisch",
# "übersetz … ins Englische", "comment on dit … en allemand", "traduis … en anglais", "cómo
# se dice … en alemán", "traduce … al inglés". The words between are what to translate.
_TRANSLATE = re.compile(
    r"\b(?:(?:how (?:do you|would you|do i|to) say|translate|wie sagt man|ubersetz\w*|"
    r"comment (?:on dit|dit-on|dire|tu dis)|traduis|traduire|como se dice|como digo|traduce|"
    r"traducir|traduceme)\b|(?:what(?:'s| is)|wie heisst|c'est quoi) (?=[«„“\"‘'‹]))"
    r"[\s:,]*(?P<what>.+?)"
    rf"[\s,]*\b(?:in|into|to|auf|ins|in die|en|al|a)\s+(?:the\s+)?(?P<language>{_A_LANGUAGE})"
    r"(?:e|en|n)?\b"
)
# Words pointing at a text rather than being it (folded): "this", "the email", "ce mail".
_POINTING_AT_A_TEXT = re.compile(
    r"\b(?:this|that|it|email|mail|message|text|file|document|letter|ce|cette|cet|ca|dies\w*|"
    r"das|den|nachricht|este|esta|eso|correo|mensaje|archivo|fichier|lettre|brief|carta)\b"
)
_QUOTED = re.compile(r"[«„“\"‘'‹]\s*(.+?)\s*[»“”\"’'›]")


def asks_for_a_translation(text: str) -> tuple[str, str] | None:
    """What a request asks to have said in another language, and that language's English
    name ("Dis, comment on dit « je suis en retard, commencez sans moi » en allemand ?":
    ("je suis en retard, commencez sans moi", "German")); None if it asks none."""
    folded = fold(text).replace("’", "'")
    found = _TRANSLATE.search(folded)
    if found is None or len(folded) != len(text):
        return None
    what = text[found.start("what") : found.end("what")]
    quoted = _QUOTED.search(what)
    if quoted is None and _POINTING_AT_A_TEXT.search(fold(what)):
        return None  # "translate this email into German": what it holds, not these words
    what = (quoted.group(1) if quoted else what).strip(" ,:?¿!¡\"'«»„“”")
    if not re.search(r"[^\W\d_]", what):
        return None
    return what, _LANGUAGE_NAMED[found.group("language")]


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


def _says(pattern: re.Pattern[str], text: str) -> bool:
    """Whether `pattern` is found in `text` folded (lower case, no accents)."""
    return bool(pattern.search(_folded(text)))


# Common words of one language only, as requests to an assistant use them: articles,
# pronouns, prepositions, question words, auxiliaries, and a few request verbs and day words.
_WORDS: dict[Language, frozenset[str]] = {
    "en": _set(
        """the and or of to for from with on at by about into my mine your you i it
        is are be been this that these those what when where who whom which how why do does
        did can could would should please have has had there their our any some all
        up out off next last tomorrow today tonight week morning evening afternoon remind
        add send tell show find move cancel put set write reply list open make book check
        what's when's where's who's i'm i've i'd it's don't didn't can't"""
    ),
    "de": _set(
        """der die das den dem ein eine einen einem einer eines und oder ist sind bin
        ich mir mich mein meine meinen meinem meiner dich dir dein deine wir uns unser
        nicht kein keine mit für von vom zu zum zur auf am im um ins bei beim aus über nach
        vor wie wann wo welche welcher welches welchen wer wen wem wieviel viel habe hab hast
        haben hat habt wird werden kann kannst könntest bitte noch schon auch morgen heute
        übermorgen gestern nächste nächsten nächster nächstes woche uhr abends morgens
        mittags nachmittags trag trage schick schicke schreib schreibe erinnere erinnern
        leg lege verschiebe sag zeig zeige such suche finde lösche füge hinzu eintragen
        steht liegt gibt dass"""
    ),
    "fr": _set(
        """le les une au aux et ou est sont suis je moi mon ma ton ta tes
        toi nous vous votre vos notre nos il elle ce cette ces avec pour dans sur
        chez par sans quand où quel quelle quels quelles quoi combien comment pourquoi qui
        pas ne demain aujourd'hui hier prochain prochaine semaine soir matin heures ajoute
        ajouter mets mettre envoie envoyer écris écrire rappelle rappelle-moi dis montre
        trouve cherche déplace décale annule supprime réponds ouvre a-t-il qu'est-ce"""
    ),
    "es": _set(
        """el los las una unos unas del al y o está están estoy soy yo mi mis tus mí
        conmigo nosotros nuestro nuestra su sus con para por sin sobre cuando cuándo
        dónde donde qué cuál cuáles quién cuánto cuánta cuántos cuántas cómo porque hay
        mañana hoy ayer próximo próxima semana noche tarde horas pon poner añade añadir
        envía enviar manda escribe escribir recuérdame recuerda dime muestra busca
        encuentra mueve cambia retrasa adelanta cancela borra elimina responde contesta
        abre tengo tiene tenemos gastado gasté"""
    ),
}  # fmt: skip

# Letters (and French elisions) that only one of the four languages writes.
_LETTERS: dict[Language, re.Pattern[str]] = {
    "de": re.compile(r"[äöüß]"),
    "fr": re.compile(r"[çœàèùâêîôûë]|(?<!\w)(?:qu|j|l|d|n|c|s|m|t)['’](?=\w)"),
    "es": re.compile(r"[ñ¿¡áíóú]"),
}
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def is_function_word(word: str) -> bool:
    """Whether `word` is one of the little words of any of the languages ("habe", "the"):
    it says how a request asks, never what about."""
    lowered = word.lower().replace("’", "'")
    return any(lowered in words for words in _WORDS.values())


def scores(text: str) -> dict[Language, int]:
    """How many of each language's own words and letters `text` has."""
    lowered = text.lower()
    words = [w.replace("’", "'") for w in _WORD.findall(lowered)]
    found: dict[Language, int] = {}
    for language in LANGUAGES:
        count = sum(1 for w in words if w in _WORDS[language])
        # A word joined by an apostrophe or a hyphen that the list lacks counts by its
        # parts ("qu'il", "dis-moi").
        count += sum(1 for w in words for part in re.split(r"['-]", w)[1:] if
                     part in _WORDS[language] and w not in _WORDS[language])  # fmt: skip
        if language in _LETTERS and _LETTERS[language].search(lowered):
            count += 2
        found[language] = count
    return found


def language_of(text: str, previous: Language | None = None) -> Language:
    """The language `text` is written in: the one with the most of its own words and letters.
    Nothing telling (a name, a number, "ok"), or a tie the previous language is part of: the
    previous language (the conversation's), else English."""
    found = scores(text)
    best = max(found.values())
    fallback = previous or DEFAULT
    if best == 0:
        return fallback
    leaders = [language for language in LANGUAGES if found[language] == best]
    if len(leaders) == 1:
        return leaders[0]
    return fallback if fallback in leaders else leaders[0]


def language_of_talk(earlier: list[str], text: str) -> Language:
    """The language of `text`, a message that follows `earlier` ones: where `text` says
    nothing telling, the language of the latest earlier message that does."""
    previous = next(
        (language_of(said) for said in reversed(earlier) if max(scores(said).values()) > 0),
        None,
    )
    return language_of(text, previous)


# A request about the user's own things says so: "my hotel", "mein Zug", "mon vol", "mi cita".
_MINE = _set(
    """my mine our ours mein meine meinen meinem meiner meines unser unsere unseren unserem
    unserer mon ma mes notre nos mi mis nuestro nuestra nuestros nuestras"""
)


# "Our" of what is everyone's ("our solar system", "unser Mond", "notre planète", "nuestra
# galaxia"), folded: no thing of the user's.
_EVERYONES = re.compile(
    r"\b(?:our|unser\w*|notre|nos|nuestr[oa]s?)\s+(?=(?:solar system|planet\w*|galax\w*|"
    r"univers\w*|world|welt|monde|mundo|sun|sonne|soleil|sol|moon|mond|lune|luna|"
    r"sonnensystem\w*|systeme solaire|sistema solar|species|espece|especie|ancestors|vorfahren|"
    r"ancetres|antepasados)\b)"
)


# A pronoun standing for no one ("combien de continents il y a", "y a-t-il", "il faut", "il
# fait froid", "it's raining", "es regnet"), folded.
_IMPERSONAL = re.compile(
    r"\b(?:il (?=y a\b|faut\b|fait\b|pleut\b|neige\b)|(?<=y a-t-)il\b|(?<=faut-)il\b|"
    r"it(?='s raining| is raining| rains)|es (?=gibt\b|regnet\b|schneit\b))"
)


def _of_everyone_left_out(text: str) -> str:
    """`text` folded, without the "our" of what is everyone's and a pronoun standing for
    no one."""
    return _IMPERSONAL.sub("", _EVERYONES.sub("", _folded(text)))


def about_the_users_own(text: str) -> bool:
    """Whether `text` speaks of something of the user's ("What's the name of my hotel?"): a
    question no general knowledge answers, whatever it was taken for."""
    said = _of_everyone_left_out(text)
    return any(w in _MINE for w in _WORD.findall(said.replace("’", "'")))


# The user speaking of themselves: "what did I tell you", "was hab ich", "j'ai", "yo".
_ME = _set(
    "i me myself ich mich mir je j moi m yo conmigo "
    # Spanish says "I" in the verb alone ("¿Tengo algo el viernes?"): the everyday ones
    # (not "tenía", "estaba": Mozart's as much as the user's)
    "tengo estoy soy puedo necesito debo voy hago quiero pagué gasté compré"
)
# Spanish says "we" in the verb alone ("¿Cuánto gastamos?", "¿Tenemos algo …?"), folded:
# such a word opening the question or after its question word; not "gramos", "primos".
_WE_VERB = re.compile(
    r"(?:^|[¿¡]\s*|\b(?:que|cuanto|cuanta|cuantos|cuantas|cuando|donde|como|no|ya|lo|la|le|"
    r"les|nos)\s+)(?!(?:gramos|kilogramos|ramos|primos|mismos|extremos|supremos|animos|"
    r"centimos|decimos|ultimos|proximos|maximos|minimos)\b)\w{2,}(?:amos|emos|imos)\b"
)


# Words for someone or something named before, or for the user with others ("… Tom. What
# did he say?", "sa réponse", "I'm at the concert. When does it end?", "bei uns", "nuestra
# casa"): a question speaking of them is about the user's own, not general knowledge.
# The user with others ("we", "bei uns", "nuestra casa").
_US = _set(
    "we us our ours wir uns unser unsere unseren unserem nous notre nos nosotros nosotras "
    "nuestro nuestra nuestros nuestras"
)
_SOMEONE = _US | _set(
    "he she him her his hers they them their theirs it its er sie ihm ihn ihr ihre ihren ihrem "
    "sein seine seinen seinem il elle lui leur leurs eux elles son sa ses ella ellos ellas su "
    "sus"
)
# Words asking for something named before ("I have to call the dentist. What's his name
# again?"), folded: the question names nothing by them.
ASKING_BACK = _set(
    "name names called again nom appelle deja quoi encore nombre llama llamaba otra heisst "
    "hiess nochmal wieder noch gleich"
)

# Words asking the memory itself, not naming what is asked (folded): "remember", "what did I
# tell you", "weißt du", "tu te souviens", "¿te acuerdas?".
ASKING_MEMORY = _set(
    "remember remembered recall know knew tell told said saved kept noted erinnerst erinnern "
    "erinnere weisst wissen gesagt erzahlt gemerkt gespeichert notiert souviens souvenir "
    "rappelles sais savoir dit retenu enregistre note recuerdas acuerdas sabes saber dije "
    "dicho guardado apuntado"
)


def speaks_of_us(text: str) -> bool:
    """Whether `text` speaks of the user with others ("how much we spent", "bei uns")."""
    return any(w in _US for w in _WORD.findall(_of_everyone_left_out(text)))


def refers_to_someone(text: str) -> bool:
    """Whether `text` speaks of someone or something named before it ("what did she say?"),
    or of the user with others ("wann wird bei uns …")."""
    return any(w in _SOMEONE for w in _WORD.findall(_of_everyone_left_out(text)))


# A thing named only by a pronoun ("it goes off", "es abgestellt wird", "qu'elle coupe",
# "que lo corten"), after the word joining it ("that", "dass", "que"), folded.
_BY_A_PRONOUN = re.compile(
    r"^\s*(?:that\s+|dass\s+|que\s+|qu')?(?:it|they|that|this|es|er|sie|das|ca|cela|il|elle|"
    r"ils|elles|lo|la|los|las|eso|esto|ello)\b"
)


# A word pointing back at something said before the question ("what is that in
# Fahrenheit?", "c'est combien, ça ?", "¿cuánto es eso?"); German "das" not before a noun
# ("Wie viel ist das?", not "das Wasser").
_POINTING_BACK = re.compile(
    r"(?i:\b(?:that|this|ca|ça|cela|ceci|eso|esto|dies)\b)|\b[Dd]as\b(?!\s+[A-ZÄÖÜ])"
    # a thing named before by a word pointing at it: "ese día", "ce jour-là", "an diesem Tag"
    r"|(?i:\b(?:ese|esa|esos|esas|aquel|aquella|dies(?:er|e|em|en|es)|jene[rmns]?)\s+\w)"
    r"|(?i:\b(?:ce|cet|cette|ces)\s+[\w'-]+-l[aà]\b)|(?i:\b(?:ce|cette)\s+(?:jour|fois)\b)"
)


def points_back(clause: str) -> bool:
    """Whether `clause` names what it speaks of by a word pointing back at what was said
    before it ("what is that in Fahrenheit?"), anywhere in it (unfolded: German nouns keep
    their capital)."""
    return bool(_POINTING_BACK.search(clause))


def names_by_a_pronoun(phrase: str) -> bool:
    """Whether `phrase` names what it speaks of only by a pronoun ("it goes off"): what it
    is, the words around it say."""
    return bool(_BY_A_PRONOUN.search(_folded(phrase)))


def speaks_of_the_user(text: str) -> bool:
    """Whether `text` speaks of the user or something of theirs ("What did I tell you about
    Lisa?", "my locker"): not a general question ("How many legs does a spider have?")."""
    if about_the_users_own(text) or _WE_VERB.search(_folded(text)):
        return True
    words = _WORD.findall(text.lower().replace("’", "'"))
    return any(part in _ME for word in words for part in re.split(r"['-]", word))


# A record of the user's asked for (folded): a booking, order or customer number or code
# ("my booking reference", "die Buchungsnummer", "le numéro de réservation", "qué número de
# reserva tenía"), which no general question asks for; or a name asked back in the past
# ("¿Cómo se llamaba el hotel?", "comment s'appelait le resto ?", "wie hieß das Hotel?",
# "what was the hotel called?"), which one may ("What was the ship that sank called?").
_RECORD = re.compile(
    r"\b(?:booking|reservation|confirmation|order|customer|tracking|policy|membership|"
    r"ticket)\s+(?:number|code|reference|no|id)\b|"
    r"\b(?:buchungs|reservierungs|bestell|kunden|auftrags|vertrags|mitglieds|sendungs)"
    r"(?:nummer|code)\b|"
    r"\b(?:numero|code|codigo|n[o°]) de (?:la |mi |ma )?(?:reservation|reservacion|reserva|"
    r"commande|client|confirmation|confirmacion|dossier|suivi|pedido|cliente|seguimiento)\b"
)
_NAME_ASKED_BACK = re.compile(
    r"\b(?:se llamaba|s'appelait|hiess|was (?:it|(?:the|that|this|my|our) \w+) called)\b"
)


def asks_for_a_record_number(text: str) -> bool:
    """Whether `text` asks for a booking, order or customer number or code of the user's
    (or for "the code" beside a booking it names: "… la reserva del vuelo? necesito el
    código")."""
    return _says(_RECORD, text) or (_says(_THE_CODE, text) and _says(_BOOKED, text))


# "the code", "el código", "le code", "den Code", "the reference" (folded), and a booking
# named: a flight, a hotel, a reservation.
_THE_CODE = re.compile(
    r"\b(?:the|el|le|la|den|der|die|das)\s+(?:code|codigo|reference|referencia|nummer|numero)\b"
)
_BOOKED = re.compile(
    r"\b(?:booking|booked|reservation|flight|hotel|reserva\w*|vuelo|vol|buchung\w*|flug\w*|"
    r"gebucht|reserv\w*)\b"
)


def asks_for_a_record(text: str) -> bool:
    """Whether `text` asks for one of the user's records, or a name they knew, speaking of
    themselves ("Estoy rellenando un formulario … me piden los datos del alojamiento. ¿Cómo
    se llamaba el hotel y qué número de reserva tenía?"): what their mail and files hold,
    not general knowledge, though it says no "my"."""
    if asks_for_a_record_number(text):
        return True
    return _says(_NAME_ASKED_BACK, text) and speaks_of_the_user(text)


# What something cost the user, asked in the past tense (accents folded): "What did the car
# service cost?", "Was hat der letzte Service gekostet?", "Combien a coûté le plombier ?",
# "¿Cuánto costó el hotel?". Their own records answer it; what a thing costs in general
# ("Wie viel kostet ein Kilo Kaffee?") is asked in the present.
_PAST_COST = re.compile(
    r"\bwhat did\b[^?]{0,60}\bcost\b|\bcost (?:me|us)\b|\bhow much (?:did|was|were)\b|"
    r"\b(?:gekostet|kostete|coute|coutait|costo|costaba|pague|pagamos)\b"
)


def asks_a_past_cost(question: str) -> bool:
    return bool(_PAST_COST.search(_folded(question)))


# A word to get attention before a request ("Oye, ¿me avisas …?", "Hey, remember that …").
_OPENER = r"(?:(?:oye|hey|hi|mira|dis|ecoute|hallo|sag mal|listen|ok|okay)\s*[,!]?\s+)?"
# Pictures people end a sentence with ("Mein Vorspiel rückt näher 😬 Kannst du …"): the
# emoji and symbol blocks.
EMOJI = "\U0001f300-\U0001faff\u2600-\u27bf"

# A request opening with "remind me" in one of the four languages ("Erinnere mich am Freitag
# um 8 daran, …", "Rappelle-moi de …", "Recuérdame …", "Avísame a las 8 …", "ping me at 4
# to …", "Préviens-moi demain …"), or asking for it ("Can you remind me …", "¿Me puedes avisar
# …?", "Tu peux me rappeler …"), unless what follows asks something again ("remind me what
# …", "erinnere mich, wann …").
_ASKING = (
    r"(?:(?:can|could|would|will) you (?:please )?|(?:me )?(?:puedes|podrias|podria) |"
    r"(?:tu peux|peux-tu|pourrais-tu|pouvez-vous|vous pouvez|pourriez-vous) )"
)
# Words that ask something again right after "remind me" ("remind me what …", "erinnere mich,
# wann …"), or that ask in the last clause of a question ("Rappelle-moi, l'appel avec Lena,
# c'est prévu quand ?").
_QUESTION_WORDS = (
    r"what|when|where|who|which|how|wann|was|wo|wer|welche\w*|wie|quand|quel\w*|comment|"
    r"combien|cuando|donde|quien|como|cual\w*|cuant[oa]\w*|a que hora|que dia"
)
_NOT_AGAIN = rf"(?!\s*,?\s*(?:(?:{_QUESTION_WORDS}|of|qui)\b|ce qu))"
_ASKED_AGAIN = re.compile(rf"\s*[,:;-]?\s*(?:{_QUESTION_WORDS})\b")
_ASKED_LAST = re.compile(rf"\b(?:{_QUESTION_WORDS})\b")
# Where "remind me" may stand: opening the request, or a clause after what says why ("die
# Waschmaschine läuft grad, erinner mich bitte in zwei Stunden …", "The oven's on, so remind
# me in 40 minutes …").
_CLAUSE_START = (
    rf"(?:^|[,.;:!?{EMOJI}]\s*|\s[-–—]\s*|"
    r"\s(?:so|and|then|und|dann|alors|donc|et|puis|asi que|entonces|y)\s+)"
)
_REMIND_ME = re.compile(
    _CLAUSE_START
    + r"\s*(?P<verb>"
    + _OPENER
    + r"(?:please\s+|bitte\s+)?(?:remind me|don't let me forget|ping me|"
    r"nudge me|give me a nudge|alert me|notify me|erinnere? mich|gib mir bescheid|"
    r"rappelle[sz]?-moi|rappelez-moi|previens-moi|previenez-moi|recuerdame|recordarme|"
    r"me avisas|me recuerdas|me avisaras|me recordaras|fais-moi penser|faites-moi penser|"
    r"hazme (?:acordar|recordar)|"
    # a reminder asked for by name ("set a reminder for …", "ponme un recordatorio para …",
    # "mets-moi un rappel …", "stell mir eine Erinnerung …")
    r"(?:set|put|add|make|create) (?:me )?a reminder(?: for| to| that)?|"
    # (with its time between: "Leg mir an dem Tag um 8 eine Erinnerung an", "ponme para
    # mañana a las 9 un recordatorio")
    r"(?:pon|crea|haz|programa)(?:me)? (?:[\w:.]+ ){0,6}?un recordatorio(?: para| de)?|"
    r"(?:mets|cree|fais|programme)(?:-moi)? (?:[\w:.']+ ){0,6}?un rappel(?: pour| de)?|"
    r"(?:stell|leg|mach|setz|erstell)(?:e)? (?:mir )?(?:[\w:.]+ ){0,6}?eine erinnerung"
    r"(?: fur| an)?|"
    # an alarm, which a reminder is ("set an alarm for 7", "pon una alarma para mañana")
    r"set (?:me )?an alarm|wake me(?: up)?|stell (?:mir )?(?:einen |den )?wecker|weck mich|"
    r"mets(?:-moi)? une alarme|reveille-moi|pon(?:me)? una alarma|despiertame|"
    rf"avisame|avisarme|{_ASKING}(?:remind me|ping me|nudge me|recordarme|avisarme|"
    r"recordar|avisar|set (?:me )?a reminder(?: for| to| that)?|"
    r"poner(?:me)? un recordatorio(?: para| de)?|"
    r"me rappeler|me prevenir|me faire penser|hacerme (?:acordar|recordar))))\b"
)
# German puts the verb last: "Kannst du mich morgen um 9 an den Arzttermin erinnern?", "Denk
# dran, mich um 5 ans Einkaufen zu erinnern"; what lies between is the reminder.
_REMIND_ME_LAST = re.compile(
    _CLAUSE_START
    + r"\s*"
    + _OPENER
    + r"(?:bitte\s+)?(?:(?:kannst|konntest|wurdest) du mich|denk(?:e)? (?:bitte )?dran,? mich)"
    r"(?: bitte)?\b" + _NOT_AGAIN + r"(?P<rest>.+?)(?: zu)? erinnern\b"
    r"(?!\s*,?\s*(?:was|wann|wo|wer|wie|welche\w*|ob)\b)"
)


def _folded(text: str) -> str:
    """`text` folded as the patterns below are written: no case, no accents, "’" as "'", and
    no Spanish opening marks ("¿Cuándo …?" opens with "cuando")."""
    return fold(text).replace("’", "'").replace("¿", "").replace("¡", "")


def _remind_me(text: str) -> tuple[int, int] | None:
    """Where the reminder's own words are in `text` (after "remind me", or between "kannst du
    mich" and "erinnern"), if it asks for a reminder."""
    folded = _folded(text)
    if (last := _REMIND_ME_LAST.search(folded)) is not None:
        return last.start("rest"), last.end("rest")
    found = _REMIND_ME.search(folded)
    if found is None or _asks_again(folded[found.end() :]) or _asked_in_spanish(text, found):
        return None
    return found.end(), len(folded)


def _asked_in_spanish(text: str, found: re.Match[str]) -> bool:
    """Whether a Spanish question word follows "me recuerdas", with its accent ("¿Me
    recuerdas qué le gusta a Sam?"; "recuérdame que llame a Sam" asks for a reminder)."""
    after = text[_in_original(text, found.end()) :]
    return bool(re.match(r"[\s,:]*(?:qué|quién|quiénes|cuándo|dónde|cómo|cuál|cuánto)\b", after))


def _asks_again(rest: str) -> bool:
    """Whether what follows "remind me" asks something ("what Tom said", "of the plan", ", the
    call with Lena, when is it?"): a question, no reminder."""
    if re.match(_NOT_AGAIN, rest) is None:
        return True
    clauses = re.split(r"[,;:]", rest.strip().removesuffix("?")) if rest.strip()[-1:] == "?" else []
    return len(clauses) > 1 and bool(_ASKED_LAST.search(clauses[-1]))


def asked_again(text: str) -> str | None:
    """The request without the "remind me" before the question it asks ("Remind me, where
    did I park?", "I'm doing my lasagne. Remind me, what temperature does it go in at?",
    "Rappelle-moi, l'appel avec Lena, c'est prévu quand ?"), in the user's words; None when
    it asks for a reminder, or has no "remind me"."""
    folded = _folded(text)
    found = _REMIND_ME.search(folded)
    if found is None or re.match(r"\s*(?:of|qui|ce qu)\b", folded[found.end() :]):
        return None
    rest = folded[found.end() :]
    if not (_ASKED_AGAIN.match(rest) or _asks_again(rest) or _asked_in_spanish(text, found)):
        return None
    before = text[: _in_original(text, found.start("verb"))].strip()
    after = text[_in_original(text, found.end()) :].strip(" ,:;-")
    after = re.sub(r"^(?:mal|doch|bitte|please|stp|por favor)\b[\s,:;-]*", "", after)
    return f"{before} {after}" if before else after


def asks_for_a_reminder(text: str) -> bool:
    """Whether `text` asks to be reminded of something, whatever the model took it for."""
    return _remind_me(text) is not None


def without_remind_me(text: str) -> str:
    """`text` without the "remind me" it opens with ("Avísame mañana …": "mañana …")."""
    found = _remind_me(text)
    if found is None:
        return text
    return text[_in_original(text, found[0]) : _in_original(text, found[1])].strip()


def _in_original(text: str, index: int) -> int:
    """Where in `text` its folded form's `index` falls (folding drops "¿" and "¡" and may
    change a word's length: "ß" is "ss")."""
    for end in range(len(text) + 1):
        if len(_folded(text[:end])) >= index:
            return end
    return len(text)


# A request opening with "remember that" in one of the four languages ("Merk dir, …", "Note
# that …", "Retiens que …", "Ten en cuenta que …"), or telling it in passing ("Just so you
# know, …", "Nur damit du's weißt: …", "Pour info, …", "Para que lo sepas, …"): what follows
# is a fact to keep. "Remember to …" (a task) and "Remember when …" (a question) are not.
# "From now on" after "remember" ("Tenlo en cuenta a partir de ahora: …").
_FROM_NOW = (
    r"(?:\s+(?:from now on|ab jetzt|ab sofort|von nun an|desormais|a partir de maintenant|"
    r"a partir de ahora|desde ahora|de ahora en adelante))?"
)
# "please" after the verb ("Retiens stp que …", "Recuerda porfa que …")
_PLEASE = r"(?:,?\s+(?:stp|svp|s'il te plait|s'il vous plait|por favor|porfa)\b,?)?"
_REMEMBER_THAT = re.compile(
    r"\s*" + _OPENER + r"(?P<asking>(?:can|could|would|will) you (?:please )?|"
    r"(?:kannst|konntest) du (?:bitte )?|(?:tu peux|peux-tu|pourrais-tu) |(?:me )?puedes )?"
    r"(?:please\s+|bitte\s+)?(?:"
    # ("save this: …", "speicher dir das: …", "garde ça : …", "guarda esto: …")
    r"(?:save|keep|store|speicher\w*|merk\w*|garde|enregistre|sauvegarde|guarda|apunta|anota)"
    r"\s+(?:dir\s+)?(?:this|that|das|folgendes|ca|ceci|cela|esto|eso)\s*:\s*|"
    r"(?:remember|note|note down|write down|jot down|make a note|keep in mind|bear in mind|"
    r"don't forget|just so you know|fyi|"
    r"for the record|for your information)" + _FROM_NOW + r"(?:\s+that\s+|\s*[:,]\s*)|"
    r"(?:merke?|notiere?|schreib)\s+dir(?:\s+bitte)?(?:\s+auf)?"
    + _FROM_NOW
    + r"(?:\s*[:,]\s*(?:dass\s+)?|\s+dass\s+)|"
    r"behalte? im kopf,?\s+dass\s+|"
    # asked for ("kannst du dir merken, dass …", "peux-tu retenir que …", "¿puedes recordar
    # que …?")
    r"dir(?:\s+bitte)?\s+merken\s*,?\s*dass\s+|(?:retenir|noter|te souvenir)(?:\s+que\s+|\s+qu')|"
    r"(?:recordar|tener en cuenta|apuntar(?:te)?)\s+que\s+|"
    r"(?:(?:nur\s+)?damit du(?:'s|\s+es|\s+bescheid)?\s+weisst|(?:nur\s+)?zur info|"
    r"zu deiner info(?:rmation)?)\s*[:,]\s*(?:dass\s+)?|"
    r"(?:retiens|retenez|souviens-toi|souvenez-vous|note|notez|n'oublie pas|n'oubliez pas|"
    r"garde en memoire|(?:juste\s+)?pour que tu (?:le\s+)?saches|pour info(?:rmation)?|"
    r"pour ton info(?:rmation)?)(?:\s+bien)?"
    + _PLEASE
    + _FROM_NOW
    + r"(?:\s+que\s+|\s+qu'|\s*[:,]\s*)|"
    r"(?:recuerda|acuerdate de|ten(?:lo)? en cuenta|apunta|anota|no olvides|"
    r"para que (?:lo\s+)?sepas|que sepas|para tu informacion)"
    + _PLEASE
    + _FROM_NOW
    + r"(?:\s+que\s+|\s*[:,]\s*))"
)


# Asked after the fact, in a sentence of its own: "Sam's allergic to cashews. Keep that in
# mind", "… merk dir das", "… Garde-le en tête pour …", "… Tenlo en cuenta", "… can you
# remember that?" (folded). Not "don't forget it" nor "note it", said of things to do.
_KEEP_IT = re.compile(
    r"[.!;,]\s+[¿¡]?(?:(?:so|and|also|alors|donc|et|und|asi que|y)\s+)?(?:please\s+|bitte\s+|"
    r"(?:can|could|would) you\s+|(?:will|would) you mind\s+|"
    r"(?:tu peux|peux-tu|pourrais-tu|tu veux bien|veux-tu|vous voulez bien)\s+|"
    r"(?:kannst|konntest|magst|willst) du\s+|(?:(?:te|me) lo\s+)?(?:puedes|podrias|quieres)\s+)?"
    r"(?:"
    r"(?:remember|make a note of) (?:that|this|it)|(?:keep|bear) (?:that|this|it) in mind|"
    r"merke? dir (?:das|es)|(?:dir )?das merken|behalte? (?:das|es) im (?:hinter)?kopf|"
    r"notiere? dir das|"
    r"garde[sz]?-le en (?:tete|memoire)|le garder en (?:tete|memoire)|retiens-le|retenez-le|"
    r"garde[sz]? (?:ca|cela) en (?:tete|memoire)|retiens (?:ca|cela|bien)|"
    r"souviens-t'en|le retenir|t'en souvenir|le noter|"
    r"tenlo en cuenta|recuerdalo|recordarlo|"
    # "I keep forgetting it", "je l'oublie à chaque fois", "ich vergesse es immer", "siempre
    # se me olvida": a fact to keep for them
    r"i (?:always|keep) forget(?:ting)? (?:it|that|this)|"
    r"je l'oublie (?:tout le temps|a chaque fois|toujours)|"
    r"ich vergesse (?:es|das) (?:immer|standig|jedes mal)|(?:siempre )?se me olvida|"
    # "¿Te lo puedes apuntar?", "apúntatelo", not "apúntalo en el calendario"
    r"(?:te lo |me lo )?apunt(?:ar|artelo|atelo|alo)(?![^.?!]*\b(?:calendario|agenda|lista))|"
    r"tenerlo en cuenta|"
    # asked alone: "Bitte merken!", "à retenir !", "Guárdalo.", "Please remember!"
    r"merken(?=\s*[.!]*\s*$)|a retenir|apuntatelo|guardalo|remember(?=\s*[.!]+\s*$))\b"
)
# What comes before a fact told in passing: "By the way, …", "Au fait, …", "Übrigens …".
_IN_PASSING = re.compile(
    r"^(?:(?:by the way|btw|oh|also|ubrigens|ach ja|au fait|d'ailleurs|por cierto|oye),?"
    r"(?:\s+|$))+(?:(?:and|und|et|y)\s+)?"
)


# A verb of keeping something in mind anywhere in a request (folded).
_KEEP_IN_MIND = re.compile(
    r"\b(?:remember|keep in mind|make a note|note (?:that|down)|don't forget|merk\w*|notier\w*|"
    r"vergiss\w* nicht|behalt\w*|retien\w*|retenir|souvien\w*|note[rz]?|n'oublie\w* pas|"
    r"recuerd\w*|acord\w*|apunt\w*|guard\w*|no olvides|ten en cuenta|tenlo en cuenta|"
    r"en cuenta)\b"
)


def asks_to_keep_in_mind(text: str) -> bool:
    """Whether a verb of remembering is anywhere in `text` ("Can you remember that …?")."""
    return _says(_KEEP_IN_MIND, text)


def remembers_a_fact(text: str) -> str | None:
    """The fact a request opening with "remember that" asks to keep, or one asked to be kept
    after it is told, in the user's words; None if it opens otherwise or is a question."""
    folded = _folded(text)
    passing = _IN_PASSING.match(folded)  # "Au fait, retiens bien que …"
    found = _REMEMBER_THAT.match(folded, passing.end() if passing else 0)
    if found is None:
        return _kept_from_a_colon(text, folded) or _kept_after(text, folded)
    fact = text[_in_original(text, found.end()) :].strip()
    if found.group("asking"):
        # "can you keep in mind that my locker is number 112? i forget it every time": the
        # question mark is the asking's, what follows it talk
        fact = fact.split("?")[0].strip()
    elif text.rstrip().endswith("?"):
        return None
    return fact if len(fact.split()) >= 2 else None


def _kept_after(text: str, folded: str) -> str | None:
    """The fact told before a sentence asking to keep it ("Au fait, Sam est allergique aux
    noix de cajou. Garde-le en tête pour quand tu m'aides à choisir un resto, d'accord ?"),
    with what opened it in passing dropped; None if no sentence asks that, or the fact asks
    something."""
    found = _KEEP_IT.search(folded)
    if found is None or (
        # "Sam was in Lisbon last year. Remember that?": asking whether the user recalls
        folded[found.end() :].strip() == "?"
        and re.search(r"[.!;,]\s+remember (?:that|this|it)$", folded[: found.end()])
    ):
        return None
    told = folded[: found.start() + 1]
    opener = _IN_PASSING.match(told)
    fact = text[_in_original(text, opener.end() if opener else 0) : _in_original(text, len(told))]
    fact = re.sub(r",$", ".", fact.strip())  # "…, keep that in mind"
    # what leads up to a colon is no part of it ("Ach, was du noch wissen solltest, …: ich
    # vertrag keine Haselnüsse")
    if len((after := fact.rsplit(": ", 1)[-1]).split()) >= 2:
        fact = after
    if "?" in fact or len(fact.split()) < 2:
        return None
    return fact[:1].upper() + fact[1:]


# A later sentence asking to keep what follows its colon ("… Quédate con el dato de una vez:
# calza un 43", "… Keep this in mind: she's 43", "… Merk dir das: sie hat Größe 43",
# "… Retiens ça : elle chausse du 43"), folded.
_KEEP_THIS = re.compile(
    r"[.!;]\s+[¿¡]?(?:please\s+|bitte\s+|(?:can|could) you\s+|(?:tu peux|peux-tu)\s+|"
    r"(?:kannst|konntest) du\s+|(?:puedes|podrias)\s+)?"
    r"(?:remember|note|make a note of) (?:this|that|it)(?: down)?|"
    r"(?:keep|bear) (?:this|that|it) in mind|"
    r"(?:merke?|notiere?) dir (?:das|dies|folgendes)|behalte? (?:das|dies) im kopf|"
    r"(?:retiens|note|garde) (?:ca|cela|bien ceci|ceci)(?: en tete| en memoire)?|"
    r"(?:quedate|quedese) con (?:el dato|esto|eso|este dato)|(?:apunta|anota|recuerda|guarda)"
    r"(?:te)? (?:esto|eso|el dato|este dato)"
)


def _kept_from_a_colon(text: str, folded: str) -> str | None:
    """The fact a later sentence asks to keep after a colon, with what the sentences before
    say of it ("Cada vez que le compro zapatillas a Sam tengo que preguntarle el número.
    Quédate con el dato de una vez: calza un 43." → "Cada vez que … el número. Calza un
    43."); None if no sentence asks that, or what follows the colon asks something."""
    for found in _KEEP_THIS.finditer(folded):
        colon = folded.find(":", found.end())
        if colon < 0 or re.search(r"[.!?;]", folded[found.end() : colon]):
            continue
        told = text[_in_original(text, colon + 1) :].strip()
        if "?" in told or len(told.split()) < 2:
            return None
        before = text[: _in_original(text, found.start())].strip()
        before = f"{before}." if before and before[-1] not in ".!;" else before
        return f"{before} {told[:1].upper()}{told[1:]}".strip()
    return None


# A request (or one of its sentences) opening with a verb of cancelling in one of the four
# languages: "Scrap …", "Could you call off …", "Sag … ab", "Streich …", "Annule …",
# "Cancela …"; unless it names another kind of thing (an email, a reminder, a to-do, a
# file, a note), which has its own way of being deleted.
_CANCEL = re.compile(
    r"(?:^|[.!?;,]\s*)(?:please\s+|bitte\s+|(?:can|could|would) you\s+|peux-tu\s+|"
    r"pourrais-tu\s+|puedes\s+)?(?:cancel|call off|scrap|delete|remove|streich\w*|losch\w*|"
    r"stornier\w*|annule[rz]?|supprime[rz]?|(?:cancel|anul|borr|elimin|quit)a(?:r|lo|la|me)?)\b"
    r"|^\s*(?:bitte\s+)?sag\w*\b.*\bab\s*[.!]?\s*$"
    # asked, or with the thing as a pronoun: "¿Me la quitas del calendario?", "bórramelo",
    # "tu peux l'enlever ?", "kannst du den Termin löschen?", "take it off my calendar"
    r"|(?:^|[.!?;,]\s*)(?:(?:me|te|se)\s+)?(?:la|lo|las|los)\s+(?:quit|borr|cancel|anul|elimin)"
    r"(?:as|es)\b"
    r"|\b(?:quit|borr|cancel|anul|elimin)a(?:me|te)(?:la|lo|las|los)\b"
    r"|\b(?:tu peux|vous pouvez|peux-tu|pouvez-vous)\s+(?:l'|la\s+|le\s+|les\s+)?"
    r"(?:enlever|retirer|supprimer|annuler|effacer)\b"
    r"|\b(?:kannst|konntest|wurdest) du\b[^.?!]{0,60}\b(?:loschen|streichen|absagen|"
    r"rausnehmen|austragen|entfernen)\b"
    r"|\b(?:take|get|drop|strike)\b[^.?!]{0,40}\b(?:off|out of|from) (?:my|the) "
    r"(?:calendar|diary|schedule)\b"
    # taken out of the calendar: "nimm die Garage aus meinem Kalender", "enlève-le de mon
    # agenda", "tu peux la virer de mon agenda ?"
    r"|\b(?:nimm|nehm\w*|trag)\b[^.?!]{0,60}\b(?:aus|vom) (?:meinem |dem )?kalender\b"
    # "Nimmst du das bitte für diese Woche raus?", "das Yoga fällt diese Woche aus"
    r"|\b(?:nimm|nimmst|nehm\w*)\b[^.?!]{0,60}\braus\b|\bfallt\b[^.?!]{0,40}\baus\b"
    r"|\b(?:enleve|retire|vire|degage|ote|sort)\w*\b[^.?!]{0,60}\bde (?:mon |l')"
    r"(?:agenda|calendrier)\b"
    # "sácame lo del dentista del calendario"
    r"|\b(?:quit|borr|sac|elimin)\w*\b[^.?!]{0,60}\bde(?:l| mi| la) (?:calendario|agenda)\b"
)
_OTHER_KINDS = re.compile(
    r"\b(?:e-?mails?|mails?|messages?|nachricht\w*|courriels?|correos?|mensajes?|reminders?|"
    r"erinnerung\w*|rappels?|recordatorios?|to-?dos?|tasks?|aufgabe\w*|taches?|tareas?|"
    r"files?|datei\w*|fichiers?|archivos?|notes?|notiz\w*|notas?|memberships?|abos?)\b"
)


# A request to mark something done on a list in one of the four languages (accents folded):
# "tick it off", "cross … off", "mark … as done", "abhaken", "hak das ab", "als erledigt
# markieren", "coche-la", "tu peux le cocher", "marque … comme faite", "táchalo", "márcala
# como hecha". What is done is a to-do, whichever intent the model took it for.
_TICK_OFF = re.compile(
    r"\b(?:tick|cross|strike|check)\s+(?:\w+\s+){0,3}?off\b|"
    r"\bmark\s+(?:\w+\s+){0,4}?(?:as\s+)?(?:done|complete|completed|finished)\b|"
    r"\babhak\w*|\bhake?\b[^.?!]*\bab\b|\bals erledigt\b|"
    r"\bcocher\b|\bcochez\b|\bcoche-(?:la|le|les)\b|\brayer\b|\brayez\b|\braye-(?:la|le)\b|"
    r"\bmarque[rz]?\b[^.?!]*\bcomme (?:fait|faite|termine|terminee)\b|"
    r"\btach(?:a|ar|alo|ala|ame|as|amelo|amela)\b|\b(?:lo|la)\s+tach(?:as|a)\b|"
    r"\b(?:lo|la)\s+(?:cochez|coches)\b|\bhak(?:st|e)? (?:du |sie )?\w+ ab\b|"
    r"\bmarca(?:r|lo|la|s)?\b[^.?!]*\bcomo (?:hech[ao]|completad[ao]|terminad[ao])\b"
)


# "My list" with no list of a file named, or the to-do list by name (folded): what a thing
# taken off it is on ("streich das von meiner Liste", "quítalo de mi lista de pendientes").
_THE_TODO_LIST = re.compile(
    r"\b(?:my|meiner|meine|ma|mi)\s+(?:list|liste|lista)\b|"
    r"\b(?:to-?do|task|aufgaben|todo)[- ]?(?:list|liste)\b|"
    r"\bliste (?:de |des )?(?:taches|choses a faire)\b|"
    r"\blista de (?:tareas|pendientes|cosas por hacer)\b"
)


# Where a to-do is put, said after it ("buy stamps to my to-do list", "Briefmarken auf meine
# Liste", "timbres sur ma liste de tâches", "sellos a mi lista de pendientes").
_ONTO_THE_LIST = re.compile(
    r"\s+(?:to|on|onto|in|into|auf|zu|a|à|sur|dans|en)\s+(?:my|the|meine[rn]?|die|ma|la|mes|mi)"
    r"\s+(?:(?:to-?do|task|todo|aufgaben|einkaufs)[- ]?(?:list|liste)|to-?dos|tasks|aufgaben|"
    r"liste (?:de |des )?(?:t[aâ]ches|choses [aà] faire)|t[aâ]ches|"
    r"lista de (?:tareas|pendientes|cosas por hacer)|tareas|pendientes|list|liste|lista)\b",
    re.IGNORECASE,
)


def without_the_list(title: str) -> str:
    """A to-do's title without where it is put ("buy stamps to my to-do list": "buy
    stamps")."""
    return _ONTO_THE_LIST.sub("", title).strip()


def asks_to_tick_off(text: str) -> bool:
    """Whether `text` asks to mark something on a list as done, or to take it off the to-do
    list (or "my list", no list of a file named)."""
    if _says(_TICK_OFF, text):
        return True
    folded = _folded(text)
    return bool(
        _TAKE_OFF.search(folded)
        and _THE_TODO_LIST.search(folded)
        and not _A_LIST_FILE.search(folded)
    )


# A request to put something in the calendar in one of the four languages (accents folded):
# a verb of putting, then "in my calendar" ("can you put it in my calendar?", "trag ihn in
# meinen Kalender ein", "tu peux le mettre dans mon agenda ?", "¿la pones en mi calendario?").
# Verbs of putting something somewhere, in the four languages (folded), shared by the
# calendar and the to-do list; each adds a few of its own ("pencil in", "nimm … auf").
_PUTTING = (
    r"put|add|pop|stick|note|write|throw|trag\w*|setz\w*|schreib\w*|pack\w*|notier\w*|"
    r"ajoute[rz]?|rajoute[rz]?|note[rz]?|met\w*|inscri[st]|inscrire|anad\w*|apunt\w*|"
    r"pon(?:lo|la|los|las|er|erlo|erla|es|e|gas)?"
)
_CALENDAR = r"(?:calendar|diary|schedule|agenda|kalender|calendrier|calendario)"
_PUT_IN_THE_CALENDAR = re.compile(
    rf"\b(?:{_PUTTING}|enter|pencil|save|block|schedule|eintrag\w*|halt\w*|speicher\w*|"
    r"bloque[rz]?|agend\w*|guard\w*)"
    r"\b[^.?!]{0,60}?\b(?:in|into|on|to|in meinen|in den|im|in meinem|dans|sur|a|en)\s+"
    r"(?:my|the|your|mon|l'|le|ton|mi|el|tu)?\s*" + _CALENDAR + r"\b"
    # or pencilled in, which says the calendar by itself ("pencil in a coffee with him",
    # "pencil me in for Friday", "pencil it in")
    r"|(?<!my )(?<!the )(?<!a )(?<!your )\bpencil (?:(?:me|it|that|this|him|her|them|us) )?in\b"
    # or an appointment put down: "¿Me apuntas la cita con la asesora?", "pop my
    # appointment with the tax advisor in", "trag mir den Termin ein", "note le rendez-vous"
    rf"|\b(?:{_PUTTING}|enter|pencil|schedule|eintrag\w*|book)\s+"
    r"(?:(?:me|mir|moi|bitte|please|doch|mal)\s+){0,3}"
    r"(?:(?:my|the|an?|la|el|una?|le|mon|ma|den|einen|meinen|die|eine|meine)\s+)?"
    r"(?:appointment|cita|termin|rendez-vous|rdv)\b"
    # or something booked for the user: "Book me a haircut", "make me an appointment", "buch
    # mir einen Tisch", "réserve-moi un créneau", "prends-moi rendez-vous", "resérvame una
    # mesa", "pídeme cita"
    r"|\bbook (?:me |us )?(?:an?|in for an?) \w+|\bmake (?:me |us )?an appointment\b"
    r"|\b(?:buch|reservier)\w* (?:mir|uns) (?:einen?|ein|die|den) \w+"
    r"|\b(?:reserve|prends)[- ](?:moi|nous) (?:une? |)\w+"
    r"|\b(?:reservame|reservanos|pideme|pidenos) (?:una? |)\w+"
)


# Off the user's calendar ("from my calendar", "off the calendar", "de mon agenda", "aus
# meinem Kalender", "del calendario"), folded.
_OFF_THE_CALENDAR = re.compile(
    r"\b(?:from|off|out of|de|du|aus|von|vom|del)\s+(?:(?:my|the|mon|l'|le|meinem|dem|mi|el|"
    r"tu|ton)\s*)?" + _CALENDAR + r"\b"
)


# Words that only ask to put something in the calendar, and courtesies ("Apúntame",
# "calendario", "porfa"): never what the event is.
_ONLY_ASKING = re.compile(
    rf"(?:{_PUTTING}|{_CALENDAR}|enter|pencil|eintrag\w*|please|pls|bitte|porfa|favor|plait|"
    r"merci|gracias|danke|thanks|thx|something|etwas|algo|quelque|chose|sorry|perdon\w*|"
    r"pardon|desolee?|entschuldig\w*|yes|yeah|right|okay|genau|stimmt|oui|vale|claro)"
)


def only_asks(word: str) -> bool:
    """Whether `word` says how a request asks to put something in the calendar, or is a
    courtesy or a little word ("Mets-moi", "porfa", "the"): no part of what the event is."""
    bare = word.strip(".,;:!?¿¡()\"'«»")
    return (
        (len(bare) <= 2 and not any(c.isdigit() for c in bare))
        or is_function_word(bare)
        or is_function_word(bare.split("-")[0])
        or bool(_ONLY_ASKING.fullmatch(_folded(bare)))
    )


def names_the_calendar(word: str) -> bool:
    """Whether `word` is the calendar ("agenda", "Kalender"): what comes before it asks."""
    return bool(re.fullmatch(_CALENDAR, _folded(word.strip(".,;:!?"))))


def off_the_calendar(text: str) -> bool:
    """Whether `text` speaks of something taken off the user's calendar: an event."""
    return _says(_OFF_THE_CALENDAR, text)


def asks_to_put_in_the_calendar(text: str) -> bool:
    """Whether `text` asks to put something in the calendar (not to take it off)."""
    return _says(_PUT_IN_THE_CALENDAR, text) and not asks_to_cancel(text)


# Something told asked to be noted, as a pronoun (folded): "can u pop that in?", "put it
# down", "trag das ein", "notier dir das", "note-le", "mets-le", "apúntalo", "anótamelo".
_NOTE_IT = re.compile(
    r"\b(?:pop|put|stick|throw|add|pencil|note|write|jot)\s+(?:that|it|this)\s+"
    r"(?:in|down|on)\b"
    r"|\btrag\w*\s+(?:mir\s+)?(?:das|es|ihn|sie|den|die)\s+(?:\w+\s+){0,2}?ein\b|\btrag's ein\b"
    r"|\bnotier\w*\s+(?:(?:dir|mir)\s+)?(?:das|es)\b"
    r"|\b(?:note|notez|mets|mettez|ajoute|ajoutez|inscris)[- ](?:le|la|ca|moi ca)\b"
    r"|\b(?:apunta|anota|pon|agenda|anade|guarda)(?:lo|la|melo|mela)\b"
)


def asks_to_note_it_down(text: str) -> bool:
    """Whether `text` asks to note down what it tells, naming it by a pronoun ("I'm at the
    optician thursday 4pm, can u pop that in?", "Mi hermana viene el jueves a las 10,
    apúntalo")."""
    return _says(_NOTE_IT, text)


# A verb of taking a time that was found, with it as a pronoun (folded): "… and book it",
# "block them", "trag sie ein", "blockier sie", "bloque-la", "réserve-le", "resérvala".
_BOOK_IT = re.compile(
    r"\b(?:book|block|reserve|grab|hold|take)\s+(?:it|them|that|one)\b"
    r"|\b(?:trag|blockier|reservier|nimm)\w*\s+(?:sie|ihn|es|das|die)\b"
    r"|\b(?:bloque|reserve|prends|garde)[rz]?-(?:la|le|les)\b"
    r"|\b(?:bloque|reserv|apunt|agend)a(?:la|lo|las|los)\b"
    # a verb of blocking time, whatever it takes: "me bloquer ça", "mir das … blocken",
    # "bloquéame", "block out"
    r"|\bbloquer\b|\bblock(?:en|ier\w*)\b|\bbloque(?:ar|ame|amelo|amela)\b"
    r"|\bblock(?:ing)? (?:out|off)\b"
)


# A verb of forwarding an email (folded): "forward", "pass it on", "leite … weiter",
# "weiterleiten", "transférer", "faire suivre", "reenviar".
_FORWARD = re.compile(
    r"\b(?:forward\w*|fwd|pass (?:it|this|that) on|send (?:it|this|that) on|weiterleit\w*|"
    r"pass (?:him|her|them) (?:on )?(?:the|that|this)\b[^.?!]{0,40}\b(?:info|details|"
    r"confirmation|e-?mail|mail|message)|"
    r"leite\w*\b[^?!]{0,60}?\bweiter|(?:schick|send)\w*\b[^?!]{0,60}?\bweiter\b|"
    r"weiterschick\w*|weitersend\w*|reenvi\w*)"
)
# French forwards with the verb of transferring money too: an email must be named.
_TRANSFER = re.compile(r"\b(?:transfer(?:e|er|ez|es)|fais(?:-le)? suivre|faire suivre)\b")
_AN_EMAIL = re.compile(
    r"\b(?:e-?mails?|mails?|courriels?|messages?|recap|compte rendu|invitation|newsletter)\b"
    # what someone sent or wrote: "le récap que Sophie nous a envoyé", "ce qu'elle m'a écrit"
    r"|\b(?:que|qu')\s*(?:[\w-]+\s+)?(?:m'|nous |t'|vous )a (?:envoye|ecrit|transfere)e?s?\b"
)


def a_word_of_forwarding(word: str) -> bool:
    """Whether `word` is a verb of forwarding ("transférer"): it names no email."""
    folded = _folded(word)
    return bool(_FORWARD.fullmatch(folded) or _TRANSFER.fullmatch(folded))


def asks_to_forward(text: str) -> bool:
    """Whether `text` asks to forward an email ("Tu peux lui transférer le mail ?"; not
    "transférer 50 € à Tom")."""
    folded = _folded(text)
    return bool(_FORWARD.search(folded) or (_TRANSFER.search(folded) and _AN_EMAIL.search(folded)))


def asks_to_book_it(text: str) -> bool:
    """Whether `text` asks to put what it asks to find in the calendar ("Find me a free hour
    on Thursday and book it", "trouve-moi une heure … et bloque-la dans l'agenda")."""
    return asks_to_put_in_the_calendar(text) or bool(_BOOK_IT.search(_folded(text)))


# A request to put something on the to-do list in one of the four languages (accents
# folded): "pop … on my to-do list", "nimm … in meine Aufgaben auf", "ajoute … à ma liste de
# tâches", "apúntame en las tareas …". A shopping or packing list is a file's, not this one.
_TODO_LIST = (
    r"(?:to-?do(?:-?list[e]?|s)?|to do list|task list|tasks|things to do|aufgaben(?:liste)?|"
    r"liste (?:de|des) (?:taches|choses a faire)|choses a faire|taches|lista de tareas|"
    r"lista de cosas (?:que|por) hacer|cosas (?:que|por) hacer|tareas|pendientes)"
)
_PUT_ON_THE_TODO_LIST = re.compile(
    rf"\b(?:{_PUTTING}|nimm\w*|agreg\w*|anot\w*)"
    r"\b[^.?!]{0,60}?\b(?:to|on|onto|in|into|auf|a|dans|sur|en)\s+"
    r"(?:my|the|meine|die|ma|mes|la|les|mis|mi|las)?\s*" + _TODO_LIST + r"\b"
    r"|^\s*(?:apuntame|anotame)\s+en\s+(?:mis|las)\s+" + _TODO_LIST + r"\b"
    # "add a to-do", "ajoute une tâche", "setz mir eine Aufgabe", "crea una tarea"
    rf"|\b(?:{_PUTTING}|nimm\w*|agreg\w*|anot\w*|cree[rz]?|crea\w*|create|make|leg\w*)\b"
    r"[\w' -]{0,12}?\b(?:a|an|une|un|eine|einen|una)\s+(?:new\s+|nouvelle\s+|neue\s+|"
    r"nueva\s+)?(?:to-?do|task|tache|aufgabe|tarea)\b"
    # "notier mir als Aufgabe: …", "ajoute comme tâche : …", "apúntame como tarea: …"
    rf"|\b(?:{_PUTTING}|nimm\w*|agreg\w*|anot\w*|leg\w*)\b[\w' -]{{0,20}}?\b(?:as|als|comme|como)"
    r"\s+(?:a\s+|an\s+|une\s+|eine\s+|una\s+)?(?:to-?do|task|tache|aufgabe|tarea)\b"
)


# A new file named, and a verb of writing it down ("jot them down in a note … call it
# deliveries.md", "schreib das in eine Notiz namens liefer.md", "note-le dans un fichier
# livraisons.txt", "apúntalo en una nota llamada entregas.md"), folded.
_NEW_FILE = re.compile(r"\b[\w-]+\.(?:txt|md)\b")
_WRITING_DOWN = re.compile(
    r"\b(?:jot|note|notes?|write|writing|save|call it|name it|notiz\w*|notier\w*|schreib\w*|"
    r"speicher\w*|nenn\w*|ecri[st]\w*|enregistr\w*|sauvegard\w*|appelle\w*|"
    r"apunt\w*|anot\w*|nota|escrib\w*|guard\w*|llam\w*)\b"
)


def asks_to_write_a_note(text: str) -> str:
    """The name of the text file a request asks to write ("… in a note, call it
    nordwind-deliveries.md"), or "" when it names none or asks no writing."""
    folded = _folded(text)
    named = _NEW_FILE.search(text)
    return named.group(0) if named and _WRITING_DOWN.search(folded) else ""


# A new file or list asked for (folded): "start a new shopping list", "leg eine neue
# Einkaufsliste an", "crée une nouvelle liste", "crea una lista nueva".
_NEW = re.compile(
    r"\b(?:new|create|start|neue?[nmrs]?|erstell\w*|anleg\w*|leg\w* .{0,30}\ban|nouv(?:el|elle)|"
    r"cree[rz]?|nuev[ao]s?|crea[rs]?)\b"
)


def asks_for_a_new_file(text: str) -> bool:
    """Whether `text` names a new file to write ("… call it deliveries.md") or asks for a
    new one ("make a new packing list: …"), not a line more on a list the user keeps."""
    return bool(asks_to_write_a_note(text) or _NEW.search(_folded(text)))


_A_TODO = re.compile(rf"\b(?:{_TODO_LIST}|task|aufgabe|tache|tarea)\b")


# A list the user keeps in a file, named (folded): "my shopping list", "die Einkaufsliste",
# "ma liste de courses", "la lista de la compra"; not the to-do list.
_A_LIST_FILE = re.compile(
    r"\b(?:(?:shopping|grocery|groceries|packing|reading|book|gift)\s+list|einkaufsliste|"
    r"einkaufszettel|packliste|leseliste|liste (?:de |des )?(?:courses|lecture|valise|cadeaux)|"
    r"lista de (?:la )?(?:compra|lectura|equipaje|maleta|regalos))\b"
)
# Taking something off a list (folded): "take … off", "remove", "cross … off", "streich …",
# "nimm … runter", "enlève", "retire", "barre", "quita", "borra", "tacha".
_TAKE_OFF = re.compile(
    r"\b(?:take|cross|strike|scratch)\b[^.?!]{0,40}\boff\b|\b(?:remove|delete|drop)\b|"
    r"\b(?:streich\w*|entfern\w*|losch\w*|runter|raus)\b|"
    r"\b(?:enleve\w*|retire\w*|supprime\w*|barre\w*|ote\w*)\b|"
    r"\b(?:quita\w*|borra\w*|elimina\w*|tacha\w*|saca\w*)\b"
)


def takes_off_a_list(text: str) -> bool:
    """Whether `text` asks to take something off a list kept in a file ("Take the parmesan
    off my shopping list", "enlève le lait de ma liste de courses")."""
    folded = _folded(text)
    return bool(_A_LIST_FILE.search(folded) and _TAKE_OFF.search(folded))


# The kinds of list kept in a file, by their words (folded), and the English name their file
# is looked for by ("pour les courses … sur ma liste": the shopping list).
_LIST_KINDS = (
    ("shopping list", r"shopping|grocer(?:y|ies)|einkauf\w*|courses|compras?|supermarche|"
     r"supermercado"),
    ("packing list", r"packing|packliste|koffer|valise|equipaje|maleta"),
    ("reading list", r"reading|leseliste|lecture|lectura"),
    ("gift list", r"gifts?|geschenk\w*|cadeaux|regalos"),
)  # fmt: skip
_LIST_WORD = re.compile(r"\b(?:list|liste|lista|zettel)\b|\w(?:liste|zettel)\b")


# Words for any event, visit or appointment of the calendar (folded): they name none ("den
# Termin löschen"), and a title need not be said with them ("der Klempner": "Plumber visit").
ANY_EVENT = _set(
    "appointment event entry visit termin eintrag besuch rendez-vous rdv evenement visite "
    "cita evento entrada visita"
)


def list_named(text: str) -> str:
    """The English name of the list kept in a file that `text` names by its kind ("J'ai
    oublié deux trucs pour les courses : … sur ma liste ?": "shopping list"); "" if it names
    none, or the to-do list."""
    folded = _folded(text)
    if not _LIST_WORD.search(folded) or _A_TODO.search(folded):
        return ""
    kinds = [name for name, words in _LIST_KINDS if re.search(rf"\b(?:{words})\b", folded)]
    return kinds[0] if len(kinds) == 1 else ""


# Words joining the items of a list ("milk and eggs", "Milch, Butter und Eier", "du lait et
# des pommes", "leche y pan"), folded.
_JOINS = {",", "and", "und", "sowie", "et", "y", "e", "&", "plus"}
# Articles and partitives before an item, not part of it ("des pommes", "some eggs").
_ITEM_ARTICLES = _set(
    "a an some the ein eine einen etwas du des de la le les l d un une unos unas el los las "
    "algo algunos algunas"
)
# Words that end an item: where the list is named ("sur ma liste", "en la lista", "à la
# liste"), folded.
_ITEM_ENDS = _set("a en in to zu dans sur auf on onto para for fur pour al")
# An item has at most this many words.
_ITEM_WORDS = 3


def items_listed_with(text: str, item: str) -> list[str]:
    """The items `text` lists with `item`, in its order and words ("Setz bitte Milch und
    Haferflocken auf meine Einkaufsliste" with "Haferflocken": "Milch", "Haferflocken"); the
    parts of `item` itself when it lists several ("Milch und Eier"); [`item`] if neither."""
    own = _parts(item)
    written = set(re.findall(r"[\w'’-]+", _folded(text)))
    said_parts = [p for p in own if set(re.findall(r"[\w'’-]+", _folded(p))) <= written]
    if len(own) > 1 and (len(said_parts) == len(own) or not said_parts):
        return own
    if said_parts and len(said_parts) < len(own):
        # "pain, oil" for "du pain et des œufs": the request's own list, from the item the
        # model copied
        item = said_parts[0]
    tokens = [(m.group(0), _folded(m.group(0))) for m in re.finditer(r"[\w'’-]+|[,;:.!?]", text)]
    said = [_folded(w) for w in re.findall(r"[\w'’-]+", item)]
    said = said[next((i for i, w in enumerate(said) if w not in _ITEM_ARTICLES), 0) :]
    start = next(
        (i for i in range(len(tokens)) if [f for _, f in tokens[i : i + len(said)]] == said),
        None,
    )
    if start is None or not said:
        return _listed_around_a_join(text, tokens) or [item]
    end = start + len(said)
    items = [" ".join(w for w, _ in tokens[start:end])]
    while end < len(tokens) and tokens[end][1] in _JOINS:  # after it: "… und Eier"
        end += 1 + (end + 1 < len(tokens) and tokens[end + 1][1] in _JOINS)
        taken = _item_at(tokens, end, 1)
        if not taken:
            break
        items.append(" ".join(w for w, _ in tokens[taken[0] : taken[1]]))
        end = taken[1]
    while True:  # before it: "Milch, Butter und …", "des œufs, du beurre et de la …"
        while start > 0 and tokens[start - 1][1] in _ITEM_ARTICLES:
            start -= 1
        if start == 0 or tokens[start - 1][1] not in _JOINS:
            return items
        start -= 1 + (start > 1 and tokens[start - 2][1] in _JOINS)
        taken = _item_at(tokens, start - 1, -1)
        if not taken:
            return items
        items.insert(0, " ".join(w for w, _ in tokens[taken[0] : taken[1]]))
        start = taken[0]


def _listed_around_a_join(text: str, tokens: list[tuple[str, str]]) -> list[str]:
    """The items `text` lists itself around its first "and" ("schreib noch eier und
    batterien auf …": "eier", "batterien"), where the model's item is none of its words
    ("batteries"); [] if it joins none."""
    for i, (_, folded) in enumerate(tokens):
        if folded in _JOINS - {","} and _item_at(tokens, i - 1, -1):
            after = _item_at(tokens, i + 1, 1)
            if after is not None:
                return items_listed_with(text, " ".join(w for w, _ in tokens[after[0] : after[1]]))
    return []


def _item_at(tokens: list[tuple[str, str]], at: int, step: int) -> tuple[int, int] | None:
    """The span of the item whose first (`step` 1) or last (`step` -1) word is at `at`, less
    the article before it; None if no item's words are there. Going back, the first word of
    the sentence is the request's verb ("Apúntame leche y pan"), unless it is all the item."""
    words: list[int] = []
    i = at
    if step == 1:
        while i < len(tokens) and tokens[i][1] in _ITEM_ARTICLES:
            i += 1
    while 0 <= i < len(tokens) and len(words) < _ITEM_WORDS:
        word, folded = tokens[i]
        if not word[0].isalnum() or folded in _ITEM_ENDS or folded in _ITEM_ARTICLES:
            break
        if is_function_word(word) or folded in _JOINS:
            break
        words.append(i)
        i += step
    if step == -1 and len(words) > 1 and (i < 0 or not tokens[i][0][0].isalnum()):
        words.pop()  # the sentence's first word: "Apúntame"
    if not words:
        return None
    return min(words), max(words) + 1


def _parts(item: str) -> list[str]:
    """The items `item` lists itself ("Milch und Eier", "eggs, butter"), less articles."""
    parts = re.split(r"\s*(?:,|&|\band\b|\bund\b|\bet\b|\by\b)\s*", item.strip())
    kept = []
    for part in parts:
        words = part.split()
        while words and _folded(words[0]) in _ITEM_ARTICLES:
            words.pop(0)
        if words:
            kept.append(" ".join(words))
    return kept if len(kept) > 1 else [item.strip()]


def speaks_of_the_todo_list(text: str) -> bool:
    """Whether `text` names the to-do list or a to-do ("dans ma liste de tâches", "the
    insurance task", "die Aufgabe"), in the four languages."""
    return _says(_A_TODO, text)


def asks_to_put_on_the_todo_list(text: str) -> bool:
    """Whether `text` asks to put something on the to-do list (not to take it off)."""
    return _says(_PUT_ON_THE_TODO_LIST, text) and not asks_to_cancel(text)


# What the user has to do, said as such ("I have to", "Ich muss", "Je dois", "Tengo que"):
# a to-do's title is what follows.
_HAVE_TO = re.compile(
    r"^\s*(?:so\s+|also\s+|alors\s+|pues\s+)?(?:I (?:have|need|got|want) to|I must|I should|"
    r"I'd like to|ich muss|ich sollte|ich soll|ich will|ich möchte|je dois|il faut que je|"
    r"je veux|je voudrais|tengo que|necesito|debo|hay que|quiero)\s+(?:noch\s+)?",
    re.IGNORECASE,
)


# A question whether the user has to do something (folded): "do I have to …?", "muss ich
# noch …?", "est-ce que je dois …?", "¿tengo que …?".
_MUST_I = re.compile(
    r"\b(?:do i (?:still )?(?:have|need) to|have i got to|must i|muss ich|soll(?:te)? ich|"
    r"dois-je|est-ce que je dois|je dois|faut-il que je|il faut que je|tengo que|debo|"
    r"necesito|hay que)\b"
)


def asks_whether_to_do(text: str) -> bool:
    """Whether `text` asks if the user has something to do ("¿tengo que devolver algo a la
    biblioteca?"): a question of their to-dos, never an act."""
    return _asked_so(_MUST_I, text, marked=True)


def _asked_so(pattern: re.Pattern[str], text: str, marked: bool = False) -> bool:
    """Whether the asking sentence of `text` is a question (`marked`: with its "?") saying
    `pattern` (folded)."""
    question = the_question(text)
    asked = question.rstrip().endswith("?") if marked else asks_a_question(question)
    return asked and bool(pattern.search(_folded(question)))


# A question whether something is done yet (folded): "have I sent the tax papers yet?", "did
# I already pay the rent?", "is the bike light done?", "hab ich die Steuerunterlagen schon
# erledigt?", "ist das schon erledigt?", "j'ai déjà rendu les livres ?", "c'est fait ?",
# "¿ya pagué el alquiler?", "¿ya está hecho?".
_DONE_YET = re.compile(
    r"\b(?:(?:have|did) i (?:already |ever )?\w+(?: [\w'-]+){0,6}? (?:yet|already)|"
    r"did i already|have i already|(?:is|are) (?:it|that|this|they|the [\w -]{1,30}) "
    r"(?:done|finished|sorted|dealt with|taken care of)|"
    r"(?:hab|habe|hast) ich (?:[\w-]+ ){0,6}?(?:schon|bereits)|(?:schon|bereits) erledigt|"
    r"(?:ist|sind) (?:[\w-]+ ){0,4}?(?:schon )?(?:erledigt|fertig)|"
    r"(?:j'ai|ai-je|est-ce que j'ai) (?:deja|bien)|deja (?:fait|fini|envoye|paye|rendu|regle)|"
    r"(?:c'est|c est) (?:deja )?fait|"
    r"\bya (?:he|hice|pague|mande|envie|devolvi|llame|compre|termine|esta hech[oa]|"
    r"lo hice|esta)|(?:he|has) (?:[\w-]+ ){0,5}?ya)\b"
)


def asks_whether_done(text: str) -> bool:
    """Whether `text` asks if something is done yet ("hab ich die steuerunterlagen schon
    erledigt?"): a question of the to-dos done and open, never an act."""
    return _asked_so(_DONE_YET, text)


# Asking to put what was said before on a list, by a word pointing back at it (folded):
# "add it", "put that on", "añádelo", "apúntalo", "ajoute-le", "mets ça", "füg das hinzu",
# "schreib es auf".
_IT_ON_THE_LIST = re.compile(
    r"\b(?:add|put|stick|write|pop|note)\s+(?:it|that|this)\b|"
    r"\b(?:anade|apunta|pon|agrega|anota|mete)(?:lo|la|melo|mela)\b|"
    r"\b(?:ajoute|mets|note|rajoute)[- ](?:le|la|ca)\b|"
    r"\b(?:fug|schreib|setz|trag|notier|pack)\w*\s+(?:es|das|dies)\b"
)


def todo_said_around(request: str) -> str | None:
    """The to-do a request says in a sentence of its own beside the one asking to put it on
    the list ("Tengo que confirmarle a Lena la dirección del almacén antes de la llamada.
    Añádelo a mis tareas para el lunes": "Confirmarle a Lena la dirección del almacén antes
    de la llamada"), without "I have to"; None if no sentence says it apart."""
    said = sentences(request)
    if len(said) == 1:
        # one sentence, its clause pointing back at the one before ("quiero comprar un
        # regalo para mi madre, añádelo a mis tareas"): each clause as a sentence
        clauses = [c for c in re.split(r"\s*[,;]\s*|\s+[-–—]\s+", request) if c.strip()]
        if len(clauses) > 1 and _IT_ON_THE_LIST.search(_folded(clauses[-1])):
            said = clauses
    kept = [s for s in said if not asks_to_put_on_the_todo_list(s)]
    if not kept or len(kept) == len(said):
        return None
    title = _HAVE_TO.sub("", " ".join(kept)).strip(" .!…")
    return title[:1].upper() + title[1:] if title else None


# A verb of moving something to another time in the four languages (folded): "move",
# "reschedule", "verschieben", "verlegen", "déplacer", "décaler", "mover", "pasar", "cambiar".
_MOVE = re.compile(
    rf"\b(?:{MOVING_VERBS}|moving|reschedul\w*|verleg\w*|repouss\w*|mover|muev\w*|"
    r"pas(?:a|ar|arla|arlo|as)|cambi\w*|reprogram\w*|aplaz\w*)\b"
)


def asks_to_move(text: str) -> bool:
    """Whether `text` asks to move something to another time ("ob wir unser 1:1 morgen auf
    14 Uhr verlegen können")."""
    return _says(_MOVE, text) and not asks_to_cancel(text)


# A verb of cancelling a few words before a reminder (folded): "you can scrap that reminder
# about …", "lösch bitte die Erinnerung …", "tu peux supprimer le rappel …", "borra el
# recordatorio de …".
_CANCEL_A_REMINDER = re.compile(
    r"\b(?:cancel|scrap|delete|remove|drop|get rid of|turn off|streich\w*|losch\w*|entfern\w*|"
    r"annule[rz]?|supprime[rz]?|enleve[rz]?|vire[rz]?|cancel\w*|borr\w*|elimin\w*|quit\w*)"
    r"(?:\s+[\w'-]+){0,3}?\s+(?:reminders?|erinnerung\w*|rappels?|recordatorios?)\b"
)


# A reminder named (folded): "reminder", "Erinnerung", "rappel", "recordatorio", "alarm".
_A_REMINDER = re.compile(
    r"\b(?:reminders?|remind\w*|erinnerung\w*|erinner\w*|rappel\w*|recordatorios?|"
    r"recuerd\w*|avis\w*|alarm\w*|alarma|wecker|reveil)\b"
)


# Asking who someone is (folded): "who is", "who's", "wer ist", "qui est", "c'est qui",
# "quién es".
_WHO_IS = re.compile(r"\b(?:who is|who's|wer ist|wer war|qui est|c'est qui|quien es)\b")


def asks_who_someone_is(text: str) -> bool:
    """Whether `text` asks who someone is ("who is helen morgan?")."""
    return _says(_WHO_IS, text)


# Asking where someone or something is, or an address (folded): "where is", "address", "wo
# ist", "Adresse", "Anschrift", "où est", "adresse", "dónde está", "dirección".
_WHERE = re.compile(
    r"\b(?:where(?:'s| is| are)|(?:street |postal |home )?address|wo (?:ist|sind|finde)|"
    r"adresse|anschrift|ou (?:est|se trouve|sont)|c'est ou|donde (?:esta|queda)|direccion)\b"
)


def asks_where(text: str) -> bool:
    """Whether `text` asks where someone or something is, or an address ("¿cuál es la
    dirección de la consulta del dentista?"; an email address too: the caller tells)."""
    return _says(_WHERE, text)


def speaks_of_a_reminder(text: str) -> bool:
    """Whether `text` names a reminder ("delete the reminder about the passport")."""
    return _says(_A_REMINDER, text)


def asks_to_cancel_a_reminder(text: str) -> bool:
    """Whether `text` asks to cancel a reminder ("Good news, my passport came! So you can scrap
    that reminder about renewing it")."""
    return _says(_CANCEL_A_REMINDER, text)


def asks_to_cancel(text: str) -> bool:
    """Whether `text` asks to cancel something that may be an event of the calendar."""
    folded = _folded(text)
    return bool(_CANCEL.search(folded)) and not _OTHER_KINDS.search(folded)


# A question asking when or where ("when's …?", "what time …", "wann …", "um wie viel Uhr",
# "quand …", "à quelle heure", "cuándo …", "a qué hora", "where …", "wo …", "où …", "dónde …").
_WHEN_OR_WHERE = re.compile(
    # after a word of talk ("so when's …", "dis, c'est quand …", "oye, ¿cuándo …", "sag mal,
    # wann …"), and French's "c'est" ("c'est quand déjà mon rendez-vous ?")
    r"^\s*(?:(?:and|und|et|y|so|ok|okay|hey|also|dis|alors|bon|oye|pues|sag mal)[\s,]+)*"
    r"[¿\s]*(?:c'est\s+|cest\s+)?"
    r"(?:when(?:'s| is| are| do| does| did)?|what time|where|"
    r"wann|um wie ?viel uhr|wo|wohin|quand|a quelle heure|ou|cuando|a que hora|donde|adonde)\b"
)


# The same asked at the end, as French and Spanish often do ("l'appel avec Lena, c'est prévu
# quand ?", "la cena con Tom es cuándo?", "¿sabes qué día me lo traen?", "the party is where
# again?").
_WHEN_OR_WHERE_LAST = re.compile(
    r"\b(?:when|where|wann|wo|quand|ou ca|cuando|donde|(?:what|which) day|welche[nm]? tag|"
    r"an welchem tag|quel jour|que dia)\b(?:\s+[\w']+){0,3}\s*\?\s*$"
)


# A question of the day (folded): "when", "by when", "what day", "wann", "bis wann", "quand",
# "quel jour", "cuándo", "qué día".
_WHICH_DAY = re.compile(
    r"\b(?:when|what days?|which days?|wann|welche[nmr]? tage?|an welchen tagen|quand|"
    r"quels? jours?|cuando|que dias?)\b"
)


def asks_which_day(text: str) -> bool:
    """Whether `text` asks when or on which day, anywhere in it ("by when does she need
    it?"): the answer is a day."""
    return _says(_WHICH_DAY, text)


def asks_when_or_where(text: str) -> bool:
    """Whether `text` asks when or where something is: a question, not a change."""
    folded = _folded(text)
    return bool(_WHEN_OR_WHERE.match(folded) or _WHEN_OR_WHERE_LAST.search(folded))


# A question asking a time or a place anywhere in it ("On a rendez-vous à quelle heure à la
# gare samedi ?", "Und Samstag, wann müssen wir los?"), accents folded.
_TIME_OR_PLACE = re.compile(
    r"\b(?:what time|when|where|wann|um wie ?viel uhr|wo|a quelle heure|quand|cuando|"
    r"a que hora|donde)\b"
)


def asks_a_time_or_place(text: str) -> bool:
    """Whether `text` is a question asking at what time or where, wherever it says so."""
    return asks_when_or_where(text) or ("?" in text and bool(_TIME_OR_PLACE.search(_folded(text))))


# Where a second question starts after a first (folded): ", and what …", " und wo …", "? Et
# quand …", "; y dónde …" (its question word kept).
_SECOND_QUESTION = re.compile(
    rf"(?:[?,;]\s*(?:(?:and|und|et|y|also|plus)\s+)?|\s+(?:and|und|et|y)\s+)(?=(?:{_QUESTION_WORDS}|what's|"
    r"whats|que|qu'est|ou|où|dónde|cuándo|qué|cuál|cómo|quién)\b)"
)
# A question's opening word, after a greeting or "so" (folded): "what do i owe stadtwerke",
# "hey when is …", "also wann …", "bon, combien …", "oye, cuánto …".
_OPENING_QUESTION = re.compile(
    r"^(?:(?:hey|hi|so|ok|okay|and|also|na|und|bon|alors|et|oye|pues|y)[,!]?\s+)?"
    rf"(?:{_QUESTION_WORDS}|what's|whats|when's|whens|where's|who's|how's|qu'est|pourquoi|why|"
    r"warum|wieso|por que)\b"
)


def asks_a_question(text: str) -> bool:
    """Whether `text` asks a question, with its question mark or typed without one
    ("what do i owe stadtwerke")."""
    opening = _folded(text).lstrip("¿¡ ")
    return the_question(text).rstrip().endswith("?") or bool(
        _OPENING_QUESTION.match(opening) and not _AS_SAID.match(opening)
    )


# A question word opening a remark, not a question (folded): "como ya sabes", "como te dije",
# "wie gesagt", "wie besprochen", "how about that".
_AS_SAID = re.compile(
    r"(?:como (?:ya )?(?:sabes|sabeis|sabe|te dije|te decia|dije|siempre|acordamos|quedamos)|"
    r"wie (?:gesagt|besprochen|abgemacht|versprochen|immer|du weisst|schon gesagt))\b"
)


# A question's own opening word (folded), for each part of a request split in two.
_OPENS_A_QUESTION = re.compile(
    rf"^(?:(?:and|und|et|y|also|plus)\s+)?(?:{_QUESTION_WORDS}|what's|whats|is|are|do|does|"
    r"did|que|qu'est|ou|ist|sind|hast|habe|gibt|hay|tengo|est-ce)\b"
)


def separate_questions(text: str) -> list[str]:
    """The two questions a request asks one after the other, each whole ("When is Mum's
    birthday, and what gift ideas do I have for her?": "When is Mum's birthday?", "what gift
    ideas do I have for her?"), each led by what the request says before them ("Prepare me
    for the Nordwind call: when is it, and what's their plan?"); [] when it asks one, or
    more than two, or asks for anything to be done."""
    folded = _folded(text)
    if folded.count("?") == 0 or folded.count("?") > 2 or not folded.rstrip().endswith("?"):
        return []
    lead_end = folded.rfind(":", 0, folded.find("?")) + 1
    body = folded[lead_end:]
    cuts = [m.start() for m in _SECOND_QUESTION.finditer(body) if m.start() > 0]
    if len(cuts) != 1:
        return []
    start = lead_end + len(body) - len(body.lstrip())
    first, second = text[start : lead_end + cuts[0]], text[lead_end + cuts[0] :]
    first, second = first.strip(" ,;?") + "?", second.strip(" ,;?")
    second = re.sub(r"^(?:and|und|et|y|also|plus)\s+", "", second, flags=re.I) + "?"
    if not all(_OPENS_A_QUESTION.match(_folded(part).lstrip("¿¡ ")) for part in (first, second)):
        return []
    lead = text[:lead_end].strip()
    parts = [f"{lead} {part}".strip() for part in (first, second)]
    if any(len(re.findall(r"\w{3,}", part)) < 2 for part in parts) or len(first.split()) < 3:
        # "When and where is it?", "what time is it, and where?", "How hot and how long does
        # my lasagne bake?": one thing asked of
        return []
    # the second names what it asks about itself ("what gift ideas do I have for her?"), not
    # only through the first ("… and when do we pay it?", "… what is its population?")
    named = [w for w in re.findall(r"\w{4,}", _folded(second))
             if not is_function_word(w) and not _ASKED_LAST.fullmatch(w)
             and w not in _SAYS_NO_THING]  # fmt: skip
    return parts if len(named) >= 2 else []


# Words a question uses without naming what it is about ("what time do we get back?": the
# hike the first question named), folded.
_SAYS_NO_THING = frozenset((
    "time", "back", "there", "here", "much", "many", "long", "later", "early", "then",
    "about", "also", "thing", "things", "stuff", "zeit", "zuruck", "dort", "hier", "spater",
    "temps", "retour", "tiempo", "hora", "heure", "vuelta",
))  # fmt: skip


_QUESTION_WORD = re.compile(
    r"\b(?:what|which|how|who|whom|was|welche\w*|wie|wer|quel\w*|quoi|comment|qui|"
    r"combien|qu'est|cual\w*|como|quien|cuanto\w*)\b"
)


# Messages themselves asked for ("What emails did Tom send?", "Any new mails?", "Welche
# Nachrichten …", "Quels messages …", "¿Cuántos correos …?"), accents folded.
_MESSAGES_ASKED = re.compile(
    r"\b(?:what|which|any|how many|welche\w*|wie viele|quel\w*|combien de|cual\w*|cuant\w*)\s+"
    r"(?:\w+\s+)?(?:e-?mails?|mails?|messages?|nachrichten|courriels?|correos?|mensajes?)\b"
)


def a_question_fragment(question: str) -> bool:
    """Whether a question names a topic but asks nothing itself ("Something about the
    heating?", "Wegen der Heizung?"): no question word, and a few words only."""
    folded = _folded(question)
    return (
        not _QUESTION_WORD.search(folded)
        and not _ASKED_LAST.search(folded)
        and (len(folded.split()) <= 6)
    )


# How many days until something, asked (folded): "how many days until", "how long until",
# "wie viele Tage (noch) bis", "in wie vielen Tagen", "combien de jours avant", "dans combien
# de jours", "cuántos días faltan", "en cuántos días".
_DAYS_UNTIL = re.compile(
    r"\bhow (?:many (?:more )?days|long) (?:until|till|to go|before|left)\b|"
    r"\bwie ?viele tage\b|\bin wie vielen tagen\b|\bcombien de jours\b|"
    r"\bcuantos dias\b"
)


def asks_how_many_days(text: str) -> bool:
    """Whether `text` asks how many days are left until something ("how many days until
    the hiking trip?")."""
    return _says(_DAYS_UNTIL, text)


# What someone told or wrote the user, asked (folded): "what did Tom say about …", "¿qué me
# dijo Tom de …?", "qu'est-ce que Tom m'a dit", "was hat Tom (mir) geschrieben".
_WHAT_THEY_SAID = re.compile(
    r"\bwhat did (?!you\b)[\w'-]+ (?:say|tell me|write|mention)\b|"
    # asked whether they said it ("did Tom say what time the bbq starts?", "hat Tom gesagt,
    # wann …", "est-ce que Tom a dit à quelle heure …", "¿dijo Tom a qué hora …")
    # (a sentence or a dash before: "ugh forgot to ask - did tom ever say …")
    r"(?:^|[-–—,.!?:;]\s)\s*(?:so |and |hey |oh )?(?:did|has) (?!you\b|i\b|we\b)[\w'-]+ "
    r"(?:ever |already |actually |even )?(?:say|said|mention\w*|tell me|told me)\b|"
    r"^\s*(?:hat|haben) (?!du\b|ich\b)[\w-]+ (?:\w+ ){0,3}?(?:gesagt|erwahnt)\b|"
    r"\best-ce que (?!tu\b|je\b|j')[\w-]+ (?:m'a |a )(?:dit|precise)\b|"
    r"^\s*[¿]?(?:dijo|comento|menciono) (?!tu\b|yo\b)[\w-]+\b|"
    r"\bque (?:me |te |nos )?(?:dijo|escribio|conto|comento) [a-z]|"
    r"\bqu'est-ce que [\w-]+ (?:m'a|nous a|a) (?:dit|ecrit|raconte)\b|"
    r"\bwas hat (?:mir |uns )?(?:der |die )?(?!du\b)[\w-]+ (?:\w+ ){0,5}?"
    r"(?:gesagt|geschrieben|erzahlt)\b"
)


def asks_what_they_said(text: str) -> bool:
    """Whether `text` asks what someone told or wrote the user ("¿qué me dijo Tom de la
    barbacoa?"): their message holds it, never the model's guess."""
    return _says(_WHAT_THEY_SAID, text)


def asks_of_a_message(text: str) -> bool:
    """Whether `text` asks something a message holds ("could you dig out my booking
    reference? Also what time does the plane leave"), not for the messages themselves."""
    folded = _folded(text)
    asks = _QUESTION_WORD.search(folded) or _TIME_OR_PLACE.search(folded)
    return bool(asks) and not _MESSAGES_ASKED.search(folded)


# Saying something was sent or written to the user ("Lena sent over the dates", "in her
# email", "hat mir geschrieben", "m'a envoyé", "me mandó"), accents folded; not asking to
# send one ("send him an email", "le mandas un correo").
_WORD_FROM = (
    r"news from|heard (?:back )?from|heard anything from|word from|neues von|"
    r"nachrichten? von|gemeldet|nouvelles de|noticias de|"
    # ("did lena from nordwind ever get back to me about …?", "m'a répondu", "me contestó")
    r"(?:get|got|gotten) back to (?:me|us)|(?:m'a|nous a) repondu|(?:me|nos) (?:contesto|respondio)"
)
_SENT = re.compile(
    r"\b(?:sent|mailed|emailed|wrote|messaged|forwarded|geschickt|geschrieben|gemailt|"
    r"weitergeleitet|envoye\w*|ecrit|transfere\w*|mando|envio|escribio|reenvio|escrito|"
    r"mandado|enviado|reenviado|"
    # word from someone ("any news from Lena?", "hat sich Lena gemeldet?", "des nouvelles de
    # Lena ?", "¿noticias de Lena?")
    rf"{_WORD_FROM}|"
    r"(?:in|from) (?:her|his|their|the|that|this) (?:e-?mail|mail|message)|"
    # asked what someone sent ("what did the bank send me last?")
    r"did (?:[\w'-]+ ){1,3}send\b|"
    r"(?:in|aus) (?:ihrer|seiner|der|dieser) (?:e-?mail|mail|nachricht)|"
    r"dans (?:son|le|ce) (?:mail|courriel|message)|en (?:su|el|ese) (?:correo|mensaje)|"
    # the user's mail said to hold it ("it's somewhere in my mails", "in meinen Mails", "dans
    # mes mails", "en mis correos")
    r"(?:in|aus|dans|en|entre) (?:my|meine[mn]?|mes|mis) (?:e-?mails?|mails?|inbox|"
    r"posteingang|courriels?|correos?|mensajes)|"
    # sent as one ("per Mail bestätigt", "confirmed by email", "par mail", "por correo")
    r"(?:per|by|via|par|por) (?:e-?mail|mail|courriel|correo))\b"
)


# A question saying which of the user's documents answers it (folded): "according to my
# budget sheet", "laut meiner Budgettabelle", "d'après mon tableau de budget", "según mi hoja
# de presupuesto", "in my notes".
_BY_A_DOCUMENT = re.compile(
    r"\b(?:according to|(?:going )?by|in|from|laut|in|aus|nach|d'apres|selon|dans|segun|en|"
    r"de)\s+"
    r"(?:my|our|meine[mnrs]?|unsere[mnrs]?|mon|ma|mes|notre|nos|mi|mis|nuestr[ao]s?)\s+"
    r"(?P<named>(?:[\w-]+\s+){0,2}?(?:(?:spread)?sheets?|tables?|documents?|notes|"
    r"\w*(?:tabelle|datei|dokument|notizen|unterlagen)|tableaux?|fichiers?|documents?|"
    r"hojas?|tablas?|archivos?|documentos?|notas|"
    # a recipe the user keeps ("la lasaña de verduras de mi receta")
    r"recipes?|\w*rezept\w*|recettes?|recetas?))\b"
)


def answered_by_a_document(text: str) -> bool:
    """Whether `text` says a document of the user's holds the answer: the files answer it,
    not the calendar or the lists its other words name."""
    return _says(_BY_A_DOCUMENT, text)


def document_named(text: str) -> str:
    """The words naming the document a request says holds the answer, up to the clause's
    end ("d'après mon tableau de budget de cette année ?": "tableau de budget de cette
    année"); "" if it names none."""
    folded = fold(text).replace("’", "'")  # in its places ("¿" kept)
    found = _BY_A_DOCUMENT.search(folded)
    if found is None or len(folded) != len(text):  # ("ß" folded to "ss"): places differ
        return ""
    return re.split(r"[,;:.!?]", text[found.start("named") :])[0].strip()


# Mail not read yet, in the four languages (folded): "unread", "new emails", "ungelesene",
# "neue Mails", "non lus", "nouveaux courriels", "sin leer", "correos nuevos".
_UNREAD = re.compile(
    r"\b(?:unread|unseen|new (?:e-?)?mails?|new messages|ungelesen\w*|neuen? (?:e-?)?mails?|"
    r"neue nachrichten|non lus?|non lues?|nouveaux (?:e-?)?mails|nouveaux (?:courriels|messages)|"
    r"sin leer|no leid[oa]s|(?:correos|mensajes|emails) nuevos)\b"
)


# The weather asked about, in the four languages (folded): "weather", "forecast", "Wetter",
# "regnet es", "météo", "quel temps", "il va pleuvoir", "qué tiempo", "va a llover".
_WEATHER = re.compile(
    r"\b(?:weather|forecast|(?:is it|will it|going to) (?:rain|snow)|wetter\w*|regnet es|"
    r"wird es regnen|schneit es|meteo|quel temps|(?:il va|va-t-il) (?:pleuvoir|neiger)|"
    r"(?:que|el) tiempo (?:hace|hara|va a hacer)|pronostico|va a llover|llovera)\b"
)


# The web named (folded): "online", "on the internet", "google", "im Netz", "en ligne", "en
# internet", "web".
_THE_WEB = re.compile(
    r"\b(?:web|online|internet|google\w*|netz|websites?|webseiten?|en ligne|sitio|pagina web)\b"
)


def names_the_web(text: str) -> bool:
    """Whether `text` says to look on the web ("look it up online")."""
    return _says(_THE_WEB, text)


# Asking to open a website (folded): a verb of opening, then a word for a site within a few
# words ("open the BBC website", "pull up amazon's homepage", "ábreme la web de la BVG",
# "öffne mir die Seite von Wikipedia", "ouvre le site de la SNCF"); not a page of a
# document ("Seite 3").
_OPENS_A_SITE = re.compile(
    r"\b(?:open|bring up|pull up|go to|take me to|load|offne|offnen|ouvre|ouvrir|ouvre-moi|"
    r"abre|abreme|abrir|abrirme|entra en)\b(?:\s+[\w'-]+){0,5}?\s+"
    r"(?:websites?|web ?pages?|homepage|site|webseite|internetseite|seite(?!\s+\d)|site web|"
    r"web|pagina(?: web)?|sitio(?: web)?)\b"
)


def asks_to_open_a_site(text: str) -> bool:
    """Whether `text` asks for a website to be opened ("ábreme la web de la BVG")."""
    return _says(_OPENS_A_SITE, text)


# The site's name beside its word (as typed): after it ("la web de la BVG", "die Seite von
# Wikipedia", "le site de la SNCF", "la página de Renfe") or before it ("the BBC website",
# "amazon's homepage").
_SITE_AFTER = re.compile(
    r"\b(?:website|site|web|p[aá]gina|seite|webseite|homepage)\s+(?:of|de|von|der|des|del|du|"
    r"vom)\s+(?:(?:the|la|le|el|les|los|die|der|dem|l')\s*)?(?P<name>[\w.&'-]+(?:\s+(?-i:[A-ZÀ-Ý])[\w&-]*)*)",
    re.IGNORECASE,
)
_SITE_BEFORE = re.compile(
    r"(?P<name>(?:(?-i:[A-ZÀ-Ý0-9])[\w.&-]*\s+)*[\w.&-]+?)(?:'s)?\s+(?:website|web ?site|homepage|"
    r"web ?page|site)\b",
    re.IGNORECASE,
)


def site_named(text: str) -> str:
    """The website's name a request to open one says ("BVG" of "ábreme la web de la BVG"),
    or ""."""
    if (after := _SITE_AFTER.search(text)) is not None:
        return after["name"].strip(" .,")
    if (before := _SITE_BEFORE.search(text)) is not None:
        name = before["name"].split()
        while name and is_function_word(name[0]):  # "open the BBC website": "BBC"
            name = name[1:]
        while name and fold(name[0]) in {"open", "pull", "bring", "up", "load", "go"}:
            name = name[1:]
        return " ".join(name)
    return ""


def asks_for_the_weather(text: str) -> bool:
    """Whether `text` asks about the weather ("what's the weather like in berlin today?"),
    which only the web knows."""
    return _says(_WEATHER, text)


def asks_for_unread(text: str) -> bool:
    """Whether `text` asks about mail not read yet ("¿tengo algún correo sin leer?")."""
    return _says(_UNREAD, text)


def without_unread(words: str) -> str:
    """`words` without those saying "unread" or naming mail ("unread emails", "sin leer": no
    topic)."""
    if not _says(_UNREAD, words):
        return words
    kept = [w for w in _UNREAD.sub(" ", _folded(words)).split() if not _MAIL_NOUN.fullmatch(w)]
    return " ".join(kept)


# What mail is called (folded), which says no topic of its own.
_MAIL_NOUN = re.compile(
    r"(?:e-?mails?|mails?|messages?|nachrichten|courriels?|correos?|mensajes?|any|some|"
    r"irgendwelche|des|algun[oa]?s?)"
)


def asks_for_word_from(text: str) -> bool:
    """Whether `text` asks for news from someone ("Any news from Lena?", "Hat sich Lena
    gemeldet?"): what their last email says, summed up."""
    return _says(re.compile(rf"\b(?:{_WORD_FROM})\b"), text)


def speaks_of_a_message(text: str) -> bool:
    """Whether `text` says what it is about was sent or written to the user: an email holds
    it rather than a file, where both hold as much of it."""
    return _says(_SENT, text)


# A reply to someone named only by a pronoun (folded): "reply to her", "write back to him",
# "antworte ihr", "schreib ihm zurück", "réponds-lui", "lui répondre", "respóndele".
_TO_THE_ONE_BEFORE = re.compile(
    r"\b(?:(?:reply|respond|answer|write back|get back)(?: to)? (?:her|him|them)|"
    r"(?:antwort\w*|schreib\w*) (?:ihr|ihm|ihnen)\b(?! \w+ (?:mail|e-mail|nachricht))|"
    r"repond\w*[- ](?:lui|leur)|(?:lui|leur) repond\w*|"
    r"(?:respond|contest)\w*(?:le|les)|(?:le|les) (?:respond|contest)\w*)\b"
)


def answers_the_one_before(text: str) -> bool:
    """Whether `text` asks to reply to someone it names only by a pronoun ("Reply to her
    that the address is …"): the one whose email was just read."""
    return _says(_TO_THE_ONE_BEFORE, text)


# Asking for the gist of something ("summarise", "what does she want", "fass zusammen",
# "worum geht's", "résume-moi", "de quoi il s'agit", "resúmeme", "qué quiere"), folded.
_GIST = re.compile(
    r"\b(?:summar\w*|sum (?:it |that |this |them )?up|gist|"
    r"what (?:does|did) (?:she|he|they) (?:want|need)|"
    r"zusammenfass\w*|fass\w* [^.?!]{0,40}zusammen|worum(?:'s| es)? geht|"
    r"was (?:sie|er) (?:will|braucht|mochte|von mir)|resum\w*|de quoi (?:il|ca) (?:s'agit|parle)|"
    r"ce qu'(?:elle|il) (?:veut|demande)|de que (?:va|trata)|que (?:quiere|necesita|pide)|"
    # asked as people talk ("ça dit quoi, en gros ?", "elle veut quoi, en deux mots ?")
    r"(?:ca|il|elle|ils|elles) (?:dit|disent|veut|veulent|demande) quoi)"
)


def asks_for_the_gist(text: str) -> bool:
    """Whether `text` asks what something says or wants, in short ("Kannst du mir kurz
    zusammenfassen, worum's geht?")."""
    return _says(_GIST, text)


# Asking what a message says (folded): "what did Sophie say", "what Jamie wanted", "was
# schreibt Lena", "qu'est-ce que Jamie voulait", "que dit Paul", "qué dijo Sophie".
_WHAT_IT_SAYS = re.compile(
    r"\bwhat (?:did|does|do) [^.?!]{1,30}\b(?:say|write|want|ask)\b|"
    r"\bwhat \w+ (?:wanted|said|wrote)\b|"
    r"\bwas (?:hat|schreibt|schrieb|sagt|sagte|will|wollte) \w+|"
    r"\bqu'est-ce (?:que|qu')[^.?!]{0,25}\b(?:dit|disait|ecrit|veut|voulait|demande|"
    r"demandait|raconte)\b|\bque (?:dit|veut|voulait|demande)\b|\bqu'a (?:dit|ecrit)\b|"
    r"\bque (?:dijo|dice|decia|escribio|quiere|queria|pide|pedia|me escribio|me dijo)\b"
)


def asks_what_it_says(text: str) -> bool:
    """Whether `text` asks what a message says or wants ("What did Sophie say about the
    invoice? And reply …"), in short or not."""
    return _says(_WHAT_IT_SAYS, text) or asks_for_the_gist(text)


def asks_when_and_more(text: str) -> bool:
    """Whether `text` asks when or where something is and something else besides ("When is
    Mum's birthday, and what gift ideas do I have for her?")."""
    besides = _TIME_OR_PLACE.sub(" ", _folded(text))  # "what time" asks nothing more
    return asks_a_time_or_place(text) and bool(_QUESTION_WORD.search(besides))


# Free time asked for (folded): a word for it ("free", "a slot", "Zeit", "un créneau", "un
# hueco", "dispo", "quand ça passe"), or the user asking when they could or can ("when could
# I swing by", "wann kann ich", "quand est-ce que je peux", "cuándo puedo").

# Words saying a day or part of one, between a verb of needing and the length needed
# (folded): "am donnerstag nachmittag", "on friday morning", "jeudi apres-midi", "el jueves
# por la tarde".
_DAY_GAP = (
    r"am|on|this|next|le|el|la|ce|este|esta|diesen|dieses|nachsten?|por|in the|"
    rf"today|tomorrow|heute|morgen|demain|aujourd'hui|hoy|manana|{DAY_AND_PART_NAMES}"
)
_FREE_TIME = re.compile(
    r"\b(?:free|slot|gap|available|availability|fit|squeeze|spare|time for|"
    r"have time|got time|frei(?:e[nmrs]?)?|zeit|lucke\w*|luecke\w*|passt|verfugbar|libres?|dispos?|"
    r"disponibles?|temps|creneaux?|caser|hueco\w*|tiempo|cabe|caber)\b"
    r"|\bquand (?:est-ce que )?(?:ca|cela) (?:passe|irait|colle)\b"
    # when the user can (not "when do I fly to Lisbon?", "wann habe ich den Zahnarzt?":
    # when something is)
    r"|\b(?:when|wann)\s+(?:could|can|shall|kann|konnte|konnen|konnten)\s+(?:i|we|ich|wir)\b"
    r"|\bquand\s+(?:est-ce\s+qu(?:e\s+|'))?(?:je|j'|on|nous)\s*"
    r"(?:peux|pourrais|pourrai|peut|pourrait|pourra|pouvons|pourrions|pourrons)\b"
    r"|\bcuando\s+(?:\w+\s+)?(?:puedo|podemos|podria|podriamos|podre|podremos)\b"
    # a length of time to be found ("find me an hour", "such mir zwei Stunden", "trouve-moi
    # une demi-heure", "búscame media hora")
    # or needed ("I need two hours", "il me faut deux heures", "necesito dos horas")
    r"|\b(?:find|such\w*|trouve|cherche|busca\w*|encuentra\w*|need|faut|necesit\w*|"
    r"brauch\w*|besoin d[e']|hace falta)"
    r"(?:[\s-]+(?:me|mir|moi|us|uns|nous))?"
    # the day said between ("ich brauch am donnerstag nachmittag zwei stunden")
    rf"(?:\s+(?:{_DAY_GAP})){{0,4}}"
    r"(?:\s+(?:an?|one|two|three|four|half|\d+|eine?n?|zwei|drei|vier|halbe|une?|deux|trois|"
    r"quatre|demi|una?|dos|tres|cuatro|media|good|quiet|free|gute|ruhige|freie|bonnes?|"
    r"tranquilles?|libres?|buenas?|tranquilas?)){1,3}[\s-]+"
    r"(?:hours?|minutes?|mins?|stunden?|minuten|heures?|heure|horas?|minutos)\b"
)


def asks_for_free_time(text: str) -> bool:
    """Whether `text` asks for free time, not when something is ("when am I free on
    Thursday?", "wann kann ich vorbeischauen?" do; "when was my check-up again?" does not).
    "What time" asks a time, not for one to be free."""
    return bool(_FREE_TIME.search(re.sub(r"\b(?:what|which) time\b", " ", _folded(text))))


# What the user calls their family in the four languages (folded), the English first: an
# address book knows them by it in a note or nickname ("Mum"), in the user's language or
# not ("meiner Mama", "ma mère", "mi madre").
_KIN = (
    ("mum", "mom", "mother", "mummy", "mommy", "mama", "mami", "mutter", "mutti", "maman",
     "mere", "madre"),
    ("dad", "father", "daddy", "papa", "papi", "vater", "pere", "padre"),
    ("sister", "sis", "schwester", "soeur", "hermana"),
    ("brother", "bro", "bruder", "frere", "hermano"),
    ("grandma", "granny", "grandmother", "nan", "oma", "grand-mere", "mamie", "abuela"),
    ("grandpa", "grandad", "grandfather", "opa", "grand-pere", "papy", "abuelo"),
)  # fmt: skip
_KIN_SET = {w for group in _KIN for w in group}
_KIN_WORDS = "|".join(sorted(_KIN_SET, key=len, reverse=True))
# The family member a message goes to: "email my mum", "write to my mother", "meiner Mama
# eine Mail", "Mail an meine Mutter", "à ma mère", "à maman", "a mi madre", "a mamá".
_TO_KIN = re.compile(
    r"(?:\b(?:e-?mail|mail|message|text|write to|send|tell|drop)\s+(?:to\s+)?my|\bmeiner|"
    r"\bmeinem|\ban\s+meine[n]?|(?:\s|^)a\s+(?:ma|mon|mi))\s+(?P<kin>" + _KIN_WORDS + r")\b"
    r"|(?:\s|^)a\s+(?P<bare>maman|papa|mama|mamie|papi|papy)\b"
)


# A message to someone named before ("… l'anniversaire de maman … Tu pourrais lui écrire un
# petit mail ?", "email her", "schreib ihr", "escríbele"), folded.
_TO_THEM = re.compile(
    r"\b(?:lui|leur)\s+(?:ecrire|envoyer|ecris|envoie)|\b(?:ecris|envoie)-(?:lui|leur)\b"
    r"|\b(?:e-?mail|write to|message|text|drop)\s+(?:her|him)\b|\bschreib\w*\s+(?:ihr|ihm)\b"
    r"|\b(?:ihr|ihm)\s+(?:eine?\s+)?(?:kurze\s+)?(?:mail|e-mail|nachricht)\b"
    r"|\bescribe(?:le|les)\b|\ble\s+(?:escribes|mandas|envias|puedes escribir)\b|\bmandale\b"
)


def kin_recipient(text: str) -> str | None:
    """The family word a message is sent to ("Kannst du meiner Mama eine Mail schicken?":
    "mama"; "L'anniversaire de maman … tu pourrais lui écrire ?": "maman", the one family
    member the request names), folded; None if the request sends to no family member."""
    folded = _folded(text)
    found = _TO_KIN.search(folded)
    if found:
        return found.group("kin") or found.group("bare")
    if not _TO_THEM.search(folded):
        return None
    said = {re.sub(r"'s$", "", w) for w in re.findall(r"[\w'-]+", folded)}  # "mum's"
    named = [group for group in _KIN if said & set(group)]
    return next(w for w in named[0] if w in said) if len(named) == 1 else None


# The word before a person named in answer to "Who should I write to?" ("To Anna", "An
# Anna", "À Anna", "A Anna", "Para Anna", "Für Tom").
_TO_WHOM = re.compile(r"^\s*(?:(?:to|an|à|a|para|pour|für|for)\s+)?", re.IGNORECASE)
_ADDRESS_WRITTEN = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# Words opening an answer that are no one's name ("Actually, …", "Vale, …"), folded.
_NO_NAME = _set(
    "yes no okay ok well wait actually sorry oh ah hmm never forget also sure ja nein doch "
    "egal eigentlich moment oui non bon ben alors attends enfin si vale bueno pues oye mira "
    "espera claro"
)


def person_answered(text: str) -> str:
    """The person an answer to "who?" names: an address, or the name it opens with, less
    the word before it and what is said of them after ("A Anna, la de la cena del viernes
    pasado": "Anna"; "An Anna.": "Anna"); "" when it opens with neither."""
    if address := _ADDRESS_WRITTEN.search(text):
        return address.group(0)
    words = _TO_WHOM.sub("", text.strip(), count=1).split()
    if words and _folded(words[0].strip(".,;:!?")) in _NO_NAME:
        return ""
    name: list[str] = []
    for word in words:
        bare = word.strip(".,;:!?()")
        if not bare[:1].isupper() or not bare.replace("-", "").replace("'", "").isalpha():
            break
        name.append(word if bare in TITLES and word == f"{bare}." else bare)
        if bare != word and not name[-1].endswith("."):  # "Anna," ends it, "Dr." not
            break
    return " ".join(name) if name and len(name) <= 4 else ""


def contact_queries(who: str) -> list[str]:
    """What an address book is searched for, in order, to find `who`: the words themselves,
    then, for family, the first other words for them ("Mama": "mum", "mom", "mother")."""
    return [who, *kin_words(who)[:3]]


def kin_words(text: str) -> list[str]:
    """The other words for the family member `text` names, the English first ("Mama": "mum",
    "mom", "mother", …); none if it names none."""
    said = set(re.findall(r"[\w'-]+", _folded(text)))
    for group in _KIN:
        if said & set(group):
            return [w for w in group if w not in said]
    return []


def the_question(text: str) -> str:
    """The sentence of `text` that asks ("Ich versuch grad zu sparen. Wie viel ist im April
    fürs Essengehen draufgegangen?": the second), or `text` if none or it is one sentence. A
    sentence ends where a space follows its mark: "my todo.txt?" is one."""
    asking = [p for p in sentences(text) if p.endswith("?") and p.strip(" ¿?")]
    return asking[-1] if asking else text


def sentences(text: str) -> list[str]:
    """The sentences of `text`: each ends where a space follows its mark (".", "!", "?",
    "…"), so "my todo.txt?" is one; a title's or a day's point ends none ("bei Dr. Roth",
    "am 22. Mai")."""
    return [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]


# Titles written with a point before a name ("Dr. Lee", "Mme. Dupont"): the point ends no
# sentence, and the name after it is a name inside one (`file_steps.named_inside`).
TITLES = ("Dr", "Mr", "Ms", "Mrs", "Prof", "St", "Mme", "Sr", "Sra", "Dra", "Fr", "Hr")
# Where a sentence ends: a mark and a space, but not the point of a title or of a German day
# ("22."); one fixed-width look-behind per title.
_SENTENCE_END = re.compile(
    r"(?:(?<=[.!?…])"
    + "".join(rf"(?<!\b{title}\.)" for title in TITLES)
    + rf"(?<!\b\d\.)(?<!\b\d\d\.)|(?<=[{EMOJI}]))\s+"
)


# A request's words asking to be told what follows (folded): "… and tell me when …", "check
# if …", "sag mir, wann …", "schau mal, ob …", "dis-moi quand …", "regarde si …", "dime
# cuándo …", "mira si …".
_TELL_ME_WHAT = re.compile(
    r"\b(?:tell me|let me know|find out|check|look up|sag(?: mir| mal)|schau(?: mal)?(?: nach)?|"
    r"guck(?: mal)?|dis-moi|dites-moi|regarde|verifie|dime|mira|fijate|comprueba)[,:]?\s+"
    r"(?:(?:if|whether|ob|si)\s+)?"
    rf"(?=(?:{_QUESTION_WORDS}|what's|que|qu'est|ce qu|a quelle heure|[^\W\d_]+\s+(?:said|"
    r"wrote|says|sagt|schreibt|a dit|a ecrit|dijo|escribio))\b)"
)


def question_asked(request: str) -> str:
    """The question a request asks, without the words asking to look and tell ("can you
    find the email from the garden club and tell me when the seed swap is": "when the seed
    swap is?"; "check if anna said what time dinner is": "anna said what time dinner is?"):
    a small model asked the whole request answers "Yes, I can find …". The request itself
    if it asks no such way."""
    found = list(_TELL_ME_WHAT.finditer(_folded(request)))
    if not found:
        return request
    asked = request[_in_original(request, found[-1].end()) :].strip(" .!")
    return asked if asked.endswith("?") else f"{asked}?"


def asking_clause(question: str) -> str:
    """The clause of a question that asks, when it is its last ("j'ai un gros blanc, c'est
    quoi déjà ?": "c'est quoi déjà ?"; "ma fille me demande : c'est qui qui a peint la
    Joconde ?"); else the whole question."""
    if asked := reported_question(question):
        return asked
    clauses = re.split(r"[,;:]|\s[-–—]\s", question)  # ("… just blanked - which planet …?")
    while len(clauses) > 1 and _WHAT_FOR.match(_folded(clauses[-1])):
        # "… what is that in Fahrenheit, so I can tell her what to pack?": not what it asks
        question = question[: question.rfind(clauses.pop())].rstrip(" ,;:-–—")
    while len(clauses) > 2 and _ONLY_CHOICES.match(_folded(clauses[-1])):
        clauses.pop()  # "c'est quoi la capitale de l'Australie, Sydney ou Canberra ?"
    last = _folded(clauses[-1])
    if len(clauses) > 1 and _JUST_TELL_ME.search(last):
        return clauses[-1].strip()  # "… nicht mehr ganz sicher - weißt du das?": asked before
    asks = _ASKED_LAST.search(last) or re.search(r"\b(?:quoi|que|qu'est|qui)\b", last)
    return clauses[-1].strip() if len(clauses) > 1 and asks else question


# A clause offering the answers to choose from, after the question (folded): "Sydney ou
# Canberra ?", "Polen oder Frankreich?", "1989 or 1991?".
_ONLY_CHOICES = re.compile(
    r"^\s*[\w'-]+(?:\s+[\w'-]+)?\s+(?:or|oder|ou|o)\s+[\w'-]+(?:\s+[\w'-]+)?\W*$"
)


def reported_question(text: str) -> str:
    """The question someone asked the user, as `text` reports it ("Mon fils me demande
    quelle est la capitale de l'Australie, tu sais ?": "quelle est la capitale de
    l'Australie"; "My niece keeps asking me how far away the moon is and I have no clue":
    "how far away the moon is"); "" if it reports none of three words or more."""
    folded = _folded(text)
    # (folding keeps the letters where they are, but for "ß")
    reported = _REPORTED_ASKING.search(folded) if len(folded) == len(text) else None
    if reported is None:
        return ""
    after = text[reported.end() :]
    ends = _ASKED_ENDS.search(_folded(after))
    asked = after[: ends.start() if ends else len(after)].strip()
    return asked if len(asked.split()) >= 3 else ""


# A clause saying what the answer is for, after what is asked ("…, so I can tell her what to
# pack?", "…, damit ich es ihr sagen kann?", "…, pour que je puisse lui dire ?", "…, para
# poder decírselo?"), folded: no part of the question.
_WHAT_FOR = re.compile(
    r"\s*(?:so(?: that)? (?:i|we)\b|damit (?:ich|wir)\b|(?:pour|afin) que (?:je|j'|nous)\b|"
    r"pour (?:pouvoir|lui|leur)\b|para que (?:yo|pueda|podamos)\b|para (?:poder|decir\w*)\b)"
)


# Someone asking the user something, reported, then what they ask (folded): "my son asks
# what …", "meine Tochter will wissen, wie …", "mon fils me demande quelle …", "mi hijo
# pregunta cuál …".
_REPORTED_ASKING = re.compile(
    r"\b(?:asks?(?: me| us)?|asked(?: me| us)?|(?:keeps?|kept|is|was) asking(?: me| us)?|"
    r"wonders|wants to know|fragt(?: mich)?|hat (?:mich )?gefragt|will wissen|wollte wissen|"
    r"(?:me |nous )?demande|m'a demande|veut savoir|voudrait savoir|(?:me |nos )?pregunta|"
    r"(?:me |nos )?pregunto|(?:me |nos )?ha preguntado|quiere saber)"
    # a word of when or how often between ("fragt mich gerade, wie …", "keeps asking me again")
    r"(?:\s+(?:gerade|grad|immer|schon|dauernd|staendig|again|always|constantly|now|just|"
    r"toujours|encore|sans arret|siempre|todo el rato|otra vez|ahora))?\s*,?\s*"
    # a preposition the question word takes, kept with it ("in welchem Jahr", "en qué año",
    # "à quelle heure"); or a few words of when or where it was asked before it ("asked me
    # at breakfast how many …")
    r"(?:(?=(?:(?:in|at|on|of|for|from|by|an|auf|aus|bei|mit|nach|seit|von|vor|um|a|au|de|du|"
    rf"en|par|pour|sur|con|desde|hasta|por|para)\s+)?(?:{_QUESTION_WORDS}|que|if|ob|si)\b)"
    rf"|(?:[^\W\d]+\s+){{1,3}}?(?=(?:{_QUESTION_WORDS})\b))"
)
# Where a reported question ends before the user's own words about it ("… how far away the
# moon is and I have no clue", "y no me acuerdo", "und ich weiß es nicht"), folded.
_ASKED_ENDS = re.compile(
    r"[,;:.!?]|\s(?:and|but|und|aber|doch|et|mais|y|pero)\s+(?:i|i'm|ich|je|j'|moi|yo|no|me|"
    r"honestly|ehrlich)\b"
)


# A question that only asks to be told what was asked before it (folded): "¿me lo dices?",
# "Weißt du's?", "tu sais ?", "do you know?", "can you tell me?".
_JUST_TELL_ME = re.compile(
    r"^\W*(?:and |so |und |alors |et |y )?(?:(?:can|could|would) you tell me|tell me|do you know|"
    r"any idea|weisst du(?:'s| es| das)?|kannst du (?:mir )?(?:das |es )?sagen|sag(?:st du)? "
    r"(?:es |das )?mir|tu (?:le )?sais|sais-tu|tu peux me (?:le )?dire|(?:tu )?(?:me )?lo sabes|"
    r"sabes|(?:me )?lo (?:dices|puedes decir)|dimelo|dime)"
    # a word that only softens it ("do you know roughly?", "weißt du das zufällig?")
    r"(?:\s+(?:roughly|offhand|by any chance|maybe|perhaps|at all|zufallig|vielleicht|ungefahr|"
    r"par hasard|a peu pres|por casualidad|mas o menos|tu|du))?\W*$"
)
# A question asked inside a sentence (folded): "… quiere saber cuántas patas tiene una
# araña", "… hat mich gefragt, wie viele Bundesländer Deutschland hat".
_ASKED_INSIDE = re.compile(rf"\b(?:{_QUESTION_WORDS})\b[^,.;:!?]*")


def asked_before(request: str, question: str) -> str | None:
    """What a question only asking to be told ("¿me lo dices?", "Weißt du's?") asks: the
    question asked inside the sentence before it; "" if that names none, None if the
    question asks something itself."""
    if not _JUST_TELL_ME.search(_folded(question)):
        return None
    said = request[: request.rfind(question)]
    if reported := next(filter(None, map(reported_question, reversed(sentences(said)))), ""):
        return reported  # "… asked me how far away the moon is. No idea, do you know?"
    before = _folded(said)
    inside = list(_ASKED_INSIDE.finditer(before))
    if not inside:
        return ""
    start, end = inside[-1].span()
    # in the user's spelling where folding kept the places ("araña", not "arana")
    return (said[start:end] if len(said) == len(before) else before[start:end]).strip()


# A contact's details asked for (folded): a phone number or an email address.
_DETAILS = re.compile(
    r"\b(?:phone|number(?!\s+of)|mobile|cell|telefon\w*|handy\w*|\w*nummer|numero|telephone|"
    r"portable|telefono|movil|celular|e-?mail address|e-?mail-adresse|adresse (?:e-?)?mail|"
    r"correo)\b"
)


# Someone's phone number asked for (folded): "el móvil de Priya", "Priya's number",
# "Jonas' Handynummer", "le portable de Léa"; not the user's own ("my number") nor a record's
# ("Rechnungsnummer", "le numéro de commande").
_PHONE_ASKED = re.compile(
    r"(?<!\bmy )(?<!\bmein )(?<!\bmeine )(?<!\bmon )(?<!\bmi )"
    r"\b(?:phone(?: number)?|mobile(?: number)?|cell(?: number)?|(?:his|her|\w+'s?) number|"
    r"handy(?:nummer)?|telefonnummer|festnetz\w*|portable|numero de (?:telephone|portable|tel)|"
    r"movil|celular|telefono|numero de (?:telefono|movil)|"
    # someone's number by "of" ("die Nummer von Jonas", "le numéro de Paul", "el número de
    # Lena"), not a thing's ("le numéro de commande", "el número de pedido")
    r"(?:nummer (?:von|vom)|numero (?:de|du|del|de la)) (?!mir\b|moi\b|mi\b|commande|"
    r"pedido|serie|dossier|factur|compte|cuenta|client|suivi|seguimiento|vol\b|vuelo|"
    r"reserva|chambre|habitacion|securite|seguridad|sociale|social|rue|calle|casa)"
    r"[^\W\d_]+)\b"
)


def asks_for_a_phone_number(text: str) -> bool:
    """Whether `text` asks for someone else's phone number ("¿me pasas el móvil de
    Priya? le quiero escribir por whatsapp"): a card to look up, whatever writing it says."""
    return _says(_PHONE_ASKED, text)


def asks_for_family_details(text: str) -> str | None:
    """The family word of a request asking for that person's number or address ("Ich will
    Mutti anrufen, hab aber ihre Nummer nicht": "mutti"); None if it asks for none."""
    folded = _folded(text)
    if not _DETAILS.search(folded):
        return None
    said = [re.sub(r"'s?$", "", w) for w in re.findall(r"[\w'-]+", folded)]  # "mum's"
    return next((w for w in said if w in _KIN_SET), None)


# The user pointing at what Hearth knows of them instead of saying it (folded): "you know
# what I eat", "Du weißt ja, was bei mir gilt", "tu sais ce que je mange", "ya sabes lo que
# como", "ya sabes lo mío".
_YOU_KNOW = re.compile(
    r"\b(?:you know (?:what|how|that|my|which|where)|du weisst (?:ja|doch|schon|was|wie)|"
    r"(?:tu sais|vous savez) (?:bien |deja )?(?:ce qu|comment|que|quel|mon|ma|mes)|"
    r"(?:ya |tu )?sabes (?:lo que|lo mio|que|como|cual|mi|mis))"
)


# A question asking who is right about what was said before it (folded): "were we actually
# wrong?", "who's right?", "hatten wir Unrecht?", "wer hat recht?", "on avait tort ?",
# "qui a raison ?", "¿teníamos razón?", "¿quién tiene razón?", "¿nos equivocamos?".
_WHO_IS_RIGHT = re.compile(
    r"\b(?:am|was|were|are|is) (?:i|we|she|he|they|my \w+) (?:\w+ )?(?:right|wrong|correct)\b|"
    r"\bwho(?:'s| is| was) (?:\w+ )?right\b|"
    r"\b(?:hab|habe|hatte|hatten|haben) (?:ich|wir|er|sie) (?:\w+ )?(?:recht|unrecht)\b|"
    r"\bwer hat(?:te)? (?:\w+ )?recht\b|\b(?:lag|lagen|liege|liegen) (?:ich|wir) (?:\w+ )?falsch\b|"
    r"\b(?:j'ai|j'avais|on a|on avait|nous avons|nous avions|avions-nous|avons-nous|ai-je|"
    r"avais-je|il a|elle a|il avait|elle avait) (?:\w+ )?(?:raison|tort)\b|"
    r"\bqui a (?:\w+ )?raison\b|"
    r"\b(?:tengo|tenia|tenemos|teniamos|tiene|tenia) (?:\w+ )?razon\b|\bquien tiene razon\b|"
    r"\b(?:me|nos|se) equivoc\w+|\bestaba(?:mos|n)? equivocad\w*|"
    # a bet or an argument to settle: "who wins?", "settle something for me", "tu peux nous
    # départager ?", "wer gewinnt?", "¿quién gana?"
    r"\bwho wins\b|\bsettle (?:this|it|something|a bet|an argument|a debate)\b|"
    r"\bdepartager\b|\bwer (?:von uns )?gewinnt\b|\bquien gana\b"
)


def asks_who_is_right(text: str) -> bool:
    """Whether `text` asks who is right about a claim ("were we actually wrong??", "qui a
    raison ?"): a question of knowledge about what is told, though it says "we"."""
    return _says(_WHO_IS_RIGHT, text)


def points_at_what_is_known(text: str) -> bool:
    """Whether `text` points at what Hearth knows of the user instead of saying it ("Kannst
    du ihr antworten? Du weißt ja, was bei mir gilt")."""
    return _says(_YOU_KNOW, text)


# What Hearth keeps of the user, as people name it (folded): "what you know about me", "was
# du über mich weißt", "ce que tu sais de moi", "lo que sabes de mí", "your memory", "deine
# Notizen über mich"; with a verb of correcting before it ("correct that in what you know
# about me", "korrigier das in dem, was du über mich weißt", "corrige ça dans ce que tu sais
# de moi", "actualiza lo que sabes de mí").
_CORRECT_WHAT_IS_KNOWN = re.compile(
    r"\b(?:correct|update|fix|change|amend|korrigier\w*|aktualisier\w*|ander\w*|"
    r"berichtig\w*|corrige\w*|mets a jour|mettre a jour|modifie\w*|change[rz]?|"
    r"actualiz\w*|cambi\w*|arregl\w*)\b.{0,40}?"
    r"\b(?:what you (?:know|remember) (?:about|of) me|your memory|"
    r"was du (?:uber mich|von mir) (?:weisst|gespeichert)|dein\w* gedachtnis|"
    r"ce que tu (?:sais|retiens) (?:de|sur) moi|ta memoire|"
    r"lo que (?:sabes|recuerdas) (?:de|sobre) mi|tu memoria)\b"
)


def asks_to_correct_what_is_known(text: str) -> bool:
    """Whether `text` asks to correct what Hearth keeps of the user ("Tu peux corriger ça
    dans ce que tu sais de moi ?")."""
    return _says(_CORRECT_WHAT_IS_KNOWN, text)


# The address book, as people name it (folded): "my contacts", "address book", "phone book",
# "Kontakte", "Adressbuch", "Telefonbuch", "mes contacts", "carnet d'adresses", "répertoire",
# "contactos", "libreta de direcciones".
_CONTACTS = re.compile(
    r"\b(?:contacts?|contact list|address ?book|phone ?book|kontakt(?:e|en|liste)?|"
    r"adressbuch\w*|telefonbuch\w*|carnet d'adresses|repertoire|contactos|"
    r"libreta de direcciones)\b"
)
# Adding someone to it (folded): "add", "save", "put … in", "create", "leg … an", "anlegen",
# "trag … ein", "speicher", "füg … hinzu", "nimm … auf", "ajoute", "enregistre", "crée",
# "añade", "agrega", "guarda", "crea", "mete".
_ADDING_SOMEONE = re.compile(
    r"\b(?:add|save|put|create|store|leg\w*|anleg\w*|trag\w*|eintrag\w*|speicher\w*|"
    r"fug\w*|hinzufug\w*|nimm|aufnehm\w*|ajoute\w*|enregistre\w*|cree[rz]?|mets|rajoute\w*|"
    r"anad\w*|agreg\w*|guarda\w*|crea\w*|mete\w*|apunta\w*)\b"
)


def asks_to_add_a_contact(text: str) -> bool:
    """Whether `text` asks to add someone to the address book ("Anna Schulz ist gar nicht in
    meinem Adressbuch … Leg sie doch bitte an"): a verb of adding and the address book named,
    in the asking sentence or the one before it; not a question of what a card holds."""
    said = sentences(text)
    adding = [i for i, sentence in enumerate(said) if _says(_ADDING_SOMEONE, sentence)]
    if not adding or _says(_ANOTHER_THING_ADDED, said[adding[-1]]):
        return False
    return _says(_CONTACTS, " ".join(said[max(0, adding[-1] - 1) : adding[-1] + 1]))


# Things added that are no person (folded): "add a reminder …", "trag den Termin ein".
_ANOTHER_THING_ADDED = re.compile(
    r"\b(?:reminders?|tasks?|to-?dos?|events?|appointments?|meetings?|notes?|"
    r"erinnerung\w*|aufgabe\w*|termin\w*|notiz\w*|rappels?|taches?|rendez-vous|"
    r"recordatorios?|tareas?|citas?|notas?|calendar|kalender|agenda|calendario)\b"
)


# Asking what the user has on (folded): "what have I got on", "what do I have going on", "am
# I free/busy", "what's on", "was hab ich … vor", "was steht … an", "hab ich … was vor",
# "qu'est-ce que j'ai (de prévu)", "j'ai quoi", "je suis libre", "qué tengo", "tengo algo",
# "estoy libre".
_WHATS_ON = re.compile(
    r"\b(?:what(?:'ve| have| do) i (?:\w+ ){0,2}?(?:got |have )?(?:on|planned|going on|"
    r"scheduled)\b|"
    r"(?:what's|what is) on(?! (?:my|the|our) (?:[\w-]+ ){0,2}(?:list|lists|note|notes|file|page|"
    r"card|receipt|bill|menu|tv)\b)|am i (?:free|busy)|do i have anything|have i got anything|"
    r"was (?:hab|habe) ich\b[^.?!]{0,40}\bvor\b|was steht\b[^.?!]{0,40}\ban\b|"
    r"(?:hab|habe) ich\b[^.?!]{0,40}\b(?:was|etwas|schon was) vor\b|bin ich\b[^.?!]{0,30}"
    r"\b(?:frei|verplant)\b|"
    r"qu'est-ce que j'ai|j'ai quoi|est-ce que j'ai (?:quelque chose|un truc|des trucs)|"
    # asked by the voice alone ("j'ai un truc jeudi soir ?", "do I have something on Friday?")
    r"(?:j'ai|ai-je) (?:quelque chose|un truc|des trucs|qqch|qqc|un truc de prevu)\b[^.?!]{0,40}\?|"
    r"(?:do i have|have i got|got) (?:something|anything)\b[^.?!]{0,40}\?|"
    # asked whether ("can you check if i have anything on the 22nd", "schau mal, ob ich am
    # Freitag was vorhabe", "regarde si j'ai quelque chose jeudi", "mira si tengo algo el
    # viernes")
    r"(?:if|whether) i (?:have|'ve got|got) (?:anything|something)|ob ich\b[^.?!]{0,30}\bwas\b|"
    r"si j'ai (?:quelque chose|un truc|qqch)|si tengo algo|"
    r"(?:je suis|suis-je) (?:libre|pris|occupe)|"
    r"que tengo|tengo algo|tengo (?:planes|cosas)|estoy (?:libre|ocupad[oa]))"
)


def asks_whats_on(text: str) -> bool:
    """Whether `text` asks what the user has on ("Before I say yes - what have I actually got
    on, Saturday and Sunday?", "was hab ich am Donnerstag eigentlich alles vor?")."""
    return _says(_WHATS_ON, text)


# Laughing, sighing or smiling in writing (folded): "haha", "jaja", "hihi", "lol", "mdr",
# "xD", "uff", "puh", "ugh", "pfff", and the faces ("😂", "😅", "😊", "🙂", "😩").
_LAUGHS = re.compile(
    r"(?:^|\s)(?:(?:ha){2,}h?|(?:ja){2,}|(?:he){2,}|(?:hi){2,}|(?:ji){2,}|lol|lmao|mdr|ptdr|xd+|"
    r"u+f+|puh+|ugh+|pf+|seufz)(?=$|[\s,.!])|[\U0001F600-\U0001F64F\U0001F923\u263A]"
)


def laughs_or_sighs(text: str) -> bool:
    """Whether `text` laughs, sighs or smiles in writing ("uf qué semana llevo, y eso que es
    martes jaja", "… j'en avais bien besoin après cette semaine 😊"): someone talking, where
    nothing is asked (no "?")."""
    return bool(_LAUGHS.search(_folded(text)))
