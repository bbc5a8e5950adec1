"""Which tools a request is offered: the ones whose topic the conversation is about.

A small model chooses better among five tools than among twenty-two, and a shorter tool block
is a shorter prompt. The topics are read from the user's recent words with a fixed vocabulary
per topic (calendar words, mail words, ...); a request that names no topic gets every tool,
so nothing becomes impossible that was possible before. A tool not offered cannot be called
in that step (the parser refuses unknown names), and the gate still decides every call that
is made: selection is about choosing well, never about safety.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from app.agent.tools.declarations import TOOL_TOPICS, Topic

# Words (prefixes at a word start) that name a topic outright: the thing acted on ("email",
# "calendar", "file") or the act ("reply", "remind"). Day and time words are left out on
# purpose: "when is my flight?" may be answered by an email as well as by the calendar.
# Plural and verb forms are covered by the prefixes ("meeting" covers "meetings").
_VOCABULARY: dict[Topic, str] = {  # "|" between words; a trailing space is part of a word
    "calendar": (
        "calendar|schedul|event|meeting|appointment|agenda|diary|reschedul|postpone|"
        "invite|invitation"
    ),
    "mail": (
        "mail|email|e-mail|inbox|unread|message|reply|respond|send|sent|wrote|write to|"
        "newsletter|attach|news from|heard from|hear from"
    ),
    "files": (
        "file|folder|document|docx|pdf|csv|txt|spreadsheet|sheet|note|notes|list|report|"
        "statement|recipe|saved|save |download|.md|/|~|"
        # what a document says (search_documents, issue #23)
        "say about|says about|said about|according to|contract|lease|agreement|warranty|"
        "insurance|manual|policy|policies"
    ),
    "web": "the web|web search|internet|online|google|look up|website|http|www|weather",
    "memory": "remember|forget|recall|memory|memories|you know about|do you know",
    "reminders": "remind|alarm|alert|notify",
    # Not "phone number": "What's Jonas's phone number?" names no topic and gets every tool.
    "contacts": "contact|address book|email address of|whose address|birthday",
    "money": (
        "spend|spent|spending|expens|bank|statement|transaction|money|budget|cost|paid|"
        "purchas|merchant|afford|income"
    ),
    "opening": "open |open it|reveal|show me the folder|show the folder|file manager|browser",
    "tasks": "task|to-do|todo|to do|chore|errand|tick off|check off|mark as done|shopping list",
}

# One lookup tool per topic, offered beside the chosen topics' tools: a request names what
# it acts on, not always where the facts are ("put the doctor's appointment from the email
# in my calendar", "reply with the figures from my sheet").
_FINDERS = ("list_events", "search_emails", "search_files", "recall")
# Lookups a topic needs from another one: "email Sophie" names a person, and a small model
# resolves her address with find_contact (the dialog then says whose address it is).
_HELPERS: dict[Topic, tuple[str, ...]] = {"mail": ("find_contact",)}


def _word_start(word: str) -> str:
    """A pattern for `word` where a word starts ("plan" in "planned", not in "airplane")."""
    return (r"(?<![a-z])" if word[0].isalpha() else "") + re.escape(word)


_PATTERNS: dict[Topic, re.Pattern[str]] = {
    topic: re.compile("|".join(_word_start(word) for word in words.split("|")))
    for topic, words in _VOCABULARY.items()
}

# Signs that a request is about the user's own things even without a topic word: first
# person ("my flight", "did I spend"), someone's own ("Jonas's phone number"), a day ("What's
# on Thursday?"), or an order ("Move the dentist to Friday", "please update the location").
# Without any, it is small talk or general knowledge ("Thanks!", "What's the capital of
# Portugal?") and is offered no tool: the small models we measured otherwise call one for a
# "thank you".
_PERSONAL = re.compile(
    r"\b(?:i|i'm|i'll|i've|i'd|my|mine|we|we're|our|ours|us)\b"
    r"|\b(?!(?:what|that|it|there|here|who|where|how|let|he|she)'s\b)[A-Z][a-z]+'s\b"
    r"|\b(?:today|tonight|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|this week|next week|last week|weekend)\b"
    r"|(?:^\W*|\bplease\s+)(?:move|cancel|add|put|set|book|find|send|reply|schedule|delete|"
    r"remove|change|update|write|save|make|create|check|show|list|read|open|search|look|email|invite|"
    r"prepare|fix|plan|mark|forward|note|keep|store|file|clear|empty)\b",
    re.IGNORECASE,
)

# How many recent user messages count: a follow-up ("and reply that we pay on Monday",
# "tomorrow at 7") keeps the topics of the request it follows.
RECENT_MESSAGES = 2


def topics_of(text: str) -> set[Topic]:
    """The topics a user's message is about, from its words."""
    lowered = f" {text.lower()} "
    return {topic for topic, pattern in _PATTERNS.items() if pattern.search(lowered)}


def is_personal(text: str) -> bool:
    """Whether a message is about the user's own things (see `_PERSONAL`)."""
    return bool(_PERSONAL.search(text))


def select_tools(
    available: Sequence[str],
    user_messages: Sequence[str],
    used: Iterable[str] = (),
    descriptions: Mapping[str, str] | None = None,
) -> list[str]:
    """The names among `available` to offer: those on the topics of the recent user messages
    or of tools already used in this conversation, one lookup tool per other topic, and every
    tool without a topic. All of them when the words name no topic but the request is about
    the user's own things (a request we cannot place loses nothing). For small talk, none but
    the tools without a topic (a tool server's) whose name or description shares a word with
    the request ("what time is it in Tokyo" and a time server's get_current_time)."""
    recent = user_messages[-RECENT_MESSAGES:]
    topics: set[Topic] = set()
    for text in recent:
        topics |= topics_of(text)
    if not topics and not any(is_personal(text) for text in recent) and not used:
        said = _content_words(" ".join(recent))
        about = descriptions or {}
        return [
            name
            for name in available
            if name not in TOOL_TOPICS
            and _share_a_word(said, _content_words(f"{name} {about.get(name, '')}"))
        ]
    if not topics:
        return list(available)
    topics |= {TOOL_TOPICS[name] for name in used if name in TOOL_TOPICS}
    if not any(TOOL_TOPICS.get(name) in topics for name in available):
        return list(available)  # the topics' tools are not set up here
    helpers = {name for topic in topics for name in _HELPERS.get(topic, ())}
    return [
        name
        for name in available
        if name not in TOOL_TOPICS
        or TOOL_TOPICS[name] in topics
        or name in _FINDERS
        or name in helpers
    ]


# Words too common to tie a request to a tool.
_COMMON = frozenset({
    "the", "and", "for", "with", "from", "this", "that", "what", "when", "where", "which",
    "who", "how", "why", "your", "you", "are", "can", "could", "would", "should", "please",
    "tell", "about", "into", "have", "has", "had", "was", "were", "will", "just", "some",
    "any", "all", "get", "set", "use", "one", "not", "but", "its", "our", "out", "now", "here",
    "there", "them", "they", "then", "than", "also",
})  # fmt: skip


def _content_words(text: str) -> set[str]:
    return {
        word
        for word in re.findall(r"[a-z0-9]+", text.casefold().replace("_", " "))
        if len(word) >= 3 and word not in _COMMON
    }


def _share_a_word(said: set[str], about: set[str]) -> bool:
    """A word in common, or one the start of the other ("times" and "time", 4+ letters)."""
    return any(
        a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)))
        for a in said
        for b in about
    )
