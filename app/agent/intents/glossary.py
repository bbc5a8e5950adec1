"""Everyday things people name in four languages, each with its English word.

A small model translates single words poorly ("plombier" stayed "Plombier", "Fahrradlicht"
became "Rainy Day", "fürs Essengehen" "for the sake of happiness"), yet people ask in their
own language about events, to-dos, contacts and expenses kept in another ("Plumber visit",
"Fix the bike light", "Zahnarztpraxis Dr. Weber"). These common nouns are looked up here
before the model is asked (`english.english_words`): a dictionary, not a phrasing.
"""

from __future__ import annotations

import re

from connectors.folding import fold

# The English word first, then its forms in English, German, French and Spanish (folded;
# a German compound is found by its head or its first part: "Zahnarztpraxis", "Haarschnitt").
_THINGS: tuple[tuple[str, ...], ...] = (
    ("dentist", "dental", "zahnarzt", "zahnarztin", "zahnarztpraxis", "dentiste", "dentaire",
     "dentista"),
    ("doctor", "arzt", "arztin", "hausarzt", "medecin", "docteur", "medico", "medica"),
    ("plumber", "klempner", "installateur", "plombier", "fontanero"),
    ("electrician", "elektriker", "electricien", "electricista"),
    ("haircut", "hairdresser", "barber", "friseur", "friseurin", "haarschnitt",
     "coiffeur", "coiffeuse", "coiffure", "peluqueria", "peluquero", "peluquera"),
    ("car", "auto", "wagen", "voiture", "coche"),
    ("car service", "garage", "werkstatt", "autowerkstatt", "inspektion", "taller", "mechanic",
     "mecanicien", "mecanico", "revision"),
    ("insurance", "versicherung", "assurance", "seguro"),
    ("library", "bibliothek", "bucherei", "bibliotheque", "biblioteca"),
    ("books", "book", "buch", "bucher", "livre", "livres", "libro", "libros"),
    ("bike", "bicycle", "fahrrad", "rad", "velo", "bicicleta", "bici"),
    ("light", "licht", "lampe", "lumiere", "luz"),
    ("eating out", "restaurant", "restaurants", "essengehen", "auswarts", "resto", "restos",
     "restaurante", "restaurantes"),
    ("dinner", "abendessen", "diner", "cena"),
    ("lunch", "mittagessen", "dejeuner", "almuerzo", "comida"),
    ("meeting", "besprechung", "treffen", "sitzung", "reunion"),
    ("birthday", "geburtstag", "anniversaire", "cumpleanos", "cumple"),
    ("gym", "fitnessstudio", "fitness", "gimnasio"),
    ("pharmacy", "apotheke", "pharmacie", "farmacia"),
    ("groceries", "lebensmittel", "einkauf", "einkaufe", "courses", "compras", "supermarket",
     "supermarkt", "supermarche", "supermercado"),
    ("water", "wasser", "eau", "agua"),
    ("rent", "miete", "loyer", "alquiler"),
    ("concert", "konzert", "concierto"),
    ("cinema", "movie", "movies", "film", "kino", "cine", "pelicula"),
    ("school", "schule", "ecole", "escuela", "colegio"),
    ("flight", "flug", "vol", "vuelo"),
    ("train", "zug", "bahn", "tren"),
    ("hike", "hiking", "wanderung", "wandern", "randonnee", "excursion", "senderismo"),
    ("call", "anruf", "telefonat", "appel", "llamada"),
    ("invoice", "rechnung", "facture", "factura"),
    ("tax", "taxes", "steuer", "steuern", "steuererklarung", "impot", "impots", "impuesto",
     "impuestos"),
    ("papers", "unterlagen", "papiere", "papiers", "papeles"),
    ("parcel", "package", "paket", "packchen", "colis", "paquete"),
    ("delivery", "lieferung", "livraison", "entrega"),
    ("keys", "key", "schlussel", "cle", "cles", "llave", "llaves"),
    ("gift", "present", "geschenk", "cadeau", "regalo"),
    ("holiday", "vacation", "urlaub", "ferien", "vacances", "vacaciones"),
    ("laundry", "wasche", "lessive", "colada"),
    ("electricity", "strom", "electricite"),  # (Spanish "luz" is the light above)
    ("internet", "wlan", "wifi"),
    ("mum", "mom", "mother", "mama", "mutter", "maman", "mere", "madre"),
    ("dad", "father", "papa", "vater", "pere", "padre"),
    ("neighbour", "neighbor", "nachbar", "nachbarin", "voisin", "voisine", "vecino", "vecina"),
    ("wedding", "hochzeit", "mariage", "boda"),
    ("piano", "klavier"),
    ("swimming", "schwimmen", "natation", "natacion"),
    ("barbecue", "bbq", "grillen", "grillfest", "grillabend", "grillparty", "barbacoa",
     "parrillada", "asado"),
    ("appointment", "termin", "rendez-vous", "rdv", "cita"),
    ("party", "feier", "fete", "fiesta"),
    ("deadline", "frist", "abgabefrist", "echeance", "plazo"),
    ("choir", "chor", "chorale", "coro"),
    ("rehearsal", "probe", "repetition", "ensayo"),
    ("walk", "spaziergang", "balade", "paseo"),
    ("trip", "reise", "ausflug", "voyage", "viaje"),
    # travel as a budget's or an expense report's line ("le budget déplacements")
    ("travel", "travelling", "traveling", "reisekosten", "fahrtkosten", "deplacement",
     "deplacements", "desplazamiento", "desplazamientos"),
    ("photo", "photos", "foto", "fotos"),
    ("recipe", "rezept", "recette", "receta"),
    ("soup", "suppe", "soupe", "sopa"),
    ("order", "bestellung", "commande", "pedido"),
    ("membership", "mitgliedschaft", "abonnement", "suscripcion", "membresia"),
    ("statement", "kontoauszug", "releve", "extracto"),
    ("landlord", "vermieter", "hausverwaltung", "proprietaire", "casero"),
    ("garden", "garten", "jardin"),
    ("shopping list", "einkaufsliste", "einkaufszettel"),
    # everyday groceries, on a shopping list in another language than the request's
    ("milk", "milch", "lait", "leche"),
    ("eggs", "egg", "eier", "oeufs", "huevos"),
    ("butter", "beurre", "mantequilla"),
    ("cheese", "kase", "fromage", "queso"),
    ("tomatoes", "tomato", "tomaten", "tomates"),
    ("basil", "basilikum", "basilic", "albahaca"),
    ("wine", "wein", "vin", "vino"),
    ("apples", "apple", "apfel", "manzanas"),
    ("onions", "onion", "zwiebeln", "oignons", "cebollas"),
    ("rice", "reis", "riz", "arroz"),
    # what the user keeps as theirs ("mi cafetería favorita", "mein Lieblingscafé")
    ("favourite", "favorite", "lieblings", "prefere", "preferee", "favori", "favorito",
     "favorita", "preferido", "preferida"),
    ("cafe", "coffee shop", "cafeteria", "kaffeehaus"),
    ("recipe", "recipes", "rezept", "rezepte", "recette", "recettes", "receta", "recetas"),
    ("vegetables", "vegetable", "veggie", "gemuse", "legumes", "verduras", "verdura"),
)  # fmt: skip

