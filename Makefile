# Stepwell: `make run` serves the app on http://127.0.0.1:8000, `make test` runs the whole suite.
# Both create .venv and install what they need on a fresh machine.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest processes for `make test` (pytest-xdist; each test file runs whole in one of them; 0: one process)
PYTEST_WORKERS ?= 2

.PHONY: run test install install-test migrate lint browser-deps fault-deps clean translations

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

migrate: install
	$(BIN)/python -m app.db.migrate

run: migrate
	$(BIN)/uvicorn app.main:create_app --factory --host $(HOST) --port $(PORT) --ws-per-message-deflate false

# Debian chromium for the browser tests (Playwright drives it; it never downloads a browser).
browser-deps:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "browser-deps: installing Debian chromium + CJK fonts for the browser tests (apt-get, a minute or two)…"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; fi; \
		echo "browser-deps: chromium installed."; \
	fi

# Debian nginx for the fault tests (tests/faults/ run it in front of two instances, as deployed);
# the tests run nginx themselves on free ports, never the package's service.
fault-deps:
	@if [ ! -x /usr/sbin/nginx ]; then \
		echo "fault-deps: installing Debian nginx for the fault tests (apt-get)…"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; fi; \
		echo "fault-deps: nginx installed."; \
	fi

# TypeScript, the one npm dev dependency (package-lock.json pins it), checks static/'s JS (tsconfig.json).
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

test: install-test browser-deps fault-deps node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	node_modules/.bin/tsc --noEmit -p .
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)
	node --test tests/js/

lint: install-test
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) data node_modules .pytest_cache .ruff_cache .mypy_cache

# Re-extract translatable strings and merge them into the Japanese catalog.
translations: install-test
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k _ -k t --no-location --omit-header -o data/messages.pot .
	$(BIN)/pybabel update -i data/messages.pot -l ja -D messages -o app/translations/ja.po
	# Each game's words (N_ in games/<id>/) go to that game's own translations/ja.po.
	for dir in games/*/words.py; do game=$$(dirname $$dir); id=$$(basename $$game); \
	  $(BIN)/pybabel extract -k N_ --no-location --omit-header -o data/game-$$id.pot $$game && \
	  if [ -f $$game/translations/ja.po ]; then \
	    $(BIN)/pybabel update -i data/game-$$id.pot -l ja -D messages -o $$game/translations/ja.po; \
	  else \
	    $(BIN)/pybabel init -i data/game-$$id.pot -l ja -D messages -o $$game/translations/ja.po; \
	  fi; \
	done

# Several instances without Docker (the docker-compose.yml topology): local PostgreSQL + Redis,
# the worker, two web instances on ports 8001 and 8002. `make cluster-stop` ends them.
.PHONY: cluster cluster-stop
cluster: install
	scripts/cluster.sh start

cluster-stop:
	scripts/cluster.sh stop
