"""Hearth: an on-device personal assistant that asks before it acts."""

APP_NAME = "Hearth"
__version__ = "0.1.0"
