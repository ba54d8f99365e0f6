# Arbiter — the two promised commands are `make run` and `make test`; both bootstrap
# .venv from python3 on a fresh machine, installing the versions pinned in constraints.txt.
#
#   make run         serving dependencies only (no test or dev tools), then `arbiter serve`,
#                    configured by the ARBITER_* variables (ARBITER_PORT=9000 make run)
#   make test        the test and dev tools too, then the whole suite
#   make test-fast   the engine, the rulesets and their golden cases alone (no server)
#   make docs        the documentation site, from docs/ into site/ (served at /guide/)
#   make check-timing    the timing suite: the wall-clock bounds `make test` leaves out
#   make check-loaded    the hardening tests while stress-ng keeps four CPU hogs busy

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCK := constraints.txt
# Every install goes through the lock: a package it pins gets exactly that version.
INSTALL := $(BIN)/python -m pip install --quiet --constraint $(LOCK)
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: client-python run test check-timing check-loaded assets ts-toolchain test-fast source-check bench bench-quick schema schema-check docs docs-check \
	conformance conformance-check lint fuzz load lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(INSTALL) pip
	$(INSTALL) -e .
	touch $@

$(TEST_STAMP): pyproject.toml $(LOCK) $(RUN_STAMP) clients/python/pyproject.toml
	$(INSTALL) -e '.[test,dev]'
	$(INSTALL) -e clients/python
	touch $@

run: $(RUN_STAMP) assets
	$(BIN)/arbiter serve

test: $(TEST_STAMP) assets ts-toolchain
	$(BIN)/python -m pytest -q

# GraphiQL's browser files (npm packages pinned by the lock beside their package.json),
# installed into a git-ignored folder the service serves at /graphql: without npm, the
# page says how to get them, and everything else works.
VENDOR := service/arbiter/static/vendor
$(VENDOR)/node_modules/.installed: $(VENDOR)/package.json $(VENDOR)/package-lock.json
	npm ci --prefix $(VENDOR) --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

assets:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory \
		$(VENDOR)/node_modules/.installed; else echo "npm not found: GraphiQL's files are \
		not installed (GET /graphql says how); the rest of the service does not need them"; fi

# The TypeScript client's toolchain (its node_modules, from its lock), with which
# tests/test_sixth_ruleset.py compiles a client generated for one more ruleset: installed
# when npm is there; without it that check is skipped (outside CI).
TS_CLIENT := clients/typescript
$(TS_CLIENT)/node_modules/.installed: $(TS_CLIENT)/package.json $(TS_CLIENT)/package-lock.json
	npm ci --prefix $(TS_CLIENT) --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

ts-toolchain:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory \
		$(TS_CLIENT)/node_modules/.installed; else echo "npm not found: the TypeScript \
		client's toolchain is not installed, so its compile check is skipped"; fi

test-fast: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -m "not server and not redis" tests/engine tests/rulesets \
		tests/toy tests/contract tests/test_golden_engine.py tests/test_import_boundary.py \
		tests/test_code_shape.py

# The TypeScript client (clients/typescript/): npm ci from its lock, then its tests, which
# check it is generated from schema/openapi.json, build dist/ with tsc, and run against an
# `arbiter serve` they start from this .venv (its README says more).
.PHONY: test-clients-ts
test-clients-ts: $(TEST_STAMP)
	cd $(TS_CLIENT) && npm ci --no-audit --no-fund --loglevel=error && npm test

# The golden cases and catalogues against the rules texts in ../shared/rules (not part of
# the checkout, so not part of `make test`): .ci/run runs this where they are.
source-check: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider .ci/source_texts

bench: $(TEST_STAMP)
	$(BIN)/python -m tests.bench $(BENCH_ARGS)

bench-quick: $(TEST_STAMP)
	$(BIN)/python -m tests.bench --quick

# The generated artefacts: schema/ (OpenAPI, GraphQL SDL, JSON Schemas), docs/rules/ (each
# ruleset's catalogue in words) and docs/configuration.md's table (from the settings).
schema: $(RUN_STAMP)
	$(BIN)/arbiter export-schema --out schema
	$(BIN)/arbiter export-docs --out docs/rules --configuration docs/configuration.md

