# The two commands that set everything up on a fresh machine: `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
GRADER := $(VENV)/bin/grader
STAMP := $(VENV)/.installed
DEMO_DB ?= sqlite:///$(CURDIR)/out/demo.db
PYTEST_ARGS ?=

.PHONY: install browser demo test bench lint console clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Debian's chromium for the browser tests and screenshots (Playwright drives it; it cannot download one).
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "chromium missing: run 'sudo apt-get install chromium' for the browser tests"; fi; \
	fi

demo: install
	@mkdir -p out
	GRADER_DATABASE_URL=$(DEMO_DB) bash scripts/demo.sh

test: install browser
	$(PY) -m pytest -q -n 2 $(PYTEST_ARGS)

bench: install
	@for b in benchmarks/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

console: install
	$(GRADER) console

clean:
	rm -rf out .pytest_cache
