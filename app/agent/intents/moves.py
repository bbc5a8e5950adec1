"""A move names an event, a to-do or a reminder: people "move" or "push back" all three.

The model is asked for one intent, `move_event`, whatever is moved. When no event holds the
words but one open to-do or one reminder does, that is moved instead (a to-do's due day, a
reminder's time); so it is when the best event holds only some of the words and a to-do or
reminder holds them all ("the car insurance": the to-do "Call the car insurance", not the
"Car service"). When nothing holds them and a new event was the close second choice, the
request is for that new event. Otherwise the calendar's move goes on (it offers the nearest
events).
"""

from __future__ import annotations

from app.agent.intents import calendar_steps, personal_steps
from app.agent.intents.language import asks_to_move, speaks_of_the_todo_list
from app.agent.intents.router import Doing, Instead, Steps


class _Moved(Exception):
    def __init__(self, answer: str) -> None:
        super().__init__(answer)
        self.answer = answer


def move(doing: Doing, slots: dict[str, str]) -> str:
    def elsewhere(wholly: bool = False) -> None:
        for other in (personal_steps.move_todo, personal_steps.move_reminder):
            moved = other(doing, slots, wholly)
            if moved is not None:
                raise _Moved(moved)
        if not wholly and "add_event" in doing.close and not asks_to_move(doing.request):
            # "Can you pop my appointment with the tax advisor on Thursday in?" taken for a
            # move, a new event close behind: nothing holds its words, so nothing is moved;
            # it is a new event
            raise Instead("add_event")

    try:
        no_calendar = doing.agent.registry.get("list_events") is None
        if (no_calendar or speaks_of_the_todo_list(doing.request)) and slots.get("event", ""):
            # no calendar, or the to-do list named ("cette tâche"): a to-do or a reminder
            # first
            elsewhere()
        return calendar_steps.move(doing, slots, not_found=elsewhere)
    except _Moved as moved:
        return moved.answer


STEPS: dict[str, Steps] = {"move_event": move}