# The documentation site: the generated pages above, then docs/ built by MkDocs (Material
# theme, from the dev extra) into the git-ignored site/, offline; --strict fails on a
# broken link or a page missing from the nav. `arbiter serve` serves it at /guide/.
docs: $(TEST_STAMP) schema
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# clients/python's generated models and operations, from schema/openapi.json.
client-python: $(TEST_STAMP)
	$(BIN)/python clients/python/generate.py

schema-check: $(RUN_STAMP)
	$(BIN)/python -c "import sys; from pathlib import Path; from arbiter.cli.export_schema import stale; s = stale(Path('schema')); print('schema/ is stale: run make schema; differs:', *s) if s else print('schema/ is up to date'); sys.exit(1 if s else 0)"

docs-check: $(RUN_STAMP)
	$(BIN)/python -c "import sys; from pathlib import Path; from arbiter.cli.export_docs import CONFIGURATION, with_table, stale; s = stale(Path('docs/rules')); r = CONFIGURATION.read_text(); s += [str(CONFIGURATION)] if with_table(r) != r else []; print('stale: run make docs; differs:', *s) if s else print('docs/rules/ and the configuration table are up to date'); sys.exit(1 if s else 0)"

# The conformance suite (conformance/: every golden case as an HTTP request and the answer a
# conforming engine gives) from tests/cases/; run it with `arbiter conformance --base URL`.
conformance: $(RUN_STAMP)
	$(BIN)/arbiter export-conformance --cases tests/cases --out conformance

conformance-check: $(RUN_STAMP)
	$(BIN)/python -c "import sys; from pathlib import Path; from arbiter.cli.export_conformance import stale; s = stale(Path('tests/cases'), Path('conformance')); print('conformance/ is stale: run make conformance; differs:', *s[:20]) if s else print('conformance/ is up to date'); sys.exit(1 if s else 0)"

# schemathesis for a long run against a server the tests start (tests/hardening).
FUZZ_EXAMPLES ?= 1000
fuzz: $(TEST_STAMP)
	ARBITER_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -q -p no:cacheprovider \
		tests/hardening/test_schemathesis.py

# The timing suite: the tests marked `timing` bound how long something took by the wall
# clock (a probe beside hostile work, a budget kept within a tenth), which a busy machine
# breaks without the code being wrong, so `make test` leaves them out (tests/conftest.py).
# Run them alone, on a machine doing nothing else (docs/testing.md).
check-timing: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider --timing -m timing tests

# The hardening tests on a machine kept busy by four CPU hogs (stress-ng, from apt): every
# one of them must hold however loaded the machine is (the wall-clock bounds are the
# timing suite's).
check-loaded: $(TEST_STAMP)
	@command -v stress-ng >/dev/null || { echo "stress-ng not found (apt-get install stress-ng)"; exit 2; }
	stress-ng --cpu 4 --timeout 3600s --quiet & hogs=$$!; \
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/hardening; status=$$?; \
	kill $$hogs; wait $$hogs 2>/dev/null; exit $$status

# The 30 s load test, with Redis up and with a private redis-server killed halfway.
load: $(TEST_STAMP)
	ARBITER_LOAD=1 $(BIN)/python -m pytest -q -s -p no:cacheprovider tests/load

lint: $(TEST_STAMP)
	$(BIN)/ruff check service tests clients/python
	$(BIN)/mypy --strict service/arbiter

# Re-pin: resolve pyproject.toml's ranges afresh in a scratch venv, and write what got
# installed (every package, the extras' too, and pip itself) to constraints.txt. Run the
# tests after it, and commit the two together.
LOCK_VENV := .lock-venv
lock:
	rm -rf $(LOCK_VENV)
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOCK_VENV)/bin/python -m pip install --quiet -e '.[test,dev]'
	{ echo "# The versions every install uses (make run, make test, CI, deploy/Dockerfile):"; \
	  echo "# pip constraints, written by 'make lock' with $$($(LOCK_VENV)/bin/python -V)."; \
	  echo "# Constraints pin versions without adding packages: 'pip install -c $(LOCK) .'"; \
	  echo "# installs the serving dependencies alone, '.[test,dev]' the rest too."; \
	  $(LOCK_VENV)/bin/python -m pip freeze --all --exclude-editable \
	    | grep -v -E '^(setuptools|wheel)=='; } > $(LOCK)
	rm -rf $(LOCK_VENV)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .schemathesis
