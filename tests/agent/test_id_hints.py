"""A name where an id belongs ("reply to Priya": email_id "Priya") gets a repair hint naming
the matching items with their ids, before anyone is asked (app.agent.tools.id_hints).

End to end on real Radicale and Dovecot servers, with the scripted model, the real registry,
gate and confirmations.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.agent.tools.id_hints import matching_events, not_an_id_hint, search_words
from app.agent.tools.toolbox import build_registry
from app.agent.turn.chat import Conversation
from app.agent.turn.confirm import ConfirmationAnswer, ConfirmationRequest
from app.agent.turn.loop import Agent
from connectors.calendar import CalendarAccount, create_event, list_events, parse_when
from connectors.mail import list_emails
from tests.agent.test_calendar_agent import TZ, account, server  # noqa: F401 (fixtures)
from tests.agent.test_mail_agent import ALICE, _account, _deliver, servers  # noqa: F401
from tests.scripting import call, script


class Recorder:
    """A confirmer that approves and remembers what it was shown."""

    def __init__(self) -> None:
        self.shown: list[ConfirmationRequest] = []

    def __call__(self, request: ConfirmationRequest) -> ConfirmationAnswer:
        self.shown.append(request)
        return ConfirmationAnswer.approve()


def test_the_words_that_pick_an_item_out() -> None:
    assert search_words("the email from Priya") == ["priya"]
    assert search_words("Dentist appointment (Dr. Weber)") == ["dentist", "weber"]
    assert search_words("my meeting") == []


def test_the_best_matching_titles_win() -> None:
    class E:
        def __init__(self, title: str) -> None:
            self.event_id, self.title, self.start = f"cal/{title}", title, datetime(2029, 5, 15)

    events = [E("Dentist (Dr. Weber)"), E("Dentist cleaning"), E("Piano")]
    assert [c["title"] for c in matching_events("Dr. Weber dentist", events)] == [
        "Dentist (Dr. Weber)"
    ]
    assert len(matching_events("dentist", events)) == 2
    assert matching_events("yoga", events) == []
    hint = not_an_id_hint("update_event", "event_id", "dentist", matching_events("piano", events))
    assert hint.splitlines() == [
        "'dentist' is not an event_id. These match it:",
        "- cal/Piano (title Piano, start 2029-05-15T00:00)",
        "Call update_event again with event_id cal/Piano",  # one match: the value to copy
    ]
    two = not_an_id_hint("update_event", "event_id", "dentist", matching_events("dentist", events))
    assert two.splitlines()[1].startswith("- cal/Dentist (Dr. Weber) (title ")
    assert two.splitlines()[-1] == "Call update_event again with the event_id of the one meant."


def test_names_match_with_or_without_their_accents() -> None:
    """Issue #39: "lunch with Zoe" finds "Lunch with Zoë Müller", and the other way round."""

    class E:
        def __init__(self, title: str) -> None:
            self.event_id, self.title, self.start = f"cal/{title}", title, datetime(2029, 5, 15)

    events = [E("Lunch with Zoë Müller"), E("Call José Álvarez"), E("Lunch with Sam")]
    assert [c["title"] for c in matching_events("Zoe Muller lunch", events)] == [
        "Lunch with Zoë Müller"
    ]
    assert [c["title"] for c in matching_events("jose alvarez", events)] == ["Call José Álvarez"]
    plain = [E("Call Jose Alvarez")]
    assert [c["title"] for c in matching_events("José", plain)] == ["Call Jose Alvarez"]
    assert search_words("the mail from Zoë") == ["zoë"]  # the server is asked as written


