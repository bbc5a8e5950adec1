"""The task benchmark: a seeded world on real servers, tasks with end-state checkers,
injected variants, and the systems compared (see bench/tasks/__main__.py and README)."""
