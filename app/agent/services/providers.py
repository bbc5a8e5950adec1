"""The mail and calendar providers the accounts dialog offers (Gmail, iCloud, Fastmail, …),
from the connectors' table of their settings.

Its own module, apart from `accounts`: the dialog is imported when the window starts, and the
account lifecycle loads caldav and the mail stack, which the presets (plain data) do not need.
"""

from __future__ import annotations

from connectors.presets import BY_KEY, Preset, presets_for

__all__ = ["Preset", "provider_preset", "provider_presets"]


def provider_presets(kind: str) -> list[Preset]:
    """The providers offered for `kind` ("mail" or "calendar"), with their servers, ports
    and hints; "Other" last."""
    return presets_for(kind)


def provider_preset(key: str) -> Preset:
    """One provider's preset by the key `provider_presets` gave it."""
    return BY_KEY[key]
