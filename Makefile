# The two commands of the README: `make run` and `make test`. Everything else helps them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make run HOST=0.0.0.0 PORT=9000` serves elsewhere. Only values given on the command line
# count: a shell's own HOST (the machine's name, in some shells) must not move the server.
RUN_HOST := $(if $(filter command line,$(origin HOST)),$(HOST),127.0.0.1)
RUN_PORT := $(if $(filter command line,$(origin PORT)),$(PORT),8000)

.PHONY: run test setup lint typecheck pytest bench clean client client-test infra-check fuzz-long soak soak-cluster \
	compiled clean-compiled python-client-models

# Dependencies at the exact versions of constraints.txt, the same the image installs.
# The Python client package (clients/python) is installed beside it, editable, so the
# tests and `tetrad-bot` use the files of this checkout.
$(STAMP): pyproject.toml constraints.txt clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --constraint constraints.txt -e '.[dev]' -e clients/python
	touch $@

setup: $(STAMP)

run: setup client compiled
	$(BIN)/tetrad serve --host $(RUN_HOST) --port $(RUN_PORT) --data-dir .tetrad

# The web client (client/): installed when its lock changes, built when its sources
# change (a stamp in dist/), unit-tested with Vitest. The server serves client/dist.
CLIENT_DEPS := client/node_modules/.installed
CLIENT_STAMP := client/dist/.built
CLIENT_SRC := $(shell find client/src client/public client/scripts -type f 2>/dev/null) \
	client/index.html client/vite.config.ts client/tsconfig.json client/package.json

$(CLIENT_DEPS): client/package.json $(wildcard client/package-lock.json)
	cd client && if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
	touch $@

$(CLIENT_STAMP): $(CLIENT_DEPS) $(CLIENT_SRC)
	cd client && npm run build
	touch $@

client: $(CLIENT_STAMP)

# The optional compiled build of the Dots and Boxes search (mypyc and Cython, from the dev
# dependencies; see tools/compiled.py): about 30-60 s, redone when core's Dots and Boxes
# sources change. Without a C compiler or Python's headers it says so and pure Python is
# used: the same moves, only slower. `make clean-compiled` goes back to pure Python.
COMPILED_STAMP := build/mypyc/.attempted
COMPILED_LOG := build/mypyc/build.log
COMPILED_SOURCES := $(wildcard core/*.py core/boxes/*.py core/ai/*.py core/ai/boxes/*.py \
	core/ai/boxes/*.pyx)

$(COMPILED_STAMP): $(STAMP) $(COMPILED_SOURCES) tools/compiled.py
	@mkdir -p $(@D)
	@echo "compiling the Dots and Boxes search with mypyc and Cython (log: $(COMPILED_LOG))"
	@$(BIN)/python -m tools.compiled build >$(COMPILED_LOG) 2>&1 \
		|| { $(BIN)/python -m tools.compiled clean; \
		echo "the compiled build failed (see $(COMPILED_LOG)): pure Python is used"; }
	@touch $@

compiled: $(COMPILED_STAMP)

clean-compiled:
	find core -name '*.so' -delete
	rm -rf build/mypyc

# The Python client's models, generated from the server's /openapi.json by
# datamodel-code-generator (tests/clients checks they are current, in `make test`).
python-client-models: setup
	$(BIN)/python clients/python/tools/generate_models.py

# The client's protocol types must be what the server's models generate.
client-test: $(CLIENT_DEPS) setup
	cd client && npm run check:api && npm test

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

# The container files: hadolint on the Dockerfile, `docker compose config` on the compose
# file (both run offline from wheels), and the checks of tests/infra. `make test` runs them
# as part of pytest.
infra-check: setup
	$(BIN)/pytest tests/infra -q

# The whole suite runs the compiled search if it is built; then the AI tests of Dots and
# Boxes run again on pure Python, which must stay as correct (core works without the build).
pytest: setup client compiled
	$(BIN)/pytest
	@if [ "$$($(BIN)/python -m tools.compiled status)" = built ]; then \
		echo "the Dots and Boxes AI tests again, on pure Python (TETRAD_AI_BUILD=pure)"; \
		TETRAD_AI_BUILD=pure $(BIN)/pytest -q tests/core/test_ai_boxes*.py; fi

test: lint typecheck client-test pytest

bench: setup
	$(BIN)/python -m pip install --quiet --constraint constraints.txt -e '.[dev,bench]'
	$(BIN)/python bench/boxes_speed.py
	$(BIN)/python bench/dots_speed.py

# Long runs, not part of `make test`: 100,000 hostile messages against a `tetrad serve`
# (FUZZ_CASES=…), and the soak: 200 rooms on two processes, one killed every 5 minutes
# (SOAK_MINUTES=…; see bench/soak.py); soak-cluster: the same on a Redis Cluster of its own
# (three masters, a replica each) with the master of a room killed in the middle.
FUZZ_CASES ?= 100000
fuzz-long: setup
	$(BIN)/python -m tests.fuzz.runner --cases $(FUZZ_CASES)

SOAK_MINUTES ?= 30
soak: setup
	$(BIN)/python bench/soak.py --minutes $(SOAK_MINUTES)

soak-cluster: setup
	$(BIN)/python bench/soak.py --minutes $(SOAK_MINUTES) --store cluster

clean: clean-compiled
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
