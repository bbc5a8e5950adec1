"""Turning a tool's CallToolResult into bounded text for the model.

A server may answer with text, images, sounds, links, embedded files and structured JSON; the
model reads text, so every block becomes text (non-text blocks a short placeholder) and the
whole is cut to a size the context window can afford.
"""

from __future__ import annotations

import json

from mcp.types import (
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

from .config import CallOutcome


def outcome_from_result(result: CallToolResult, max_chars: int) -> CallOutcome:
    """The result's text blocks joined by blank lines, other blocks as placeholders; with no
    text at all but structured content, that content as JSON; cut to max_chars."""
    parts: list[str] = []
    has_text = False
    for block in result.content:
        text, is_text = _block_text(block)
        parts.append(text)
        has_text = has_text or is_text
    if not has_text and result.structured_content is not None:
        parts.append(_as_json(result.structured_content))
    text = "\n\n".join(parts)
    truncated = len(text) > max_chars
    if truncated:
        text = text[: max(0, max_chars)]
    return CallOutcome(text=text, is_error=result.is_error, truncated=truncated)


def _block_text(block: ContentBlock) -> tuple[str, bool]:
    """One content block as text, and whether it was text (rather than a placeholder)."""
    if isinstance(block, TextContent):
        return block.text, True
    if isinstance(block, ImageContent):
        return f"[an image, {block.mime_type}]", False
    if isinstance(block, AudioContent):
        return f"[a sound recording, {block.mime_type}]", False
    if isinstance(block, ResourceLink):
        return f"[a link to {block.name}: {block.uri}]", False
    if isinstance(block, EmbeddedResource):
        resource = block.resource
        if isinstance(resource, TextResourceContents):
            return resource.text, True
        if isinstance(resource, BlobResourceContents):
            return f"[a file, {resource.mime_type or 'of unknown type'}: {resource.uri}]", False
    return f"[content of type {getattr(block, 'type', 'unknown')}]", False


def _as_json(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)
