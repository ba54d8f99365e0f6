# Arbiter — the two promised commands are `make run` and `make test`; both bootstrap
# .venv from python3 on a fresh machine.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench bench-quick schema schema-check lint fuzz load clean

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

# schemathesis for a long run against a server the tests start (tests/hardening).
FUZZ_EXAMPLES ?= 1000
fuzz: $(STAMP)
	ARBITER_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -q -p no:cacheprovider \
		tests/hardening/test_schemathesis.py

# The 30 s load test, with Redis up and with a private redis-server killed halfway.
load: $(STAMP)
	ARBITER_LOAD=1 $(BIN)/python -m pytest -q -s -p no:cacheprovider tests/load

lint: $(STAMP)
	$(BIN)/ruff check service tests
	$(BIN)/mypy --strict service/arbiter

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
