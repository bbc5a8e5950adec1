"""Colours taken from the palette that keep WCAG AA contrast on light and dark desktops.

A fixed colour that reads well on white (#8a4b00, 6.8:1) falls to 1.9:1 on a dark theme. Here
a hue is only a wish: it is moved toward the palette's own text colour until it reaches the
contrast it needs against the background it is drawn on, so it passes on any palette whose
text passes.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

AA_TEXT = 4.5  # WCAG 2 1.4.3, normal-size text
AA_OUTLINE = 3.0  # WCAG 2 1.4.11, a focus ring or a control's outline


def _channel(value: float) -> float:
    return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4


def luminance(colour: QColor) -> float:
    """WCAG 2 relative luminance."""
    r, g, b = (_channel(c) for c in (colour.redF(), colour.greenF(), colour.blueF()))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio, from 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def mix(a: QColor, b: QColor, amount: float) -> QColor:
    """`a` with `amount` (0 to 1) of `b` in it."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * amount,
        a.greenF() + (b.greenF() - a.greenF()) * amount,
        a.blueF() + (b.blueF() - a.blueF()) * amount,
    )


def legible(wish: QColor, background: QColor, text: QColor, minimum: float = AA_TEXT) -> QColor:
    """`wish`, moved toward `text` just far enough to reach `minimum` against `background`."""
    for step in range(21):
        colour = mix(wish, text, step / 20)
        if contrast(colour, background) >= minimum:
            return colour
    return QColor(text)


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightnessF() < 0.5


# Hues for light and dark desktops (Material's red, green and amber families).
_HUES = {
    "added": ("#1b5e20", "#81c995"),
    "removed": ("#b3261e", "#f28b82"),
    "warning": ("#8a4b00", "#fdd663"),
    "danger": ("#b3261e", "#f28b82"),
    "success": ("#1b5e20", "#81c995"),
}


def hue(palette: QPalette, name: str) -> QColor:
    light, dark = _HUES[name]
    return QColor(dark if is_dark(palette) else light)


def on_window(palette: QPalette, name: str) -> QColor:
    """A coloured text (a warning) that reads on the window background."""
    window = palette.color(QPalette.ColorRole.Window)
    return legible(hue(palette, name), window, palette.color(QPalette.ColorRole.WindowText))


def focus_ring(palette: QPalette) -> QColor:
    """The highlight colour, made to stand out 3:1 from the window behind a focus ring."""
    window = palette.color(QPalette.ColorRole.Window)
    highlight = palette.color(QPalette.ColorRole.Highlight)
    return legible(highlight, window, palette.color(QPalette.ColorRole.WindowText), AA_OUTLINE)


def diff_colours(palette: QPalette) -> dict[str, tuple[QColor, QColor]]:
    """(text, background) for added and removed lines on the palette's Base: a faint tint of
    the hue behind a text colour that still passes AA against that tint."""
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    colours = {}
    for kind in ("added", "removed"):
        wish = hue(palette, kind)
        background = mix(base, wish, 0.12)
        colours[kind] = (legible(wish, background, text), background)
    return colours
