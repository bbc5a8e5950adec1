"""What a request asks to pass on, read from its own words (`mail_body.said_after`)."""

from __future__ import annotations

import pytest

from app.agent.intents.mail_body import kept_to, said_after


@pytest.mark.parametrize(
    ("request_", "said"),
    [
        ("Email Tom that I'm running ten minutes late", "I'm running ten minutes late"),
        ("Mail Tom to say the keys are under the mat.", "the keys are under the mat"),
        ("Reply to Jamie: Wednesday at 15:00 works for me", "Wednesday at 15:00 works for me"),
        ("Schick Sophie eine Mail, dass ich später komme", "ich komme später"),
        ("Schreib Tom, dass ich morgen nicht kommen kann", "ich kann morgen nicht kommen"),
        ("Schreib Lena, dass wir uns am Freitag treffen", "wir treffen uns am Freitag"),
        ("Schreib Lena, dass das Paket angekommen ist", "das Paket ist angekommen"),
        ("Schreib Jonas, dass die Folien fertig sind", "die Folien sind fertig"),
        ("Schreib Jonas, dass Folien fertig sind", "Folien fertig sind"),
        ("Schick Anna eine Mail, dass ich um 9 ankomme", "ich komme um 9 an"),
        ("Dis à Priya par mail qu'il pleut", "il pleut"),
        ("Envoie un mail à Priya pour lui dire que son livre est prêt", "son livre est prêt"),
        ("Escríbele a Lena que el paquete llegó ayer", "el paquete llegó ayer"),
        # telling someone by name; a second "that" joins what to say (each German clause in
        # a sentence's order)
        ("Tell Anna I'll bring dessert on Friday.", "I'll bring dessert on Friday"),
        ("Let Priya know the book is ready", "the book is ready"),
        ("Contesta a Sophie que ya revisé la factura y que está todo bien.",
         "ya revisé la factura y está todo bien"),
        ("Antworte ihr, dass ich es geprüft habe und dass alles passt",
         "ich habe es geprüft und alles passt"),
        ("Réponds-lui que c'est bon et qu'il peut venir", "c'est bon et il peut venir"),
        # two verbs of one subject, each in a sentence's order
        ("Sag Tom, dass ich am Samstag zum Grillen komme und Salat mitbringe",
         "ich komme am Samstag zum Grillen und bringe Salat mit"),
        ("Schreib Anna, dass ich morgen nicht kann und wir es verschieben müssen",
         "ich kann morgen nicht und wir müssen es verschieben"),
        # "… and say …"
        ("Can you get back to her and say we're paying it on the 24th",
         "we're paying it on the 24th"),
        ("Reply to Tom and say yes", "yes"),
        # Nothing passed on: no "that", or a time's colon, or nothing after it.
        ("Email Tom about the meeting at 15:00", ""),
        ("Send an email to Tom.", ""),
        ("Tell Tom that", ""),
        ("What did Tom say about the party?", ""),
    ],
)  # fmt: skip
def test_what_a_request_asks_to_pass_on_is_its_words_after_that(request_: str, said: str) -> None:
    assert said_after(request_) == said


def test_a_written_body_keeps_only_the_sentences_that_are_the_users() -> None:
    """What the 0.5B wrote for "Email Tom and invite him to lunch at my favourite café on
    Friday at 12:30": the invitation stays, the excitement and the offer it made up go."""
    written = (
        "Hello Tom Becker,\n\nI wanted to invite you to lunch at my favorite café on Friday "
        "at 12:30. I'm really excited about this opportunity and would love to have a good "
        "time together.\n\nWould you like me to schedule a meeting or something else?"
    )
    request = "Email Tom and invite him to lunch at my favourite café on Friday at 12:30."
    assert kept_to(written, request, "Tom Becker") == (
        "Hello Tom Becker,\n\nI wanted to invite you to lunch at my favorite café on Friday "
        "at 12:30."
    )
    assert kept_to("Dear Sir, please find attached the quarterly figures.", request, "Tom") == ""


def test_a_german_date_keeps_its_sentence_whole() -> None:
    """ "Freitag 25. Mai" ends no sentence: cut there, the model's sentence of its own fell
    into pieces, one too short to be judged ("Mai zu zahlen.") and kept; whole, it goes."""
    written = (
        "Hallo Sophie,\n\nIch bin hier, um dir eine Rechnung für den Freitag 25. Mai zu zahlen."
    )
    said = "wir zahlen die Rechnung am Freitag, den 25. Mai"
    assert kept_to(written, said, "Sophie Martin") == "Hallo Sophie,"
    # a number ending a sentence still ends it
    assert (
        kept_to("See you at 5. I have been to Mars twice with my uncle.", "see you at 5", "Tom")
        == "See you at 5."
    )


@pytest.mark.parametrize(
    ("written", "said", "kept"),
    [("Hallo, Tom,\n\nich komme am Samstag zur Grillparty. Wie kann ich Ihnen helfen?",
      "ich am Samstag zur Grillparty komme", "Hallo, Tom,\n\nich komme am Samstag zur Grillparty."),
     ("Hi Tom,\n\nI'll be there on Saturday. How can I help you?", "I'll be there on Saturday",
      "Hi Tom,\n\nI'll be there on Saturday."),
     # asked by the user, it stays
     ("Hi Sam,\n\nHow can I help you with the move?", "ask Sam how I can help with the move",
      "Hi Sam,\n\nHow can I help you with the move?")],
)  # fmt: skip
def test_an_assistants_offer_of_help_short_as_it_is_is_not_the_users(
    written: str, said: str, kept: str
) -> None:
    """The 0.5B model ended Tom's email "Wie kann ich Ihnen helfen?": an assistant's line,
    never the user's unless they say it."""
    assert kept_to(written, said, "Tom Becker") == kept