def test_an_event_title_as_id_gets_the_ids_and_the_next_call_works(
    account: CalendarAccount,  # noqa: F811
) -> None:
    start = (datetime.now(TZ) + timedelta(days=2)).replace(
        hour=14, minute=0, second=0, microsecond=0
    )
    create_event(account, "Dentist (Dr. Weber)", start, start + timedelta(hours=1), tz=TZ)
    create_event(account, "Piano lesson", start + timedelta(hours=4), start + timedelta(hours=5))
    [dentist] = [e for e in _upcoming(account) if e.title.startswith("Dentist")]
    moved = start + timedelta(days=1)
    when = f"{moved:%Y-%m-%dT%H:%M}"
    until = f"{moved + timedelta(hours=1):%Y-%m-%dT%H:%M}"
    confirmer = Recorder()
    agent = Agent(
        script(
            call("update_event", event_id="dentist", start=when, end=until),
            call("update_event", event_id=dentist.event_id, start=when, end=until),
            "Moved.",
        ),
        build_registry(calendar=account),
        confirmer=confirmer,
    )
    report = agent.run_turn(Conversation(), "Move the dentist to the next day")
    first, second = report.calls
    assert first.status == "error" and first.answer is None
    assert dentist.event_id in first.result and "Piano" not in first.result
    assert second.status == "ok", second.result
    # The model's times are local times (parse_when), as every calendar tool reads them.
    [new_start] = [e.start for e in _upcoming(account) if e.title.startswith("Dentist")]
    assert new_start == parse_when(when)
    # The hint quotes event titles, which others write: the conversation is tainted by it.
    assert any("calendar" in source for source in agent.context.untrusted_sources)


def test_a_name_as_email_id_asks_nobody_and_names_the_emails(servers) -> None:  # noqa: F811
    dovecot, _ = servers
    _deliver(dovecot, ALICE, "Priya <priya@example.test>", "Book club seats", "Save me one?")
    alice = _account(servers, ALICE)
    [email] = [m for m in list_emails(alice, "INBOX", limit=50) if m.subject == "Book club seats"]
    confirmer = Recorder()
    agent = Agent(
        script(call("reply_email", email_id="Priya", body="Yes, I will."), "Which one?"),
        build_registry(mail=alice),
        confirmer=confirmer,
    )
    report = agent.run_turn(Conversation(), "Reply to Priya that I will")
    [record] = report.calls
    assert confirmer.shown == []  # a reply that cannot be sent is not put to the user
    assert record.status == "error" and email.email_id in record.result
    assert "Book club seats" in record.result


def test_an_id_copied_with_its_description_is_pointed_out(servers) -> None:  # noqa: F811
    # Its own email: the servers are shared by the module, and in another test order (or on
    # another xdist worker) nothing else has delivered one yet.
    dovecot, _ = servers
    _deliver(dovecot, ALICE, "Tom <tom@example.test>", "Boat trip", "Are you in?")
    alice = _account(servers, ALICE)
    [email] = [m for m in list_emails(alice, "INBOX", limit=50) if m.subject == "Boat trip"]
    copied = f"{email.email_id}, from: {email.sender}, subject: {email.subject}"
    confirmer = Recorder()
    agent = Agent(
        script(call("reply_email", email_id=copied, body="Yes."), "Sorry."),
        build_registry(mail=alice),
        confirmer=confirmer,
    )
    [record] = agent.run_turn(Conversation(), "Reply yes").calls
    assert confirmer.shown == []
    assert record.result == (
        f"Use the email_id alone: call reply_email again with email_id {email.email_id}"
    )


def test_without_hints_the_same_call_is_put_to_the_user(servers) -> None:  # noqa: F811
    alice = _account(servers, ALICE)
    confirmer = Recorder()
    agent = Agent(
        script(call("reply_email", email_id="Priya", body="Yes."), "Sorry."),
        build_registry(mail=alice),
        confirmer=confirmer,
    )
    agent.id_hints = False
    [record] = agent.run_turn(Conversation(), "Reply to Priya").calls
    assert len(confirmer.shown) == 1
    assert record.status == "error" and "is not an email id" in record.result


def _upcoming(calendar: CalendarAccount) -> list:
    now = datetime.now(TZ)
    return list_events(calendar, now, now + timedelta(days=10), tz=TZ)
