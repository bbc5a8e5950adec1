"""Storage: SQLite through SQLAlchemy, schema owned by Alembic migrations (no Qt)."""
