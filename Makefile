# Stepwell: `make run` serves the app on http://127.0.0.1:8000, `make test` runs the whole suite.
# Both create .venv and install what they need on a fresh machine.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest processes for `make test` (pytest-xdist; each test file runs whole in one of them; 0: one
# process). Three on a two-core machine: much of the suite waits on servers, browsers and sockets
# (with three, the run used 118 % CPU of the two cores' 200 %; bench/results/suite.md).
PYTEST_WORKERS ?= 3
# The suite writes bytecode even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# without it every pytest process rewrites each test module's asserts again, and every server
# and worker the tests start compiles app/ again.
PYTEST_ENV := PYTHONDONTWRITEBYTECODE=

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

# apt-get as root (sudo otherwise), waiting up to 10 min for another apt or dpkg to finish (on a
# fresh machine the system's own updates may hold the lock); a failure stops `make`.
APT_GET = $(if $(filter 0,$(shell id -u)),,sudo) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600

# Debian chromium for the browser tests (Playwright drives it; it never downloads a browser).
browser-deps:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "browser-deps: installing Debian chromium + CJK fonts for the browser tests (apt-get, a minute or two)…"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq chromium fonts-noto-cjk >/dev/null \
		&& echo "browser-deps: chromium installed." \
		|| { echo "browser-deps: installing chromium FAILED" >&2; exit 1; }; \
	fi

# Debian nginx for the fault tests (tests/faults/ run it in front of two instances, as deployed);
# the tests run nginx themselves on free ports, never the package's service.
fault-deps:
	@if [ ! -x /usr/sbin/nginx ]; then \
		echo "fault-deps: installing Debian nginx for the fault tests (apt-get)…"; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq nginx >/dev/null \
		&& echo "fault-deps: nginx installed." \
		|| { echo "fault-deps: installing nginx FAILED" >&2; exit 1; }; \
	fi

# npm dev tools (package-lock.json pins them): TypeScript checks static/'s JS (tsconfig.json), axe-core runs in
# the browser tests (tests/browser/test_accessibility.py), lighthouse in bench/lighthouse.py.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

test: install-test browser-deps fault-deps node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	node_modules/.bin/tsc --noEmit -p .
	node_modules/.bin/tsc --noEmit -p tsconfig.sw.json
	$(PYTEST_ENV) $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)
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
