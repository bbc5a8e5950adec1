"""Dialog previews are rendered from the exact arguments."""

from __future__ import annotations

from app.agent.tools.previews import email_preview, event_preview


def test_email_preview_shows_every_recipient_and_the_whole_body() -> None:
    body = "Hello,\n\nthe full body, with ünïcode and a link https://x.example/?a=1\n-- \nMe"
    text = email_preview(
        {
            "to": ["ann@example.org", "evil@attacker.example"],
            "cc": ["bob@example.org"],
            "subject": "Notes",
            "body": body,
        },
        untyped=["evil@attacker.example"],
    )
    assert text.splitlines()[0] == "To: ann@example.org, evil@attacker.example  ⚠ not typed by you"
    assert "Cc: bob@example.org" in text
    assert "Subject: Notes" in text
    assert text.endswith(body)


def test_event_preview_names_invitees() -> None:
    text = event_preview(
        {
            "title": "Dentist",
            "start": "2026-12-01T15:00",
            "end": "2026-12-01T16:00",
            "attendees": ["ann@example.org"],
        }
    )
    assert "Create event: Dentist" in text
    assert "2026-12-01T15:00 → 2026-12-01T16:00" in text
    assert "Invitations will be sent to: ann@example.org" in text


def test_an_event_of_two_plain_dates_is_shown_all_day() -> None:
    text = event_preview({"title": "Offsite", "start": "2026-12-10", "end": "2026-12-11"})
    assert "When: 2026-12-10 → 2026-12-11 (all day)" in text
    timed = event_preview({"title": "Call", "start": "2026-12-10T09:00", "end": "2026-12-10T10:00"})
    assert "(all day)" not in timed
