# Two commands for a new checkout: `make run` opens the app, `make test` runs the whole test suite.
# Both create and re-use the virtual environment in .venv.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test lint clean-venv

run: $(VENV)/.app-installed
	$(PY) -m app.llm.embedded
	$(PY) -m app

test: $(VENV)/.test-installed
	$(PY) -m app.llm.embedded
	$(PY) -m ruff check .
	$(PY) -m pytest

lint: $(VENV)/.test-installed
	$(PY) -m ruff check .

$(VENV)/bin/python:
	packaging/linux/system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -U pip

$(VENV)/.app-installed: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(VENV)/bin/python
	packaging/linux/system-deps.sh --test
	$(PY) -m pip install -e '.[test]'
	touch $@ $(VENV)/.app-installed

clean-venv:
	rm -rf $(VENV)
