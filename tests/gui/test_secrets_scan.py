"""After a whole session — a mail account added (password to a real Secret Service), a chat
that used memory, a reminder and the mail tools (real Dovecot), an email carrying a one-time
code read — no file Hearth wrote holds the password: not the database or its WAL, not the
logs, not the settings. The one-time code is kept only where the user's own conversation is
kept (the database), never in the logs or the activity list, and "Delete all conversations
and memories" removes it from the files too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from app.store.database import Database
from app.store.models import AuditRecord, MessageRecord
from app.store.privacy import delete_conversations_and_memories
from app.ui.accounts_dialog import AccountsService
from app.ui.main_window import MainWindow
from connectors.mail import list_emails
from tests.agent.test_mail_agent import ALICE, USERS, _account, _deliver, servers  # noqa: F401
from tests.gui.test_accounts_dialog import files_containing, logs  # noqa: F401
from tests.scripting import call
from tests.support.mail_servers import account_settings

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")

PASSWORD = USERS[ALICE].password
CODE = "739214"
WAIT = 60_000


def test_no_password_or_code_left_behind(  # the fixtures are imported above
    qtbot,
    tmp_path: Path,
    servers,  # noqa: F811
    secret_service,
    logs: Path,  # noqa: F811
) -> None:
    dovecot, smtp = servers
    data = tmp_path / "data"
    _deliver(
        dovecot,
        ALICE,
        "no-reply@bank.example",
        "Your sign-in code",
        f"Your verification code is {CODE}. It expires in 10 minutes.",
    )
    # The account as Settings → Accounts saves it (database + keyring), through its service.
    service = AccountsService(data)
    saved: list[tuple[bool, str]] = []
    service.saved.connect(lambda in_keyring, message: saved.append((in_keyring, message)))
    service.save(
        account_settings(dovecot, smtp, ALICE, "Alice"),
        PASSWORD,
    )
    service.close()
    assert saved and saved[0][0], saved
    account = _account(servers, ALICE)
    [mail] = [m for m in list_emails(account, "INBOX") if m.subject == "Your sign-in code"]

    turns = [
        call("remember", fact="The gym closes at 22:00"),
        call("set_reminder", text="Gym bag", at="2099-01-01T08:00"),
        "Noted, and I will remind you.",
        call("list_emails", unread_only=True),
        call("read_email", email_id=mail.email_id),
        f"Your sign-in code is {CODE}.",
    ]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"format": "qwen3.5", "turns": turns}))
    window = MainWindow(script, data_dir=data)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.model_ready, timeout=WAIT)
    for text in ("Remember the gym hours and remind me", "What is my bank sign-in code?"):
        qtbot.waitUntil(lambda: not window.busy and window.send_button.isEnabled(), timeout=WAIT)
        window.input.setPlainText(text)
        window.send()
        qtbot.waitUntil(lambda: not window.busy, timeout=WAIT)
    view = window.chat_view.plain_text()
    assert "Read the email" in view and f"code is {CODE}" in view, view
    window.close()

    # The password: nowhere in the data folder (database, WAL, logs) or the settings folders.
    assert (data / "hearth.db").exists() and any(logs.iterdir())
    assert files_containing(data, PASSWORD) == []
    assert files_containing(secret_service.home / ".config", PASSWORD) == []
    # The code: never in the logs, nor in the activity list (its preview is hidden).
    assert files_containing(logs, CODE) == []
    database = Database.open(data)
    with database.session() as session:
        audit = list(session.scalars(select(AuditRecord)))
    assert "read_email" in {a.tool for a in audit}
    assert all(CODE not in a.result_preview + a.arguments_json for a in audit)
    # The conversation is saved with the email it read (the user's own history, like a mail
    # client's); deleting the history takes it, and so the code, out of the files too.
    holding = {p.name for p in files_containing(data, CODE)}
    assert holding <= {"hearth.db", "hearth.db-wal"}, holding
    with database.session() as session:
        if session.query(MessageRecord).count():  # saved conversations: the proof is real
            assert holding
    delete_conversations_and_memories(database)
    database.close()
    assert files_containing(data, CODE) == []
    assert files_containing(data, PASSWORD) == []
