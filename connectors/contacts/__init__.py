"""The contacts connector: address books over CardDAV on the calendar account.

    find_contacts(account, "sophie")                     # name, e-mail, phone or firm
    add_contact(account, "Sophie Martin", emails=["sophie@example.org"])
    update_contact(account, contact_id, phones=["+33 6 12 34 56 78"])
    contacts_by_email(account, ["sophie@example.org"])   # who holds these addresses

Failures are the calendar connector's ``CalendarError`` (same account, same messages).
"""

from connectors.contacts.carddav import (
    Contact,
    add_contact,
    contacts_by_email,
    find_contacts,
    get_contact,
    parse_contact_id,
    update_contact,
)

__all__ = [
    "Contact",
    "add_contact",
    "contacts_by_email",
    "find_contacts",
    "get_contact",
    "parse_contact_id",
    "update_contact",
]
