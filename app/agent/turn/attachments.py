"""Files the user attached to a message (the window's Attach… button, or a file dropped on it).

An attachment is read exactly as the read_file tool reads a file: by the files connector's
confined reader (connectors.files.read_file: no links out, no devices, text in any common
encoding, PDF and Word text, size limits), confined here to the attached file's own folder,
which the user chose by attaching it. It then enters the conversation as a read_file call and
its result, so that everything downstream treats it like any file read: the model sees it as
a tool result, the gate labels the conversation (someone else's text; the user's files), the
audit log and the saved conversation keep it, and the window shows its card.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.agent.tools.registry import ToolResult
from app.agent.turn.audit import AuditEntry
from app.agent.turn.chat import Conversation
from app.llm.tools import ToolCall

if TYPE_CHECKING:
    from app.agent.turn.loop import Agent, AgentEvent

TOOL = "read_file"
ATTACHED = "attached by you to your message"


def attach_files(
    agent: Agent, conversation: Conversation, emit: Callable[[AgentEvent], None]
) -> int:
    """Read the files attached to the message just added (`conversation.attachments`, which
    this empties) into the conversation; how many there were."""
    paths, conversation.attachments = list(conversation.attachments), []
    for path in paths:
        _attach(agent, conversation, Path(path), emit)
    return len(paths)


def _attach(
    agent: Agent, conversation: Conversation, path: Path, emit: Callable[[AgentEvent], None]
) -> None:
    from app.agent.turn.loop import AgentEvent, CallRecord
    from connectors.files import FileAccessError, Folders, read_file

    arguments = {"path": str(path)}
    record = CallRecord(TOOL, dict(arguments), "allow", reasons=[ATTACHED])
    source = f"the file {path.name}"
    try:
        text = read_file(Folders([path.parent]), path.name)
    except FileAccessError as exc:
        record.status, record.result = "error", str(exc)
        for_model = f"Error: {exc}"
    except OSError as exc:  # the folder itself is gone or unreadable
        record.status = "error"
        record.result = f"Hearth could not read {path.name}: {exc.strerror or exc}."
        for_model = f"Error: {record.result}"
    else:
        record.status = "ok"
        record.result = {"path": str(path), "text": text.text, "truncated": text.truncated}
        for_model = ToolResult(record.result).for_model()
    # Labelled as any file read: someone else's text, from the user's files.
    context = agent.context
    context.add_untrusted(source)
    context.add_private("files", for_model)
    agent.permissions.keep_private_marks(context.private_marks)
    agent.audit.write(
        AuditEntry(
            tool=TOOL,
            arguments=arguments,
            decision="allow",
            answer=None,
            status=record.status,
            reasons=[ATTACHED],
            result_preview=for_model[:300],
        )
    )
    call = ToolCall(TOOL, arguments)
    conversation.add("assistant", "", tool_calls=[call])
    emit(AgentEvent("call", call=record))
    conversation.add("tool", for_model, tool_call_id=call.id, name=TOOL, trusted=False)
