"""send_email and read_email end to end: real Dovecot + aiosmtpd on 127.0.0.1 for the mail,
a real Radicale address book for the names, a scripted model that picks the intent, copies the
slots and writes only an email's body or a summary.

A message counts as sent when the SMTP server handed it on (its relay's count) and it sits in
the recipient's INBOX on Dovecot; before that the dialog showed it exactly as it went out.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from email.message import EmailMessage

import pytest
from imapclient import IMAPClient

from app import clock
from app.agent.intents.router import IntentRouter
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationRequest
from app.agent.turn.loop import Agent, TurnReport
from app.store.database import Database
from app.store.models import MemoryRecord
from connectors.calendar import CalendarAccount
from connectors.mail import MailAccount, list_emails
from tests.agent.test_intent_picks import Picking
from tests.agent.test_intents import Answers
from tests.agent.test_intents_personal import _agent, account, database, server
from tests.agent.test_mail_agent import USERS, _account, _deliver, _inbox_subjects, servers
from tests.connectors.test_contacts import put_card
from tests.scripting import call
from tests.support.mail_servers import Dovecot, SmtpServer
from tests.support.radicale_server import RadicaleServer

__all__ = [
    "account",
    "database",
    "server",
    "servers",
]  # Radicale with a book, the mail servers: shared

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")
ALICE, BOB = USERS
STONE = "bob.stone@elsewhere.example"
PRACTICE = "practice@drlee.example"


HELEN = "helen.morgan@example.test"


def _card(uid: str, name: str, email: str) -> str:
    family, given = name.split()[1], name.split()[0]
    return (
        f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:{uid}\r\nFN:{name}\r\nN:{family};{given};;;\r\n"
        f"EMAIL:{email}\r\nEND:VCARD\r\n"
    )


def _deliver_dated(
    servers: tuple[Dovecot, SmtpServer], sender: str, subject: str, body: str, date: str
) -> None:
    """A message in alice's INBOX with its own Date header (the order "newest" means)."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"], message["Date"] = (
        sender, ALICE, subject, date,
    )  # fmt: skip
    message.set_content(body)
    client = IMAPClient("127.0.0.1", servers[0].imap_port, ssl=False, timeout=5)
    try:
        client.plain_login(ALICE, USERS[ALICE].password)
        client.append("INBOX", message.as_bytes())
    finally:
        client.logout()


def _empty_inbox(servers: tuple[Dovecot, SmtpServer]) -> None:
    """Alice's INBOX emptied: for a test whose answer depends on who else wrote (the
    module's server keeps what earlier tests delivered, in whatever order they ran)."""
    client = IMAPClient("127.0.0.1", servers[0].imap_port, ssl=False, timeout=5)
    try:
        client.plain_login(ALICE, USERS[ALICE].password)
        client.select_folder("INBOX")
        client.delete_messages(client.search("ALL"))
        client.expunge()
    finally:
        client.logout()


@pytest.fixture
def mail(servers: tuple[Dovecot, SmtpServer]) -> Iterator[MailAccount]:
    servers[1].relay.reset()
    yield _account(servers, ALICE)


def test_an_email_to_a_name_two_contacts_share_is_a_choice_then_the_dialog_then_it_arrives(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
) -> None:
    put_card(server, _card("bob-baker", "Bob Baker", BOB), "baker.vcf")
    put_card(server, _card("bob-stone", "Bob Stone", STONE), "stone.vcf")
    answers = Answers()
    body = "Hi Bob,\n\nthe keys are under the mat.\n\nAlice"
    agent = _agent(
        [call("send_email", to="Bob", message="the keys are under the mat"), body],
        answers,
        mail=mail,
        calendar=account,
    )
    conversation = Conversation()
    first = agent.run_turn(conversation, "email Bob that the keys are under the mat")
    assert first.stop_reason == "asked" and first.answer.startswith("Which Bob do you mean?")
    assert [c.name for c in first.calls] == ["find_contact"] and answers.seen == []
    assert servers[1].relay.deliveries == 0
    number = next(line[0] for line in first.answer.splitlines() if BOB in line)
    other = next(line[0] for line in first.answer.splitlines() if STONE in line)
    assert {number, other} == {"1", "2"}
    second = agent.run_turn(conversation, number)
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]
    assert shown.preview == (
        f"From: {ALICE}\nTo: {BOB}\nSubject: The keys are under the mat\n\n{body}"
    )
    assert BOB in shown.untyped_values  # the address came from the book, not from the user
    assert servers[1].relay.deliveries == 1
    assert _inbox_subjects(servers, BOB).count("The keys are under the mat") == 1
    assert second.answer == f"Sent to {BOB} <{BOB}>: “The keys are under the mat”."


def test_a_question_asking_more_than_a_contact_detail_is_also_answered_from_the_mail(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
) -> None:
    """ "Nora keeps chasing me about the Halvorsen order, what's the PO number accounts
    wanted?" taken for Nora's contact: her card, and what her email says of the rest."""
    nora = "nora.lindqvist@example.test"
    put_card(server, _card("nora-l", "Nora Lindqvist", nora), "nora.vcf")
    _deliver_dated(servers, nora, "Re: Halvorsen order",
                   "Accounts need the purchase order number on the transfer: it is PO-5521.",
                   "Mon, 14 May 2029 10:00:00 +0200")  # fmt: skip
    try:
        agent = _agent([call("find_contact", who="Nora"), "It is PO-5521."], mail=mail,
                       calendar=account)  # fmt: skip
        request = (
            "nora keeps chasing me about the halvorsen order.. whats the PO number accounts "
            "wanted on the transfer?"
        )
        report = agent.run_turn(Conversation(), request)
        assert report.answer.startswith(f"- Nora Lindqvist: {nora}")
        assert "It is PO-5521." in report.answer and "Re: Halvorsen order" in report.answer
        # Asked for a detail of the card alone: the card, nothing else looked up.
        agent = _agent([call("find_contact", who="Nora")], mail=mail, calendar=account)
        report = agent.run_turn(Conversation(), "What's Nora's email address?")
        assert report.answer == f"- Nora Lindqvist: {nora}"
        assert [c.name for c in report.calls] == ["find_contact"]
    finally:
        _remove_from(servers, nora)  # the module's other tests count what the inbox holds


def _remove_from(servers: tuple[Dovecot, SmtpServer], sender: str) -> None:
    client = IMAPClient("127.0.0.1", servers[0].imap_port, ssl=False, timeout=5)
    try:
        client.plain_login(ALICE, USERS[ALICE].password)
        client.select_folder("INBOX")
        client.delete_messages(client.search(["FROM", sender]))
        client.expunge()
    finally:
        client.logout()


def test_a_recipient_the_model_made_up_is_asked_for_then_the_mail_arrives(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    answers = Answers()
    agent = _agent(
        [call("send_email", to="Anna", message="the meeting is off"), "The meeting is off."],
        answers,
        mail=mail,
    )
    conversation = Conversation()
    first = agent.run_turn(conversation, "send an email saying the meeting is off")
    assert (first.stop_reason, first.answer, first.calls) == (
        "asked",
        "Who should I write to?",
        [],
    )
    agent.run_turn(conversation, BOB)
    [shown] = answers.seen
    assert shown.arguments["to"] == [BOB] and shown.arguments["body"] == "The meeting is off."
    assert not shown.untyped_values  # the user typed the address
    assert servers[1].relay.deliveries == 1
    assert _inbox_subjects(servers, BOB).count("The meeting is off") == 1


def test_a_name_the_address_book_lacks_is_the_sender_who_wrote_then_the_mail_arrives(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount
) -> None:
    _deliver_dated(servers, f"Greta Holm <{BOB}>", "Garden party", "Come on Sunday!",
                   "Mon, 14 May 2029 10:00:00 +0200")  # fmt: skip
    answers = Answers()
    agent = _agent(
        [call("send_email", to="Greta", message="I'll bring a cake"), "I'll bring a cake."],
        answers,
        mail=mail,
        calendar=account,
    )
    report = agent.run_turn(Conversation(), "email Greta that I'll bring a cake")
    [shown] = answers.seen  # the address from her message, shown before anything goes out
    assert shown.arguments["to"] == [BOB]
    assert [c.name for c in report.calls][-1] == "send_email"
    assert _inbox_subjects(servers, BOB).count("I'll bring a cake") == 1


def test_a_message_the_model_made_up_is_no_subject(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount
) -> None:
    """ "email Greta that I'll call her on Sunday" with the model's message and subject
    "call the plumber on Sunday": the body keeps the user's words, and so does the
    subject; the plumber is in neither."""
    _deliver_dated(servers, f"Greta Holm <{BOB}>", "Garden party", "Come on Sunday!",
                   "Mon, 14 May 2029 10:00:00 +0200")  # fmt: skip
    answers = Answers(approve=False)
    made_up = "call the plumber on Sunday"
    agent = _agent(
        [call("send_email", to="Greta", message=made_up, subject=made_up), ""],
        answers,
        mail=mail,
        calendar=account,
    )
    agent.run_turn(Conversation(), "Can you email Greta that I'll call her on Sunday?")
    [shown] = answers.seen
    assert "plumber" not in shown.arguments["body"].lower()
    assert "plumber" not in shown.arguments["subject"].lower()
    assert "sunday" in shown.arguments["subject"].lower()


def test_an_address_the_model_made_up_for_a_name_is_the_name_looked_up(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount
) -> None:
    """ "Schreib Greta, …": the model wrote "greta@example.com", an address the user never
    typed. The name is what the user said: the address is the one her message came from,
    and the subject is what the user asked to say, not the letter's greeting."""
    _deliver_dated(servers, f"Greta Holm <{BOB}>", "Garden party", "Come on Sunday!",
                   "Mon, 14 May 2029 10:00:00 +0200")  # fmt: skip
    answers = Answers(approve=False)
    agent = _agent(
        [call("send_email", to="greta@example.com", message="The slides are ready"), ""],
        answers,
        mail=mail,
        calendar=account,
    )
    agent.run_turn(Conversation(), "Schreib Greta, dass die Folien fertig sind")
    [shown] = answers.seen
    assert shown.arguments["to"] == [BOB]
    assert shown.arguments["body"] == "Hallo Greta,\n\nDie Folien sind fertig.\n\nViele Grüße"
    assert shown.arguments["subject"] == "Die Folien sind fertig"


@pytest.mark.parametrize(
    ("request_", "chosen", "asked", "answer"),
    [("Schick bitte eine Mail, dass die Folien fertig sind.",
      call("send_email", to="", message="die Folien sind fertig"), "Wem soll ich schreiben?",
      "An Greta."),
     # said at length: who she is, after her name
     ("Envía un correo diciendo que las diapositivas están listas.",
      call("send_email", to="", message="las diapositivas están listas"), "¿A quién escribo?",
      "A Greta, la del jardín, la que me escribió el domingo pasado."),
     # an address the model made of a word of the request: asked, not used
     ("Envoie un mail pour dire que les diapos de légumes sont prêtes.",
      call("send_email", to="legumes@example.com", message="les diapos sont prêtes"),
      "À qui dois-je écrire ?", "À Greta, celle du jardin.")],
)  # fmt: skip
def test_the_recipient_answered_is_the_name_in_the_answer(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    request_: str,
    chosen: str,
    asked: str,
    answer: str,
) -> None:
    """Asked who to write to, "An Greta." or "A Greta, la del jardín, …" names Greta: the
    word before her name and what is said of her after it are not her name, and a long
    answer opening with a name is the answer, not a new request."""
    _deliver_dated(servers, f"Greta Holm <{BOB}>", "Garden party", "Come on Sunday!",
                   "Mon, 14 May 2029 10:00:00 +0200")  # fmt: skip
    answers = Answers(approve=False)
    said = {"Schick": "Die Folien sind fertig.", "Envía": "Las diapositivas están listas.",
            "Envoie": "Les diapos sont prêtes."}[request_.split()[0]]  # fmt: skip
    agent = _agent([chosen, said], answers, mail=mail, calendar=account)
    conversation = Conversation()
    first = agent.run_turn(conversation, request_)
    assert (first.stop_reason, first.answer, answers.seen) == ("asked", asked, [])
    second = agent.run_turn(conversation, answer)
    assert answers.seen, (second.answer, second.calls, conversation.messages)
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]


