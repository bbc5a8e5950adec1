"""Everything the intents say to the user, in English, German, French and Spanish.

The steps say a phrase by its key with the facts filled in (`say("reminder_set", at=…,
what=…)`); the facts (names, titles, amounts, file names) go in exactly as the data has them,
only the words around them are translated. Days and months are written in the phrase's
language through the format specs below, so a template decides where a date goes and how
long it is written:

- `{at:day}`   Friday 18 May  · Freitag, 18. Mai  · vendredi 18 mai  · viernes 18 de mayo
- `{at:dd}`    Fri 18 May     · Fr 18. Mai        · ven. 18 mai      · vie 18 may
- `{at:wd}`    Fri            · Fr                · ven.             · vie
- `{at:month}` May 2029       · Mai 2029          · mai 2029         · mayo de 2029

and any other spec as Python's (`{at:%H:%M}`). A phrase or question with no translation, or
one whose translation is broken, is said in English.

The questions asked for a missing slot are declared in English with their slot
(`catalog.Slot.question`); their translations are here, looked up by that English text.
"""

from __future__ import annotations

import logging
import string
from datetime import date
from typing import Any

from app.agent.intents.language import DEFAULT, Language

log = logging.getLogger(__name__)

Phrase = dict[Language, str]

PHRASES: dict[str, Phrase] = {
    # -- the router --------------------------------------------------------------------------
    # -- sums worked out by code (`sums`) -------------------------------------------------
    "sum_shared": {
        "en": "{total} ÷ {n} = {each} each.",
        "de": "{total} ÷ {n} = {each} pro Person.",
        "fr": "{total} ÷ {n} = {each} par personne.",
        "es": "{total} ÷ {n} = {each} por persona.",
    },
    "sum_shared_tip": {
        "en": "{total} + {p} % = {with_tip}; ÷ {n} = {each} each.",
        "de": "{total} + {p} % = {with_tip}; ÷ {n} = {each} pro Person.",
        "fr": "{total} + {p} % = {with_tip} ; ÷ {n} = {each} par personne.",
        "es": "{total} + {p} % = {with_tip}; ÷ {n} = {each} por persona.",
    },
    "sum_percent": {
        "en": "{p} % of {of} is {part}.",
        "de": "{p} % von {of} sind {part}.",
        "fr": "{p} % de {of}, c'est {part}.",
        "es": "El {p} % de {of} es {part}.",
    },
    "sum_converted": {
        "en": "{given} is {other}.",
        "de": "{given} sind {other}.",
        "fr": "{given}, c'est {other}.",
        "es": "{given} son {other}.",
    },
    "sum_minutes": {
        "en": "That is {minutes} minutes.",
        "de": "Das sind {minutes} Minuten.",
        "fr": "Ça fait {minutes} minutes.",
        "es": "Son {minutes} minutos.",
    },
    "left_it": {
        "en": "All right, I've left it.",
        "de": "In Ordnung, ich lasse es.",
        "fr": "D'accord, je laisse tomber.",
        "es": "De acuerdo, lo dejo.",
    },
    "not_finished": {
        "en": "I could not finish this. Try asking in other words.",
        "de": "Das konnte ich nicht zu Ende bringen. Versuch es mit anderen Worten.",
        "fr": "Je n'ai pas pu terminer. Essayez de le demander autrement.",
        "es": "No he podido terminarlo. Prueba a pedirlo con otras palabras.",
    },
    # -- a change done, refused, failed (every step family) ----------------------------------
    "not_done": {
        "en": "All right, I didn't do it.",
        "de": "In Ordnung, ich habe es nicht getan.",
        "fr": "D'accord, je ne l'ai pas fait.",
        "es": "De acuerdo, no lo he hecho.",
    },
    "failed": {
        "en": "That didn't work: {result}",
        "de": "Das hat nicht geklappt: {result}",
        "fr": "Cela n'a pas marché : {result}",
        "es": "No ha funcionado: {result}",
    },
    "which_one": {
        "en": "Which one do you mean?",
        "de": "Welchen Eintrag meinst du?",
        "fr": "Lequel voulez-vous dire ?",
        "es": "¿Cuál quieres decir?",
    },
    "event_past": {
        "en": "“{title}” was on {at:day}, and none is coming up: nothing was moved.",
        "de": "„{title}“ war am {at:day}, und keiner steht mehr an: nichts wurde verschoben.",
        "fr": "« {title} » était le {at:day}, et il n'y en a pas d'autre à venir : rien "
        "n'a été déplacé.",
        "es": "«{title}» fue el {at:day} y no hay otro próximamente: no se ha movido nada.",
    },
    "what_time_on": {
        "en": "At what time on {day:day}?",
        "de": "{day:day}: um wie viel Uhr?",
        "fr": "À quelle heure, {day:day} ?",
        "es": "¿A qué hora el {day:day}?",
    },
    # -- calendar ------------------------------------------------------------------------------
    "all_day": {"en": "all day", "de": "ganztägig", "fr": "toute la journée", "es": "todo el día"},
    "no_title": {
        "en": "(no title)",
        "de": "(ohne Titel)",
        "fr": "(sans titre)",
        "es": "(sin título)",
    },
    "day_range": {
        "en": "{start:dd} to {last:dd}",
        "de": "{start:dd} bis {last:dd}",
        "fr": "{start:dd} – {last:dd}",
        "es": "{start:dd} – {last:dd}",
    },
    "which_day": {
        "en": "Which day do you mean?",
        "de": "Welchen Tag meinst du?",
        "fr": "Quel jour voulez-vous dire ?",
        "es": "¿Qué día quieres decir?",
    },
    "calendar_empty": {
        "en": "Nothing is in your calendar for {said}: you're free.",
        "de": "Für {said} steht nichts in deinem Kalender: du hast frei.",
        "fr": "Rien dans votre agenda pour {said} : vous êtes libre.",
        "es": "No tienes nada en el calendario para el {said}: estás libre.",
    },
    "row_difference": {
        "en": "{apart} apart on “{row}”: {second} {b}, {first} {a}.",
        "de": "{apart} Unterschied bei „{row}“: {second} {b}, {first} {a}.",
        "fr": "{apart} d'écart sur « {row} » : {second} {b}, {first} {a}.",
        "es": "{apart} de diferencia en «{row}»: {second} {b}, {first} {a}.",
    },
    "table_sum": {
        "en": "{total} in all: {parts} (the lines with “{words}”).",
        "de": "Insgesamt {total}: {parts} (die Zeilen mit „{words}“).",
        "fr": "{total} au total : {parts} (les lignes avec « {words} »).",
        "es": "{total} en total: {parts} (las líneas con «{words}»).",
    },
    "list_count": {
        "en": "{count} items:\n{lines}",
        "de": "{count} Einträge:\n{lines}",
        "fr": "{count} éléments :\n{lines}",
        "es": "{count} elementos:\n{lines}",
    },
    "calendar_counted": {
        "en": "{count} ({title}).\n\n",
        "de": "{count} ({title}).\n\n",
        "fr": "{count} ({title}).\n\n",
        "es": "{count} ({title}).\n\n",
    },
    "calendar_has": {
        "en": "For {said} your calendar has:\n{lines}",
        "de": "Für {said} steht in deinem Kalender:\n{lines}",
        "fr": "Pour {said}, votre agenda contient :\n{lines}",
        "es": "Para el {said} tu calendario tiene:\n{lines}",
    },
    "event_not_found": {
        "en": "I couldn't find “{words}” in your calendar",
        "de": "Ich habe „{words}“ nicht in deinem Kalender gefunden",
        "fr": "Je n'ai pas trouvé « {words} » dans votre agenda",
        "es": "No he encontrado «{words}» en tu calendario",
    },
    "event_not_found_on": {
        "en": "I couldn't find “{words}” in your calendar on {days}",
        "de": "Ich habe „{words}“ am {days} nicht in deinem Kalender gefunden",
        "fr": "Je n'ai pas trouvé « {words} » dans votre agenda le {days}",
        "es": "No he encontrado «{words}» en tu calendario el {days}",
    },
    "which_event": {
        "en": "Which event do you mean?",
        "de": "Welchen Termin meinst du?",
        "fr": "Quel événement voulez-vous dire ?",
        "es": "¿Qué evento quieres decir?",
    },
    "when_event": {
        "en": "When should it be? (a day and a time)",
        "de": "Wann soll es sein? (ein Tag und eine Uhrzeit)",
        "fr": "Quand doit-il avoir lieu ? (un jour et une heure)",
        "es": "¿Cuándo debe ser? (un día y una hora)",
    },
    "event_added": {
        "en": "Added “{title}” on {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "de": "„{title}“ eingetragen am {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "fr": "« {title} » ajouté le {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "es": "Añadido «{title}» el {start:day}, {start:%H:%M}–{end:%H:%M}.",
    },
    "days_added": {
        "en": "Added “{title}” from {start:day} to {end:day}, all day.",
        "de": "„{title}“ eingetragen von {start:day} bis {end:day}, ganztägig.",
        "fr": "« {title} » ajouté du {start:day} au {end:day}, toute la journée.",
        "es": "Añadido «{title}» del {start:day} al {end:day}, todo el día.",
    },
    "move_to_when": {
        "en": "When should “{title}” move to?",
        "de": "Wann soll „{title}“ stattdessen sein?",
        "fr": "À quand faut-il déplacer « {title} » ?",
        "es": "¿A cuándo muevo «{title}»?",
    },
    "event_moved": {
        "en": "Moved “{title}” to {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "de": "„{title}“ verschoben auf {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "fr": "« {title} » déplacé au {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "es": "«{title}» movido al {start:day}, {start:%H:%M}–{end:%H:%M}.",
    },
    "event_changed": {
        "en": "“{title}” is now on {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "de": "„{title}“ ist jetzt am {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "fr": "« {title} » est maintenant le {start:day}, {start:%H:%M}–{end:%H:%M}.",
        "es": "«{title}» es ahora el {start:day}, {start:%H:%M}–{end:%H:%M}.",
    },
    "event_placed": {
        "en": "“{title}” is now at {place}.",
        "de": "Ort von „{title}“: {place}.",
        "fr": "Lieu de « {title} » : {place}.",
        "es": "Lugar de «{title}»: {place}.",
    },
    "event_cancelled": {
        "en": "Cancelled “{title}” ({when}).",
        "de": "„{title}“ abgesagt ({when}).",
        "fr": "« {title} » annulé ({when}).",
        "es": "«{title}» cancelado ({when}).",
    },
    "which_day_look": {
        "en": "Which day should I look at?",
        "de": "Welchen Tag soll ich ansehen?",
        "fr": "Quel jour dois-je regarder ?",
        "es": "¿Qué día miro?",
    },
    "no_free": {
        "en": "There is no free stretch of {minutes} minutes {days}.",
        "de": "Es gibt keine freien {minutes} Minuten am Stück: {days}.",
        "fr": "Pas de créneau libre de {minutes} minutes : {days}.",
        "es": "No hay un hueco libre de {minutes} minutos: {days}.",
    },
    "busy_that_day": {
        "en": "That day your calendar has:\n{lines}",
        "de": "An dem Tag steht in deinem Kalender:\n{lines}",
        "fr": "Ce jour-là, votre agenda contient :\n{lines}",
        "es": "Ese día tienes en el calendario:\n{lines}",
    },
    "busy_then": {
        "en": "Already in your calendar then:\n{lines}",
        "de": "Dann steht schon in deinem Kalender:\n{lines}",
        "fr": "Déjà dans votre agenda à ce moment-là :\n{lines}",
        "es": "Ya tienes en el calendario entonces:\n{lines}",
    },
    "calendar_then": {
        "en": "In your calendar then:\n{lines}",
        "de": "In deinem Kalender steht dann:\n{lines}",
        "fr": "Dans votre agenda à ce moment-là :\n{lines}",
        "es": "En tu calendario entonces:\n{lines}",
    },
    "todos_due_then": {
        "en": "To-dos due then:\n{lines}",
        "de": "Dann fällige Aufgaben:\n{lines}",
        "fr": "Tâches à faire pour ce moment-là :\n{lines}",
        "es": "Tareas que vencen entonces:\n{lines}",
    },
    "other_free": {
        "en": " Other free times: {others}.",
        "de": " Weitere freie Zeiten: {others}.",
        "fr": " Autres créneaux libres : {others}.",
        "es": " Otros huecos libres: {others}.",
    },
    "first_free": {
        "en": "The first free {minutes} minutes: {start:day}, {start:%H:%M}–{end:%H:%M}.{more}",
        "de": "Die ersten freien {minutes} Minuten: {start:day}, {start:%H:%M}–{end:%H:%M}.{more}",
        "fr": "Les premières {minutes} minutes libres : {start:day}, {start:%H:%M}–"
        "{end:%H:%M}.{more}",
        "es": "Los primeros {minutes} minutos libres: {start:day}, {start:%H:%M}–{end:%H:%M}."
        "{more}",
    },
    # -- mail ----------------------------------------------------------------------------------
    "no_email_about": {
        "en": "I found no email about “{words}”.",
        "de": "Ich habe keine E-Mail zu „{words}“ gefunden.",
        "fr": "Je n'ai trouvé aucun e-mail sur « {words} ».",
        "es": "No he encontrado ningún correo sobre «{words}».",
    },
    "no_unread_email": {
        "en": "You have no unread emails.",
        "de": "Du hast keine ungelesenen E-Mails.",
        "fr": "Vous n'avez aucun e-mail non lu.",
        "es": "No tienes correos sin leer.",
    },
    "inbox_empty": {
        "en": "Your inbox is empty.",
        "de": "Dein Posteingang ist leer.",
        "fr": "Votre boîte de réception est vide.",
        "es": "Tu bandeja de entrada está vacía.",
    },
    "email_found": {
        "en": "I found {n} email:\n{lines}",
        "de": "Ich habe {n} E-Mail gefunden:\n{lines}",
        "fr": "J'ai trouvé {n} e-mail :\n{lines}",
        "es": "He encontrado {n} correo:\n{lines}",
    },
    "emails_found": {
        "en": "I found {n} emails:\n{lines}",
        "de": "Ich habe {n} E-Mails gefunden:\n{lines}",
        "fr": "J'ai trouvé {n} e-mails :\n{lines}",
        "es": "He encontrado {n} correos:\n{lines}",
    },
    "days_until": {
        "en": "In {n} days.",
        "de": "In {n} Tagen.",
        "fr": "Dans {n} jours.",
        "es": "Dentro de {n} días.",
    },
    "no_email_since": {
        "en": "No email about “{words}” since {since:day}. The latest:\n{lines}",
        "de": "Seit {since:day} keine E-Mail zu „{words}“. Die neueste:\n{lines}",
        "fr": "Aucun e-mail sur « {words} » depuis {since:day}. Le plus récent :\n{lines}",
        "es": "Ningún correo sobre «{words}» desde el {since:day}. El más reciente:\n{lines}",
    },
    "no_email_matching": {
        "en": "I found no email matching “{words}”. Which email do you mean?",
        "de": "Ich habe keine E-Mail zu „{words}“ gefunden. Welche E-Mail meinst du?",
        "fr": "Je n'ai trouvé aucun e-mail pour « {words} ». Quel e-mail voulez-vous dire ?",
        "es": "No he encontrado ningún correo para «{words}». ¿Qué correo quieres decir?",
    },
    "email_from": {
        "en": "From {sender}, “{subject}”:\n",
        "de": "Von {sender}, „{subject}“:\n",
        "fr": "De {sender}, « {subject} » :\n",
        "es": "De {sender}, «{subject}»:\n",
    },
    "details_left_out": {
        "en": "In the text: {items}",
        "de": "Im Text: {items}",
        "fr": "Dans le texte : {items}",
        "es": "En el texto: {items}",
    },
    "replied": {
        "en": "Replied to {sender} (“{subject}”).",
        "de": "Antwort an {sender} gesendet („{subject}“).",
        "fr": "Réponse envoyée à {sender} (« {subject} »).",
        "es": "Respuesta enviada a {sender} («{subject}»).",
    },
    "email_address_of": {
        "en": "What is {to}'s email address?",
        "de": "Wie lautet die E-Mail-Adresse von {to}?",
        "fr": "Quelle est l'adresse e-mail de {to} ?",
        "es": "¿Cuál es la dirección de correo de {to}?",
    },
    "which_person": {
        "en": "Which {to} do you mean?",
        "de": "Welche Person „{to}“ meinst du?",
        "fr": "Quel « {to} » voulez-vous dire ?",
        "es": "¿A qué «{to}» te refieres?",
    },
    # An email's body written by code around the user's words (`mail_body.letter`).
    "letter": {
        "en": "Hi {name},\n\n{text}\n\nBest wishes",
        "de": "Hallo {name},\n\n{text}\n\nViele Grüße",
        "fr": "Bonjour {name},\n\n{text}\n\nBonne journée",
        "es": "Hola, {name}:\n\n{text}\n\nUn saludo",
    },
    # A file of the user's sent whole, introduced ("Here is my recipe for vegetable lasagne:").
    "here_is": {
        "en": "Here is {what}:",
        "de": "Hier ist {what}:",
        "fr": "Voici {what} :",
        "es": "Aquí tienes {what}:",
    },
    # A question the user asked to pass on, said to the person ("you are free on Saturday").
    "asking": {
        "en": "I wanted to ask whether {question}.",
        "de": "Ich wollte fragen, ob {question}.",
        "fr": "Je voulais te demander si {question}.",
        "es": "Quería preguntarte si {question}.",
    },
    # A question of what, when … to pass on ("what you'd like for your birthday").
    "asking_to": {
        "en": "Could you {request}?",
        "de": "Könntest du {request}?",
        "fr": "Est-ce que tu pourrais {request} ?",
        "es": "Quería pedirte que {request}.",
    },
    "asking_what": {
        "en": "I wanted to ask {question}.",
        "de": "Ich wollte fragen, {question}.",
        "fr": "Je voulais te demander {question}.",
        "es": "Quería preguntarte {question}.",
    },
    "letter_unnamed": {
        "en": "Hello,\n\n{text}\n\nBest wishes",
        "de": "Hallo,\n\n{text}\n\nViele Grüße",
        "fr": "Bonjour,\n\n{text}\n\nBonne journée",
        "es": "Hola:\n\n{text}\n\nUn saludo",
    },
    "sent": {
        "en": "Sent to {name} <{address}>: “{subject}”.",
        "de": "Gesendet an {name} <{address}>: „{subject}“.",
        "fr": "Envoyé à {name} <{address}> : « {subject} ».",
        "es": "Enviado a {name} <{address}>: «{subject}».",
    },
    "forwarded": {
        "en": "Forwarded to {name} <{address}>: “{subject}”.",
        "de": "Weitergeleitet an {name} <{address}>: „{subject}“.",
        "fr": "Transféré à {name} <{address}> : « {subject} ».",
        "es": "Reenviado a {name} <{address}>: «{subject}».",
    },
    "forwarded_message": {
        "en": "---------- Forwarded message ----------",
        "de": "---------- Weitergeleitete Nachricht ----------",
        "fr": "---------- Message transféré ----------",
        "es": "---------- Mensaje reenviado ----------",
    },
    # -- reminders, memories, to-dos, contacts, the web ----------------------------------------
    "when_remind": {
        "en": "When should I remind you? (a day and a time)",
        "de": "Wann soll ich dich erinnern? (ein Tag und eine Uhrzeit)",
        "fr": "Quand dois-je vous le rappeler ? (un jour et une heure)",
        "es": "¿Cuándo te lo recuerdo? (un día y una hora)",
    },
    "reminder_set": {
        "en": "Reminder set for {at:day} at {at:%H:%M}: {what}",
        "de": "Erinnerung gestellt für {at:day} um {at:%H:%M}: {what}",
        "fr": "Rappel prévu pour {at:day} à {at:%H:%M} : {what}",
        "es": "Recordatorio para el {at:day} a las {at:%H:%M}: {what}",
    },
    "remembered": {
        "en": "I'll remember that: {fact}",
        "de": "Ich merke mir: {fact}",
        "fr": "Je retiens : {fact}",
        "es": "Lo recordaré: {fact}",
    },
    "nothing_remembered": {
        "en": "I have nothing remembered about “{about}”.",
        "de": "Zu „{about}“ habe ich mir nichts gemerkt.",
        "fr": "Je n'ai rien retenu sur « {about} ».",
        "es": "No tengo nada guardado sobre «{about}».",
    },
    "remembered_list": {
        "en": "From what you asked me to remember:\n{lines}",
        "de": "Aus dem, was ich mir merken sollte:\n{lines}",
        "fr": "D'après ce que vous m'avez demandé de retenir :\n{lines}",
        "es": "De lo que me pediste recordar:\n{lines}",
    },
    "todo_added": {
        "en": "Added to your to-dos: {title}.",
        "de": "Zu deinen Aufgaben hinzugefügt: {title}.",
        "fr": "Ajouté à vos tâches : {title}.",
        "es": "Añadido a tus tareas: {title}.",
    },
    "todo_due_moved": {
        "en": "“{title}” is now due {due}.",
        "de": "„{title}“ ist jetzt fällig am {due}.",
        "fr": "« {title} » est maintenant à faire pour le {due}.",
        "es": "«{title}» vence ahora el {due}.",
    },
    "todo_added_due": {
        "en": "Added to your to-dos: {title} (due {due})",
        "de": "Zu deinen Aufgaben hinzugefügt: {title} (fällig {due})",
        "fr": "Ajouté à vos tâches : {title} (échéance {due})",
        "es": "Añadido a tus tareas: {title} (vence {due})",
    },
    "no_todos": {
        "en": "You have no open to-dos.",
        "de": "Du hast keine offenen Aufgaben.",
        "fr": "Vous n'avez aucune tâche en cours.",
        "es": "No tienes tareas pendientes.",
    },
    "no_todos_due": {
        "en": "You have no open to-dos due by {due}.",
        "de": "Du hast keine offenen Aufgaben, die bis {due} fällig sind.",
        "fr": "Vous n'avez aucune tâche à faire d'ici le {due}.",
        "es": "No tienes tareas pendientes que venzan antes del {due}.",
    },
    "due_note": {
        "en": " (due {due})",
        "de": " (fällig {due})",
        "fr": " (échéance {due})",
        "es": " (vence {due})",
    },
    "place_in_calendar": {
        "en": "In your calendar, “{title}” is at {place}.",
        "de": "In deinem Kalender ist „{title}“ hier: {place}.",
        "fr": "Dans votre agenda, « {title} » a lieu à : {place}.",
        "es": "En tu calendario, «{title}» es en {place}.",
    },
    "todo_is_done": {
        "en": "Yes, that's done: “{title}” is ticked off.",
        "de": "Ja, erledigt: „{title}“ ist abgehakt.",
        "fr": "Oui, c'est fait : « {title} » est cochée.",
        "es": "Sí, ya está hecho: «{title}» está marcada.",
    },
    "todo_is_open": {
        "en": "Not yet: “{title}” is still open{due}.",
        "de": "Noch nicht: „{title}“ ist noch offen{due}.",
        "fr": "Pas encore : « {title} » est toujours à faire{due}.",
        "es": "Todavía no: «{title}» sigue pendiente{due}.",
    },
    "todos": {
        "en": "Your open to-dos:\n{lines}",
        "de": "Deine offenen Aufgaben:\n{lines}",
        "fr": "Vos tâches en cours :\n{lines}",
        "es": "Tus tareas pendientes:\n{lines}",
    },
    "no_todo_like": {
        "en": "I couldn't find a to-do like “{words}”. Which one do you mean?",
        "de": "Ich habe keine Aufgabe wie „{words}“ gefunden. Welche meinst du?",
        "fr": "Je n'ai trouvé aucune tâche comme « {words} ». Laquelle voulez-vous dire ?",
        "es": "No he encontrado ninguna tarea como «{words}». ¿Cuál quieres decir?",
    },
    "todo_done": {
        "en": "Done: {title}.",
        "de": "Erledigt: {title}.",
        "fr": "Fait : {title}.",
        "es": "Hecho: {title}.",
    },
    "no_contact": {
        "en": "I found no contact called “{who}”.",
        "de": "Ich habe keinen Kontakt namens „{who}“ gefunden.",
        "fr": "Je n'ai trouvé aucun contact nommé « {who} ».",
        "es": "No he encontrado ningún contacto llamado «{who}».",
    },
    # How a statement's balance changed over the month, computed from its two lines.
    "balance_up": {
        "en": "The balance went up by {amount}:",
        "de": "Der Kontostand ist um {amount} gestiegen:",
        "fr": "Le solde a augmenté de {amount} :",
        "es": "El saldo ha subido {amount}:",
    },
    "balance_down": {
        "en": "The balance went down by {amount}:",
        "de": "Der Kontostand ist um {amount} gesunken:",
        "fr": "Le solde a baissé de {amount} :",
        "es": "El saldo ha bajado {amount}:",
    },
    # No card, but the person's emails give their address.
    "writes_from": {
        "en": "{name} is not in your contacts, but writes to you from {address}.",
        "de": "{name} ist nicht in deinen Kontakten, schreibt dir aber von {address}.",
        "fr": "{name} n'est pas dans vos contacts, mais vous écrit depuis {address}.",
        "es": "{name} no está en tus contactos, pero te escribe desde {address}.",
    },
    "no_details": {
        "en": "no details",
        "de": "keine Angaben",
        "fr": "aucune coordonnée",
        "es": "sin datos",
    },
    "web_nothing": {
        "en": "The web search for “{query}” found nothing.",
        "de": "Die Websuche nach „{query}“ hat nichts gefunden.",
        "fr": "La recherche web pour « {query} » n'a rien trouvé.",
        "es": "La búsqueda web de «{query}» no encontró nada.",
    },
    "web_results": {
        "en": "Web results for “{query}”:\n{lines}",
        "de": "Web-Ergebnisse für „{query}“:\n{lines}",
        "fr": "Résultats web pour « {query} » :\n{lines}",
        "es": "Resultados web para «{query}»:\n{lines}",
    },
    "no_memory_like": {
        "en": "I found no memory like “{words}”. Which one do you mean?",
        "de": "Ich habe nichts Gemerktes wie „{words}“ gefunden. Welchen Eintrag meinst du?",
        "fr": "Je n'ai trouvé aucun souvenir comme « {words} ». Lequel voulez-vous dire ?",
        "es": "No he encontrado ningún recuerdo como «{words}». ¿Cuál quieres decir?",
    },
    "no_reminder_like": {
        "en": "I found no reminder like “{words}”. Which one do you mean?",
        "de": "Ich habe keine Erinnerung wie „{words}“ gefunden. Welche meinst du?",
        "fr": "Je n'ai trouvé aucun rappel comme « {words} ». Lequel voulez-vous dire ?",
        "es": "No he encontrado ningún recordatorio como «{words}». ¿Cuál quieres decir?",
    },
    "forgotten": {
        "en": "Forgotten: {fact}",
        "de": "Vergessen: {fact}",
        "fr": "Oublié : {fact}",
        "es": "Olvidado: {fact}",
    },
    "no_reminders": {
        "en": "You have no reminders set.",
        "de": "Du hast keine Erinnerungen gestellt.",
        "fr": "Vous n'avez aucun rappel.",
        "es": "No tienes recordatorios.",
    },
    "reminders": {
        "en": "Your reminders:\n{lines}",
        "de": "Deine Erinnerungen:\n{lines}",
        "fr": "Vos rappels :\n{lines}",
        "es": "Tus recordatorios:\n{lines}",
    },
    "reminder_cancelled": {
        "en": "Cancelled the reminder: {text}",
        "de": "Erinnerung gelöscht: {text}",
        "fr": "Rappel annulé : {text}",
        "es": "Recordatorio cancelado: {text}",
    },
    "person_name": {
        "en": "What is the person's name?",
        "de": "Wie heißt die Person?",
        "fr": "Comment s'appelle la personne ?",
        "es": "¿Cómo se llama la persona?",
    },
    "contact_added": {
        "en": "Added {name} to your contacts.",
        "de": "{name} zu deinen Kontakten hinzugefügt.",
        "fr": "{name} ajouté à vos contacts.",
        "es": "{name} añadido a tus contactos.",
    },
    "taken_off_list": {
        "en": "Took {item} off {path}.",
        "de": "{item} von {path} gestrichen.",
        "fr": "{item} retiré de {path}.",
        "es": "{item} quitado de {path}.",
    },
    "not_on_list": {
        "en": "“{item}” is not on {path}.",
        "de": "„{item}“ steht nicht auf {path}.",
        "fr": "« {item} » n'est pas sur {path}.",
        "es": "«{item}» no está en {path}.",
    },
    "already_on_list": {
        "en": "“{item}” is on {path} already.",
        "de": "„{item}“ steht schon auf {path}.",
        "fr": "« {item} » est déjà sur {path}.",
        "es": "«{item}» ya está en {path}.",
    },
    "contact_changed": {
        "en": "Changed {name} in your contacts: {details}.",
        "de": "{name} in deinen Kontakten geändert: {details}.",
        "fr": "{name} modifié dans vos contacts : {details}.",
        "es": "{name} cambiado en tus contactos: {details}.",
    },
    "contact_added_details": {
        "en": "Added {name} to your contacts: {details}.",
        "de": "{name} zu deinen Kontakten hinzugefügt: {details}.",
        "fr": "{name} ajouté à vos contacts : {details}.",
        "es": "{name} añadido a tus contactos: {details}.",
    },
    # -- files, documents, spending ------------------------------------------------------------
    "nothing_in_files": {
        "en": "I found nothing in your files or emails about that.",
        "de": "Dazu habe ich in deinen Dateien und E-Mails nichts gefunden.",
        "fr": "Je n'ai rien trouvé à ce sujet dans vos fichiers ni vos courriels.",
        "es": "No he encontrado nada sobre eso en tus archivos ni en tus correos.",
    },
    "from_file_cited": {
        "en": "From {path}.",
        "de": "Aus {path}.",
        "fr": "D'après {path}.",
        "es": "De {path}.",
    },
    "from_email_cited": {
        "en": "From the email of {sender}, “{subject}”.",
        "de": "Aus der E-Mail von {sender}, „{subject}“.",
        "fr": "D'après le courriel de {sender}, « {subject} ».",
        "es": "Del correo de {sender}, «{subject}».",
    },
    "no_folder": {
        "en": "I found no folder called “{words}”. ",
        "de": "Ich habe keinen Ordner namens „{words}“ gefunden. ",
        "fr": "Je n'ai trouvé aucun dossier nommé « {words} ». ",
        "es": "No he encontrado ninguna carpeta llamada «{words}». ",
    },
    "first_folder": {
        "en": "{head}Your first folder holds:\n{listing}",
        "de": "{head}In deinem ersten Ordner liegt:\n{listing}",
        "fr": "{head}Votre premier dossier contient :\n{listing}",
        "es": "{head}Tu primera carpeta contiene:\n{listing}",
    },
    "folder_empty": {
        "en": "The folder {name} is empty.",
        "de": "Der Ordner {name} ist leer.",
        "fr": "Le dossier {name} est vide.",
        "es": "La carpeta {name} está vacía.",
    },
    "folder_holds": {
        "en": "In {name}:\n{listing}",
        "de": "In {name}:\n{listing}",
        "fr": "Dans {name} :\n{listing}",
        "es": "En {name}:\n{listing}",
    },
    "saved": {
        "en": "Saved {path}.",
        "de": "{path} gespeichert.",
        "fr": "{path} enregistré.",
        "es": "{path} guardado.",
    },
    "no_list": {
        "en": "I found no list called “{which}” in your files. Which file is it?",
        "de": "Ich habe keine Liste namens „{which}“ in deinen Dateien gefunden. Welche Datei "
        "ist es?",
        "fr": "Je n'ai trouvé aucune liste nommée « {which} » dans vos fichiers. Quel fichier "
        "est-ce ?",
        "es": "No he encontrado ninguna lista llamada «{which}» en tus archivos. ¿Qué archivo es?",
    },
    "which_list": {
        "en": "Which list do you mean?",
        "de": "Welche Liste meinst du?",
        "fr": "Quelle liste voulez-vous dire ?",
        "es": "¿Qué lista quieres decir?",
    },
    "added_to_list": {
        "en": "Added “{item}” to {path}.",
        "de": "„{item}“ zu {path} hinzugefügt.",
        "fr": "« {item} » ajouté à {path}.",
        "es": "«{item}» añadido a {path}.",
    },
    "no_file": {
        "en": "I found no file called “{which}”. Which file should I open?",
        "de": "Ich habe keine Datei namens „{which}“ gefunden. Welche Datei soll ich öffnen?",
        "fr": "Je n'ai trouvé aucun fichier nommé « {which} ». Quel fichier dois-je ouvrir ?",
        "es": "No he encontrado ningún archivo llamado «{which}». ¿Qué archivo abro?",
    },
    "which_file": {
        "en": "Which file do you mean?",
        "de": "Welche Datei meinst du?",
        "fr": "Quel fichier voulez-vous dire ?",
        "es": "¿Qué archivo quieres decir?",
    },
    "which_address": {
        "en": "What is the address of the {site} website?",
        "de": "Wie lautet die Adresse der Website von {site}?",
        "fr": "Quelle est l'adresse du site de {site} ?",
        "es": "¿Cuál es la dirección de la web de {site}?",
    },
    "opened": {
        "en": "Opened {path}.",
        "de": "{path} geöffnet.",
        "fr": "{path} ouvert.",
        "es": "{path} abierto.",
    },
    "in_month": {
        "en": " in {month:month}",
        "de": " im {month:month}",
        "fr": " en {month:month}",
        "es": " en {month:month}",
    },
    "no_statements": {
        "en": "I found no bank statements I can read{during}.",
        "de": "Ich habe keine Kontoauszüge gefunden, die ich lesen kann{during}.",
        "fr": "Je n'ai trouvé aucun relevé bancaire lisible{during}.",
        "es": "No he encontrado extractos bancarios que pueda leer{during}.",
    },
    "payment": {
        "en": "{count} payment",
        "de": "{count} Zahlung",
        "fr": "{count} paiement",
        "es": "{count} pago",
    },
    "payments": {
        "en": "{count} payments",
        "de": "{count} Zahlungen",
        "fr": "{count} paiements",
        "es": "{count} pagos",
    },
    "spent_at": {
        "en": "What you spent{during}:\n{lines}",
        "de": "Deine Ausgaben{during}:\n{lines}",
        "fr": "Vos dépenses{during} :\n{lines}",
        "es": "Lo que gastaste{during}:\n{lines}",
    },
    "spent_nothing_at": {
        "en": "Your bank statements show no payments to “{merchant}”{during}.",
        "de": "Deine Kontoauszüge zeigen keine Zahlungen an „{merchant}“{during}.",
        "fr": "Vos relevés ne montrent aucun paiement à « {merchant} »{during}.",
        "es": "Tus extractos no muestran pagos a «{merchant}»{during}.",
    },
    "spent_total": {
        "en": "You spent {totals}{during}. The most went to:\n{lines}",
        "de": "Du hast {totals} ausgegeben{during}. Das meiste ging an:\n{lines}",
        "fr": "Vous avez dépensé {totals}{during}. Le plus est allé à :\n{lines}",
        "es": "Gastaste {totals}{during}. Lo que más:\n{lines}",
    },
}

# The questions for missing slots (`catalog.Slot.question`), by their English text.
QUESTIONS: dict[str, Phrase] = {
    "What is it?": {
        "de": "Worum geht es?",
        "fr": "De quoi s'agit-il ?",
        "es": "¿De qué se trata?",
    },
    "Which event should I move?": {
        "de": "Welchen Termin soll ich verschieben?",
        "fr": "Quel événement dois-je déplacer ?",
        "es": "¿Qué evento muevo?",
    },
    "Which event should I cancel?": {
        "de": "Welchen Termin soll ich absagen?",
        "fr": "Quel événement dois-je annuler ?",
        "es": "¿Qué evento cancelo?",
    },
    "Which day?": {"de": "Welcher Tag?", "fr": "Quel jour ?", "es": "¿Qué día?"},
    "Which email?": {"de": "Welche E-Mail?", "fr": "Quel e-mail ?", "es": "¿Qué correo?"},
    "What should the reply say?": {
        "de": "Was soll in der Antwort stehen?",
        "fr": "Que doit dire la réponse ?",
        "es": "¿Qué debe decir la respuesta?",
    },
    "Who should I write to?": {
        "de": "Wem soll ich schreiben?",
        "fr": "À qui dois-je écrire ?",
        "es": "¿A quién escribo?",
    },
    "What should the email say?": {
        "de": "Was soll in der E-Mail stehen?",
        "fr": "Que doit dire l'e-mail ?",
        "es": "¿Qué debe decir el correo?",
    },
    "What should I remind you of?": {
        "de": "Woran soll ich dich erinnern?",
        "fr": "De quoi dois-je vous faire penser ?",
        "es": "¿Qué te recuerdo?",
    },
    "When should I remind you?": {
        "de": "Wann soll ich dich erinnern?",
        "fr": "Quand dois-je vous le rappeler ?",
        "es": "¿Cuándo te lo recuerdo?",
    },
    "What should I remember?": {
        "de": "Was soll ich mir merken?",
        "fr": "Que dois-je retenir ?",
        "es": "¿Qué debo recordar?",
    },
    "What should the to-do say?": {
        "de": "Was soll die Aufgabe sein?",
        "fr": "Quelle doit être la tâche ?",
        "es": "¿Cuál debe ser la tarea?",
    },
    "Which to-do?": {"de": "Welche Aufgabe?", "fr": "Quelle tâche ?", "es": "¿Qué tarea?"},
    "Whom should I look up?": {
        "de": "Wen soll ich nachschlagen?",
        "fr": "Qui dois-je chercher ?",
        "es": "¿A quién busco?",
    },
    "What should I search for?": {
        "de": "Wonach soll ich suchen?",
        "fr": "Que dois-je chercher ?",
        "es": "¿Qué busco?",
    },
    "What should I forget?": {
        "de": "Was soll ich vergessen?",
        "fr": "Que dois-je oublier ?",
        "es": "¿Qué debo olvidar?",
    },
    "Which reminder?": {
        "de": "Welche Erinnerung?",
        "fr": "Quel rappel ?",
        "es": "¿Qué recordatorio?",
    },
    "Whom should I add?": {
        "de": "Wen soll ich hinzufügen?",
        "fr": "Qui dois-je ajouter ?",
        "es": "¿A quién añado?",
    },
    "What should the file be called?": {
        "de": "Wie soll die Datei heißen?",
        "fr": "Comment doit s'appeler le fichier ?",
        "es": "¿Cómo debe llamarse el archivo?",
    },
    "What should the note say?": {
        "de": "Was soll in der Notiz stehen?",
        "fr": "Que doit dire la note ?",
        "es": "¿Qué debe decir la nota?",
    },
    "What should I add?": {
        "de": "Was soll ich hinzufügen?",
        "fr": "Que dois-je ajouter ?",
        "es": "¿Qué añado?",
    },
    "Which list?": {"de": "Welche Liste?", "fr": "Quelle liste ?", "es": "¿Qué lista?"},
    "Which website should I open?": {
        "de": "Welche Website soll ich öffnen?",
        "fr": "Quel site dois-je ouvrir ?",
        "es": "¿Qué web abro?",
    },
    "Which file should I open?": {
        "de": "Welche Datei soll ich öffnen?",
        "fr": "Quel fichier dois-je ouvrir ?",
        "es": "¿Qué archivo abro?",
    },
}

_WEEKDAYS: dict[Language, tuple[str, ...]] = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "de": ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
    "fr": ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
}
_SHORT_WEEKDAYS: dict[Language, tuple[str, ...]] = {
    "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
    "de": ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"),
    "fr": ("lun.", "mar.", "mer.", "jeu.", "ven.", "sam.", "dim."),
    "es": ("lun", "mar", "mié", "jue", "vie", "sáb", "dom"),
}
_MONTHS: dict[Language, tuple[str, ...]] = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
           "September", "Oktober", "November", "Dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
           "septembre", "octobre", "novembre", "décembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"),
}  # fmt: skip
_SHORT_MONTHS: dict[Language, tuple[str, ...]] = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
           "Dec"),
    "de": ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.",
           "Nov.", "Dez."),
    "fr": ("janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.",
           "nov.", "déc."),
    "es": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov",
           "dic"),
}  # fmt: skip


