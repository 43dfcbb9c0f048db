# The two commands of README.md: `make run` and `make test`. Both set up .venv/ first (again
# only when pyproject.toml changes) and install what else they need (see bin/).
SHELL := /bin/bash
.DEFAULT_GOAL := run
.PHONY: run test lint format messages check-deploy lock

# make run: daphne, a Celery worker, Celery beat and (when REDIS_URL is unset) a private Redis.
# HOST and PORT choose where daphne listens (default 127.0.0.1:8000).
run:
	@bin/ensure-venv
	@bin/run

# make test: ruff, then the whole pytest suite (a private Redis when REDIS_URL is unset;
# PostgreSQL when DATABASE_URL is set). PYTEST_ARGS passes options: make test PYTEST_ARGS=-x
# The tests run in TEST_WORKERS parallel processes (pytest-xdist; "auto": one a core), each with
# its own test database and Redis (tests/redis_plugin.py); TEST_WORKERS=0 runs them in this one.
# worksteal: a worker that runs out takes tests queued for another, so that the few long browser
# tests do not leave one worker busy at the end while the other idles.
TEST_WORKERS ?= auto
test:
	@bin/ensure-venv test
	@bin/ensure-chromium
	@if [ -z "$${REDIS_URL:-}" ]; then REDIS_SERVER="$$(bin/ensure-redis)"; export REDIS_SERVER; fi; \
	    set -e; \
	    .venv/bin/ruff check .; \
	    .venv/bin/ruff format --check .; \
	    .venv/bin/lint-imports; \
	    .venv/bin/pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

lint:
	@bin/ensure-venv test
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/lint-imports

format:
	@bin/ensure-venv test
	.venv/bin/ruff check --fix .
	.venv/bin/ruff format .

# Needs gettext (msgfmt); the compiled .mo files are committed, so running the site does not.
messages:
	@bin/ensure-venv
	.venv/bin/python manage.py makemessages -l tr --no-obsolete \
	    --ignore 'static/vendor/*' --ignore 'var/*' --ignore 'tests/*' --ignore '.venv/*'
	.venv/bin/python manage.py compilemessages -l tr -l en --ignore '.venv/*'

# Refresh the lock files (requirements.lock, requirements-test.lock) from pyproject.toml: every
# package pinned with its hashes, at the newest versions pyproject.toml allows. Commit both.
lock:
	@bin/ensure-venv test
	bin/lock

# What `manage.py check --deploy` says with production-like settings.
check-deploy:
	@bin/ensure-venv
	DEBUG=0 SECRET_KEY="$$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	    ALLOWED_HOSTS=okey.example.com DATABASE_URL="$${DATABASE_URL:-sqlite:///$$PWD/var/okey.sqlite3}" \
	    REDIS_URL="$${REDIS_URL:-unix://$$PWD/var/redis.sock}" EMAIL_URL="$${EMAIL_URL:-consolemail://}" \
	    .venv/bin/python manage.py check --deploy
