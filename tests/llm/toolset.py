"""A realistic subset of the assistant's tools (names and arguments as in DESIGN.md)."""

from __future__ import annotations

from app.llm.tools import ToolSpec, tool_map

LIST_EVENTS = ToolSpec(
    "list_events",
    "List calendar events between two moments.",
    {
        "type": "object",
        "properties": {
            "start": {"type": "string", "format": "date-time", "description": "ISO 8601"},
            "end": {"type": "string", "format": "date-time", "description": "ISO 8601"},
            "calendar": {"type": "string", "maxLength": 60},
        },
        "required": ["start", "end"],
    },
)
SEND_EMAIL = ToolSpec(
    "send_email",
    "Send an email.",
    {
        "type": "object",
        "properties": {
            "to": {
                "type": "array",
                "items": {"type": "string", "format": "email"},
                "minItems": 1,
                "maxItems": 5,
            },
            "subject": {"type": "string", "maxLength": 80},
            "body": {"type": "string", "maxLength": 2000},
            "cc": {"type": "array", "items": {"type": "string", "format": "email"}},
        },
        "required": ["to", "subject", "body"],
    },
)
WEB_SEARCH = ToolSpec(
    "web_search",
    "Search the web.",
    {
        "type": "object",
        "properties": {
            "query": {"type": "string", "maxLength": 120},
            "max_results": {"type": "integer", "minimum": 1, "maximum": 10},
        },
        "required": ["query"],
    },
)
SET_REMINDER = ToolSpec(
    "set_reminder",
    "Remind the user of something at a given time.",
    {
        "type": "object",
        "properties": {
            "text": {"type": "string", "maxLength": 200},
            "at": {"type": "string", "format": "date-time"},
        },
        "required": ["text", "at"],
    },
)
LIST_EMAILS = ToolSpec(
    "list_emails",
    "List emails in a folder.",
    {
        "type": "object",
        "properties": {
            "folder": {"type": "string", "enum": ["inbox", "sent", "drafts", "archive"]},
            "unread_only": {"type": "boolean"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        },
        "required": [],
    },
)
WRITE_FILE = ToolSpec(
    "write_file",
    "Write a text file.",
    {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "content": {"type": "string"},
            "overwrite": {"type": "boolean"},
        },
        "required": ["path", "content"],
    },
)
FIND_FREE_TIME = ToolSpec(
    "find_free_time",
    "Find free slots in the calendar.",
    {
        "type": "object",
        "properties": {
            "start": {"type": "string", "format": "date-time"},
            "end": {"type": "string", "format": "date-time"},
            "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 480},
        },
        "required": ["start", "end", "duration_minutes"],
    },
)
CREATE_EVENT = ToolSpec(
    "create_event",
    "Create a calendar event.",
    {
        "type": "object",
        "properties": {
            "title": {"type": "string", "maxLength": 100},
            "start": {"type": "string", "format": "date-time"},
            "end": {"type": "string", "format": "date-time"},
            "location": {"type": ["string", "null"], "maxLength": 100},
            "description": {"type": "string", "maxLength": 1000},
            "attendees": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "email": {"type": "string", "format": "email"},
                        "name": {"type": "string", "maxLength": 60},
                    },
                    "required": ["email"],
                },
            },
        },
        "required": ["title", "start", "end"],
    },
)
READ_WEBPAGE = ToolSpec(
    "read_webpage",
    "Read a web page.",
    {
        "type": "object",
        "properties": {"url": {"type": "string", "format": "uri"}},
        "required": ["url"],
    },
)

ALL = [
    LIST_EVENTS,
    SEND_EMAIL,
    WEB_SEARCH,
    SET_REMINDER,
    LIST_EMAILS,
    WRITE_FILE,
    FIND_FREE_TIME,
    CREATE_EVENT,
    READ_WEBPAGE,
]
TOOLS = tool_map(ALL)
