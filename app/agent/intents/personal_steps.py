"""Steps for the user's own things: reminders, memories, to-dos, contacts, and web searches.

Each is one lookup or one change with its arguments resolved by code (a reminder's time from
the user's words, a to-do found among the open ones by its title).
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from typing import Any

from app.agent.intents.calendar_steps import iso, outcome
from app.agent.intents.recognise import any_word_of, grounded
from app.agent.intents.router import Ask, Doing, HandOver, Steps, numbered
from app.agent.intents.when import read_when

# A reminder for a day without a time goes off in the morning.
_REMINDER_HOUR = time(9, 0)


def _items(record: Any) -> list[dict[str, Any]]:
    if record.status != "ok":
        raise HandOver(f"{record.name}: {record.result}")
    return [item for item in record.result or [] if isinstance(item, dict)]


def reminder(doing: Doing, slots: dict[str, str]) -> str:
    when = read_when(slots["when"], doing.now)
    if when is None:
        raise Ask("When should I remind you? (a day and a time)", "when")
    at = when.start_at(doing.now)
    if at is None:
        if when.part is not None:
            at = datetime.combine(when.day, time(when.part[0]), tzinfo=doing.now.tzinfo)
        elif when.day > doing.now.date():
            at = datetime.combine(when.day, _REMINDER_HOUR, tzinfo=doing.now.tzinfo)
        else:
            raise Ask(f"At what time on {when.day:%A %d %B}?", "when")
    if at <= doing.now and not when.day_given:
        at += timedelta(days=1)  # "at 6" said at seven in the evening: tomorrow
    what = slots["what"].strip()
    record = doing.call("set_reminder", text=what, at=iso(at))
    return outcome(record, f"Reminder set for {at:%A %d %B at %H:%M}: {what}")


def remember(doing: Doing, slots: dict[str, str]) -> str:
    fact = slots["fact"].strip()
    record = doing.call("remember", fact=fact)
    return outcome(record, f"I'll remember that: {fact}")


def recall(doing: Doing, slots: dict[str, str]) -> str:
    about = slots.get("about") or doing.request
    record = doing.call("recall", query=about)
    facts = [str(i.get("fact")) for i in _items(record)]
    if not facts:
        return f"I have nothing remembered about “{about}”."
    return "From what you asked me to remember:\n" + "\n".join(f"- {f}" for f in facts[:8])


def _due(doing: Doing, slots: dict[str, str]) -> str | None:
    when = read_when(slots["due"], doing.now) if slots.get("due") else None
    if when is None:
        return None
    at = when.start_at(doing.now)
    return iso(at) if at is not None else when.day.isoformat()


def todo_add(doing: Doing, slots: dict[str, str]) -> str:
    title = slots["title"].strip()
    due = _due(doing, slots)
    record = doing.call("add_task", title=title, due=due)
    return outcome(record, f"Added to your to-dos: {title}" + (f" (due {due})" if due else "."))


def todo_list(doing: Doing, slots: dict[str, str]) -> str:
    due = _due(doing, slots)
    before = None
    if due is not None:  # "due by Friday": up to the end of that day
        before = due if "T" in due else f"{due}T23:59"
    tasks = _items(doing.call("list_tasks", due_before=before))
    if not tasks:
        return "You have no open to-dos" + (f" due by {due}." if due else ".")
    lines = "\n".join(
        f"- {t.get('title')}" + (f" (due {t.get('due')})" if t.get("due") else "") for t in tasks
    )
    return f"Your open to-dos:\n{lines}"


def todo_done(doing: Doing, slots: dict[str, str]) -> str:
    words = slots["which"]
    tasks = _items(doing.call("list_tasks"))
    chosen = [t for t in tasks if t.get("task_id") == words]
    chosen = chosen or [t for t in tasks if grounded(words, str(t.get("title")), copied=False)]
    if not chosen:
        raise Ask(f"I couldn't find a to-do like “{words}”. Which one do you mean?", "which")
    if len(chosen) > 1:
        choices = [(t["task_id"], str(t.get("title"))) for t in chosen]
        raise numbered("Which one do you mean?", "which", choices)
    task = chosen[0]
    record = doing.call("complete_task", task_id=task["task_id"])
    return outcome(record, f"Done: {task.get('title')}.")


def contact(doing: Doing, slots: dict[str, str]) -> str:
    who = slots["who"]
    record = doing.call("find_contact", query=who)
    found = _items(record) if isinstance(record.result, list) else []
    if not found:
        return f"I found no contact called “{who}”."
    lines = []
    for person in found[:5]:
        details = [*person.get("emails", []), *person.get("phones", [])]
        lines.append(f"- {person.get('name')}: {', '.join(details) or 'no details'}")
    return "\n".join(lines)


def web(doing: Doing, slots: dict[str, str]) -> str:
    query = slots["query"]
    record = doing.call("web_search", query=query)
    if record.status != "ok":
        return outcome(record, "")
    results = _items(record)
    if not results:
        return f"The web search for “{query}” found nothing."
    lines = "\n".join(
        f"- {r.get('title')} ({r.get('url')}): {str(r.get('snippet') or '')[:160]}"
        for r in results[:5]
    )
    return f"Web results for “{query}”:\n{lines}"


def _choose(
    items: list[dict[str, Any]], key: str, label: str, slots: dict[str, str], what: str
) -> Any:
    """The one item the user's words name; several: a numbered question, whose answer comes
    back as `slots["chosen"]` (the item's key) beside the words, which find the items again."""
    words = slots["which"]
    chosen = [i for i in items if str(i.get(key)) == str(slots.get("chosen", "")).strip()]
    chosen = chosen or [i for i in items if any_word_of(words, str(i.get(label)))]
    if not chosen:
        raise Ask(f"I found no {what} like “{words}”. Which one do you mean?", "which")
    if len(chosen) > 1:
        choices = [(i[key], str(i.get(label))) for i in chosen]
        raise numbered("Which one do you mean?", "chosen", choices)
    return chosen[0]


def forget(doing: Doing, slots: dict[str, str]) -> str:
    words = slots["which"]
    record = doing.call("recall", query=words)
    facts = _items(record) if isinstance(record.result, list) else []
    if not facts:
        return f"I have nothing remembered about “{words}”."
    fact = _choose(facts, "memory_id", "fact", slots, "memory")
    done = doing.call("forget", memory_id=fact["memory_id"])
    return outcome(done, f"Forgotten: {fact.get('fact')}")


def _reminders(doing: Doing) -> list[dict[str, Any]]:
    record = doing.call("list_reminders")
    return _items(record) if isinstance(record.result, list) else []


def reminders_list(doing: Doing, slots: dict[str, str]) -> str:
    pending = _reminders(doing)
    if not pending:
        return "You have no reminders set."
    lines = "\n".join(
        f"- {datetime.fromisoformat(str(r['at'])):%a %d %b %H:%M}: {r.get('text')}" for r in pending
    )
    return f"Your reminders:\n{lines}"


def reminder_cancel(doing: Doing, slots: dict[str, str]) -> str:
    pending = _reminders(doing)
    if not pending:
        return "You have no reminders set."
    reminder = _choose(pending, "reminder_id", "text", slots, "reminder")
    record = doing.call("cancel_reminder", reminder_id=reminder["reminder_id"])
    return outcome(record, f"Cancelled the reminder: {reminder.get('text')}")


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# A phone number as people write one: a + or a digit, then digits with spaces, dashes,
# dots, slashes or brackets between, seven digits at least.
_PHONE = re.compile(r"(?<![\w@.])\+?\(?\d[\d\s./()-]{5,}\d(?![\w@])")


def contact_add(doing: Doing, slots: dict[str, str]) -> str:
    """The name from the model; the addresses and numbers read by code from the user's own
    words, exactly as typed."""
    emails = _EMAIL.findall(doing.request)
    phones = [
        " ".join(p.split()) for p in _PHONE.findall(doing.request)
        if sum(ch.isdigit() for ch in p) >= 7
    ]  # fmt: skip
    # The model may copy the address or number as the name: they are not one.
    name = " ".join(_PHONE.sub(" ", _EMAIL.sub(" ", slots["name"])).split()).strip(" ,;:")
    if not name:
        raise Ask("What is the person's name?", "name")
    record = doing.call("add_contact", name=name, emails=emails, phones=phones)
    said = ", ".join([*emails, *phones])
    return outcome(record, f"Added {name} to your contacts" + (f": {said}." if said else "."))


STEPS: dict[str, Steps] = {
    "set_reminder": reminder,
    "remember_fact": remember,
    "recall_fact": recall,
    "add_todo": todo_add,
    "list_todos": todo_list,
    "complete_todo": todo_done,
    "find_contact": contact,
    "search_web": web,
    "forget_fact": forget,
    "list_reminders": reminders_list,
    "cancel_reminder": reminder_cancel,
    "add_contact": contact_add,
}
