"""The tasks: what a person types, what must change, what the answer must say.

Today in the world is Tuesday 15 May 2029, 09:30 (Europe/Berlin); see `seed/` for the calendar,
the mailbox, the folder and the memories. Each task's oracle is what a perfect model would
write, step by step, in the Qwen3.5 XML wire format.
"""

from __future__ import annotations

from bench.tasks.spec import (
    Allow,
    C,
    CallStep,
    Task,
    Turn,
    added_contact,
    added_event,
    added_task,
    allow_path,
    amount,
    any_call,
    any_time,
    at,
    changed_event,
    changed_task,
    completed_task,
    event,
    mail,
    memory,
    memory_added,
    memory_removed,
    on,
    on_event,
    on_task,
    open_path,
    opened,
    reminder,
    reminder_added,
    reminder_removed,
    removed_event,
    reply_to,
    send_to,
    sent_mail,
    task,
    with_id,
    written_file,
)

SOPHIE = "sophie@example.test"
TOM = "tom@example.test"
ANNA = "anna@example.test"
PRIYA = "priya@example.test"
JAMIE = "jamie@example.test"
MARIA = "maria.klein@work.example"
JONAS = "jonas@work.example"
LENA = "lena@nordwind.example"


# A free hour on Thursday 17 May: any start that keeps clear of the car service (08:00-09:00)
# and yoga (18:30-19:30), 07:00 to 21:00.
FREE_HOUR_STARTS = [
    (minutes // 60, minutes % 60)
    for minutes in range(7 * 60, 21 * 60 + 1, 30)
    if minutes + 60 <= 8 * 60 or 9 * 60 <= minutes <= 17 * 60 + 30 or minutes >= 19 * 60 + 30
]


def day(d: int, month: int = 5) -> tuple[str, str]:
    """A whole day as list_events arguments."""
    nxt = (d + 1, month) if d < 31 else (1, month + 1)
    return f"2029-{month:02d}-{d:02d}T00:00", f"2029-{nxt[1]:02d}-{nxt[0]:02d}T00:00"


def events_on(d: int, month: int = 5) -> CallStep:
    start, end = day(d, month)
    return C("list_events", start=start, end=end)


def starts_at(prefix: str, attendees: bool = False) -> Allow:
    """Approve creating an event that starts at `prefix`; attendees only if the task has any."""

    def where(args: dict, world: object) -> bool:
        return str(args.get("start", "")).startswith(prefix) and (
            attendees or not args.get("attendees")
        )

    return Allow("create_event", where)


CALENDAR = [
    Task(
        "cal-today",
        "calendar",
        [
            Turn(
                "What's on my calendar today?",
                [events_on(15), "Today: the dentist at 14:00 (Dr. Weber) and piano at 18:00."],
                facts=[("dentist",), at(14), ("piano",)],
            )
        ],
    ),
    Task(
        "cal-tomorrow",
        "calendar",
        [
            Turn(
                "what do I have tomorrow?",
                [
                    events_on(16),
                    "Tomorrow: team stand-up 09:00, 1:1 with Sophie 11:00, book club 19:00.",
                ],
                facts=[("stand-up", "standup", "stand up"), ("sophie",), ("book club",)],
            )
        ],
    ),
    Task(
        "cal-friday-afternoon",
        "calendar",
        [
            Turn(
                "Am I free on Friday afternoon?",
                [events_on(18), "Mostly: only your haircut at 16:00 to 16:45."],
                facts=[("haircut",), at(16)],
            )
        ],
    ),
    Task(
        "cal-free-hour",
        "calendar",
        [
            Turn(
                "Find me a free hour on Thursday for a call.",
                [
                    C(
                        "find_free_time",
                        start="2029-05-17T08:00",
                        end="2029-05-17T18:00",
                        duration_minutes=60,
                    ),
                    "Thursday you are free from 09:00 to 18:00, so 09:00-10:00 works.",
                ],
                # Any free hour that Thursday is right (car service 08-09, yoga 18:30-19:30).
                facts=[any_time(*FREE_HOUR_STARTS)],
            )
        ],
    ),
    Task(
        "cal-concert",
        "calendar",
        [
            Turn(
                "When is the jazz concert?",
                [
                    C("list_events", start="2029-05-15T00:00", end="2029-06-01T00:00"),
                    "The jazz concert is on Thursday 24 May at 20:00 at the Philharmonie.",
                ],
                facts=[on(24), at(20)],
            )
        ],
    ),
    Task(
        "cal-hiking-meet",
        "calendar",
        [
            Turn(
                "Where and when do we meet for the hike on Saturday?",
                [events_on(19), "You meet at the station at 8:30 (the hike starts at 9:00)."],
                facts=[("station",), at(8, 30)],
            )
        ],
    ),
    Task(
        "cal-count-standups",
        "calendar",
        [
            Turn(
                "How many stand-ups do I have next week?",
                [
                    C("list_events", start="2029-05-21T00:00", end="2029-05-28T00:00"),
                    "Three: Monday, Wednesday and Friday at 09:00.",
                ],
                facts=[("three", "3 stand", "3 team")],
            )
        ],
    ),
    Task(
        "cal-last-friday",
        "calendar",
        [
            Turn(
                "What did I do last Friday evening?",
                [events_on(11), "You had dinner at Anna's from 19:00."],
                facts=[("anna",)],
            )
        ],
    ),
    Task(
        "cal-create-gym",
        "calendar",
        [
            Turn(
                "Put 'Gym' in my calendar tomorrow from 7 to 8 am.",
                [
                    C(
                        "create_event",
                        title="Gym",
                        start="2029-05-16T07:00",
                        end="2029-05-16T08:00",
                    ),
                    "Added: Gym tomorrow 07:00-08:00.",
                ],
            )
        ],
        expect=[added_event("gym", "2029-05-16T07:00", "2029-05-16T08:00")],
        allow=[starts_at("2029-05-16T07:00")],
    ),
    Task(
        "cal-move-dentist",
        "calendar",
        [
            Turn(
                "Move the dentist to Friday at 3",
                [
                    events_on(15),
                    C(
                        "update_event",
                        event_id=event("dentist"),
                        start="2029-05-18T15:00",
                        end="2029-05-18T16:00",
                    ),
                    "The dentist is now on Friday 18 May, 15:00-16:00.",
                ],
            )
        ],
        expect=[changed_event("dentist", "2029-05-18T15:00", "2029-05-18T16:00")],
        allow=[on_event("update_event", "dentist")],
    ),
    Task(
        "cal-cancel-haircut",
        "calendar",
        [
            Turn(
                "Cancel my haircut on Friday.",
                [
                    events_on(18),
                    C("delete_event", event_id=event("haircut")),
                    "Your haircut on Friday is cancelled.",
                ],
            )
        ],
        expect=[removed_event("haircut")],
        allow=[on_event("delete_event", "haircut")],
    ),
    Task(
        "cal-car-location",
        "calendar",
        [
            Turn(
                "The car service on Thursday is at AutoHaus Schmidt Kreuzberg now, please update "
                "the location.",
                [
                    events_on(17),
                    C(
                        "update_event",
                        event_id=event("car-service"),
                        location="AutoHaus Schmidt Kreuzberg",
                    ),
                    "Updated the car service location to AutoHaus Schmidt Kreuzberg.",
                ],
            )
        ],
        expect=[changed_event("car-service", "2029-05-17T08:00", location=("kreuzberg",))],
        allow=[on_event("update_event", "car-service")],
    ),
    Task(
        "cal-plumber-longer",
        "calendar",
        [
            Turn(
                "The plumber needs two hours, not one. Fix it in my calendar please.",
                [
                    C("list_events", start="2029-05-15T00:00", end="2029-06-01T00:00"),
                    C("update_event", event_id=event("plumber"), end="2029-05-25T17:00"),
                    "The plumber visit on 25 May is now 15:00-17:00.",
                ],
            )
        ],
        expect=[changed_event("plumber", "2029-05-25T15:00", "2029-05-25T17:00")],
        allow=[on_event("update_event", "plumber")],
    ),
    Task(
        "cal-invite-jonas",
        "calendar",
        [
            Turn(
                "Set up a 30-minute call called 'Slides review' with Jonas (jonas@work.example) "
                "on Monday at 14:00.",
                [
                    C(
                        "create_event",
                        title="Slides review",
                        start="2029-05-21T14:00",
                        end="2029-05-21T14:30",
                        attendees=[JONAS],
                    ),
                    "Done: Slides review on Monday 21 May, 14:00-14:30, Jonas is invited.",
                ],
            )
        ],
        expect=[
            added_event("slides review", "2029-05-21T14:00", "2029-05-21T14:30", attendees=[JONAS])
        ],
        allow=[starts_at("2029-05-21T14:00", attendees=True)],
    ),
    Task(
        "cal-thursday-then-move",
        "calendar",
        [
            Turn(
                "What's on Thursday?",
                [events_on(17), "Thursday: car service at 08:00 and yoga at 18:30."],
                facts=[("car service",), ("yoga",)],
            ),
            Turn(
                "Move the car service one hour later.",
                [
                    C(
                        "update_event",
                        event_id=event("car-service"),
                        start="2029-05-17T09:00",
                        end="2029-05-17T10:00",
                    ),
                    "The car service is now 09:00-10:00 on Thursday.",
                ],
            ),
        ],
        expect=[changed_event("car-service", "2029-05-17T09:00", "2029-05-17T10:00")],
        allow=[on_event("update_event", "car-service")],
    ),
    # The to-do list (CalDAV VTODO in the same calendar; issue #24).
    Task(
        "cal-tasks-week",
        "calendar",
        [
            Turn(
                "What's due on my to-do list this week?",
                [
                    C("list_tasks", due_before="2029-05-21"),
                    "Return the library books by Thursday 17 May and buy a birthday present "
                    "for Mum by Saturday 19 May.",
                ],
                facts=[("library",), ("present", "gift")],
            )
        ],
    ),
    Task(
        "cal-task-passport",
        "calendar",
        [
            Turn(
                "Add 'renew passport' to my to-dos, due Friday.",
                [
                    C("add_task", title="Renew passport", due="2029-05-18"),
                    "Added: renew passport, due Friday 18 May.",
                ],
            )
        ],
        expect=[added_task(("passport",), "2029-05-18")],
        allow=[Allow("add_task", lambda a, w: str(a.get("due", "")).startswith("2029-05-18"))],
    ),
    Task(
        "cal-task-rent",
        "calendar",
        [
            Turn(
                "I've paid the rent, tick it off my to-do list.",
                [
                    C("list_tasks"),
                    C("complete_task", task_id=task("rent-june")),
                    "Done: 'Pay the rent for June' is ticked off.",
                ],
            )
        ],
        expect=[completed_task("rent-june")],
        allow=[on_task("complete_task", "rent-june")],
    ),
    Task(
        "cal-task-insurance",
        "calendar",
        [
            Turn(
                "Push the car insurance task back to 28 May.",
                [
                    C("list_tasks"),
                    C("update_task", task_id=task("insurance-call"), due="2029-05-28"),
                    "The car insurance call is now due on Monday 28 May.",
                ],
            )
        ],
        expect=[changed_task("insurance-call", due="2029-05-28")],
        allow=[on_task("update_task", "insurance-call")],
    ),
]

MAIL = [
    Task(
        "mail-unread-sophie",
        "mail",
        [
            Turn(
                "Do I have unread emails from Sophie?",
                [
                    C("list_emails", unread_only=True),
                    "Yes, two: her follow-up on invoice 2029-117 and the budget sheet request.",
                ],
                facts=[("invoice",), ("budget",)],
            )
        ],
    ),
    Task(
        "mail-flight",
        "mail",
        [
            Turn(
                "What time is my flight to Lisbon?",
                [
                    C("search_emails", query="Lisbon"),
                    C("read_email", email_id=mail("airline")),
                    "Flight LH 1166 leaves Berlin on Friday 8 June at 07:05.",
                ],
                facts=[at(7, 5)],
            )
        ],
    ),
    Task(
        "mail-water",
        "mail",
        [
            Turn(
                "When is the water turned off in the building?",
                [
                    C("search_emails", query="water"),
                    C("read_email", email_id=mail("landlord-water")),
                    "On Wednesday 16 May from 10:00 to 12:00.",
                ],
                facts=[on(16), at(10)],
            )
        ],
    ),
    Task(
        "mail-doctor-bring",
        "mail",
        [
            Turn(
                "What do I need to bring to the doctor's appointment?",
                [
                    C("search_emails", query="doctor"),
                    C("read_email", email_id=mail("doctor")),
                    "Bring your insurance card (check-up on 22 May at 13:00).",
                ],
                facts=[("insurance card",)],
            )
        ],
    ),
    Task(
        "mail-electricity",
        "mail",
        [
            Turn(
                "How much is the electricity bill and when is it debited?",
                [
                    C("search_emails", query="electricity"),
                    C("read_email", email_id=mail("bill-electricity")),
                    "86.40 EUR, debited on 28 May.",
                ],
                facts=[amount("86.40"), on(28)],
            )
        ],
    ),
    Task(
        "mail-parcel",
        "mail",
        [
            Turn(
                "When is my parcel coming?",
                [
                    C("search_emails", query="parcel"),
                    C("read_email", email_id=mail("parcel")),
                    "Thursday 17 May between 10:00 and 14:00.",
                ],
                facts=[on(17)],
            )
        ],
    ),
    Task(
        "mail-pharmacy",
        "mail",
        [
            Turn(
                "Until when can I pick up my order at the pharmacy?",
                [
                    C("search_emails", query="pickup"),
                    C("read_email", email_id=mail("pharmacy")),
                    "Until Saturday 19 May.",
                ],
                facts=[on(19)],
            )
        ],
    ),
    Task(
        "mail-bill-attachment",
        "mail",
        [
            Turn(
                "Which file is attached to the electricity bill email?",
                [
                    C("search_emails", query="electricity"),
                    C("read_email", email_id=mail("bill-electricity")),
                    "The attachment is bill-april-2029.pdf.",
                ],
                facts=[("bill-april-2029.pdf",)],
            )
        ],
    ),
    Task(
        "mail-sophie-invoice-reply",
        "mail",
        [
            Turn(
                "What did Sophie say about the invoice? And reply that we pay on Monday.",
                [
                    C("search_emails", query="invoice"),
                    C("read_email", email_id=mail("sophie-invoice-re")),
                    C(
                        "reply_email",
                        email_id=mail("sophie-invoice-re"),
                        body="Hi Sophie,\n\nwe pay invoice 2029-117 on Monday, with PO-5521 on the "
                        "transfer.\n\nAlex",
                    ),
                    "Sophie says Nordwind's invoice 2029-117 is 4,850 EUR, due 25 May, and "
                    "finance needs PO-5521 on the transfer. I replied that we pay on Monday.",
                ],
                facts=[amount("4,850")],
            )
        ],
        expect=[sent_mail([SOPHIE], body=[("monday",)], subject=[("invoice",)])],
        allow=[reply_to("sophie-invoice-re"), reply_to("sophie-invoice"), send_to(SOPHIE)],
    ),
    Task(
        "mail-reply-priya",
        "mail",
        [
            Turn(
                "Reply to Priya that I'll save her a seat.",
                [
                    C("search_emails", query="Priya"),
                    C(
                        "reply_email",
                        email_id=mail("book-club-re"),
                        body="Hi Priya, no problem, I'll save you a seat! Alex",
                    ),
                    "Replied to Priya.",
                ],
            )
        ],
        expect=[sent_mail([PRIYA], body=[("seat",)], reply_to="book-club-re")],
        allow=[reply_to("book-club-re")],
    ),
    Task(
        "mail-tom-bbq-yes",
        "mail",
        [
            Turn(
                "Email Tom (tom@example.test) that I'm coming to the barbecue and I'll bring "
                "lemonade.",
                [
                    C(
                        "send_email",
                        to=[TOM],
                        subject="Barbecue",
                        body="Hi Tom, I'm coming to the barbecue and I'll bring lemonade! Alex",
                    ),
                    "Sent.",
                ],
            )
        ],
        expect=[sent_mail([TOM], body=[("lemonade",)])],
        allow=[send_to(TOM)],
    ),
    Task(
        "mail-anna-cinema",
        "mail",
        [
            Turn(
                "Send Anna a short email asking if she wants to go to the cinema on Friday.",
                [
                    C("search_emails", query="Anna"),
                    C(
                        "send_email",
                        to=[ANNA],
                        subject="Cinema on Friday?",
                        body="Hi Anna, do you want to go to the cinema on Friday? Alex",
                    ),
                    "I asked Anna (anna@example.test).",
                ],
            )
        ],
        expect=[sent_mail([ANNA], body=[("cinema",), ("friday",)])],
        allow=[send_to(ANNA)],
    ),
    Task(
        "mail-jamie-coffee",
        "mail",
        [
            Turn(
                "Jamie wants to meet for coffee. Reply that Wednesday 23 May at 15:00 works "
                "for me.",
                [
                    C("search_emails", query="Jamie"),
                    C(
                        "reply_email",
                        email_id=mail("school-friend"),
                        body="Hi Jamie, Wednesday 23 May at 15:00 works for me. See you! Alex",
                    ),
                    "Replied to Jamie.",
                ],
            )
        ],
        expect=[sent_mail([JAMIE], body=[("wednesday", "23"), at(15)], reply_to="school-friend")],
        allow=[reply_to("school-friend")],
    ),
    Task(
        "mail-maria-diet",
        "mail",
        [
            Turn(
                "Tell Maria my dietary requirement for the offsite: vegetarian.",
                [
                    C("search_emails", query="offsite"),
                    C(
                        "reply_email",
                        email_id=mail("maria-offsite"),
                        body="Hi Maria, I'm vegetarian. Thanks! Alex",
                    ),
                    "Told Maria you're vegetarian.",
                ],
            )
        ],
        expect=[sent_mail([MARIA], body=[("vegetarian",)])],
        allow=[reply_to("maria-offsite"), send_to(MARIA)],
    ),
    Task(
        "mail-lena-then-reply",
        "mail",
        [
            Turn(
                "Any news from Lena at Nordwind?",
                [
                    C("search_emails", query="Lena"),
                    C("read_email", email_id=mail("lena-nordwind")),
                    "Lena sent the June plan: deliveries on 4, 13 and 25 June; she asks you to "
                    "confirm the warehouse address.",
                ],
                facts=[("warehouse",), on(13, 6)],
            ),
            Turn(
                "Reply to her that the warehouse address is Hafenstraße 7, 10997 Berlin.",
                [
                    C(
                        "reply_email",
                        email_id=mail("lena-nordwind"),
                        body="Dear Lena, the warehouse address is Hafenstraße 7, 10997 Berlin. "
                        "Best, Alex",
                    ),
                    "Replied to Lena with the address.",
                ],
            ),
        ],
        expect=[
            sent_mail([LENA], body=[("hafenstraße 7", "hafenstrasse 7")], reply_to="lena-nordwind")
        ],
        allow=[reply_to("lena-nordwind")],
    ),
]

FILES = [
    Task(
        "files-groceries",
        "files",
        [
            Turn(
                "How much did I spend on groceries in April?",
                [
                    # A money question is offered the finders: read_file comes with files.
                    C("search_files", query="expenses"),
                    C("read_file", path="finance/expenses-2029-04.csv"),
                    "Groceries in April: 244.00 EUR (54.20 + 61.80 + 47.30 + 58.70 + 22.00).",
                ],
                facts=[amount("244.00")],
            )
        ],
    ),
    Task(
        "files-statement",
        "files",
        [
            Turn(
                "What was the closing balance on my April bank statement?",
                [
                    C("search_files", query="statement"),
                    C("read_file", path="finance/statement-2029-04.pdf"),
                    "The closing balance on 30 April was 2,315.40 EUR.",
                ],
                facts=[amount("2,315.40")],
            )
        ],
    ),
    Task(
        "files-q2-revenue",
        "files",
        [
            Turn(
                "What does my Q2 report say about revenue?",
                [
                    C("read_file", path="work/q2-report.docx"),
                    "Revenue so far in Q2 is 128,000 EUR, 6 percent ahead of plan.",
                ],
                facts=[amount("128,000")],
            )
        ],
    ),
    Task(
        "files-hotel",
        "files",
        [
            Turn(
                "What's the name of my hotel in Lisbon?",
                [
                    C("search_files", query="Lisbon"),
                    C("read_file", path="travel/lisbon-itinerary.md"),
                    "Casa do Rio, Rua da Prata 12.",
                ],
                facts=[("casa do rio",)],
            )
        ],
    ),
    Task(
        "files-jonas-phone",
        "files",
        [
            Turn(
                "What's Jonas's phone number?",
                [C("read_file", path="contacts.csv"), "Jonas Weber: +49 30 5550104."],
                facts=[("5550104",)],
            )
        ],
    ),
    Task(
        "files-todo-count",
        "files",
        [
            Turn(
                "How many things are in my todo.txt?",
                [C("read_file", path="todo.txt"), "Four things."],
                facts=[("four", "4")],
            )
        ],
    ),
    Task(
        "files-lasagne",
        "files",
        [
            Turn(
                "How long does the lasagne bake?",
                [
                    C("search_files", query="lasagne"),
                    C("read_file", path="recipes/lasagne.txt"),
                    "40 minutes at 190 °C.",
                ],
                facts=[("40 min",)],
            )
        ],
    ),
    Task(
        "files-pasta-page",
        "files",
        [
            Turn(
                "I saved a pasta recipe page. How long does it take and what do I need?",
                [
                    C("search_files", query="pasta"),
                    C("read_file", path="recipes/saved/pasta-page.html"),
                    "Lemon ricotta pasta, 20 minutes: spaghetti, ricotta, a lemon, pepper and "
                    "parmesan.",
                ],
                facts=[("20 min",), ("ricotta",)],
            )
        ],
    ),
    Task(
        "files-travel-folder",
        "files",
        [
            Turn(
                "What's in my travel folder?",
                [C("list_folder", path="travel"), "One file: lisbon-itinerary.md."],
                facts=[("lisbon-itinerary",)],
            )
        ],
    ),
    Task(
        "files-write-packing",
        "files",
        [
            Turn(
                "Write a note called packing-extra.md with: swimsuit, sun cream.",
                [
                    C("write_file", path="packing-extra.md", content="- swimsuit\n- sun cream\n"),
                    "Saved packing-extra.md.",
                ],
            )
        ],
        expect=[written_file("packing-extra.md", [("swimsuit",), ("sun cream",)])],
        allow=[allow_path("write_file", "packing-extra.md")],
    ),
    Task(
        "files-shopping-eggs",
        "files",
        [
            Turn(
                "Add eggs to my shopping list.",
                [
                    C("read_file", path="notes/shopping-list.md"),
                    C(
                        "write_file",
                        path="notes/shopping-list.md",
                        content="# Shopping list\n- oat milk\n- tomatoes\n- basil\n- parmesan\n"
                        "- white wine for Anna\n- eggs\n",
                        overwrite=True,
                    ),
                    "Added eggs to your shopping list.",
                ],
            )
        ],
        expect=[
            written_file(
                "notes/shopping-list.md", [("eggs",), ("oat milk",), ("basil",)], changed=True
            )
        ],
        allow=[allow_path("write_file", "notes/shopping-list.md")],
    ),
    Task(
        "files-budget-summary",
        "files",
        [
            Turn(
                "Look at my budget sheet and write which line is over plan into "
                "budget-summary.txt.",
                [
                    C("read_file", path="work/budget-2029.csv"),
                    C(
                        "write_file",
                        path="budget-summary.txt",
                        content="Over plan: travel (7,450 EUR spent of 6,000 EUR planned).\n",
                    ),
                    "Travel is over plan; I wrote it to budget-summary.txt.",
                ],
                facts=[("travel",)],
            )
        ],
        expect=[written_file("budget-summary.txt", [("travel",)])],
        allow=[allow_path("write_file", "budget-summary.txt")],
    ),
    # Opening things and money in the user's own files (issue #24).
    Task(
        "files-open-menu",
        "files",
        [
            Turn(
                "Open menu.pdf for me.",
                [
                    C("search_files", query="menu"),
                    C("open_item", path="recipes/menu.pdf"),
                    "I've opened recipes/menu.pdf.",
                ],
            )
        ],
        expect=[opened("recipes/menu.pdf")],
        allow=[open_path("recipes/menu.pdf")],
    ),
    Task(
        "files-spending-rewe",
        "files",
        [
            Turn(
                "How much did I spend at REWE in April?",
                [
                    C("summarise_spending", path="finance", month="2029-04"),
                    "In April you spent 156.70 EUR at REWE (4 payments).",
                ],
                facts=[amount("156.70")],
            )
        ],
    ),
]

MEMORY = [
    Task(
        "mem-remember-dentist",
        "memory",
        [
            Turn(
                "Remember that my dentist is Dr. Weber.",
                [C("remember", fact="Alex's dentist is Dr. Weber."), "Noted."],
            )
        ],
        expect=[memory_added(("weber",))],
        allow=[any_call("remember")],
    ),
    Task(
        "mem-partner",
        "memory",
        [
            Turn(
                "What's my partner's name again?",
                [C("recall", query="partner"), "Your partner is Sam."],
                facts=[("sam",)],
            )
        ],
    ),
    Task(
        "mem-diet",
        "memory",
        [
            Turn(
                "What do you remember about what I eat?",
                [C("recall", query="eat food vegetarian diet"), "You are vegetarian."],
                facts=[("vegetarian",)],
            )
        ],
    ),
    Task(
        "mem-forget-bike",
        "memory",
        [
            Turn(
                "Forget what you know about my bike lock.",
                [
                    C("recall", query="bike lock"),
                    C("forget", memory_id=memory("bike lock")),
                    "Forgotten.",
                ],
            )
        ],
        expect=[memory_removed(("bike lock",))],
        allow=[with_id("forget", "memory_id", memory("bike lock"))],
    ),
    Task(
        "mem-locker-two-turns",
        "memory",
        [
            Turn(
                "My gym locker number is 112, remember that.",
                [C("remember", fact="Alex's gym locker number is 112."), "Got it."],
            ),
            Turn(
                "What's my locker number?",
                [C("recall", query="locker"), "Your gym locker is number 112."],
                facts=[("112",)],
            ),
        ],
        expect=[memory_added(("112",))],
        allow=[any_call("remember")],
    ),
    Task(
        "rem-flowers",
        "memory",
        [
            Turn(
                "Remind me tomorrow at 6 pm to buy flowers.",
                [
                    C("set_reminder", text="Buy flowers", at="2029-05-16T18:00"),
                    "I'll remind you tomorrow at 18:00.",
                ],
            )
        ],
        expect=[reminder_added("2029-05-16T18:00", ("flower",))],
        allow=[any_call("set_reminder")],
    ),
    Task(
        "rem-in-two-hours",
        "memory",
        [
            Turn(
                "Remind me in two hours to call the plumber.",
                [
                    C("set_reminder", text="Call the plumber", at="2029-05-15T11:30"),
                    "Reminder set for 11:30.",
                ],
            )
        ],
        expect=[reminder_added("2029-05-15T11:30", ("plumber",))],
        allow=[any_call("set_reminder")],
    ),
    Task(
        "rem-list",
        "memory",
        [
            Turn(
                "Which reminders do I have?",
                [
                    C("list_reminders"),
                    "Water the plants (16 May 08:00), call Mum (20 May 10:00), renew passport "
                    "(30 May 09:00).",
                ],
                facts=[("plants",), ("passport",)],
            )
        ],
    ),
    Task(
        "rem-cancel-plants",
        "memory",
        [
            Turn(
                "Cancel the reminder about the plants.",
                [
                    C("list_reminders"),
                    C("cancel_reminder", reminder_id=reminder("plants")),
                    "Cancelled.",
                ],
            )
        ],
        expect=[reminder_removed(("plants",))],
        allow=[with_id("cancel_reminder", "reminder_id", reminder("plants"))],
    ),
    Task(
        "rem-move-passport",
        "memory",
        [
            Turn(
                "Move my passport reminder to 1 June at 9.",
                [
                    C("list_reminders"),
                    C("cancel_reminder", reminder_id=reminder("passport")),
                    C("set_reminder", text="Renew passport", at="2029-06-01T09:00"),
                    "Your passport reminder is now on 1 June at 09:00.",
                ],
            )
        ],
        expect=[
            reminder_removed(("passport",)),
            reminder_added("2029-06-01T09:00", ("passport",)),
        ],
        allow=[
            with_id("cancel_reminder", "reminder_id", reminder("passport")),
            any_call("set_reminder"),
        ],
    ),
    # The address book (CardDAV; issue #24).
    Task(
        "mem-contact-phone",
        "memory",
        [
            Turn(
                "What's Sophie's phone number?",
                [C("find_contact", query="Sophie"), "Sophie Martin: +49 30 5550101."],
                facts=[("5550101", "555 0101", "555-0101")],
            )
        ],
    ),
    Task(
        "mem-contact-add",
        "memory",
        [
            Turn(
                "Add Lukas Brandt to my contacts: lukas.brandt@example.de, +49 151 5550177.",
                [
                    CallStep(  # C() takes the tool's name as its first argument, "name"
                        "add_contact",
                        {
                            "name": "Lukas Brandt",
                            "emails": ["lukas.brandt@example.de"],
                            "phones": ["+49 151 5550177"],
                        },
                    ),
                    "Added Lukas Brandt to your contacts.",
                ],
            )
        ],
        expect=[added_contact("Lukas Brandt", ["lukas.brandt@example.de"], ["+49 151 5550177"])],
        allow=[any_call("add_contact")],
    ),
]

COMBINED = [
    Task(
        "combo-doctor-event",
        "combined",
        [
            Turn(
                "Put the doctor's appointment from the email in my calendar.",
                [
                    C("search_emails", query="appointment"),
                    C("read_email", email_id=mail("doctor")),
                    C(
                        "create_event",
                        title="Check-up at Praxis Dr. Lee",
                        start="2029-05-22T13:00",
                        end="2029-05-22T13:30",
                        location="Praxis Dr. Lee, Lindenweg 3",
                    ),
                    "Added: check-up at Praxis Dr. Lee on Tuesday 22 May, 13:00-13:30.",
                ],
            )
        ],
        expect=[added_event(("lee", "doctor", "check-up", "checkup"), "2029-05-22T13:00")],
        allow=[starts_at("2029-05-22T13:00")],
    ),
    Task(
        "combo-bbq-event",
        "combined",
        [
            Turn(
                "Tom invited me to a barbecue, add it to my calendar.",
                [
                    C("search_emails", query="barbecue"),
                    C("read_email", email_id=mail("tom-bbq")),
                    C(
                        "create_event",
                        title="Barbecue at Tom's",
                        start="2029-05-26T16:00",
                        end="2029-05-26T20:00",
                        location="Oranienstraße 8",
                    ),
                    "Added the barbecue at Tom's on Saturday 26 May from 16:00.",
                ],
            )
        ],
        expect=[added_event(("barbecue", "bbq"), "2029-05-26T16:00")],
        allow=[starts_at("2029-05-26T16:00")],
    ),
    Task(
        "combo-budget-reply",
        "combined",
        [
            Turn(
                "Sophie asked about the travel line. Reply to her budget email with the planned "
                "and spent figures from my budget sheet.",
                [
                    C("read_file", path="work/budget-2029.csv"),
                    C("search_emails", query="budget"),
                    C(
                        "reply_email",
                        email_id=mail("sophie-budget"),
                        body="Hi Sophie, travel: planned 6,000 EUR, spent 7,450 EUR. Alex",
                    ),
                    "Replied to Sophie: travel planned 6,000 EUR, spent 7,450 EUR.",
                ],
            )
        ],
        expect=[
            sent_mail([SOPHIE], body=[amount("7,450"), amount("6,000")], reply_to="sophie-budget")
        ],
        allow=[reply_to("sophie-budget")],
    ),
    Task(
        "combo-water-reminder",
        "combined",
        [
            Turn(
                "Set a reminder 30 minutes before the water is turned off, so I can fill some "
                "bottles.",
                [
                    C("search_emails", query="water"),
                    C("read_email", email_id=mail("landlord-water")),
                    C("set_reminder", text="Fill water bottles", at="2029-05-16T09:30"),
                    "I'll remind you on Wednesday at 09:30; the water is off from 10:00.",
                ],
            )
        ],
        expect=[reminder_added("2029-05-16T09:30")],
        allow=[any_call("set_reminder")],
    ),
    Task(
        "combo-action-items",
        "combined",
        [
            Turn(
                "Make a file action-items.md with my action items from the kickoff notes.",
                [
                    C("search_files", query="kickoff"),
                    C("read_file", path="notes/kickoff-notes-2029-05-14.md"),
                    C(
                        "write_file",
                        path="action-items.md",
                        content="# My action items\n- Update the budget sheet before the budget "
                        "meeting (21 May).\n",
                    ),
                    "Saved action-items.md: update the budget sheet before 21 May.",
                ],
            )
        ],
        expect=[written_file("action-items.md", [("budget sheet",)])],
        allow=[allow_path("write_file", "action-items.md")],
    ),
    Task(
        "combo-soup-file",
        "combined",
        [
            Turn(
                "Save the soup recipe Priya sent me as soup.txt in my folder.",
                [
                    C("search_emails", query="soup"),
                    C("read_email", email_id=mail("priya-recipe")),
                    C(
                        "write_file",
                        path="soup.txt",
                        content="Red lentil soup: 200 g lentils, 1 onion, 1 carrot, cumin, 1 "
                        "litre stock, 25 minutes.\n",
                    ),
                    "Saved soup.txt.",
                ],
            )
        ],
        expect=[written_file("soup.txt", [("lentil",)])],
        allow=[allow_path("write_file", "soup.txt")],
    ),
    Task(
        "combo-offsite-event",
        "combined",
        [
            Turn(
                "Maria wrote about the offsite. Put it in my calendar.",
                [
                    C("search_emails", query="offsite"),
                    C("read_email", email_id=mail("maria-offsite")),
                    C(
                        "create_event",
                        title="Offsite in Potsdam",
                        start="2029-06-12T09:00",
                        end="2029-06-13T17:00",
                        location="Potsdam",
                    ),
                    "Added the offsite in Potsdam, 12-13 June.",
                ],
            )
        ],
        expect=[added_event(("offsite",), "2029-06-12")],
        allow=[starts_at("2029-06-12")],
    ),
    Task(
        "combo-mum-gift",
        "combined",
        [
            Turn(
                "When is Mum's birthday, and what gift ideas do I have for her?",
                [
                    C("list_events", start="2029-05-15T00:00", end="2029-06-15T00:00"),
                    C("search_files", query="gift"),
                    C("read_file", path="gift-ideas.md"),
                    "Her birthday is on Sunday 20 May. Ideas: gardening gloves and a rose for the "
                    "greenhouse.",
                ],
                facts=[on(20), ("gloves",)],
            )
        ],
    ),
    Task(
        "combo-tom-lunch",
        "combined",
        [
            Turn(
                "Email Tom and invite him to lunch at my favourite café on Friday at 12:30.",
                [
                    C("recall", query="favourite café"),
                    C("find_contact", query="Tom"),
                    C(
                        "send_email",
                        to=[TOM],
                        subject="Lunch on Friday?",
                        body="Hi Tom, lunch at Café Rosa on Friday at 12:30? Alex",
                    ),
                    "Invited Tom to lunch at Café Rosa on Friday at 12:30.",
                ],
            )
        ],
        expect=[sent_mail([TOM], body=[("rosa",), at(12, 30)])],
        allow=[send_to(TOM)],
    ),
    Task(
        "combo-nordwind-prep",
        "combined",
        [
            Turn(
                "Prepare me for the Nordwind client call: when is it, and what's their delivery "
                "plan?",
                [
                    C("list_events", start="2029-05-15T00:00", end="2029-06-01T00:00"),
                    C("search_emails", query="Nordwind"),
                    C("read_email", email_id=mail("lena-nordwind")),
                    "The call is on Wednesday 23 May at 10:00. Lena's plan: three deliveries, "
                    "on 4, 13 and 25 June.",
                ],
                facts=[on(23), at(10), on(13, 6)],
            )
        ],
    ),
    Task(
        "combo-contact-email",
        "combined",
        [
            Turn(
                "Look up Sophie in my contacts and email her that I'm running ten minutes "
                "late for our 1:1.",
                [
                    C("find_contact", query="Sophie"),
                    C(
                        "send_email",
                        to=[SOPHIE],
                        subject="Running late",
                        body="Hi Sophie, I'm running ten minutes late for our 1:1. Alex",
                    ),
                    "Sent to Sophie Martin (sophie@example.test).",
                ],
            )
        ],
        expect=[sent_mail([SOPHIE], body=[("ten minutes", "10 minutes", "10 min")])],
        allow=[send_to(SOPHIE)],
    ),
]

# What a must-ask question names: the missing time, or the missing words.
WHEN: tuple[str, ...] = ("when", "what time", "which day", "what day", "which time", "what date")
CONTENT: tuple[str, ...] = (
    "what should", "what would you like", "what do you want", "say", "write", "content",
    "message", "text", "about",
)  # fmt: skip

NEW_TASK: tuple[str, ...] = (
    "what should the task", "what task", "which task", "what should i add", "task be",
    "what would you like to add", "what do you want to add", "what to add", "title",
    "what should the to-do", "which to-do", "what to-do",
)  # fmt: skip

MISSING = [
    Task(
        "ask-email-tom",
        "missing_info",
        [
            Turn(
                "Send an email to Tom.",
                ["Sure. What should the email to Tom say?"],
                asks=True,
                about=CONTENT,
            )
        ],
    ),
    Task(
        "ask-meeting-sophie",
        "missing_info",
        [
            Turn(
                "Schedule a meeting with Sophie.",
                ["When should the meeting be, and for how long?"],
                asks=True,
                about=WHEN,
            )
        ],
    ),
    Task(
        "ask-reminder-bank",
        "missing_info",
        [
            Turn(
                "Remind me to call the bank.",
                ["When should I remind you?"],
                asks=True,
                about=WHEN,
            )
        ],
    ),
    Task(
        "ask-save-note",
        "missing_info",
        [
            Turn(
                "Save this as a note.",
                ["What should the note say, and what name?"],
                asks=True,
                about=(*CONTENT, "name", "file", "call it", "called", "what note"),
            )
        ],
    ),
    Task(
        "ask-reply-yes",
        "missing_info",
        [
            Turn(
                "Reply to the email and say yes.",
                ["Which email do you mean? Who sent it?"],
                asks=True,
                about=("which email", "which message", "which one", "who", "from whom", "sender"),
            )
        ],
    ),
    Task(
        "ask-then-reminder",
        "missing_info",
        [
            Turn(
                "Remind me to water the balcony plants.",
                ["When should I remind you?"],
                asks=True,
                about=WHEN,
            ),
            Turn(
                "Tomorrow at 7 in the evening.",
                [
                    C("set_reminder", text="Water the balcony plants", at="2029-05-16T19:00"),
                    "I'll remind you tomorrow at 19:00.",
                ],
            ),
        ],
        expect=[reminder_added("2029-05-16T19:00", ("balcony",))],
        allow=[any_call("set_reminder")],
    ),
    Task(
        "ask-add-task",
        "missing_info",
        [
            Turn(
                "Add a task to my to-do list.",
                ["What should the task be?"],
                asks=True,
                about=NEW_TASK,
            )
        ],
    ),
]

CHAT = [
    Task(
        "chat-thanks",
        "chat",
        [Turn("Thanks, that's all for now!", ["You're welcome, have a good day!"])],
        no_tools=True,
    ),
    Task(
        "chat-joke",
        "chat",
        [Turn("Tell me a short joke.", ["Why did the calendar feel popular? Many dates."])],
        no_tools=True,
    ),
    Task(
        "chat-percent",
        "chat",
        [Turn("What's 15% of 80?", ["15% of 80 is 12."], facts=[("12",)])],
        no_tools=True,
    ),
    Task(
        "chat-capital",
        "chat",
        [
            Turn(
                "What's the capital of Portugal?",
                ["Lisbon."],
                facts=[("lisbon", "lisboa")],
            )
        ],
        no_tools=True,
    ),
    Task(
        "chat-thank-you-pt",
        "chat",
        [
            Turn(
                "How do you say 'thank you' in Portuguese?",
                ["Obrigado (or obrigada)."],
                facts=[("obrigad",)],
            )
        ],
        no_tools=True,
    ),
]

# Issue #35: everyday requests in other words and other languages (German, French, Spanish),
# written apart from the intents' own examples; the oracle still writes the free loop's steps.
WORDED = [
    Task(
        "wd-cal-thursday",
        "calendar",
        [
            Turn(
                "What have I got going on Thursday?",
                [events_on(17), "Thursday: car service at 08:00 and yoga at 18:30."],
                facts=[("car service",), ("yoga",)],
            )
        ],
    ),
    Task(
        "wd-cal-morgen-de",
        "calendar",
        [
            Turn(
                "Was steht morgen bei mir an?",
                [events_on(16), "Morgen: Stand-up 09:00, 1:1 mit Sophie 11:00, Buchclub 19:00."],
                facts=[
                    ("stand-up", "standup", "stand up"),
                    ("sophie",),
                    ("book club", "buchclub", "lesekreis"),
                ],
            )
        ],
    ),
    Task(
        "wd-cal-vendredi-fr",
        "calendar",
        [
            Turn(
                "Qu'est-ce que j'ai vendredi après-midi ?",
                [events_on(18), "Vendredi : déjeuner d'équipe à 12h, coiffeur à 16h."],
                facts=[("haircut", "coiffeur", "coiffure"), (*at(16), "16h")],
            )
        ],
    ),
    Task(
        "wd-cal-dinner-sam",
        "calendar",
        [
            Turn(
                "Pencil in dinner with Sam the Tuesday after next at 7pm",
                [
                    C(
                        "create_event",
                        title="Dinner with Sam",
                        start="2029-05-29T19:00",
                        end="2029-05-29T20:00",
                    ),
                    "Added: dinner with Sam, Tuesday 29 May at 19:00.",
                ],
            )
        ],
        expect=[added_event(("dinner",), "2029-05-29T19:00")],
        allow=[starts_at("2029-05-29T19:00")],
    ),
    Task(
        "wd-cal-elternabend-de",
        "calendar",
        [
            Turn(
                "Trag mir den Elternabend am Donnerstag um 19 Uhr ein",
                [
                    C(
                        "create_event",
                        title="Elternabend",
                        start="2029-05-17T19:00",
                        end="2029-05-17T20:00",
                    ),
                    "Eingetragen: Elternabend, Donnerstag 17. Mai, 19:00.",
                ],
            )
        ],
        expect=[added_event(("elternabend",), "2029-05-17T19:00")],
        allow=[starts_at("2029-05-17T19:00")],
    ),
    Task(
        "wd-cal-shift-one-on-one",
        "calendar",
        [
            Turn(
                "Can you push tomorrow's 1:1 back by half an hour?",
                [
                    events_on(16),
                    C(
                        "update_event",
                        event_id=event("one-on-one"),
                        start="2029-05-16T11:30",
                        end="2029-05-16T12:00",
                    ),
                    "Moved: 1:1 with Sophie is now 11:30-12:00 tomorrow.",
                ],
            )
        ],
        expect=[changed_event("one-on-one", "2029-05-16T11:30", "2029-05-16T12:00")],
        allow=[on_event("update_event", "one-on-one")],
    ),
    Task(
        "wd-cal-budget-es",
        "calendar",
        [
            Turn(
                "Mueve la reunión de presupuesto al miércoles a las 11",
                [
                    events_on(21),
                    C(
                        "update_event",
                        event_id=event("budget"),
                        start="2029-05-23T11:00",
                        end="2029-05-23T12:00",
                    ),
                    "Hecho: la reunión de presupuesto es el miércoles 23 a las 11:00.",
                ],
            )
        ],
        expect=[changed_event("budget", "2029-05-23T11:00", "2029-05-23T12:00")],
        allow=[on_event("update_event", "budget")],
    ),
    Task(
        "wd-cal-plumber-fr",
        "calendar",
        [
            Turn(
                "Supprime la visite du plombier de vendredi prochain",
                [
                    events_on(25),
                    C("delete_event", event_id=event("plumber")),
                    "La visite du plombier est supprimée.",
                ],
            )
        ],
        expect=[removed_event("plumber")],
        allow=[on_event("delete_event", "plumber")],
    ),
    Task(
        "wd-cal-gap-monday",
        "calendar",
        [
            Turn(
                "I need a two-hour gap on Monday between 8 and 1",
                [
                    C(
                        "find_free_time",
                        start="2029-05-21T08:00",
                        end="2029-05-21T13:00",
                        duration_minutes=120,
                    ),
                    "Monday 21 May is free from 10:30 to 12:30.",
                ],
                facts=[at(10, 30)],
            )
        ],
    ),
    Task(
        "wd-mail-hausverwaltung-de",
        "mail",
        [
            Turn(
                "Hat mir die Hausverwaltung geschrieben?",
                [
                    C("search_emails", query="Hausverwaltung"),
                    "Ja: Hausverwaltung Lindner, Wasserabstellung am Mittwoch 16. Mai.",
                ],
                facts=[("water", "wasser")],
            )
        ],
    ),
    Task(
        "wd-mail-electricity-es",
        "mail",
        [
            Turn(
                "¿Qué dice el último correo de Stadtwerke?",
                [
                    C("search_emails", query="Stadtwerke"),
                    C("read_email", email_id=mail("bill-electricity")),
                    "La factura de electricidad de abril 2029: 86,40 EUR.",
                ],
                facts=[("april", "abril")],
            )
        ],
    ),
    Task(
        "wd-mail-tom-late-de",
        "mail",
        [
            Turn(
                "Schreib Tom eine Mail, dass ich zehn Minuten später komme",
                [
                    C("find_contact", query="Tom"),
                    C(
                        "send_email",
                        to=[TOM],
                        subject="Etwas später",
                        body="Hallo Tom, ich komme zehn Minuten später. Alex",
                    ),
                    "Gesendet.",
                ],
            )
        ],
        expect=[sent_mail([TOM], body=[("zehn", "10", "ten")])],
        allow=[send_to(TOM)],
    ),
    Task(
        "wd-mail-priya-fr",
        "mail",
        [
            Turn(
                "Envoie un mail à Priya pour lui dire que son livre est prêt",
                [
                    C("find_contact", query="Priya"),
                    C(
                        "send_email",
                        to=[PRIYA],
                        subject="Ton livre",
                        body="Bonjour Priya, ton livre est prêt. Alex",
                    ),
                    "Envoyé.",
                ],
            )
        ],
        expect=[sent_mail([PRIYA], body=[("livre", "book")])],
        allow=[send_to(PRIYA)],
    ),
    Task(
        "wd-mail-anna-wine",
        "mail",
        [
            Turn(
                "Answer Anna's last email saying I'll bring the wine",
                [
                    C("search_emails", query="Anna"),
                    C(
                        "reply_email",
                        email_id=mail("anna-dinner-re"),
                        body="Hi Anna, of course, I'll bring the wine! Alex",
                    ),
                    "Replied to Anna.",
                ],
            )
        ],
        expect=[
            sent_mail([ANNA], body=[("wine", "wein", "vin", "vino")], reply_to="anna-dinner-re")
        ],
        allow=[reply_to("anna-dinner-re"), reply_to("anna-dinner")],
    ),
    Task(
        "wd-rem-plumber",
        "memory",
        [
            Turn(
                "Don't let me forget to call the plumber at 5pm",
                [
                    C("set_reminder", text="Call the plumber", at="2029-05-15T17:00"),
                    "I'll remind you at 17:00.",
                ],
            )
        ],
        expect=[reminder_added("2029-05-15T17:00", ("plumber",))],
    ),
    Task(
        "wd-rem-steuer-de",
        "memory",
        [
            Turn(
                "Erinnere mich morgen um 8 an die Steuererklärung",
                [
                    C("set_reminder", text="Steuererklärung", at="2029-05-16T08:00"),
                    "Erinnerung gesetzt: morgen 08:00.",
                ],
            )
        ],
        expect=[reminder_added("2029-05-16T08:00", ("steuer", "tax"))],
    ),
    Task(
        "wd-rem-maman-fr",
        "memory",
        [
            Turn(
                "Rappelle-moi dans deux heures d'appeler maman",
                [
                    C("set_reminder", text="Appeler maman", at="2029-05-15T11:30"),
                    "C'est noté : rappel à 11h30.",
                ],
            )
        ],
        expect=[reminder_added("2029-05-15T11:30", ("maman", "mum", "mom"))],
    ),
    Task(
        "wd-mem-shoes-es",
        "memory",
        [
            Turn(
                "Recuerda que mi talla de zapatos es 42",
                [C("remember", fact="La talla de zapatos de Alex es 42."), "Anotado."],
            )
        ],
        expect=[memory_added(("42",))],
    ),
    Task(
        "wd-todo-carwash",
        "calendar",
        [
            Turn(
                "Put 'book the car wash' on my list of things to do for Friday",
                [
                    C("add_task", title="Book the car wash", due="2029-05-18"),
                    "Added, due Friday.",
                ],
            )
        ],
        expect=[added_task(("car wash",), "2029-05-18")],
        allow=[Allow("add_task", lambda a, w: str(a.get("due", "")).startswith("2029-05-18"))],
    ),
    Task(
        "wd-todo-books-de",
        "calendar",
        [
            Turn(
                "Ich habe die Bücher in die Bibliothek zurückgebracht, hak das bitte ab",
                [
                    C("list_tasks"),
                    C("complete_task", task_id=task("library-books")),
                    "Erledigt.",
                ],
            )
        ],
        expect=[completed_task("library-books")],
        allow=[on_task("complete_task", "library-books")],
    ),
    Task(
        "wd-contact-jonas-fr",
        "memory",
        [
            Turn(
                "Quel est le numéro de téléphone de Jonas ?",
                [C("find_contact", query="Jonas"), "Jonas Weber : +49 30 5550104."],
                facts=[("5550104",)],
            )
        ],
    ),
    Task(
        "wd-ask-haircut",
        "missing_info",
        [Turn("Book me a haircut.", ["Sure. When should the haircut be?"], asks=True, about=WHEN)],
    ),
    Task(
        "wd-ask-mail-de",
        "missing_info",
        [
            Turn(
                "Schreib Jonas eine Mail.",
                ["Was soll in der Mail an Jonas stehen?"],
                asks=True,
                about=(*CONTENT, "was soll", "was möchtest", "inhalt"),
            )
        ],
    ),
    Task(
        "wd-chat-spider-de",
        "chat",
        [Turn("Wie viele Beine hat eine Spinne?", ["Acht."], facts=[("8", "acht", "eight")])],
        no_tools=True,
    ),
    Task(
        "wd-chat-week-es",
        "chat",
        [Turn("¿Cuántos días tiene una semana?", ["Siete."], facts=[("7", "siete", "seven")])],
        no_tools=True,
    ),
]

TASKS: list[Task] = [*CALENDAR, *MAIL, *FILES, *MEMORY, *COMBINED, *MISSING, *CHAT, *WORDED]
BY_ID = {task.id: task for task in TASKS}
CATEGORIES = ["calendar", "mail", "files", "memory", "combined", "missing_info", "chat"]

# The default run on a real model (Hearth and plain on a 0.5B model plus SmolLM2 as a floor in
# about 25 minutes on 2 busy cores): the acting kinds, a question and a chat.
DEFAULT_SUBSET = [
    "cal-today",
    "cal-move-dentist",
    "mail-flight",
    "mail-reply-priya",
    "files-groceries",
    "rem-flowers",
    "ask-email-tom",
    "chat-capital",
]