def day(language: Language, moment: date, short: bool = False) -> str:
    """A day in words: "Friday 18 May", or short "Fri 18 May", in `language` (English with
    the two-digit day the English answers have always had: "Fri 04 May")."""
    names = _SHORT_WEEKDAYS if short else _WEEKDAYS
    months = _SHORT_MONTHS if short else _MONTHS
    weekday = names.get(language, names["en"])[moment.weekday()]
    month = months.get(language, months["en"])[moment.month - 1]
    if language == "de":
        return f"{weekday}{'' if short else ','} {moment.day}. {month}"
    if language == "fr":
        return f"{weekday} {moment.day} {month}"
    if language == "es":
        return f"{weekday} {moment.day} {month}" if short else f"{weekday} {moment.day} de {month}"
    return f"{weekday} {moment.day:02d} {month}"


def _month(language: Language, moment: date) -> str:
    month = _MONTHS.get(language, _MONTHS["en"])[moment.month - 1]
    return f"{month} de {moment.year}" if language == "es" else f"{month} {moment.year}"


class _Words(string.Formatter):
    """`str.format` with days and months written in one language (the specs above)."""

    def __init__(self, language: Language) -> None:
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, date):
            if format_spec == "day":
                return day(self.language, value)
            if format_spec == "dd":
                return day(self.language, value, short=True)
            if format_spec == "wd":
                names = _SHORT_WEEKDAYS.get(self.language, _SHORT_WEEKDAYS["en"])
                return names[value.weekday()]
            if format_spec == "month":
                return _month(self.language, value)
        return super().format_field(value, format_spec)


