# Arbiter — the two promised commands are `make run` and `make test`; both bootstrap
# .venv from python3 on a fresh machine.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench bench-quick schema schema-check lint fuzz clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/arbiter serve --host 127.0.0.1 --port 8000

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m tests.bench $(BENCH_ARGS)

bench-quick: $(STAMP)
	$(BIN)/python -m tests.bench --quick

schema: $(STAMP)
	$(BIN)/arbiter export-schema --out schema

schema-check: $(STAMP)
	$(BIN)/python -c "import sys; from pathlib import Path; from arbiter.schema_export import stale; s = stale(Path('schema')); print('schema/ is stale: run make schema; differs:', *s) if s else print('schema/ is up to date'); sys.exit(1 if s else 0)"

lint: $(STAMP)
	$(BIN)/ruff check service tests
	$(BIN)/mypy --strict service/arbiter/engine service/arbiter/rulesets

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
