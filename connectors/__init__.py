"""Connectors to outside systems (calendar, mail, files, web): no Qt, no model, no policy."""