def test_a_name_with_no_address_is_asked_for_and_nothing_is_sent(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount
) -> None:
    answers = Answers()
    agent = _agent(
        [call("send_email", to="Carla", message="dinner at eight")],
        answers,
        mail=mail,
        calendar=account,
    )
    report = agent.run_turn(Conversation(), "tell Carla dinner at eight")
    assert (report.stop_reason, report.answer) == ("asked", "What is Carla's email address?")
    assert answers.seen == [] and servers[1].relay.deliveries == 0


def test_reading_an_email_finds_it_and_the_model_only_summarises_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    dovecot, _ = servers
    text = "Your appointment is on 22 May at 10:00. Please bring your insurance card."
    _deliver(dovecot, ALICE, f"Dr. Lee's practice <{PRACTICE}>", "Appointment reminder", text)
    _deliver(dovecot, ALICE, "shop@example.test", "Your order", "Your order has shipped.")
    summary = "Dr. Lee's practice confirms your appointment on 22 May at 10:00."
    answers = Answers()
    agent = _agent([call("read_email", which="Dr. Lee's practice"), summary], answers, mail=mail)
    report = agent.run_turn(Conversation(), "what does the email from Dr. Lee's practice say?")
    read = report.calls[-1]
    assert (read.name, read.decision, read.status) == ("read_email", "allow", "ok")
    assert answers.seen == []
    assert report.answer.startswith("From ") and PRACTICE in report.answer.splitlines()[0]
    assert report.answer.endswith(f", “Appointment reminder”:\n{summary}")
    assert agent.context.tainted  # someone else's text is now in the conversation
    # The model was asked only to summarise this email: no tools, no history.
    writing = agent.backend.requests[-1]  # type: ignore[attr-defined]
    assert writing.tool_choice == "none" and len(writing.messages) == 2
    assert text in writing.messages[1]["content"]
    assert f"From: {read.result['from']}\n" in writing.messages[1]["content"]
    assert "Your order" not in writing.messages[1]["content"]
    # Read for the user, not by the user: it stays unread on the server until they open it.
    [message] = [m for m in list_emails(mail, "INBOX", limit=50) if m.subject.startswith("Appo")]
    assert message.unread


