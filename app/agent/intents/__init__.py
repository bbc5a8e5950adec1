"""Intents with typed slots, in front of the free loop (issue #35).

The model maps a request onto one of a small set of declared intents (`catalog`) and copies
its slots from the user's words, under a grammar (`recognise`); code resolves dates and times
(`when`) and references against real data, asks when something is missing or ambiguous, and
runs the steps (`calendar_steps`, `mail_steps`, `personal_steps`, `web_steps`, …) as ordinary
tool calls through the gate (`router`). What the request plainly says ("remind me", "tell
Maria …") decides over the model's choice by an ordered table of rules (`rules`). Requests no
intent fits go to the free loop.
"""