_ENGLISH: dict[str, str] = {form: forms[0] for forms in _THINGS for form in forms}
# A German compound names its things by its parts ("Zahnarzttermin", "Fahrradlicht").
# ("Termin" and "trip" only as words of their own: "terminado" and "triple" are other
# words, and a "Zahnarzttermin" is the dentist.)
_WHOLE_ONLY = ("termin", "trip")
_PARTS = sorted(
    (f for f in _ENGLISH if len(f) >= 5 and f not in _WHOLE_ONLY), key=len, reverse=True
)
_MARKS = ".,;:!?'\""  # around a word as written


def in_english(word: str) -> str | None:
    """The English for `word` if it is one of the everyday things listed, or a compound of
    them ("plombier": "plumber", "Zahnarzttermin": "dentist", "Fahrradlicht": "bike
    light"); None otherwise."""
    folded = fold(word).strip(_MARKS)
    if folded in _ENGLISH:
        return _ENGLISH[folded]
    if folded.endswith("s") and folded[:-1] in _ENGLISH:
        return _ENGLISH[folded[:-1]]
    first = next((f for f in _PARTS if folded.startswith(f)), None)
    rest = folded[len(first) :] if first is not None else folded
    head = next((f for f in _PARTS if len(rest) >= 4 and rest.endswith(f)), None)
    if head is not None and first is None and 0 < len(rest) - len(head) < 3:
        head = None  # "rappel" is no kind of "appel": a word before the thing is one of 3+
    if head is None and first is not None and rest in _ENGLISH and rest not in _WHOLE_ONLY:
        head = rest  # a short thing after a first part: "Lieblings|cafe"
    parts = [_ENGLISH[p] for p in (first, head) if p is not None]
    return " ".join(dict.fromkeys(parts)) or None


