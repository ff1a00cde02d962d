# The README's two commands are `make serve` and `make test`; both set up what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup system-deps serve test lint conformance bench clean

$(BIN)/ocp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

setup: $(BIN)/ocp

# Chromium (browser tests) and PostgreSQL (store tests) come from Debian's packages.
system-deps:
	bash scripts/system-deps.sh

serve: setup
	$(BIN)/ocp serve --host $(HOST) --port $(PORT)

lint: setup
	$(BIN)/ruff check app tests bench
	$(BIN)/ruff format --check app tests bench

test: setup system-deps lint
	$(BIN)/pytest

conformance: setup
	PATH="$(CURDIR)/$(BIN):$$PATH" $(PYTHON) ../shared/tools/conformance.py ../shared/conformance

bench: setup
	$(BIN)/python bench/lint.py
	$(BIN)/python bench/render.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .hypothesis
