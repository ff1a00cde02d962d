# The README's two commands are `make serve` and `make test`; both set up what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup system-deps test-tools serve test check lint conformance bench bench-worst bench-floods bench-cli clean constraints schema-checks

# The suite runs on this many workers (pytest-xdist), each taking work from the others when
# it runs dry: a third of the suite waits on servers, deadlines and subprocesses, so more
# workers than cores keep the cores busy.
TEST_WORKERS ?= 4
# make check's tests mostly compute: as many workers as cores
CHECK_WORKERS ?= 2

$(BIN)/ocp: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[test]'
	touch $@

setup: $(BIN)/ocp

# Chromium (browser tests) and PostgreSQL (store tests) come from Debian's packages.
system-deps:
	bash scripts/system-deps.sh

# The test-only tools, fetched once before the workers start (each script is a no-op when its
# tool is there): the W3C Nu Html Checker, axe-core, Microsoft's SARIF multitool, Redocly CLI
# and schemathesis (a virtualenv of its own: it pins jsonschema-rs below the service's).
test-tools:
	sh scripts/fetch-vnu.sh >/dev/null
	sh scripts/fetch-axe.sh >/dev/null
	sh scripts/fetch-sarif-multitool.sh >/dev/null
	sh scripts/fetch-mcp-inspector.sh >/dev/null
	sh scripts/fetch-redocly.sh >/dev/null
	PYTHON=$(PYTHON) sh scripts/fetch-schemathesis.sh >/dev/null

serve: setup
	$(BIN)/ocp serve --host $(HOST) --port $(PORT)

lint: setup
	$(BIN)/ruff check app tests bench
	$(BIN)/ruff format --check app tests bench
	$(BIN)/mypy

# Everything: the lint, then every test, browser and PostgreSQL ones included.
test: setup system-deps lint test-tools
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

# The fast part, in under a minute: no browser, no real consumer, no waiting out deadlines.
check: setup system-deps lint
	$(BIN)/pytest -n $(CHECK_WORKERS) --dist worksteal -m "not browser and not slow"

conformance: setup
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python tests/conformance.py tests/data/conformance

bench: setup
	$(BIN)/python bench/lint.py
	$(BIN)/python bench/render.py

# The worst cases of issue 11 beside a benign document of the same size (minutes; --quick: 100 KB)
bench-worst: setup
	$(BIN)/python bench/worst.py

# One text of each detector's trigger repeated to 400 KB, beside a benign document (a minute)
bench-floods: setup
	$(BIN)/python bench/floods.py

# ocp lint's start-up, from the wheel installed in a fresh virtualenv (issue 13; about 2 minutes)
bench-cli: setup
	$(BIN)/python bench/cli.py

# The schema stage's screen, written out from the schema (app/schema_codegen.py): after any
# change to schema/opencheckpoint-0.1.schema.json (a test fails until it is written again).
schema-checks: setup
	$(BIN)/python -m app.schema_codegen

# Pin what the ranges in pyproject.toml resolve to today.
constraints:
	rm -rf .venv-pins && $(PYTHON) -m venv .venv-pins
	.venv-pins/bin/pip install --quiet '.[test]'
	{ echo "# Exact versions for CI and 'make setup' (pip install -c constraints.txt …); pyproject.toml"; \
	  echo "# holds the ranges users install from. Regenerate with 'make constraints' after changing them."; \
	  .venv-pins/bin/pip freeze --exclude ocp-viewer; } > constraints.txt
	rm -rf .venv-pins

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .hypothesis