def glossed(text: str) -> str:
    """The English of the everyday things `text` names ("Kannst du meinen Haarschnitt
    schieben?": "haircut"), "" if none."""
    words = [
        in_english(w) or " ".join(filter(None, map(in_english, w.split("-"))))
        for w in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", text)  # "rendez-vous" whole
    ]
    return " ".join(dict.fromkeys(w for w in words if w))


# What is eaten, in the four languages (folded): a request pointing at what the user keeps
# about it ("you know what I eat", "Du weißt ja, was bei mir gilt" beside Maria's question on
# dietary requirements) means the memory on it ("Alex is vegetarian"). A word starting with
# one of six letters or more is of it ("Ernährungsvorgaben", "vegetarians"; not "essential").
_FOOD = frozenset((
    "eat", "eats", "eating", "ate", "food", "foods", "diet", "dietary", "meal", "meals",
    "vegetarian", "vegan", "allergic", "allergy", "allergies", "gluten", "lactose", "meat",
    "fish", "nuts", "peanuts", "pescatarian", "halal", "kosher",
    "essen", "isst", "esse", "ernahrung", "vegetarisch", "vegetarier", "vegetarierin",
    "veganer", "allergie", "allergisch", "fleisch", "fisch", "nusse", "laktose", "diat",
    "mange", "manger", "mangent", "nourriture", "regime", "alimentaire", "alimentation",
    "vegetarien", "vegetarienne", "vegetalien", "allergique", "viande", "poisson", "repas",
    "comer", "comida", "dieta", "alimentaria", "vegetariano", "vegetariana", "vegano",
    "alergia", "alergico", "alergica", "carne", "pescado",
))  # fmt: skip
_FOOD_STARTS = tuple(w for w in _FOOD if len(w) >= 6)


def speaks_of_food(text: str) -> bool:
    """Whether `text` speaks of what is eaten ("dietary requirements", "was ich esse", "je
    suis végétarien", "¿comes carne?")."""
    words = re.findall(r"[^\W\d_]+", fold(text))
    return any(w in _FOOD or w.startswith(_FOOD_STARTS) for w in words)


def forms_of(word: str) -> list[str]:
    """The other forms of the everyday thing `word` is, in the four languages, for a search
    by part of a name ("dentaire": "dentist", "zahnarzt", …, which finds "Zahnarztpraxis Dr.
    Weber"); [] if it is none. Forms of four letters or more, the English first."""
    english = in_english(word)
    if english is None or " " in english:
        return []
    folded = fold(word).strip(_MARKS)
    forms = next(f for f in _THINGS if f[0] == english)
    return [f for f in forms if len(f) >= 4 and f != folded]
