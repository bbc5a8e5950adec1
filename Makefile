# Two commands for a new checkout: `make run` opens the app, `make test` runs the whole test suite.
# Both create and re-use the virtual environment in .venv. `make lint` and `make test` start with
# tests/import_check.py: the layers hold and every package imported directly is declared.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# One xdist worker more than there are cores (at most 4): the tests without a model wait on
# their servers and child processes part of the time, and two workers left two cores 17% idle.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n + 1 < 4 ? n + 1 : 4 )))
# mypy's cache outlives the checkout: a fresh clone then type-checks in a second, not in 20
# (mypy re-checks any file whose contents changed).
MYPY_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/hearth/mypy

.PHONY: run test lint environment package package-test clean-venv

run: $(VENV)/.app-installed
	$(PY) -m app.llm.embedded
	$(PY) -m app

test: $(VENV)/.test-installed
	$(PY) -m app.llm.embedded --all
	$(PY) -m tests.import_check
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy --cache-dir "$(MYPY_CACHE)"
	$(PY) -m pytest -m "not real_model" -n $(TEST_WORKERS); others=$$?; \
	$(PY) -m pytest -m real_model && exit $$others

lint: $(VENV)/.test-installed
	$(PY) -m tests.import_check
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy --cache-dir "$(MYPY_CACHE)"

# Installers: dist/hearth_<version>_amd64.deb and a tarball (docs/packaging.md).
package: $(VENV)/.app-installed $(VENV)/.package-tools
	packaging/build.sh

# Everything `make test` and `make package` need, without running either: CI sets it up first,
# then runs the two side by side, so that nothing installs into .venv while tests run.
environment: $(VENV)/.test-installed $(VENV)/.package-tools

# Builds the .deb and installs it into a clean Debian 12 chroot (root only).
package-test: package
	packaging/linux/test-deb.sh dist/hearth_$$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)_amd64.deb

$(VENV)/bin/python:
	packaging/linux/system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -U pip setuptools

# caldav needs urllib3-future, whose wheel replaces the real urllib3 for every package in the
# environment; built from source with URLLIB3_NO_OVERRIDE=1 it keeps to its own name.
PIP_INSTALL := URLLIB3_NO_OVERRIDE=1 $(PY) -m pip install --no-binary urllib3-future

# llama.cpp is compiled once, for any x86-64 CPU, into a cached wheel that both this venv and
# the installers use (packaging/linux/build-llama.sh).
$(VENV)/.llama-installed: pyproject.toml packaging/linux/build-llama.sh | $(VENV)/bin/python
	$(PY) -m pip install -q --no-deps --force-reinstall "$$(packaging/linux/build-llama.sh --wheel | tail -n 1)"
	touch $@

$(VENV)/.app-installed: pyproject.toml $(VENV)/.llama-installed | $(VENV)/bin/python
	$(PIP_INSTALL) -e .
	touch $@

# The installer tools (PyInstaller, pinned) in the same environment.
$(VENV)/.package-tools: packaging/requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install -q -r packaging/requirements.txt
	touch $@

$(VENV)/.test-installed: pyproject.toml $(VENV)/.llama-installed | $(VENV)/bin/python
	packaging/linux/system-deps.sh --test
	$(PIP_INSTALL) -e '.[test]'
	touch $@ $(VENV)/.app-installed

clean-venv:
	rm -rf $(VENV)