def test_an_email_the_model_misspelt_is_found_by_the_requests_own_words(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """The model wrote "citywerke" for "Stadtwerke": its words are dropped, and the email is
    found by the request's own words rather than asked for."""
    dovecot, _ = servers
    _deliver(dovecot, ALICE, "Stadtwerke Berlin <billing@stadtwerke.example>",
             "Your electricity bill for April", "Your bill for April 2029: 86.40 EUR.")  # fmt: skip
    summary = "Stadtwerke Berlin: la factura de abril es de 86,40 EUR."
    agent = _agent([call("read_email", which="citywerke"), summary], mail=mail)
    report = agent.run_turn(Conversation(), "¿Qué dice el último correo de Stadtwerke?")
    read = report.calls[-1]
    assert (read.name, read.status) == ("read_email", "ok")
    assert read.result["subject"] == "Your electricity bill for April"
    assert report.answer.endswith(summary)


def test_several_emails_matching_are_listed_before_the_newest_is_summarised(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    sophie = "Sophie Martin <sophie@example.test>"
    _deliver_dated(servers, sophie, "Invoice 2029-117", "Could you check invoice 2029-117?",
                   "Thu, 10 May 2029 08:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, sophie, "Budget sheet", "Please bring the budget sheet.",
                   "Mon, 14 May 2029 08:00:00 +0000")  # fmt: skip
    agent = _agent([call("read_email", which="Sophie"), "Sophie asks for the budget sheet."],
                   mail=mail)  # fmt: skip
    report = agent.run_turn(Conversation(), "Do I have unread emails from Sophie?")
    listed, read = report.answer.split("\n\n", 1)
    assert listed.startswith("I found 2 emails:") and "Invoice 2029-117" in listed
    assert read.startswith("From Sophie Martin") and "“Budget sheet”" in read
    assert "Could you check" not in str(agent.backend.requests[-1].messages)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("request_", "taken_for", "which"),
    [
        ("Sophie wrote to me about the Kiezbau invoice, twice I think. What does she need?",
         None, "Sophie Kiezbau invoice"),
        ("Sophie hat mir wegen der Kiezbau-Rechnung geschrieben. Kannst du kurz "
         "zusammenfassen, worum's geht?", call("something_else"), "Sophie"),
        ("Sophie m'a écrit pour la facture Kiezbau, tu peux me résumer ce qu'elle veut ?",
         call("just_answer"), "Sophie facture Kiezbau"),
        # asked short, and taken for a look in the files
        ("Sophie m'a écrit pour la facture Kiezbau, pas eu le temps d'ouvrir. Elle veut quoi, "
         "en deux mots ?", call("ask_files", about="facture Kiezbau"), "Sophie facture Kiezbau"),
        # no word of mail: only who wrote is named
        ("was wollte sophie nochmal genau wegen der kiezbau rechnung? kurz zusammenfassen "
         "bitte", call("recall_fact", about="Kiezbau Rechnung"), "Sophie Kiezbau Rechnung"),
        ("What did Sophie want about the Kiezbau invoice again? Sum it up for me",
         call("recall_fact", about="Kiezbau invoice"), "Sophie Kiezbau invoice"),
        # only the reply holds the words: its first message is found by its subject
        ("What was that about a purchase order?", None, "purchase order"),
    ],
)  # fmt: skip
def test_a_reply_in_a_thread_is_summarised_with_the_message_it_answers(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    request_: str,
    taken_for: str | None,
    which: str,
) -> None:
    """The newest message ("Re: Invoice 88", "one more thing") is read with the one it
    answers, oldest first, and summarised together: the amount and the order number both
    reach the summary. Another of hers on another subject, newer, is listed, not read: the
    request names the invoice. Asked for the gist of what she wrote, it is read whatever the
    model took it for."""
    sophie = "Sophie Martin <sophie@example.test>"
    _deliver_dated(servers, sophie, "Invoice 88 from Kiezbau",
                   "Kiezbau sent invoice 88 for 1,240 EUR, due on 30 May.",
                   "Wed, 9 May 2029 08:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, sophie, "Lunch?", "Lunch on Friday?",  # her newest
                   "Tue, 15 May 2029 07:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, sophie, "Re: Invoice 88 from Kiezbau",
                   "One more thing: finance needs the purchase order PO-7731 on the transfer.",
                   "Mon, 14 May 2029 08:00:00 +0000")  # fmt: skip
    summary = "Sophie says invoice 88 (1,240 EUR) is due on 30 May and needs PO-7731."
    turns = [*([taken_for] if taken_for else []), call("read_email", which=which), summary]
    agent = _agent(turns, mail=mail)
    try:
        report = agent.run_turn(Conversation(), request_)
    finally:
        _remove_from(servers, "sophie@example.test")
    told = str(agent.backend.requests[-1].messages)  # type: ignore[attr-defined]
    assert told.index("1,240 EUR") < told.index("PO-7731"), report.answer
    assert "Lunch on Friday" not in told
    assert report.answer.endswith(summary)


def test_a_reply_goes_to_the_senders_email_on_what_the_request_names_in_its_language(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """ "Contesta a Sophie que ya revisé la factura": of her emails, the one on the invoice
    ("factura" in English), not her newest; the second "que" joins what to say, unsaid."""
    sophie = "Sophie Martin <sophie@example.test>"
    _deliver_dated(servers, sophie, "Invoice 88 from Kiezbau", "Could you check invoice 88?",
                   "Wed, 9 May 2029 08:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, sophie, "Lunch?", "Lunch on Friday?",  # her newest
                   "Tue, 15 May 2029 07:00:00 +0000")  # fmt: skip
    answers = Answers(approve=False)
    said = "ya revisé la factura y que está todo bien"
    agent = _agent([call("reply_to_email", which="Sophie", message=said), "Hola"], answers,
                   mail=mail)  # fmt: skip
    try:
        report = agent.run_turn(
            Conversation(), "Contesta a Sophie que ya revisé la factura y que está todo bien."
        )
    finally:
        _remove_from(servers, "sophie@example.test")
    [shown] = answers.seen
    subjects = {
        str(found.get("email_id")): str(found.get("subject"))
        for c in report.calls
        if c.name == "search_emails" and isinstance(c.result, list)
        for found in c.result
    }
    assert subjects[shown.arguments["email_id"]] == "Invoice 88 from Kiezbau", subjects
    assert "Ya revisé la factura y está todo bien." in shown.arguments["body"], shown.arguments


@pytest.mark.parametrize(
    ("request_", "which"),
    [
        ("Reply to her that the warehouse address is Hafenstraße 7.",
         "warehouse address is Hafenstraße 7"),
        ("Antworte ihr, dass die Lageradresse Hafenstraße 7 ist.", "Lageradresse Hafenstraße 7"),
        ("Réponds-lui que l'adresse de l'entrepôt est Hafenstraße 7.", "Hafenstraße 7"),
        ("And reply that the warehouse address is Hafenstraße 7.", ""),
    ],
)  # fmt: skip
def test_a_reply_to_the_one_whose_email_was_just_read_answers_that_email(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, which: str
) -> None:
    """ "Any news from Lena?", then "Reply to her that …": the email just read is answered,
    not the one the reply's own words find (the newest naming Berlin's street)."""
    _deliver_dated(servers, "Lena Vogt <lena@nordwind.example>", "Delivery plan",
                   "Three deliveries in June. Please confirm the warehouse address.",
                   "Mon, 14 May 2029 15:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, "Lufthansa <booking@lufthansa.example>", "Your booking",
                   "Pick-up address: Hafenstraße 7, Berlin.",
                   "Tue, 15 May 2029 06:00:00 +0000")  # fmt: skip
    answers = Answers(approve=False)
    said = "the warehouse address is Hafenstraße 7"
    agent = _agent(
        [call("read_email", which="Lena"), "Lena sent the June plan.",
         call("reply_to_email", which=which, message=said), f"Dear Lena, {said}. Alex"],
        answers, mail=mail,
    )  # fmt: skip
    conversation = Conversation()
    try:
        first = agent.run_turn(conversation, "What did Lena write?")
        agent.run_turn(conversation, request_)
    finally:
        _remove_from(servers, "lena@nordwind.example")
        _remove_from(servers, "booking@lufthansa.example")
    [read] = [c.arguments["email_id"] for c in first.calls if c.name == "read_email"]
    [shown] = answers.seen
    assert (shown.tool, shown.arguments["email_id"]) == ("reply_email", read)


def test_the_amounts_and_references_a_summary_left_out_follow_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """The model's summary dropped the amount, the day and the reference: they follow it,
    as the email writes them, in the request's language."""
    _deliver_dated(servers, "Kiezbau <billing@kiezbau.example>", "Invoice 42",
                   "Your invoice 42 for 1,240 EUR is due on 30 May. Reference: KB-4411.",
                   "Wed, 9 May 2029 08:00:00 +0000")  # fmt: skip
    agent = _agent([call("read_email", which="Kiezbau"), "Kiezbau wants the invoice paid."],
                   mail=mail)  # fmt: skip
    try:
        report = agent.run_turn(Conversation(), "Was will Kiezbau in der Mail?")
    finally:
        _remove_from(servers, "billing@kiezbau.example")
    assert report.answer.endswith(
        "Kiezbau wants the invoice paid.\n\nIm Text: 1,240 EUR; 30 May; KB-4411"
    ), report.answer


def test_an_email_the_model_could_not_name_is_asked_for(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    _deliver_dated(servers, "landlord@flat.example", "Rent in June", "The rent goes up in June.",
                   "Thu, 10 May 2029 08:00:00 +0000")  # fmt: skip
    # Newer, and found by the answer's word "from" too (as every message is): the word
    # that names one message, "landlord", decides.
    _deliver_dated(servers, "news@shop.example", "Weekly deals", "Deals from the shop.",
                   "Mon, 14 May 2029 08:00:00 +0000")  # fmt: skip
    agent = _agent(
        [call("read_email", which="the invoice"), "The landlord says the rent goes up in June."],
        mail=mail,
    )
    conversation = Conversation()
    first = agent.run_turn(conversation, "read me that email")
    assert (first.stop_reason, first.answer) == ("asked", "Which email?")
    assert "read_email" not in [c.name for c in first.calls]
    second = agent.run_turn(conversation, "the one from the landlord")
    assert second.answer.startswith("From landlord@flat.example, “Rent in June”:")
    assert second.answer.endswith("the rent goes up in June.")


def test_a_reply_to_an_email_the_model_could_not_name_asks_which_then_arrives(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    dovecot, _ = servers
    _deliver(dovecot, ALICE, BOB, "Picnic plans", "Shall we have the picnic on Saturday?")
    answers = Answers()
    body = "Hi Bob,\n\nSaturday works for me.\n\nAlice"
    agent = _agent(
        [call("reply_to_email", which="Bob's invitation", message="Saturday works"), body],
        answers,
        mail=mail,
    )
    conversation = Conversation()
    first = agent.run_turn(conversation, "reply that Saturday works")
    assert (first.stop_reason, first.answer, first.calls) == ("asked", "Which email?", [])
    second = agent.run_turn(conversation, "the picnic one")
    [shown] = answers.seen
    assert shown.tool == "reply_email" and shown.arguments["body"] == body
    assert servers[1].relay.deliveries == 1
    assert _inbox_subjects(servers, BOB).count("Re: Picnic plans") == 1
    assert second.answer == f"Replied to {BOB} (“Picnic plans”)."


@pytest.mark.parametrize(
    ("request_", "said"),
    [("Antworte Bob bitte, dass Donnerstag um 10 passt", "Donnerstag um 10 passt"),
     ("reply to Bob that thursday at 10 works", "thursday at 10 works"),
     ("Réponds à Bob que jeudi à 10h me va", "jeudi à 10h me va")],
)  # fmt: skip
def test_a_reply_to_someone_named_whose_email_the_model_named_by_what_to_say_answers_theirs(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, said: str
) -> None:
    """The model named the email by what to say ("Donnerstag um 10 passt"), which no email
    holds: the newest from the one person named, who wrote to the user, is answered."""
    _empty_inbox(servers)
    dovecot, _ = servers
    _deliver(dovecot, ALICE, f"Bob Baker <{BOB}>", "Coffee?", "Does Thursday at 10 work?")
    answers = Answers()
    agent = _agent(
        [call("reply_to_email", which=said, message=said), "Hi Bob,\n\nThursday at 10 works."],
        answers,
        mail=mail,
    )
    before = _inbox_subjects(servers, BOB).count("Re: Coffee?")
    agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "reply_email"
    assert _inbox_subjects(servers, BOB).count("Re: Coffee?") == before + 1


@pytest.mark.parametrize(
    "request_",
    [
        "Bob wants to meet for coffee. Reply that Wednesday 23 May at 15:00 works for me.",
        "Bob möchte einen Kaffee trinken. Antworte ihm, dass Mittwoch um 15 Uhr passt.",
        "Bob veut prendre un café. Réponds-lui que mercredi à 15h me va.",
        # asked for
        "Bob wants to meet for coffee. Could you reply that Wednesday at 15:00 works for me?",
        "Bob möchte einen Kaffee trinken. Kannst du ihm antworten, dass Mittwoch um 15 Uhr passt?",
        "Bob veut prendre un café. Tu peux lui répondre que mercredi à 15h me va ?",
        "Bob quiere tomar un café. ¿Le puedes responder que el miércoles a las 15 me va bien?",
        # "write back", its pronoun and a word or two between
        "Bob möchte einen Kaffee trinken. Schreib ihm bitte zurück, dass Mittwoch um 15 Uhr passt.",
        # "get back to him", "respond to"
        "Bob keeps asking me about coffee. Can you get back to him and say Wednesday at 15:00 "
        "works?",
        "Bob wants to meet for coffee. Respond to him that Wednesday at 15:00 works for me.",
    ],
)
@pytest.mark.parametrize(
    "taken_for",
    [call("add_event", title="Coffee with Bob", when="Wednesday 23 May at 15:00"),
     call("send_email", to="Bob", message="coffee")],
)  # fmt: skip
def test_a_reply_asked_for_is_a_reply_though_the_model_took_it_for_a_new_event_or_email(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, taken_for: str
) -> None:
    """The request says to reply; the time in it made the model pick a new event (or the
    email a new one). What is sent is a reply to the email, through the dialog, and no event
    is added."""
    dovecot, _ = servers
    _deliver(dovecot, ALICE, BOB, "Coffee?", "Shall we meet for coffee next week?")
    answers = Answers(approve=False)
    body = "Hi Bob,\n\nWednesday 23 May at 15:00 works for me.\n\nAlice"
    agent = _agent(
        [taken_for,
         call("reply_to_email", which="Bob", message="Wednesday 23 May at 15:00 works for me"),
         body],
        answers,
        mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "reply_email" and "create_event" not in [c.name for c in report.calls]
    assert servers[1].relay.deliveries == 0


def _email_to_bob_shown(
    server: RadicaleServer,
    mail: MailAccount,
    account: CalendarAccount,
    turns: list[str],
    request_: str,
) -> ConfirmationRequest:
    """The dialog shown for the turn, with Bob Baker in the address book (and refused)."""
    put_card(server, _card("bob-baker", "Bob Baker", BOB), "baker.vcf")
    answers = Answers(approve=False)
    agent = _agent(turns, answers, mail=mail, calendar=account)
    agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    return shown


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("Kannst du meiner Mama eine kurze Mail schicken? Sam und ich kommen am Sonntag.",
      call("send_email", to="Sam", message="Wir kommen am Sonntag")),
     ("Kannst du meiner Mama eine kurze Mail schicken? Sam und ich kommen am Sonntag.",
      call("add_event", title="Sam", when="Sonntag")),
     ("email my mum that Sam and I are coming on Sunday",
      call("send_email", to="Sam", message="Sam and I are coming on Sunday")),
     ("Envoie un mail à ma mère : Sam et moi venons dimanche",
      call("send_email", to="Sam", message="Sam et moi venons dimanche")),
     ("Mándale un correo a mi madre, que Sam y yo vamos el domingo",
      call("send_email", to="mi madre", message="Sam y yo vamos el domingo")),
     # named in the sentence before, written to as "lui", "her", "ihr"
     ("Maman fête ses 60 ans dimanche. Tu peux lui écrire un petit mail pour dire que Sam et "
      "moi venons ?", call("send_email", to="mama@example.com", message="We are coming")),
     ("It's my mum's birthday on Sunday - can you email her that Sam and I are coming?",
      call("send_email", to="Sam", message="Sam and I are coming"))],
)  # fmt: skip
def test_an_email_to_a_family_member_goes_to_the_card_that_calls_them_so(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
    request_: str,
    taken_for: str,
) -> None:
    """ "meiner Mama", "my mum", "ma mère", "mi madre": the card whose note says "Mum" (in
    English, whatever the request's language), not Sam whom the message is about."""
    mum = _card("helen-morgan", "Helen Morgan", HELEN).replace("END:", "NOTE:Mum\r\nEND:")
    put_card(server, mum, "helen.vcf")
    put_card(server, _card("sam-lee", "Sam Lee", "sam.lee@example.test"), "sam.vcf")
    answers = Answers(approve=False)
    fill = call("send_email", to="Mama", message="Sam und ich kommen am Sonntag")
    agent = _agent([taken_for, fill, "Hi,\n\nwe are coming on Sunday."], answers, mail=mail,
                   calendar=account)  # fmt: skip
    agent.run_turn(Conversation(), request_)  # (the `account` fixture empties the book after)
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["to"] == [HELEN]


@pytest.mark.parametrize(
    ("request_", "word"),
    [("Schick Bob eine kurze Mail: Suppe war super, danke!", "Suppe"),
     ("Tell Bob soup was great, thanks", "soup"),
     ("Dis à Bob que la soupe était super", "soupe")],
)  # fmt: skip
def test_the_name_after_the_verb_of_writing_is_the_recipient_over_another_word_the_model_took(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
    request_: str,
    word: str,
) -> None:
    """ "Schick Bob eine kurze Mail: Suppe war super": the model put "Suppe", a word of the
    request, as the recipient; the name right after "schick" is who the email is to."""
    turns = [call("recall_fact", about=word),
             call("send_email", to=word, message="soup was great"), ""]  # fmt: skip
    shown = _email_to_bob_shown(server, mail, account, turns, request_)
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]


@pytest.mark.parametrize(
    ("request_", "word"),
    [("Schick Bob eine kurze Mail: Suppe war super, danke!", "Suppe"),
     ("Tell Bob soup was great, thanks", "soup"),
     ("Dis à Bob que la soupe était super", "soupe")],
)  # fmt: skip
def test_the_name_after_the_verb_of_writing_is_the_recipient_when_the_model_chose_an_email(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
    request_: str,
    word: str,
) -> None:
    """The model chose the new email itself, to "Suppe": the name right after the verb is
    who it is to (it had asked for Suppe's address)."""
    turns = [call("send_email", to=word, message="soup was great"), ""]
    shown = _email_to_bob_shown(server, mail, account, turns, request_)
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]


@pytest.mark.parametrize("to", ["", "bob"])
@pytest.mark.parametrize(
    "request_",
    ["can u email bob and ask him to send me the slides from monday",
     "pls mail bob n ask him for the slides",
     "tu peux écrire à bob pour lui demander les slides stp"],
)  # fmt: skip
def test_a_name_typed_in_lower_case_after_the_verb_of_writing_is_the_recipient(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
    request_: str,
    to: str,
) -> None:
    """ "can u email bob …": the address book holds Bob, so the name typed in lower case is
    who the email is to (it had asked who to write to)."""
    turns = [call("send_email", to=to, message="send me the slides"), ""]
    shown = _email_to_bob_shown(server, mail, account, turns, request_)
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]


@pytest.mark.parametrize("to", ["", "maria", "note"])
@pytest.mark.parametrize(
    "request_",
    ["escríbele a maria klein que soy vegetariano, es por lo de la comida del offsite. gracias!",
     "email maria that i'm vegetarian, for the offsite lunch",
     "Schreib maria, dass ich Vegetarier bin",
     "schreib bitte maria klein, dass ich beim offsite vegetarisch esse"],
)  # fmt: skip
def test_a_name_typed_in_lower_case_that_only_the_mailbox_knows_is_the_recipient(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    request_: str,
    to: str,
) -> None:
    """ "escríbele a maria klein que …": no card holds Maria, but she wrote about the
    offsite; the name after the verb of writing is hers, so the email is to her address (it
    had asked who to write to)."""
    maria = "maria.klein@work.example"
    _deliver(servers[0], ALICE, f"Maria Klein <{maria}>", "Offsite lunch",
             "Please tell me your dietary requirements for the offsite lunch.")  # fmt: skip
    try:
        answers = Answers(approve=False)
        # (or taken for a note called by her name)
        taken_for = (
            call("send_email", to=to, message="I am vegetarian")
            if to != "note"
            else (call("write_note", name="maria klein", content="vegetarian"))
        )
        agent = _agent([taken_for, call("send_email", to="", message="I am vegetarian"), ""],
                       answers, mail=mail, calendar=account)  # fmt: skip
        report = agent.run_turn(Conversation(), request_)
        assert [shown.tool for shown in answers.seen] == ["send_email"], report.answer
        assert answers.seen[0].arguments["to"] == [maria]
    finally:
        _remove_from(servers, maria)


