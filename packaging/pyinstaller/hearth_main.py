"""Entry point of the frozen app: the same `main` as `python -m app`."""

import multiprocessing

# The document index runs its passes in a child process started with "spawn"
# (app/agent/documents/index_process.py): in the frozen app that child is this executable again, and
# freeze_support() makes it run the pass instead of opening a second window.
multiprocessing.freeze_support()

from app.__main__ import main  # noqa: E402

raise SystemExit(main())
