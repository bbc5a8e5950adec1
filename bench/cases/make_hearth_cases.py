"""Write bench/cases/hearth_tools.jsonl: eval cases for Hearth's own tools.

The tool schemas come from app.agent.tools.toolbox.SPECS at generation time, so re-running this
after a schema change keeps the cases in step with what the model really sees. Every case
offers the whole tool set, as the app does, and fixes "now" so relative dates have one answer.

    python bench/cases/make_hearth_cases.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.agent.tools.toolbox import SPECS  # noqa: E402

NOW = "2026-05-13T09:30:00"  # a Wednesday
TIMEZONE = "Europe/Paris"
OUT = Path(__file__).with_name("hearth_tools.jsonl")

OPTIONAL = ""  # in an accepted-values list: the argument may be left out


def call(name: str, **arguments: list[Any]) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


TOMORROW_START = ["2026-05-14T00:00:00"]
TOMORROW_END = ["2026-05-14T23:59:00", "2026-05-14T23:59:59", "2026-05-15T00:00:00"]
TODAY_START = ["2026-05-13T00:00:00", NOW]
TODAY_END = ["2026-05-13T23:59:00", "2026-05-13T23:59:59", "2026-05-14T00:00:00"]

# (id, category, user message, expected calls)
CASES: list[tuple[str, str, str, list[dict[str, Any]]]] = [
    # -- one call, few arguments -------------------------------------------------------------
    (
        "calendar_tomorrow",
        "simple",
        "What's on my calendar tomorrow?",
        [call("list_events", start=TOMORROW_START, end=TOMORROW_END, calendar=[OPTIONAL])],
    ),
    (
        "web_louvre",
        "simple",
        "Search the web for the opening hours of the Louvre.",
        [
            call(
                "web_search",
                query=[
                    "opening hours of the Louvre",
                    "Louvre opening hours",
                    "the opening hours of the Louvre",
                    "Louvre hours",
                ],
                max_results=[OPTIONAL],
            )
        ],
    ),
    (
        "web_read_page",
        "simple",
        "Read the page https://example.com/menu for me.",
        [call("read_webpage", url=["https://example.com/menu"])],
    ),
    (
        "memory_remember",
        "simple",
        "Remember that my dentist is Dr. Martin.",
        [
            call(
                "remember",
                fact=["my dentist is Dr. Martin", "dentist is Dr. Martin", "Dentist: Dr. Martin"],
            )
        ],
    ),
    (
        "memory_recall",
        "simple",
        "What do you remember about my dentist?",
        [call("recall", query=["dentist", "my dentist"])],
    ),
    ("memory_forget", "simple", "Forget memory number 12.", [call("forget", memory_id=[12])]),
    (
        "mail_unread",
        "simple",
        "Show me my unread emails.",
        [call("list_emails", unread_only=[True], folder=["inbox", OPTIONAL], limit=[OPTIONAL])],
    ),
    (
        "mail_read",
        "simple",
        "Open the email with id msg-4821.",
        [call("read_email", email_id=["msg-4821"])],
    ),
    (
        "files_list",
        "simple",
        "List the files in my Documents folder.",
        [call("list_folder", path=["Documents", "~/Documents", "/Documents"])],
    ),
    (
        "files_read",
        "simple",
        "Read notes/todo.md to me.",
        [call("read_file", path=["notes/todo.md"])],
    ),
    (
        "calendar_delete",
        "simple",
        "Delete the calendar event with id evt-77.",
        [call("delete_event", event_id=["evt-77"])],
    ),
    (
        "files_search",
        "simple",
        "Find my files about the 2025 tax return.",
        [
            call(
                "search_files",
                query=["2025 tax return", "tax return 2025", "tax return"],
                folder=[OPTIONAL],
            )
        ],
    ),
    # -- one call, several arguments ---------------------------------------------------------
    (
        "calendar_create",
        "multi_arg",
        "Add 'Dentist' to my calendar tomorrow at 3pm for one hour, at 12 Rue de Rivoli.",
        [
            call(
                "create_event",
                title=["Dentist"],
                start=["2026-05-14T15:00:00"],
                end=["2026-05-14T16:00:00"],
                location=["12 Rue de Rivoli"],
                description=[OPTIONAL],
                attendees=[OPTIONAL],
            )
        ],
    ),
    (
        "mail_send",
        "multi_arg",
        "Email bob@example.com with the subject 'Lunch' and the text "
        "'Are you free at noon on Friday?'",
        [
            call(
                "send_email",
                to=[["bob@example.com"]],
                subject=["Lunch"],
                body=["Are you free at noon on Friday?"],
                cc=[OPTIONAL],
            )
        ],
    ),
    (
        "calendar_free_slot",
        "multi_arg",
        "Find me a free 30-minute slot on Friday between 9am and 5pm.",
        [
            call(
                "find_free_time",
                start=["2026-05-15T09:00:00"],
                end=["2026-05-15T17:00:00"],
                duration_minutes=[30],
            )
        ],
    ),
    (
        "files_write",
        "multi_arg",
        "Save a file called shopping.txt with the text 'milk, eggs, bread'.",
        [
            call(
                "write_file",
                path=["shopping.txt"],
                content=["milk, eggs, bread"],
                overwrite=[OPTIONAL, False],
            )
        ],
    ),
    (
        "web_search_count",
        "multi_arg",
        "Search the web for best hiking trails near Grenoble and give me 5 results.",
        [
            call(
                "web_search",
                query=["best hiking trails near Grenoble", "hiking trails near Grenoble"],
                max_results=[5],
            )
        ],
    ),
    (
        "mail_reply",
        "multi_arg",
        "Reply to email msg-1001 with 'Thanks, see you Monday.'",
        [call("reply_email", email_id=["msg-1001"], body=["Thanks, see you Monday."])],
    ),
    (
        "calendar_move",
        "multi_arg",
        "Move event evt-42 to next Monday from 10:00 to 11:00.",
        [
            call(
                "update_event",
                event_id=["evt-42"],
                start=["2026-05-18T10:00:00"],
                end=["2026-05-18T11:00:00"],
                title=[OPTIONAL],
                location=[OPTIONAL],
                description=[OPTIONAL],
            )
        ],
    ),
    (
        "mail_search",
        "multi_arg",
        "Search my archive folder for emails from Alice since 1 May 2026.",
        [
            call(
                "search_emails",
                query=["Alice", "from Alice", "from:Alice"],
                folder=["archive"],
                since=["2026-05-01"],
            )
        ],
    ),
    (
        "mail_sent_recent",
        "multi_arg",
        "Show the 10 most recent emails in my sent folder.",
        [call("list_emails", folder=["sent"], limit=[10], unread_only=[OPTIONAL, False])],
    ),
    (
        "calendar_invite",
        "multi_arg",
        "Create 'Project sync' on Thursday from 14:00 to 14:30 and invite ana@example.com "
        "and li@example.com.",
        [
            call(
                "create_event",
                title=["Project sync"],
                start=["2026-05-14T14:00:00"],
                end=["2026-05-14T14:30:00"],
                attendees=[["ana@example.com", "li@example.com"]],
                location=[OPTIONAL],
                description=[OPTIONAL],
            )
        ],
    ),
    # -- several calls in one answer ---------------------------------------------------------
    (
        "memory_two_facts",
        "parallel",
        "Remember two things: my wife's birthday is June 3, and I prefer aisle seats.",
        [
            call("remember", fact=["my wife's birthday is June 3", "wife's birthday is June 3"]),
            call("remember", fact=["I prefer aisle seats", "prefers aisle seats"]),
        ],
    ),
    (
        "web_two_cities",
        "parallel",
        "Search the web for the weather in Lyon and for the weather in Nice.",
        [
            call("web_search", query=["weather in Lyon", "Lyon weather"], max_results=[OPTIONAL]),
            call("web_search", query=["weather in Nice", "Nice weather"], max_results=[OPTIONAL]),
        ],
    ),
    (
        "files_two_reads",
        "parallel",
        "Read the files report.md and summary.md.",
        [call("read_file", path=["report.md"]), call("read_file", path=["summary.md"])],
    ),
    (
        "mail_and_calendar",
        "parallel_multiple",
        "Email alice@example.com with subject 'Meeting moved' and text 'The meeting is now at "
        "4pm.', and add 'Team meeting' to my calendar today from 16:00 to 17:00.",
        [
            call(
                "send_email",
                to=[["alice@example.com"]],
                subject=["Meeting moved"],
                body=["The meeting is now at 4pm."],
                cc=[OPTIONAL],
            ),
            call(
                "create_event",
                title=["Team meeting"],
                start=["2026-05-13T16:00:00"],
                end=["2026-05-13T17:00:00"],
                location=[OPTIONAL],
                description=[OPTIONAL],
                attendees=[OPTIONAL],
            ),
        ],
    ),
    (
        "calendar_and_unread",
        "parallel_multiple",
        "What's on my calendar today, and do I have unread emails?",
        [
            call("list_events", start=TODAY_START, end=TODAY_END, calendar=[OPTIONAL]),
            call("list_emails", unread_only=[True], folder=["inbox", OPTIONAL], limit=[OPTIONAL]),
        ],
    ),
    # -- no tool needed ----------------------------------------------------------------------
    ("chat_capital", "irrelevance", "What is the capital of Italy?", []),
    ("chat_translate", "irrelevance", "How do you say 'good morning' in Spanish?", []),
    ("chat_greeting", "irrelevance", "Hi! How are you today?", []),
    # -- a tool fits, but the request lacks what it needs: ask, do not guess -----------------
    (
        "reminder_tomorrow",
        "simple",
        "Remind me tomorrow at 8am to water the plants.",
        [
            call(
                "set_reminder",
                text=["water the plants", "Water the plants", "to water the plants"],
                at=["2026-05-14T08:00:00"],
            )
        ],
    ),
    (
        "reminder_in_two_hours",
        "simple",
        "In two hours, remind me to call the bank.",
        [
            call(
                "set_reminder",
                text=["call the bank", "Call the bank", "to call the bank"],
                at=["2026-05-13T11:30:00"],
            )
        ],
    ),
    ("reminder_list", "simple", "Which reminders do I have?", [call("list_reminders")]),
    (
        "reminder_cancel",
        "simple",
        "Cancel reminder number 4.",
        [call("cancel_reminder", reminder_id=[4])],
    ),
    (
        "reminder_and_remember",
        "parallel_multiple",
        "Remember that my passport number ends in 42, and remind me on Friday at 9:00 to renew it.",
        [
            call(
                "remember",
                fact=[
                    "my passport number ends in 42",
                    "passport number ends in 42",
                    "Passport number ends in 42",
                ],
            ),
            call(
                "set_reminder",
                text=["renew my passport", "renew it", "renew the passport", "renew passport"],
                at=["2026-05-15T09:00:00"],
            ),
        ],
    ),
    ("missing_reminder_time", "missing_info", "Set a reminder for me.", []),
    ("missing_email_details", "missing_info", "Send an email to my landlord.", []),
    ("missing_meeting_time", "missing_info", "Schedule a meeting with Paul.", []),
    ("missing_event_id", "missing_info", "Delete that event.", []),
]


def main() -> None:
    tools = [spec.to_openai() for spec in SPECS.values()]
    with OUT.open("w", encoding="utf-8") as handle:
        for case_id, category, text, expected in CASES:
            case = {
                "id": case_id,
                "category": category,
                "messages": [{"role": "user", "content": text}],
                "tools": tools,
                "expected": expected,
                "now": NOW,
                "timezone": TIMEZONE,
            }
            handle.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
