"""Who a call's recipients are in the user's address books, for the confirmation dialog.

Before asking about a call that names recipients (send_email's to and cc, create_event's
attendees) or reaches them implicitly (reply_email: the original's sender, read from the
email by the mail connector), the agent looks each address up in the user's address books,
in its own worker thread, and gives the dialog the facts:
"sophie.martin@example.org: Sophie Martin (from your contacts)". Code does the lookup from
the exact arguments that will run; the model neither chooses what is looked up nor sees what
was found (the names never enter its context).

A failing address book (the server is down, the password changed) never stops or delays the
question beyond the connector's timeout: the dialog simply shows no names.

The safety decision: **an address found in the contacts does not count as typed by the user.**
The gate (`app.agent.gate.policy`) still says "you did not type the recipient", no "always allow"
is offered for it and no standing grant covers it, and the dialog still marks it as a value
the user never typed; it only adds whose address it is. Being in an address book is not the
user's word for this message, because an address book is not only the user's own writing:

- it can be shared (a family or team book on Nextcloud or iCloud that others edit), so a card
  "Sophie Martin" may have been written or changed by someone else;
- it can be auto-collected (Nextcloud Mail's "Recently contacted", Gmail's "Other contacts",
  Thunderbird's "Collected addresses" fill themselves from mail traffic), so an attacker's
  address gets in by writing to the user or being answered once;
- Hearth's own model can write it (add_contact, update_contact): a fooled model that had one
  change approved, perhaps in another conversation, would otherwise have made an address
  "trusted" for every later message.

So a contact's name is information for the user, not a fact the gate may lower a decision on;
the gate's rules, and their 100% branch coverage, are untouched. What the dialog does show,
code decides: an untyped recipient that is in no address book is said to be so.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from app.agent.gate.arguments import RECIPIENT_ARGUMENT_NAMES, items, recipients

log = logging.getLogger(__name__)

# Bare addresses in, {address: the contact's name} out; raises when the books cannot be read.
ContactLookup = Callable[[Sequence[str]], Mapping[str, str]]

MAX_NAME = 80
MAX_LOOKUPS = 50  # a call with more recipients than this is shown without names


def recipient_addresses(arguments: Mapping[str, Any]) -> list[str]:
    """Every recipient the call names, as written ("Name <a@b>" stays whole), in order."""
    found = [
        recipient
        for name, value in items(dict(arguments))
        if name in RECIPIENT_ARGUMENT_NAMES
        for recipient in recipients(value)
    ]
    return list(dict.fromkeys(found))


def bare(recipient: str) -> str:
    """The address inside "Name <a@b>", or the whole text."""
    text = recipient.strip()
    if text.endswith(">") and "<" in text:
        return text[text.rindex("<") + 1 : -1].strip()
    return text


def clean_name(name: str) -> str:
    """A name as the dialog may show it: one line, no control or invisible characters (a
    right-to-left override could make the address beside it read backwards), short."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in str(name))
    text = " ".join(kept.split())
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1] + "…"


def contact_names(
    lookup: ContactLookup | None, recipients_named: Iterable[str]
) -> tuple[tuple[tuple[str, str], ...], bool]:
    """((recipient, name) for each recipient found in the address books, whether the books
    were read). Never raises: a lookup that fails only loses the names."""
    named = list(recipients_named)
    if lookup is None or not named or len(named) > MAX_LOOKUPS:
        return (), False
    addresses = [bare(r) for r in named]
    try:
        found = lookup(addresses)
    except Exception as exc:  # the address book is down: ask without names
        log.info("the address books could not be read (%s)", type(exc).__name__)
        return (), False
    pairs = []
    for recipient, address in zip(named, addresses, strict=True):
        name = clean_name(found.get(address, ""))
        if name:
            pairs.append((recipient, name))
    return tuple(pairs), True
