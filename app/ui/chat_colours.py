"""The chat's colours, taken from the palette so they stay readable on light and dark desktops.

Fixed colours failed WCAG AA on a dark desktop (about 2:1). Each role has a colour for a light
and one for a dark base; whichever is used is then checked against the palette's own base and
moved towards the palette's text colour until it reaches 4.5:1, so an unusual theme still gets
readable text (the contrast arithmetic is shared with the dialogs: app.ui.contrast_colours).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette

from app.ui.contrast_colours import AA_TEXT, contrast, is_dark, mix

# role: (on a light base, on a dark base)
_CHOICES = {
    "user": ("#1f5fa8", "#8ab4f8"),
    "assistant": ("#2e7d32", "#81c995"),
    "error": ("#b3261e", "#f28b82"),
    "note": ("#5f5f5f", "#bdbdbd"),
    "link": ("#1a55a0", "#8ab4f8"),
}


@dataclass(frozen=True)
class ChatColours:
    text: QColor
    base: QColor
    code_background: QColor
    user: QColor
    assistant: QColor
    error: QColor
    note: QColor
    link: QColor

    def role(self, name: str) -> QColor:
        return {
            "user": self.user,
            "assistant": self.assistant,
            "error": self.error,
            "note": self.note,
        }.get(name, self.text)


def readable(colour: QColor, background: QColor, towards: QColor) -> QColor:
    """`colour`, or the first mix of it with `towards` that reaches AA on `background`."""
    if contrast(towards, background) < AA_TEXT:  # the theme's own text fails too
        black, white = QColor("#000000"), QColor("#ffffff")
        better = contrast(black, background) > contrast(white, background)
        towards = black if better else white
    for step in range(11):
        mixed = mix(colour, towards, step / 10)
        if contrast(mixed, background) >= AA_TEXT:
            return mixed
    return towards


def chat_colours(palette: QPalette) -> ChatColours:
    """The colours the chat view draws with, for this palette."""
    base = palette.color(QPalette.ColorRole.Base)
    text = readable(
        palette.color(QPalette.ColorRole.Text), base, palette.color(QPalette.ColorRole.Text)
    )
    dark = is_dark(palette)
    # A code block sits on a faint tint of the text colour, checked like every other colour.
    code_background = mix(base, text, 0.07)

    def pick(role: str) -> QColor:
        light_choice, dark_choice = _CHOICES[role]
        chosen = QColor(dark_choice if dark else light_choice)
        return readable(readable(chosen, base, text), code_background, text)

    return ChatColours(
        text=readable(text, code_background, text),
        base=base,
        code_background=code_background,
        user=pick("user"),
        assistant=pick("assistant"),
        error=pick("error"),
        note=pick("note"),
        link=pick("link"),
    )