def dated(language: Language, moment: date, spec: str) -> str:
    """`moment` written in `language` by one of the specs above ("day", "dd", "wd", "month")
    or Python's ("%H:%M"): for a date in a line of a list, outside any phrase."""
    return _Words(language).format_field(moment, spec)


# Small counts said in words, as people say them ("Three."); larger ones in digits.
_COUNTS: dict[Language, tuple[str, ...]] = {
    "en": ("None", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
           "Ten"),
    "de": ("Keinen", "Einen", "Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun",
           "Zehn"),
    "fr": ("Aucun", "Un", "Deux", "Trois", "Quatre", "Cinq", "Six", "Sept", "Huit", "Neuf",
           "Dix"),
    "es": ("Ninguno", "Uno", "Dos", "Tres", "Cuatro", "Cinco", "Seis", "Siete", "Ocho", "Nueve",
           "Diez"),
}  # fmt: skip


def counted(language: Language, count: int) -> str:
    """`count` as the start of an answer in `language` ("Three", "Drei", "12")."""
    words = _COUNTS.get(language, _COUNTS[DEFAULT])
    return words[count] if count < len(words) else str(count)


def say(language: Language, key: str, **values: Any) -> str:
    """The phrase `key` in `language` with `values` filled in; English where the phrase has
    no translation or its translation cannot be filled (a slip in a template must not cost
    the user the answer)."""
    phrase = PHRASES[key]
    template = phrase.get(language)
    if template is not None and language != DEFAULT:
        try:
            return _Words(language).format(template, **values)
        except (KeyError, IndexError, ValueError) as error:
            log.warning("the %s phrase %r cannot be filled: %s", language, key, error)
    return _Words(DEFAULT).format(phrase[DEFAULT], **values)


def question(language: Language, english: str) -> str:
    """A slot's question (`Slot.question`, written in English) in `language`; as written
    where it has no translation."""
    return QUESTIONS.get(english, {}).get(language) or english
