# Two entry points that work on a fresh clone: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

.PHONY: install run test lint typecheck sandbox bench soak test-pg
install: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check engine bot fakediscord tests

typecheck: $(STAMP)
	$(BIN)/mypy engine bot fakediscord tests migrations

test: lint typecheck
	$(BIN)/python -m pytest

sandbox: $(STAMP)
	$(BIN)/python -m bot.sandbox

bench: $(STAMP)
	$(BIN)/python -m engine.bench

# The full fuzz of forged interactions (issue 11): `make test` runs a fifth of it (520 inputs).
.PHONY: fuzz
fuzz: $(STAMP)
	FUZZ_INPUTS=2600 $(BIN)/python -m pytest tests/bot/test_fuzz.py -q -s

# The monkey play-test at length (tests/bot/test_monkey.py): `make test` runs 150 steps of
# three seeds and of one keen table; this runs 2,000 steps of twenty (and of the keen table).
.PHONY: monkey
monkey: $(STAMP)
	MONKEY_STEPS=2000 MONKEY_SEEDS=1-20 $(BIN)/python -m pytest tests/bot/test_monkey.py -q -s

# The crash test at length: the bot process SIGKILLed >= 100 times across the four presets
# and fast mode (docs/deploy.md). `make test` runs a short version of it.
soak: $(STAMP)
	CRASH_KILLS=120 CRASH_PRESETS=classic,presi,proletario,wild7 \
		$(BIN)/python -m pytest -p no:cacheprovider -s tests/bot/test_crash.py

# The whole bot suite storing to PostgreSQL on 127.0.0.1:5432 (tests/bot/databases.py): each
# test's databases are fresh ones, dropped after it. `make test` runs five whole games on it.
test-pg: $(STAMP)
	TEST_DATABASE=postgresql $(BIN)/python -m pytest tests/bot
