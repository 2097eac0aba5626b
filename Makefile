# The two commands: `make run` (set up everything and start the system on the
# embedded default; `make venue` for phones on the venue network) and
# `make test` (set up and run every test).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PYTHON := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: secret-key run venue test test-fast bench bench-load bench-broadcast bench-ui fuzz lint format venv migrate demo clean chromium nginx messages

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PYTHON) || $(PY) -m venv $(VENV)
	$(PYTHON) -m pip install -q --upgrade pip
	$(PYTHON) -m pip install -q -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed

# var/ (0700) and this installation's random secret key (var/secret_key, 0600),
# made once and kept (core/secret_key.py); DJANGO_SECRET_KEY wins if set.
secret-key: venv
	$(PYTHON) -m core.secret_key

migrate: secret-key
	$(PYTHON) manage.py migrate --noinput
	$(PYTHON) manage.py compilemessages_if_needed
	$(PYTHON) manage.py ruleset_js

# The demo only in an empty database (no event, no account); it never touches
# an account afterwards. DEMO=0 starts without it: a server with no account
# prints a one-time code for the first-run setup page (README, "Accounts").
DEMO ?= 1
demo: migrate
	@if [ "$(DEMO)" = 0 ]; then echo "DEMO=0: no demo."; else \
	  $(PYTHON) manage.py demo_tournament --if-empty && \
	  $(PYTHON) manage.py demo_season --if-empty; fi

run: demo
	$(PYTHON) manage.py runall --host $(HOST) --port $(PORT)

# At the venue: listen on the network and print the address phones use (the
# score sheets' QR codes carry it). README, "At the venue".
# BACKUP_DIR=/media/usb: every event is backed up there every few minutes,
# rotating (docs/operations.md, "Automatic backups during the event").
venue: demo
	$(if $(BACKUP_DIR),VENUE_BACKUP_DIR=$(abspath $(BACKUP_DIR)) )$(PYTHON) manage.py runall --venue --port $(PORT)

# Debian's chromium for the browser tests (never a downloaded browser build).
chromium:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || echo "chromium missing: browser tests will be skipped (install Debian's chromium)"; }

# Debian's nginx for the production-stack test (tests/deploy/): the installed
# site is served on loopback ports; nothing is started as a service.
nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null) || echo "nginx missing: the production-stack test will be skipped (install Debian's nginx)"; }

# One test process per core (at most 4): each has its own test database and
# Redis database (config/settings/test.py); a file's tests stay together.
# TEST_WORKERS=0 runs them in this process.
TEST_WORKERS ?= auto
XDIST := -n $(TEST_WORKERS) --maxprocesses=4 --dist loadfile
# pytest keeps each test module's assertion-rewritten form in __pycache__
# (ignored by git); with PYTHONDONTWRITEBYTECODE set, as some shells have it,
# every test process rewrites every module again: measured, 7.5 s of CPU
# instead of 2.9 s to collect 1,259 tests, in each worker of each run.
PYTEST := PYTHONDONTWRITEBYTECODE= $(PYTHON) -m pytest

test: venv chromium nginx
	$(PYTHON) manage.py compilemessages_if_needed --settings=config.settings.test
	$(PYTHON) manage.py makemigrations --check --dry-run --settings=config.settings.test
	$(PYTEST) $(XDIST) $(PYTEST_ARGS)

test-fast: venv
	$(PYTEST) $(XDIST) -m "not e2e and not slow" $(PYTEST_ARGS)

bench: migrate
	$(PYTHON) -m games.engine bench
	$(PYTHON) manage.py bench_pairing
	$(PYTHON) manage.py bench_printing
	$(PYTHON) manage.py bench_season
	$(PYTHON) manage.py bench_ratings_stats

# Load benchmarks against the real parts: PostgreSQL, Redis, gunicorn, Celery.
# Each (re)creates its own throw-away database; traffic only to 127.0.0.1.
PG_BENCH ?= postgres://postgres@127.0.0.1:5432
REDIS_BENCH ?= redis://127.0.0.1:6379
bench-load: venv
	DATABASE_URL=$(PG_BENCH)/bench_web REDIS_URL=$(REDIS_BENCH)/13 $(PYTHON) bench/standings_load.py
	DATABASE_URL=$(PG_BENCH)/bench_moves REDIS_URL=$(REDIS_BENCH)/12 $(PYTHON) bench/move_load.py
	DATABASE_URL=$(PG_BENCH)/dmpartners_bench REDIS_URL=$(REDIS_BENCH)/5 $(PYTHON) bench/alert_latency.py
	DATABASE_URL=$(PG_BENCH)/bench_poll REDIS_URL=$(REDIS_BENCH)/3 $(PYTHON) bench/poll_load.py

# One final table's moves pushed to 10,000 open viewers (Server-Sent Events,
# uvicorn) while 100 other tables log theirs: connections held, delivery
# latency, lost and duplicated events, memory per connection (docs/push.md).
# Ports 8600/8601 on loopback; BROADCAST_ARGS="--viewers 2000 --push-workers 1".
bench-broadcast: venv
	DATABASE_URL=$(PG_BENCH)/bench_push REDIS_URL=$(REDIS_BENCH)/4 $(PYTHON) bench/broadcast_load.py $(BROADCAST_ARGS)

# The table device tapped through by a player on a 390x844 phone (Playwright,
# Debian's chromium, gunicorn on a throw-away SQLite database): taps per move,
# page scrolls, confirm -> board and -> stored (JSON).
bench-ui: secret-key chromium
	$(PYTHON) manage.py compilemessages_if_needed
	$(PYTHON) bench/table_ui.py $(BENCH_UI_ARGS)

# Schemathesis deeper than in `make test` (same test, more examples per operation).
fuzz: secret-key
	$(PYTHON) manage.py compilemessages_if_needed
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-25} $(BIN)/pytest tests/security/test_api_fuzz.py -q

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy core accounts games judging competition tournament people printing season signup ratings stats config deploy
	$(BIN)/lint-imports
	$(PYTHON) manage.py ruleset_js --check

format: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

messages: secret-key
	$(PYTHON) manage.py makemessages -l da -l en --ignore=.venv --ignore=var

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
