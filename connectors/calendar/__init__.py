"""The calendar connector: CalDAV calendars as plain functions with typed results.

No Qt, no model, no policy: the gate decides whether a call may run; this code talks CalDAV
(through the ``caldav`` library, one short-lived client and a timeout per call) and turns every
failure into a ``CalendarError`` that names the account and says what to do.

    account = CalendarAccount("https://dav.example.org/", "alice", password, name="Work")
    list_events(account, start, end)                     # all calendars, repeats expanded
    find_free_time(account, start, end, 30)              # gaps inside 08:00-18:00
    event = create_event(account, "Dentist", start, end, location="Main St 1")
    update_event(account, event.event_id, title="Dentist (Dr. Lee)")
    delete_event(account, event.event_id)
    task = add_task(account, "Pay rent", due=parse_due("2026-12-05"))   # tasks (VTODO)
    complete_task(account, task.task_id)
    parse_when("2026-12-01T15:00", tz)                   # the model's ISO strings, strictly

Times are aware datetimes in the user's zone (``tz``, default the system zone); see
``connectors.calendar.events`` for event ids and how repeating events are changed.
"""

from .client import CalendarAccount
from .errors import CalendarError, CalendarErrorReason
from .events import (
    CalendarInfo,
    Event,
    EventChange,
    create_event,
    delete_event,
    find_free_time,
    get_event,
    list_calendars,
    list_events,
    make_event_id,
    parse_event_id,
    update_event,
)
from .freetime import WORKDAYS, FreeSlot, free_slots, merge_busy
from .tasks import (
    Task,
    add_task,
    complete_task,
    get_task,
    list_tasks,
    parse_due,
    parse_task_id,
    update_task,
)
from .times import local_zone, parse_day, parse_when

__all__ = [
    "WORKDAYS",
    "CalendarAccount",
    "CalendarError",
    "CalendarErrorReason",
    "CalendarInfo",
    "Event",
    "EventChange",
    "FreeSlot",
    "Task",
    "add_task",
    "complete_task",
    "create_event",
    "delete_event",
    "find_free_time",
    "free_slots",
    "get_event",
    "get_task",
    "list_calendars",
    "list_events",
    "list_tasks",
    "local_zone",
    "make_event_id",
    "merge_busy",
    "parse_day",
    "parse_due",
    "parse_event_id",
    "parse_task_id",
    "parse_when",
    "update_event",
    "update_task",
]