@pytest.mark.parametrize(
    ("request_", "to"),
    [("Tell Bob Baker the soup was great", "Bob Baker"),
     ("Mail Bob at bob@elsewhere.example that the soup was great", "bob@elsewhere.example")],
)  # fmt: skip
def test_the_models_recipient_holding_the_name_or_a_typed_address_is_kept(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
    request_: str,
    to: str,
) -> None:
    turns = [call("send_email", to=to, message="the soup was great"), ""]
    shown = _email_to_bob_shown(server, mail, account, turns, request_)
    expected = [BOB] if "@" not in to else [to]
    assert shown.tool == "send_email" and shown.arguments["to"] == expected


def test_telling_someone_typed_in_lower_case_who_wrote_is_an_email_to_them(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount
) -> None:
    """ "jamie asked if thursday works for coffee - tell him yes, 10am works for me" taken
    for a reminder: an email to the one who wrote, found by the name typed in lower case."""
    _empty_inbox(servers)
    _deliver_dated(servers, f"Jamie Clarke <{BOB}>", "Coffee?", "Does Thursday work?",
                   "Mon, 14 May 2029 10:00:00 +0200")  # fmt: skip
    answers = Answers(approve=False)
    agent = _agent(
        [call("set_reminder", what="thursday works for coffee", when="10am"),
         call("send_email", to="", message="yes, 10am works for me"),
         "Hi Jamie,\n\nYes, 10am works for me."],
        answers,
        mail=mail,
        calendar=account,
    )  # fmt: skip
    agent.run_turn(
        Conversation(), "jamie asked if thursday works for coffee - tell him yes, 10am works for me"
    )
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]


@pytest.mark.parametrize(
    "request_",
    [
        "Bob wants the keys back, tell him they are under the mat",
        "Bob needs the keys, let him know they are under the mat",
        "Bob braucht die Schlüssel, sag ihm, dass sie unter der Matte liegen",
        "Bob cherche les clés, dis-lui qu'elles sont sous le paillasson",
        "Bob busca las llaves, dile que están debajo del felpudo",
        "bob needs the keys back - tell him they are under the mat",
    ],
)
def test_telling_someone_after_a_comma_is_an_email_though_the_model_took_it_for_a_move(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
    request_: str,
) -> None:
    """ "Bob wants the keys back, tell him …": the time-like words after the comma made the
    model pick moving an event; what reaches the dialog is the email to Bob, and no event is
    looked up or changed."""
    put_card(server, _card("bob-baker", "Bob Baker", BOB), "baker.vcf")
    answers = Answers(approve=False)
    agent = _agent(
        [call("move_event", event="they are under the mat"),
         call("send_email", to="Bob", message="the keys are under the mat"), ""],
        answers,
        mail=mail,
        calendar=account,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]
    assert not {"list_events", "update_event"} & {c.name for c in report.calls}
    assert servers[1].relay.deliveries == 0


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [
        ("Tell Bob the keys are under the mat", call("recall_fact", about="keys")),
        ("Drop Bob a line saying the keys are under the mat",
         call("cancel_event", event="keys under the mat")),
        ("Look up Bob in my contacts and email him that the keys are under the mat",
         call("find_contact", who="Bob")),
        ("Dis à Bob que les clés sont sous le paillasson", call("recall_fact", about="clés")),
        # Asked as a question: "Could you drop Bob …", "Tu peux dire à Bob …"
        ("Could you drop Bob a quick note that the keys are under the mat?",
         call("move_event", event="Bob's quick note")),
        ("Tu peux dire à Bob que les clés sont sous le paillasson ?",
         call("recall_fact", about="clés")),
    ],
)  # fmt: skip
@pytest.mark.parametrize("to", ["Bob", "Robert"])
def test_a_request_to_write_to_someone_is_an_email_whichever_intent_the_model_took(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
    request_: str,
    taken_for: str,
    to: str,
) -> None:
    """ "Tell Bob …", "Drop Bob a line", "… and email him": the model took it for a memory, a
    cancelled event or a contact's details; what reaches the dialog is the email to Bob,
    also when the model then names someone the request does not ("Robert", dropped): the
    name after "tell", or the contact the lookup named, is used."""
    put_card(server, _card("bob-baker", "Bob Baker", BOB), "baker.vcf")
    answers = Answers(approve=False)
    agent = _agent(
        [taken_for, call("send_email", to=to, message="the keys are under the mat"), ""],
        answers,
        mail=mail,
        calendar=account,
    )
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]
    assert "delete_event" not in [c.name for c in report.calls]
    assert servers[1].relay.deliveries == 0


