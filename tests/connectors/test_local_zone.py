"""The system time zone comes from tzlocal and follows daylight saving.

The own lookup fell back to the current fixed UTC offset whenever it found no zone name: a
copied /etc/localtime (or ``TZ`` naming such a file) and every Windows computer. Events were
then an hour off for half the year.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import tzdata

from connectors.calendar.times import iana_name, local_zone, zone_name

WINTER = datetime(2026, 1, 15, 12, 0)
SUMMER = datetime(2026, 7, 15, 12, 0)


def _berlin_file() -> Path:
    return Path(tzdata.__file__).parent / "zoneinfo" / "Europe" / "Berlin"


def test_a_copied_zone_file_follows_dst(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "localtime"  # a copy, as some installers leave /etc/localtime
    shutil.copyfile(_berlin_file(), copy)
    monkeypatch.setenv("TZ", f":{copy}")
    zone = local_zone()
    assert WINTER.replace(tzinfo=zone).utcoffset() == timedelta(hours=1)
    assert SUMMER.replace(tzinfo=zone).utcoffset() == timedelta(hours=2)
    # Its name is no IANA name, so events are stored in UTC rather than under a bogus TZID.
    assert iana_name(zone) is None
    assert zone_name(zone) in ("CET", "CEST")


def test_a_named_zone_keeps_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    zone = local_zone()
    assert iana_name(zone) == zone_name(zone) == "America/New_York"
    assert SUMMER.replace(tzinfo=zone).utcoffset() == timedelta(hours=-4)


def test_the_zone_is_read_anew_when_it_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert local_zone() == ZoneInfo("Asia/Tokyo")
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    assert local_zone() == ZoneInfo("Europe/Lisbon")


def test_a_posix_rule_in_tz_still_gives_a_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "XYZ-3")  # no zoneinfo name: the current offset is the last resort
    zone = local_zone()
    assert zone.utcoffset(datetime.now(UTC)) is not None
    assert iana_name(zone) is None
