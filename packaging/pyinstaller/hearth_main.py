"""Entry point of the frozen app: the same `main` as `python -m app`."""

from app.__main__ import main

raise SystemExit(main())