def test_finding_mail_that_is_not_there_says_so(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    agent = _agent([call("find_emails", about="tax office")], mail=mail)
    report = agent.run_turn(Conversation(), "anything from the tax office?")
    assert report.answer == "I found no email about “tax office”."
    assert {c.name for c in report.calls} == {"search_emails"}


def test_mail_is_found_by_the_singular_of_a_plural_word(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """ "seeds" is in no email, but the search matches parts of words: "seed" finds the
    club's "seed swap"."""
    _deliver(servers[0], ALICE, "Garden Club <info@gardenclub.example>", "Seed swap on 2 June",
             "Our seed swap is on Saturday 2 June.")  # fmt: skip
    agent = _agent([call("find_emails", about="club seeds")], mail=mail)
    try:
        report = agent.run_turn(Conversation(), "any mail from the club about seeds?")
    finally:
        _remove_from(servers, "info@gardenclub.example")
    assert "Seed swap on 2 June" in report.answer
    assert {"query": "seed"} in [c.arguments for c in report.calls]


@pytest.mark.parametrize(
    ("request_", "which", "asked"),
    [
        ("Reply to the email and say yes.", "the email", "Which email?"),
        ("Reply to the email and say yes.", "email and say yes", "Which email?"),
        ("Antworte auf die letzte Mail mit ja", "die letzte Mail", "Welche E-Mail?"),
    ],
)
def test_a_reply_naming_no_email_asks_which(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, which: str, asked: str
) -> None:
    _deliver_dated(servers, BOB, "Book club", "Are you coming to the book club on Thursday?",
                   "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    answers = Answers()
    agent = _agent([call("reply_to_email", which=which, message="yes")], answers, mail=mail)
    report = agent.run_turn(Conversation(), request_)
    assert (report.stop_reason, report.answer, report.calls) == ("asked", asked, [])
    assert answers.seen == []


@pytest.mark.parametrize(
    ("request_", "body", "asked"),
    [
        ("Send an email to {bob}.", "Hi Bob, I am sending you this email to say hello.",
         "What should the email say?"),
        ("Schreib {bob} eine Mail.", "Hallo Bob, ich schreibe dir eine Mail. Viele Grüße",
         "Was soll in der E-Mail stehen?"),
        ("Envoie un mail à {bob}.", "Bonjour Bob, je t'envoie un mail. À bientôt",
         "Que doit dire l'e-mail ?"),
    ],
)  # fmt: skip
def test_an_email_that_says_nothing_is_asked_what_to_say(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, body: str, asked: str
) -> None:
    # The model made up a message, and the body it writes from the request says nothing.
    answers = Answers()
    agent = _agent(
        [call("send_email", to=BOB, message="Hi, just checking in"), body], answers, mail=mail
    )
    report = agent.run_turn(Conversation(), request_.format(bob=BOB))
    assert (report.stop_reason, report.answer) == ("asked", asked)
    assert answers.seen == [] and report.calls == []


def test_a_reply_whose_words_the_model_made_up_asks_what_to_say(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    _deliver_dated(servers, BOB, "Book club", "Are you coming to the book club on Thursday?",
                   "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    answers = Answers()
    agent = _agent(
        [call("reply_to_email", which="book club", message="sounds good"), ""],
        answers,
        mail=mail,
    )
    conversation = Conversation()
    first = agent.run_turn(conversation, "answer the book club mail")
    assert (first.stop_reason, first.answer) == ("asked", "What should the reply say?")
    agent.run_turn(conversation, "count me in, I'll bring cake")
    [shown] = answers.seen
    # The model wrote no body: code writes a short letter around the user's own words.
    assert shown.arguments["body"] == "Hello,\n\nCount me in, I'll bring cake.\n\nBest wishes"
    assert _inbox_subjects(servers, BOB).count("Re: Book club") == 1


@pytest.mark.parametrize(
    ("request_", "kept"),
    [
        ("Just saw Bob's mail about the picnic on Sunday. Could you write back and tell him "
         "we'd love to come? We might be late, and I'll bring a cake.", "bring a cake"),
        ("Bob hat wegen dem Picknick geschrieben. Antworte ihm und sag ihm, wir kommen gern "
         "und ich bringe einen Kuchen mit.", "ich bringe einen Kuchen mit"),
    ],
)  # fmt: skip
def test_a_reply_telling_them_something_goes_out_with_those_words_when_the_model_writes_none(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, kept: str
) -> None:
    """What follows "tell him" is what to say: the model's words were not the user's and its
    body no use, so code writes the letter around the user's own words."""
    _deliver_dated(servers, BOB, "Picnic on Sunday", "Picnic in the park on Sunday, join us?",
                   "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    answers = Answers(approve=False)
    agent = _agent(
        [call("reply_to_email", which="Bob picnic", message="I'm sorry, I can't help."),
         "I'm sorry, but I can't assist with that."],
        answers,
        mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "reply_email" and kept in shown.arguments["body"], report.answer
    assert "sorry" not in shown.arguments["body"].lower()


@pytest.mark.parametrize(
    ("request_", "message", "kept"),
    [("Réponds à Bob que vendredi ça me va, je ramène le dessert", "I ramène the dessert.",
      "vendredi"),
     ("Antworte Bob, dass ich am Samstag zum Grillen komme und Salat mitbringe",
      "Salat mitbringe", "bringe salat mit")],
)  # fmt: skip
def test_a_reply_the_model_copied_in_part_says_all_the_user_asked_to_say(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    request_: str,
    message: str,
    kept: str,
) -> None:
    """The model's message held part of what follows "que" ("je ramène le dessert" without
    "vendredi ça me va"): the body is written from the user's words whole."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, f"Bob Baker <{BOB}>", "Friday", "Does Friday work for you?")
    answers = Answers(approve=False)
    agent = _agent(
        [call("reply_to_email", which="Bob", message=message),
         "Bonjour Bob,\n\nJe voudrais vous ramener le dessert."],
        answers,
        mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "reply_email" and kept in shown.arguments["body"].lower(), report.answer


def test_a_reply_asked_for_inside_a_sentence_is_a_reply_whatever_it_was_taken_for(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """ "… away that weekend :( can you write back to him and say sorry …": a reply, though
    asked mid-sentence and taken for a new email to an address the model made up."""
    _deliver_dated(servers, BOB, "Picnic on Sunday", "Picnic in the park on Sunday, join us?",
                   "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    answers = Answers(approve=False)
    agent = _agent(
        [call("send_email", to="bob@made.up", message="Sorry, we can't make it"),
         call("reply_to_email", which="Bob picnic", message="Sorry, we can't make it")],
        answers,
        mail=mail,
    )  # fmt: skip
    report = agent.run_turn(
        Conversation(),
        "Bob asked us to his picnic on Sunday but we're away all weekend :( can you write back "
        "to him and say sorry, we can't make it",
    )
    [shown] = answers.seen
    assert shown.tool == "reply_email", report.answer
    assert "we can't make it" in shown.arguments["body"]


@pytest.mark.parametrize(
    ("request_", "message"),
    [("Oh no, I never got back to Bob about the picnic. Can you answer for me? Yes please - "
      "Sunday suits me, I'll bring a cake.", "Sunday suits me, I'll bring a cake"),
     ("I still owe Bob an answer about Sunday. Could you answer him that we'd love to come?",
      "we'd love to come"),
     ("Ich hab Bob noch nicht geantwortet wegen Sonntag. Kannst du für mich antworten? Wir "
      "kommen gern.", "Wir kommen gern")],
)  # fmt: skip
def test_an_answer_asked_for_someone_is_a_reply_though_taken_for_a_new_event(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, message: str
) -> None:
    """ "Can you answer for me? … Sunday suits me": the day made the model pick a new event;
    what is asked is a reply to the person's email."""
    _deliver_dated(servers, BOB, "Picnic on Sunday", "Picnic in the park on Sunday, join us?",
                   "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    answers = Answers(approve=False)
    agent = _agent(
        [call("add_event", title="picnic with Bob", when="Sunday"),
         call("reply_to_email", which="Bob picnic", message=message),
         "Hi Bob,\n\nSunday it is.\n\nAlice"],
        answers,
        mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert [shown.tool for shown in answers.seen] == ["reply_email"], report.answer


def test_a_name_typed_in_lower_case_beside_a_word_in_capitals_is_still_looked_up(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
) -> None:
    """ "can you answer bob about the picnic? … the PO number": typed in lower case but for
    "PO"; Bob is in the address book, so the name is his and the answer to him is a reply."""
    put_card(server, _card("bob-baker", "Bob Baker", BOB), "baker.vcf")
    _deliver_dated(servers, BOB, "Picnic on Sunday", "Picnic in the park on Sunday, join us?",
                   "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    answers = Answers(approve=False)
    agent = _agent(
        [call("ask_files", about="picnic"),
         call("reply_to_email", which="Bob picnic", message="sunday suits me"),
         "Hi Bob,\n\nSunday suits me, PO-17.\n\nAlice"],
        answers, mail=mail, calendar=account,
    )  # fmt: skip
    report = agent.run_turn(
        Conversation(),
        "can you answer bob about the picnic? sunday suits me. and put the PO number 17 in",
    )
    assert [shown.tool for shown in answers.seen] == ["reply_email"], report.answer


def test_a_message_the_model_translated_is_written_from_the_users_own_request(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """The model gave what to say in English for a French request: the body is written from
    the whole request, in its language, and the dialog shows it before it goes."""
    answers = Answers(approve=False)
    body = "Bonjour,\n\nton livre est prêt.\n\nAlice"
    agent = _agent(
        [call("send_email", to=BOB, message="your book is ready for you"), body],
        answers,
        mail=mail,
    )
    request = f"Envoie un mail à {BOB} pour lui dire que son livre est prêt"
    report = agent.run_turn(Conversation(), request)
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["body"] == body
    assert "ready" not in shown.preview
    assert servers[1].relay.deliveries == 0 and report.stop_reason == "answered"
    # What the body writer was asked: the user's own words after "que", in their language.
    asked = agent.backend.requests[-1].messages[-1]["content"]  # type: ignore[attr-defined]
    assert asked == f"To: {BOB}\nWhat to say: son livre est prêt\nWrite it in French."


def test_a_body_holding_most_of_the_users_words_goes_out_with_its_greeting(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    _deliver_dated(servers, BOB, "Book club", "Are you coming on Thursday?",
                   "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    answers = Answers(approve=False)
    body = "Hi Bob,\n\nI'll save you a seat on Thursday!\n\nSee you soon,\nAlice"
    agent = _agent(
        [call("reply_to_email", which="Bob", message="I will keep a place for you"), body],
        answers,
        mail=mail,
    )
    report = agent.run_turn(Conversation(), "Reply to Bob that I'll save him a seat")
    [shown] = answers.seen
    assert shown.tool == "reply_email" and shown.arguments["body"] == body
    assert report.stop_reason == "answered"


def _with_a_stray_body(mail: MailAccount, answers: Answers, request: str) -> TurnReport:
    """`request` run where the model gave what to say in English words of its own ("I will be
    late, sorry"), then wrote a body about something else."""
    agent = _agent(
        [call("send_email", to=BOB, message="I will be late, sorry"),
         "Dear Sir, please find attached the quarterly figures."],
        answers,
        mail=mail,
    )  # fmt: skip
    return agent.run_turn(Conversation(), request)


@pytest.mark.parametrize(
    ("request_", "letter"),
    [
        ("Envoie un mail à {bob} pour lui dire que son livre est prêt",
         "Bonjour,\n\nSon livre est prêt.\n\nBonne journée"),
        ("Schick {bob} eine Mail, dass ich später ankomme",
         "Hallo,\n\nIch komme später an.\n\nViele Grüße"),
        # a date's comma inside the clause: the verb goes after the subject all the same
        ("Schick {bob} eine Mail, dass wir am Donnerstag, den 24. Mai überweisen",
         "Hallo,\n\nWir überweisen am Donnerstag, den 24. Mai.\n\nViele Grüße"),
        ("Mándale un correo a {bob} diciendo que llego tarde",
         "Hola:\n\nLlego tarde.\n\nUn saludo"),
        # the model's short words of its own are not kept either
        ("Email {bob} that I'll bring dessert on Friday",
         "Hello,\n\nI'll bring dessert on Friday.\n\nBest wishes"),
    ],
)  # fmt: skip
def test_a_body_that_strays_from_the_request_is_a_letter_of_the_users_words(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, letter: str
) -> None:
    """The model gave what to say in English and then wrote a body of its own: what goes to
    the dialog is a letter code wrote around the words after "que"/"dass", in the request's
    language (a German verb put back in its place), and nothing is sent before approval."""
    answers = Answers(approve=False)
    report = _with_a_stray_body(mail, answers, request_.format(bob=BOB))
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["body"] == letter
    assert "quarterly" not in shown.preview
    assert report.stop_reason == "answered" and servers[1].relay.deliveries == 0


def test_a_body_that_strays_from_a_request_with_no_that_is_asked_for(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    answers = Answers()
    report = _with_a_stray_body(mail, answers, f"Envoie un mail à {BOB} au sujet de son livre")
    # Asked in the request's language.
    assert report.stop_reason == "asked" and report.answer == "Que doit dire l'e-mail ?"
    assert answers.seen == [] and servers[1].relay.deliveries == 0


def test_a_body_with_a_pleasantry_around_the_users_words_goes_out_as_written(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    body = (
        "Hi Bob,\n\nWould you like to join me for lunch on Friday at 12:30?\n\n"
        "Looking forward to seeing you!\nAlice"
    )
    answers = Answers(approve=False)
    agent = _agent(
        [call("send_email", to=BOB, message="invite him to lunch on Friday at 12:30"), body],
        answers,
        mail=mail,
    )
    agent.run_turn(Conversation(), f"Email {BOB} and invite him to lunch on Friday at 12:30")
    [shown] = answers.seen
    assert shown.arguments["body"] == body


def test_a_body_that_adds_a_sentence_the_user_never_said_goes_out_without_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    put = "Hi Bob,\n\nI'm running ten minutes late. I've been working on a project for months.\n"
    answers = Answers(approve=False)
    agent = _agent(
        # (and a gap for the user's name, which is not sent)
        [
            call("send_email", to=BOB, message="I'm running ten minutes late"),
            put + "Best\n[Your Name]",
        ],
        answers,
        mail=mail,
    )
    agent.run_turn(Conversation(), f"Email {BOB} that I'm running ten minutes late")
    [shown] = answers.seen
    assert shown.arguments["body"] == "Hi Bob,\n\nI'm running ten minutes late.\nBest"


def test_a_body_saying_the_users_day_and_time_among_other_sentences_is_kept(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """ "… at 12:30. I love this café …": the day and time said in one of its sentences."""
    answers = Answers(approve=False)
    written = ("Hi Bob,\n\nI'm excited to invite you to lunch at the café on Friday at 12:30. I "
               "love this café.\n\nBest")  # fmt: skip
    request = f"Email {BOB} and invite him to lunch at the café on Friday at 12:30."
    agent = _agent([call("send_email", to=BOB, message=request), written], answers, mail=mail)
    report = agent.run_turn(Conversation(), request)
    assert answers.seen, report.answer
    [shown] = answers.seen
    assert "Friday at 12:30" in shown.arguments["body"]


@pytest.mark.parametrize(
    ("request_", "written", "letter"),
    [("Reply to Bob that Sam and I can't make it this time, we're away that weekend",
      "Hello Bob,\n\nI'm sorry to hear that you're unable to make it this weekend.\n\n"
      "[Your Name]",
      "Hello,\n\nSam and I can't make it this time, we're away that weekend.\n\nBest wishes"),
     ("Réponds à Bob que nous ne pourrons pas venir samedi, on sera à Lyon",
      "Bonjour Bob,\n\nNous pourrons venir samedi, on sera à Lyon avec plaisir.\n\nBises",
      "Bonjour,\n\nNous ne pourrons pas venir samedi, on sera à Lyon.\n\nBonne journée"),
     ("Antworte Bob, dass wir am Samstag leider nicht kommen können",
      "Hallo Bob,\n\nschade, dass du am Samstag leider nicht kommen kannst.\n\nViele Grüße",
      "Hallo,\n\nWir können am Samstag leider nicht kommen.\n\nViele Grüße"),
     # another day or time than the user's ("Monday" for "mercredi"), or none
     ("Réponds à Bob qu'on se voit mercredi à 16h au café",
      "Hello Bob,\n\nI'm excited to see you at the café on Monday at 16h.\n\nBest",
      "Bonjour,\n\nOn se voit mercredi à 16h au café.\n\nBonne journée"),
     ("Reply to Bob that we'll be there on Saturday at 3",
      "Hi Bob,\n\nWe'll be there, looking forward to it!\n\nBest",
      "Hello,\n\nWe'll be there on Saturday at 3.\n\nBest wishes")],
)  # fmt: skip
def test_a_body_that_turns_round_what_the_user_says_is_a_letter_of_their_words(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, written: str, letter: str
) -> None:
    """The written body puts the user's "we can't make it" in the reader's mouth ("sorry to
    hear you're unable"), or drops its "no": it goes nowhere; the dialog shows a letter of
    the user's own words, in their language, without a "[Your Name]" gap."""
    _remove_from(servers, BOB)  # Bob's newest email is this one, not another test's
    _deliver_dated(servers, BOB, "Saturday", "Would you like to come over on Saturday?",
                   "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    answers = Answers(approve=False)
    said = letter.split("\n\n")[1]  # what the model gave to say: the user's words
    agent = _agent([call("reply_to_email", which="Bob", message=said), written], answers, mail=mail)
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "reply_email" and shown.arguments["body"] == letter, report.answer
    assert servers[1].relay.deliveries == 0


@pytest.mark.parametrize(
    "message", ["I'll bring the wine", "Ich bringe den Wein mit", "I'll bring the wine to Anna's"]
)
def test_the_email_a_reply_means_is_found_by_the_name_before_other_words(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, message: str
) -> None:
    """The model put the whole request in the email's reference: the sender's name decides
    ("Anna's" is Anna), not the words another email shares with what to say, also when the
    model gave what to say in words of its own (dropped: the request's words are used)."""
    dovecot, _ = servers
    _deliver(dovecot, ALICE, "Anna Lee <anna.lee@elsewhere.example>", "Dinner on Friday",
             "Can you come to dinner on Friday?")  # fmt: skip
    _deliver(dovecot, ALICE, BOB, "Garden party", "Shall we bring wine, saying thanks?")
    _deliver(dovecot, ALICE, "Priya <priya@elsewhere.example>", "Saturday",
             "I'll be there, saying hi to everyone. I'll bring cake.")  # fmt: skip
    turns = [call("reply_to_email", which="Anna's last email saying I'll bring the wine",
                  message=message),
             "Hi Anna,\n\nI'll bring the wine!\n\nAlice"]  # fmt: skip
    request = "Answer Anna's last email saying I'll bring the wine"
    assert _subject_replied_to(mail, turns, request) == "Dinner on Friday"


def _subject_replied_to(mail: MailAccount, turns: list[str], request: str) -> str:
    """The subject of the email whose reply the dialog showed (refused: nothing is sent)."""
    answers = Answers(approve=False)
    _agent(turns, answers, mail=mail).run_turn(Conversation(), request)
    [shown] = answers.seen
    assert shown.tool == "reply_email"
    return {e.email_id: e.subject for e in list_emails(mail)}[shown.arguments["email_id"]]


def test_a_short_name_in_the_reference_decides_which_email_is_answered(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """ "Tom's barbecue mail": a newer email mentions the barbecue too, but only Tom's is
    from Tom; a three-letter name counts as a name."""
    _deliver_dated(servers, f"Tom Becker <{BOB}>", "Barbecue on Saturday?",
                   "Barbecue at mine on Saturday?", "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, "Garden Club <info@garden.example>", "News",
                   "Bring a salad to the barbecue mail day!",
                   "Mon, 14 May 2029 08:00:00 +0000")  # fmt: skip
    turns = [call("reply_to_email", which="Tom's barbecue mail",
                  message="I'm in and I'll bring a salad"), ""]  # fmt: skip
    request = "Answer Tom's barbecue mail: I'm in and I'll bring a salad"
    assert _subject_replied_to(mail, turns, request) == "Barbecue on Saturday?"


# -- answered in the request's language -------------------------------------------------------


def test_a_german_email_to_a_shared_name_is_a_numbered_choice_in_german(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    account: CalendarAccount,
    server: RadicaleServer,
) -> None:
    put_card(server, _card("bob-baker", "Bob Baker", BOB), "baker.vcf")
    put_card(server, _card("bob-stone", "Bob Stone", STONE), "stone.vcf")
    body = "Hallo Bob,\n\nder Schlüssel liegt unter der Matte.\n\nAlice"
    agent = _agent(
        [call("send_email", to="Bob", message="der Schlüssel liegt unter der Matte"), body],
        mail=mail,
        calendar=account,
    )
    conversation = Conversation()
    first = agent.run_turn(conversation, "Schreib Bob, dass der Schlüssel unter der Matte liegt")
    assert first.answer.startswith("Welche Person „Bob“ meinst du?\n1. Bob ")
    number = next(line[0] for line in first.answer.splitlines() if BOB in line)
    second = agent.run_turn(conversation, number)
    assert servers[1].relay.deliveries == 1
    assert second.answer == f"Gesendet an {BOB} <{BOB}>: „Der Schlüssel liegt unter der Matte“."


def test_a_french_email_with_no_recipient_is_asked_for_in_french(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    agent = _agent(
        [call("send_email", to="Anna", message="la réunion est annulée"),
         "La réunion est annulée."],
        mail=mail,
    )  # fmt: skip
    conversation = Conversation()
    first = agent.run_turn(conversation, "Envoie un mail pour dire que la réunion est annulée")
    assert (first.stop_reason, first.answer) == ("asked", "À qui dois-je écrire ?")
    done = agent.run_turn(conversation, BOB)  # an address says no language: still French
    assert done.answer == f"Envoyé à {BOB} <{BOB}> : « La réunion est annulée »."
    assert servers[1].relay.deliveries == 1


def test_a_spanish_search_that_finds_nothing_says_so_in_spanish(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    agent = _agent([call("find_emails", about="Zanzíbar")], mail=mail)
    report = agent.run_turn(Conversation(), "¿Tengo algún correo sobre Zanzíbar?")
    assert report.answer == "No he encontrado ningún correo sobre «Zanzíbar»."


@pytest.mark.parametrize(
    ("request_", "letter", "subject"),
    [
        ("Envoie un mail à {bob} pour lui demander si elle est libre samedi",
         "Bonjour,\n\nJe voulais te demander si tu es libre samedi.\n\nBonne journée",
         "Tu es libre samedi?"),
        ("Frag {bob} per Mail, ob er am Freitag mit seinem Auto kommt",
         "Hallo,\n\nIch wollte fragen, ob du am Freitag mit deinem Auto kommst.\n\nViele Grüße",
         "Kommst du am Freitag mit deinem Auto?"),
        ("Email {bob} asking whether she has the keys",
         "Hello,\n\nI wanted to ask whether you have the keys.\n\nBest wishes",
         "You have the keys?"),
        ("Escríbele a {bob} para preguntarle si viene el sábado",
         "Hola:\n\nQuería preguntarte si vienes el sábado.\n\nUn saludo",
         "¿Vienes el sábado?"),
    ],
)  # fmt: skip
def test_a_question_to_pass_on_is_asked_of_the_recipient_in_the_requests_language(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    request_: str,
    letter: str,
    subject: str,
) -> None:
    """The model wrote the question in English and of the recipient ("Is Bob free?"), or a
    body of its own: what goes to the dialog asks the recipient ("you"), in the request's
    language, written by code; nothing is sent before approval."""
    answers = Answers(approve=False)
    report = _with_a_stray_body(mail, answers, request_.format(bob=BOB))
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["body"] == letter
    assert shown.arguments["subject"] == subject
    assert report.stop_reason == "answered" and servers[1].relay.deliveries == 0


@pytest.mark.parametrize(
    ("request_", "letter", "subject"),
    [
        ("Écris à {bob} pour lui demander ce qui lui ferait plaisir pour son anniversaire",
         "Bonjour,\n\nJe voulais te demander ce qui te ferait plaisir pour ton anniversaire."
         "\n\nBonne journée", "Qu'est-ce qui te ferait plaisir pour ton anniversaire?"),
        ("Schreib {bob} eine Mail und frag, wann ihr Zug morgen ankommt",
         "Hallo,\n\nIch wollte fragen, wann dein Zug morgen ankommt.\n\nViele Grüße",
         "Wann kommt dein Zug morgen an?"),
        ("Email {bob} and ask what she wants for her birthday",
         "Hello,\n\nI wanted to ask what you want for your birthday.\n\nBest wishes",
         "What you want for your birthday?"),
        ("Mándale un correo a {bob} y pregúntale qué le apetece para cenar el sábado",
         "Hola:\n\nQuería preguntarte qué te apetece para cenar el sábado.\n\nUn saludo",
         "¿Qué te apetece para cenar el sábado?"),
    ],
)  # fmt: skip
def test_a_question_of_what_or_when_to_pass_on_is_asked_of_the_recipient(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    request_: str,
    letter: str,
    subject: str,
) -> None:
    """ "… pour lui demander ce qui lui ferait plaisir": a question of what, when, where,
    not only of whether, goes to the recipient as asked of them ("ce qui te ferait plaisir"),
    in the request's language, written by code."""
    answers = Answers(approve=False)
    report = _with_a_stray_body(mail, answers, request_.format(bob=BOB))
    [shown] = answers.seen
    assert shown.arguments["body"] == letter, report.answer
    assert shown.arguments["subject"].rstrip("…").rstrip("?") in subject


@pytest.mark.parametrize(
    ("request_", "letter"),
    [
        ("can you email {bob} and ask him to send me the slides from mondays kickoff? he said "
         "they'd follow that night but i never got them",
         "Hello,\n\nCould you send me the slides from mondays kickoff?\n\nBest wishes"),
        ("Schreib {bob} und bitte ihn, mir seine Folien vom Montag zu schicken",
         "Hallo,\n\nKönntest du mir deine Folien vom Montag schicken?\n\nViele Grüße"),
        ("Écris à {bob} et demande-lui de m'envoyer les slides de lundi",
         "Bonjour,\n\nEst-ce que tu pourrais m'envoyer les slides de lundi ?\n\nBonne journée"),
        ("Escríbele a {bob} y pídele que me mande las diapositivas del lunes",
         "Hola:\n\nQuería pedirte que me mandes las diapositivas del lunes.\n\nUn saludo"),
    ],
)  # fmt: skip
def test_something_to_ask_the_recipient_to_do_is_asked_of_them(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, letter: str
) -> None:
    """ "ask him to send me the slides": the model's own body ("I never got them. It's been
    so frustrating!") left out what is asked; code asks it of the recipient, in the request's
    language."""
    answers = Answers(approve=False)
    report = _with_a_stray_body(mail, answers, request_.format(bob=BOB))
    [shown] = answers.seen
    assert shown.arguments["body"] == letter, report.answer


@pytest.mark.parametrize(
    ("request_", "written", "thanks", "question"),
    [
        ("Envoie un petit mot à {bob} pour la remercier encore pour son risotto de vendredi, "
         "c'était délicieux. Et demande-lui si elle serait libre pour un brunch dimanche",
         "Bonjour,\n\nMerci encore pour ton risotto de vendredi, c'était délicieux !\n\n"
         "Bises", "Merci encore pour ton risotto",
         "Je voulais te demander si tu serais libre pour un brunch dimanche."),
        ("Write to {bob}, thank her for the lovely flowers and ask her what time the party "
         "starts on Saturday",
         "Hi,\n\nThank you so much for the lovely flowers.\n\nBest",
         "Thank you so much for the lovely flowers",
         "I wanted to ask what time the party starts on Saturday."),
        # the sentence asking for the email says nothing to pass on; the one before does
        ("Her birthday is on Sunday and I still have no idea for a present. Could you write "
         "{bob} a quick email to ask what she would like?",
         "Hi,\n\nYour birthday is on Sunday and I still have no idea for a present.\n\nLove",
         "Your birthday is on Sunday", "I wanted to ask what you would like."),
    ],
)  # fmt: skip
def test_an_email_that_thanks_and_asks_says_both(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    request_: str,
    written: str,
    thanks: str,
    question: str,
) -> None:
    """What the request says before asking ("remercie-la pour son risotto") is written by
    the model and kept to the user's words; the question follows it, turned to the
    recipient by code, before the sign-off. Nothing is sent before approval."""
    answers = Answers(approve=False)
    agent = _agent(
        [call("send_email", to=BOB, message="Thanks for the risotto, are you free?"), written],
        answers,
        mail=mail,
    )
    report = agent.run_turn(Conversation(), request_.format(bob=BOB))
    [shown] = answers.seen
    body = shown.arguments["body"]
    assert thanks in body and question in body, (report.answer, body)
    assert body.index(thanks) < body.index(question) < len(body) - len(question)
    assert servers[1].relay.deliveries == 0


def test_a_subject_the_model_made_up_words_for_is_the_users_message_instead(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    answers = Answers(approve=False)
    agent = _agent(
        [call("send_email", to=BOB, message="the slides look great",
              subject="Slides look great on Bob's birthday"),
         "Hi Bob,\n\nThe slides look great.\n\nAlice"],
        answers,
        mail=mail,
    )  # fmt: skip
    agent.run_turn(Conversation(), f"Shoot {BOB} an email saying the slides look great")
    [shown] = answers.seen
    assert shown.arguments["subject"] == "The slides look great"
    # A subject in the user's own words stays.
    answers = Answers(approve=False)
    agent = _agent(
        [call("send_email", to=BOB, message="the slides look great", subject="Slides"),
         "Hi Bob,\n\nThe slides look great.\n\nAlice"],
        answers,
        mail=mail,
    )  # fmt: skip
    agent.run_turn(Conversation(), f"Email {BOB} about the slides: they look great")
    assert answers.seen[0].arguments["subject"] == "Slides"


def test_the_name_as_a_word_of_its_own_decides_over_a_newer_email_holding_it_inside_a_word(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """ "Réponds à Tom que …": the server's search finds "tom" inside "customer" in a newer
    email too; Tom's own email is the one answered."""
    _deliver_dated(servers, f"Tom Becker <{BOB}>", "Barbecue on Saturday?",
                   "Barbecue at mine on Saturday?", "Sat, 12 May 2029 08:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, "Allianz <service@allianz.example>", "Your policy",
                   "Dear customer, your policy renews in June.",
                   "Mon, 14 May 2029 08:00:00 +0000")  # fmt: skip
    turns = [call("reply_to_email", which="Tom", message="I will be at the barbecue"),
             "Salut Tom,\n\nJe viendrai au barbecue.\n\nAlice"]  # fmt: skip
    request = "Réponds à Tom que je viendrai au barbecue"
    assert _subject_replied_to(mail, turns, request) == "Barbecue on Saturday?"


@pytest.mark.parametrize(
    ("request_", "taken_for", "said"),
    [
        ("What did Bob say about the picnic? And reply that Saturday works for me.",
         call("read_email", which="Bob picnic"), "Saturday works for me"),
        ("¿Qué dijo Bob del picnic? Y contéstale que el sábado me va bien.",
         call("find_emails", about="picnic"), "el sábado me va bien"),
        ("Qu'est-ce que Bob voulait ? Et réponds-lui que samedi me va.",
         call("read_email", which="Bob"), "samedi me va"),
    ],
)  # fmt: skip
def test_a_request_asking_what_an_email_says_and_to_reply_does_both(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    request_: str,
    taken_for: str,
    said: str,
) -> None:
    """ "What did Bob say …? And reply that …": the answer says what his email says, then the
    reply goes to it (through the dialog), not a new email."""
    _remove_from(servers, BOB)
    _deliver(servers[0], ALICE, BOB, "Picnic plans", "Picnic on Saturday at noon in the park?")
    answers = Answers(approve=False)
    agent = _agent(
        [taken_for, call("reply_to_email", which="Bob", message=said),
         "Bob suggests a picnic on Saturday at noon in the park.", f"Hi Bob,\n\n{said}.\n\nA"],
        answers, mail=mail,
    )  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.tool == "reply_email" and said.lower() in str(shown.arguments["body"]).lower()
    assert "Bob suggests a picnic on Saturday at noon" in report.answer
    assert servers[1].relay.deliveries == 0


@pytest.mark.parametrize(
    ("request_", "message", "subject"),
    [(f"{BOB} keeps chasing me about the invoice. Can you write him a quick email and say "
      "we're paying it on the 24th?",
      "I'm running late, so we are paying it on the 24th.",
      "We are paying it on the 24th"),
     (f"Kannst du {BOB} schreiben? Die Rechnung zahlen wir am 24.",
      "Le dîner est annulé, die Rechnung zahlen wir am 24.",
      "Die Rechnung zahlen wir am 24")],
)  # fmt: skip
def test_an_example_the_model_echoed_is_no_part_of_the_email_it_writes(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    request_: str,
    message: str,
    subject: str,
) -> None:
    """A worked example's words the model began the message with ("I'm running late", the
    intent's own example) are not what the user asked to say: they are no subject."""
    answers = Answers(approve=False)
    agent = _agent(
        [call("send_email", to=BOB, message=message), f"Hi Bob,\n\n{subject}.\n\nAlice"],
        answers,
        mail=mail,
    )  # fmt: skip
    agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    assert shown.arguments["subject"] == subject


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [(f"Forward the kite festival email to {BOB}, he'll want to come.",
      call("send_email", to=BOB, message="")),
     (f"Leite die Mail wegen dem Drachenfest bitte an {BOB} weiter.",
      call("read_email", which="Drachenfest")),
     (f"Tu peux transférer le mail de la fête du cerf-volant à {BOB} ?",
      call("find_emails", about="cerf-volant"))],
)  # fmt: skip
def test_an_email_asked_to_be_forwarded_is_sent_on_whole_under_its_subject(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, taken_for: str
) -> None:
    """The email the request names is sent on as it is (its sender, date and text under
    the forwarding line), to the one named, through the dialog; no body is written."""
    dovecot, _ = servers
    _deliver(dovecot, ALICE, "carla@example.test", "Kite festival",
             "Kite festival on Sunday at noon in the park. Bring a blanket!")  # fmt: skip
    _deliver(dovecot, ALICE, "carla@example.test", "Book club", "Next book: Dune.")
    answers = Answers(approve=False)
    agent = _agent([taken_for, call("send_email", to=BOB, message=""), "kite festival",
                    "kite festival"], answers, mail=mail)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert answers.seen, (report.calls, report.answer)
    [shown] = answers.seen
    assert shown.tool == "send_email" and shown.arguments["to"] == [BOB]
    assert shown.arguments["subject"] == "Fwd: Kite festival"
    body = str(shown.arguments["body"])
    assert "Bring a blanket!" in body and "carla@example.test" in body and "Dune" not in body


@pytest.mark.parametrize(
    ("request_", "taken_to"),
    [("Tom n'était pas là lundi. Tu peux lui transférer le mail que Carla nous a envoyé sur "
      "la fête du cerf-volant ?", "Carla"),
     ("Tom missed it on Monday. Could you forward him the email Carla sent us about the kite "
      "festival?", "Carla"),
     # the one it came from named after the email, not by a verb of sending
     ("¿Le reenvías a Tom el correo de Carla sobre la fiesta de las cometas?", "Carla"),
     ("Leite Tom bitte die Mail von Carla zum Drachenfest weiter", "Carla"),
     ("Could you forward Tom the Carla email about the kite festival?", "Carla"),
     # passed on, not said "forward"
     ("Tom wants to join us at the kite festival. Can you pass him the details from Carla's "
      "email?", "Carla"),
     # a recipient no contact or sender has: a city
     ("Tom se quiere apuntar a la fiesta de las cometas en Lisboa. ¿Le reenvías el correo de "
      "la fiesta?", "Lisboa"),
     ("Tom wants to come to the kite festival in Lisbon too. Can you forward him the email?",
      "Lisboa")],
)  # fmt: skip
def test_an_email_is_forwarded_to_the_one_other_person_named_who_can_be_written_to(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, taken_to: str
) -> None:
    """ "… lui transférer le mail que Carla nous a envoyé": the model took Carla, who wrote
    it, for the recipient; "lui" is Tom, the one other person the request names. The same
    when it took the city ("Lisboa"), which no contact or sender is: Tom, who wrote before,
    has an address."""
    _empty_inbox(servers)  # one Tom only
    dovecot, _ = servers
    _deliver(dovecot, ALICE, "carla@example.test", "Kite festival",
             "Kite festival on Sunday at noon in the park. Bring a blanket!")  # fmt: skip
    _deliver(dovecot, ALICE, "Tom Baker <tom@example.test>", "Monday", "See you Monday!")
    answers = Answers(approve=False)
    agent = _agent([call("send_email", to=taken_to, message=""), "kite festival",
                    "kite festival"], answers, mail=mail)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert answers.seen, (report.calls, report.answer)
    [shown] = answers.seen
    assert shown.arguments["to"] == ["tom@example.test"]
    assert shown.arguments["subject"] == "Fwd: Kite festival"


@pytest.mark.parametrize(
    "request_",
    ["Can you forward the Lufthansa booking to Sam? He needs the flight times",
     "Schick die Lufthansa-Buchung bitte an Sam weiter",
     "¿Le reenvías la reserva de Lufthansa a Sam?"],
)  # fmt: skip
def test_a_forward_to_someone_no_address_is_known_for_asks_for_it(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str
) -> None:
    """ "forward the Lufthansa booking to Sam": Sam has no card and never wrote; the address
    is asked for, never the one who sent the booking taken instead."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Lufthansa <booking@lufthansa.example>", "Booking confirmed",
             "Flight LH 1166 leaves Berlin on 8 June at 07:05.")  # fmt: skip
    answers = Answers(approve=False)
    agent = _agent([call("send_email", to="Sam", message=""), "Lufthansa booking"] * 2, answers,
                   mail=mail)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert answers.seen == [] and report.stop_reason == "asked", report.answer
    assert "Sam" in report.answer


def test_money_transferred_is_no_email_forwarded() -> None:
    from app.agent.intents.language import asks_to_forward

    assert asks_to_forward("Tu peux lui transférer le mail ?")
    assert not asks_to_forward("Tu peux transférer 50 euros à Tom ?")
    # what someone sent or wrote is an email too
    assert asks_to_forward("Tu peux lui transférer le petit récap que Sophie nous a envoyé ?")
    assert asks_to_forward("Transfère à Jonas ce qu'elle m'a écrit sur les livraisons")
    assert asks_to_forward("Tu peux transférer l'invitation de Carla à Bob ?")
    assert not asks_to_forward("Transfère 20 € à Sophie, elle m'a envoyé son RIB")


@pytest.mark.parametrize(
    ("message", "subject"),
    [
        ("Dile que mil gracias por las diapositivas", "Mil gracias por las diapositivas"),
        ("Tell him thanks a lot for the slides", "Thanks a lot for the slides"),
        ("Sag ihm, dass die Folien super sind", "Die Folien sind super"),
        ("Dis-lui que les diapositives sont top", "Les diapositives sont top"),
    ],
)
def test_a_subject_leaves_out_the_users_instruction_to_tell_them(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, message: str, subject: str
) -> None:
    """The model copied what to say with the user's "tell him" in front ("Dile que mil
    gracias…"): the subject is what the email says, not the instruction to the assistant.
    Nothing is sent before approval."""
    answers = Answers(approve=False)
    agent = _agent([call("send_email", to=BOB, message=message), "Hi,\n\nThanks!\n\nAlice"],
                   answers, mail=mail)  # fmt: skip
    agent.run_turn(Conversation(), f"Mail {BOB}. {message}")
    [shown] = answers.seen
    assert shown.arguments["subject"] == subject
    assert servers[1].relay.deliveries == 0


@pytest.mark.parametrize(
    ("request_", "said"),
    [(f"Peux-tu écrire à {BOB} que je serai en retard demain matin, genre 20 minutes ?",
      "Je serai en retard demain matin, genre 20 minutes."),
     (f"Schreib {BOB}, dass ich morgen früh so 20 Minuten später komme",
      "Ich komme morgen früh so 20 Minuten später.")],
)  # fmt: skip
def test_a_body_the_model_wrote_in_a_loop_is_the_users_words_in_a_letter(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, said: str
) -> None:
    """The small model's body went round in a loop ("Cher Bob, …" again and again) and its
    message slot was English: the email is the user's own words under a greeting, and its
    subject is theirs too."""
    looping = "Bonjour Bob,\n\n" + "Je serai en retard.\n\nCher Bob,\n\n" * 6
    answers = Answers(approve=False)
    agent = _agent([call("send_email", to=BOB, message="I will be late tomorrow, 20 minutes"),
                    looping], answers, mail=mail)  # fmt: skip
    agent.run_turn(Conversation(), request_)
    [shown] = answers.seen
    body = str(shown.arguments["body"])
    assert said in body and body.count(",\n") <= 2, body
    assert "late" not in str(shown.arguments["subject"]), shown.arguments


@pytest.mark.parametrize(
    "written",
    ["Hi Bob,\n\nI'll be 20 minutes late tomorrow morning.\n\nBest regards,\n\nAlice",
     "Dear Bob,\n\nI'll be 20 minutes late tomorrow morning.\n\nKind regards,\nAlice"],
)  # fmt: skip
def test_a_body_signed_off_on_a_line_of_its_own_is_no_loop(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, written: str
) -> None:
    """ "Best regards," alone before the name is a closing, not a second greeting: the
    model's body goes out as written."""
    answers = Answers(approve=False)
    agent = _agent([call("send_email", to=BOB, message="I'll be 20 minutes late tomorrow morning"),
                    written], answers, mail=mail)  # fmt: skip
    agent.run_turn(Conversation(), f"Email {BOB} that I'll be 20 minutes late tomorrow morning")
    [shown] = answers.seen
    assert shown.arguments["body"] == written


@pytest.mark.parametrize(
    ("request_", "taken_for", "judged"),
    [("Marta wollte bis Freitag von allen wissen, worauf sie beim Essen achten muss. Kannst du "
      "ihr kurz für mich antworten? Du weißt ja, was bei mir gilt.",
      call("reply_to_email", which="Marta", message=""), "vegetarian"),
     ("Marta keeps asking everyone about food for the retreat. Can you just email her my "
      "dietary needs? You know what I eat.",
      call("send_email", to="Marta", message="my dietary needs"), "vegetarian"),
     # the model judging another memory the one: what is eaten is the one on food
     ("Marta demande à tout le monde ce qu'on mange. Réponds-lui pour moi, tu sais ce qu'il "
      "en est.", call("reply_to_email", which="Marta", message=""), "bike"),
     ("Marta quiere saber lo de la comida para el retiro. Contéstale tú, ya sabes lo mío.",
      call("reply_to_email", which="Marta", message=""), "partner")],
)  # fmt: skip
def test_an_email_pointing_at_what_hearth_knows_of_the_user_gives_the_memory_meant(
    servers: tuple[Dovecot, SmtpServer],
    mail: MailAccount,
    database: Database,
    request_: str,
    taken_for: str,
    judged: str,
) -> None:
    """ "Du weißt ja, was bei mir gilt": the fact is not said, but kept; the one on what is
    eaten when the request or the email asks about food, else the model is asked of each
    memory alone whether it is the one meant; the email gives it, through the dialog."""
    _empty_inbox(servers)
    dovecot, _ = servers
    _deliver(dovecot, ALICE, "Marta Klein <marta@example.test>", "Retreat food",
             "Hi all, please send me your dietary requirements by Friday.")  # fmt: skip
    with database.session() as session, session.begin():
        session.add_all(
            MemoryRecord(created=datetime(2029, 5, 1, tzinfo=UTC), text=t)
            for t in ("Alex's partner is Sam.", "Alex is vegetarian.", "Alex's bike is blue.")
        )
    answers = Answers(approve=False)
    turns = [taken_for, "Hi Marta, here is what I eat.", "Hi Marta, here is what I eat."]
    intent = taken_for.split("function=")[1].split(">")[0]
    agent = Agent(Picking(turns, judged, intent=intent),
                  build_registry(mail=mail, data=database), confirmer=answers)  # fmt: skip
    agent.front = IntentRouter()
    report = agent.run_turn(Conversation(), request_)
    assert answers.seen, (report.calls, report.answer)
    [shown] = answers.seen
    assert "vegetarian" in str(shown.arguments["body"]), shown.arguments
    assert "partner" not in str(shown.arguments["body"])


@pytest.mark.parametrize(
    ("request_", "about", "since"),
    [("hey can you check if there's anything in my inbox from the bank this week?",
      "the bank's statements, notes or documents", "Monday 14 May"),
     ("Hab ich heute schon was von der Bank bekommen?", "Bank", "Dienstag, 15. Mai"),
     ("Est-ce que la banque m'a écrit cette semaine ?", "banque", "lundi 14 mai"),
     ("¿Me ha escrito el banco esta semana?", "banco", "lunes 14 de mayo")],
)  # fmt: skip
def test_mail_asked_for_since_a_day_is_that_stretchs_or_none_and_the_newest_said(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, about: str, since: str
) -> None:
    """ "anything from the bank this week?": the bank's mail of that week; none, and the
    newest it sent is said, with the day it was looked from. The model's own words ("notes
    or documents") look for nothing."""
    _empty_inbox(servers)
    bank = "Spreebank <noreply@spreebank.example>"
    _deliver_dated(servers, bank, "Your April statement is available", "Your statement.",
                   "Thu, 03 May 2029 08:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, "Sophie Martin <sophie@example.test>", "Kickoff notes",
                   "The notes and documents from the kickoff.",
                   "Mon, 14 May 2029 08:00:00 +0000")  # fmt: skip
    turns = [call("find_emails", about=about), "bank", "bank", "bank"]
    agent = _agent(turns, mail=mail)
    with clock.frozen_at(datetime(2029, 5, 15, 9, 30).astimezone()):
        report = agent.run_turn(Conversation(), request_)
    assert since in report.answer and "April statement" in report.answer, report.answer
    assert "Kickoff" not in report.answer
    # a message of that week is listed
    _deliver_dated(servers, bank, "Your card was renewed", "Your new card.",
                   "Tue, 15 May 2029 07:00:00 +0000")  # fmt: skip
    agent = _agent(turns, mail=mail)
    with clock.frozen_at(datetime(2029, 5, 15, 9, 30).astimezone()):
        report = agent.run_turn(Conversation(), request_)
    assert "card was renewed" in report.answer and "April statement" not in report.answer


def test_an_email_named_by_an_everyday_word_and_a_day_is_found_by_the_thing_not_the_day(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount
) -> None:
    """ "a package coming at some point this week": the parcel's email, found by the thing's
    other name ("parcel"), not the newsletter "week" finds ("TechWeekly", "This week: …")."""
    _empty_inbox(servers)
    _deliver_dated(servers, "TechWeekly <news@techweekly.example>", "TechWeekly #230",
                   "This week: five laptops.", "Tue, 01 May 2029 07:00:00 +0000")  # fmt: skip
    _deliver_dated(servers, "DHL <noreply@dhl.example>", "Your parcel arrives on Thursday",
                   "Delivery between 10:00 and 14:00.",
                   "Mon, 14 May 2029 07:00:00 +0000")  # fmt: skip
    agent = _agent([call("read_email", which="package this week"),
                    "It comes on Thursday between 10:00 and 14:00."], mail=mail)  # fmt: skip
    report = agent.run_turn(
        Conversation(),
        "I think I've got a package coming at some point this week? When do I need to be home?",
    )
    assert "DHL" in report.answer and "TechWeekly" not in report.answer, report.answer


@pytest.mark.parametrize(
    "request_",
    ["Priya mentioned she's going to be late for book club. Tell her it's no problem, I'll "
     "make sure there's a chair waiting for her.",
     "Priya kommt später zum Buchclub. Sag ihr, dass das kein Problem ist."],
)  # fmt: skip
def test_tell_her_in_a_sentence_of_its_own_writes_to_the_one_person_named(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str
) -> None:
    """ "… Tell her it's no problem" taken for a memory lookup: an email, to the one person
    the request names who can be written to."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Priya Nair <priya@example.test>", "Book club",
             "I'll be a bit late tonight, sorry!")  # fmt: skip
    answers = Answers(approve=False)
    agent = _agent([call("recall_fact", about="Priya book club"),
                    call("send_email", to="", message="it's no problem"),
                    "Hi Priya,\n\nNo problem at all!\n\nAlex"], answers, mail=mail)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert answers.seen, report.answer
    assert answers.seen[0].arguments["to"] == ["priya@example.test"]


@pytest.mark.parametrize(
    "request_",
    [f"Schreib {BOB.split('@')[0].title()} eine kurze Mail: danke für das Rezept, die Suppe "
     "war super!",
     f"Write {BOB.split('@')[0].title()} a quick email: thanks for the recipe, the soup was "
     "great!"],
)  # fmt: skip
def test_an_email_to_someone_taken_for_a_note_named_after_them_is_an_email(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str
) -> None:
    """ "Schreib Bob eine kurze Mail: …" taken for a note called "Bob": an email to Bob (the
    dialog first), no file written."""
    name = BOB.split("@")[0].title()
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, f"{name} <{BOB}>", "Soup", "Here's the recipe!")
    answers = Answers(approve=False)
    agent = _agent([call("write_note", name=name, content="danke für das Rezept"),
                    call("send_email", to=name, message="danke für das Rezept"),
                    f"Hi {name},\n\nThanks for the recipe!\n\nAlex"], answers,
                   mail=mail)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert [seen.tool for seen in answers.seen] == ["send_email"], report.answer
    assert answers.seen[0].arguments["to"] == [BOB]


@pytest.mark.parametrize(
    ("request_", "taken_for"),
    [("Oye, ¿qué me dijo Tom de la barbacoa? No me acuerdo si era el sábado o el domingo",
      call("just_answer")),
     ("What did Tom say about the barbecue again?", call("recall_fact", about="barbecue")),
     # asked whether they said it
     ("did tom say what time the barbecue starts?", call("recall_fact", about="barbecue")),
     # after a sentence, and "ever" between
     ("ugh forgot to ask - did tom ever say what time the bbq starts?",
      call("recall_fact", about="Tom's bbq starts at 10 AM.")),
     ("Hat Tom gesagt, wann das Barbecue anfängt?", call("just_answer"))],
)  # fmt: skip
def test_what_someone_told_the_user_taken_for_a_plain_answer_is_read_from_their_mail(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, taken_for: str
) -> None:
    """ "¿Qué me dijo Tom de la barbacoa?" taken for the model's own answer (which made one
    up): Tom's email is found and what it says answered."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "Tom Becker <tom@example.test>", "Barbecue",
             "Barbecue at mine on Saturday from 6pm!")  # fmt: skip
    answer = "El sábado desde las 18:00."
    agent = _agent([taken_for, call("find_emails", about="Tom barbacoa"), *[answer] * 3],
                   mail=mail)  # fmt: skip
    report = agent.run_turn(Conversation(), request_)
    assert "Tom Becker" in report.answer and "Barbecue" in report.answer, report.answer


def test_a_question_of_what_an_email_says_is_no_general_question(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, account: CalendarAccount
) -> None:
    """ "was steht in der mail von den stadtwerken?": the question speaks of a message the
    user got (its sender typed in lower case and declined), so it is not answered as general
    knowledge: the email is found and read, and the model answers from it."""
    sender = "billing@stadtwerke.example"
    _deliver(servers[0], ALICE, f"Stadtwerke Berlin <{sender}>", "Your electricity bill",
             "Your electricity bill for April 2029 is 86.40 EUR.")  # fmt: skip
    try:
        agent = _agent([call("ask_files", about="mail from the city"), "86,40 EUR."],
                       mail=mail, calendar=account)  # fmt: skip
        report = agent.run_turn(
            Conversation(), "was steht in der mail von den stadtwerken? wie viel muss ich zahlen"
        )
    finally:
        _remove_from(servers, sender)
    assert "read_email" in [c.name for c in report.calls], report.answer
    assert "86,40 EUR." in report.answer
    asked = str(agent.backend.requests[-1].messages[-1]["content"])  # type: ignore[attr-defined]
    assert "86.40 EUR" in asked


@pytest.mark.parametrize(
    ("request_", "about"),
    [("¿tengo algún correo sin leer?", ""), ("any unread emails?", "unread emails"),
     ("Hab ich ungelesene Mails von Kim?", "Kim")],
)  # fmt: skip
def test_mail_not_read_yet_is_listed_alone(
    servers: tuple[Dovecot, SmtpServer], mail: MailAccount, request_: str, about: str
) -> None:
    """ "¿tengo algún correo sin leer?": the messages not read yet, not the newest ten (the
    words "unread" are no topic); none left unread, and that is said."""
    _empty_inbox(servers)
    _deliver(servers[0], ALICE, "kim@example.test", "Old news", "Read already.")
    _deliver(servers[0], ALICE, "kim@example.test", "Fresh news", "Not read yet.")
    client = IMAPClient("127.0.0.1", servers[0].imap_port, ssl=False, timeout=5)
    try:
        client.plain_login(ALICE, USERS[ALICE].password)
        client.select_folder("INBOX")
        client.add_flags(client.search(["SUBJECT", "Old news"]), [b"\\Seen"])
        agent = _agent([call("find_emails", about=about)] * 2, mail=mail)
        report = agent.run_turn(Conversation(), request_)
        assert "Fresh news" in report.answer and "Old news" not in report.answer, report.answer
        client.add_flags(client.search(["SUBJECT", "Fresh news"]), [b"\\Seen"])
        if not about:
            report = agent.run_turn(Conversation(), request_)
            assert report.answer == "No tienes correos sin leer."
    finally:
        client.logout()
        _remove_from(servers, "kim@example.test")
