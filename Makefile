# The two commands of the README: `make run` and `make test`. Everything else helps them.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup lint typecheck pytest bench clean client client-test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(STAMP)

run: setup client
	$(BIN)/tetrad serve --host 127.0.0.1 --port 8000 --data-dir .tetrad

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

# The client's protocol types must be what the server's models generate.
client-test: $(CLIENT_DEPS) setup
	cd client && npm run check:api && npm test

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy

pytest: setup client
	$(BIN)/pytest

test: lint typecheck client-test pytest

bench: setup
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/boxes_speed.py
	$(BIN)/python bench/dots_speed.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
