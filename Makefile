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

.PHONY: install run test lint typecheck sandbox bench
install: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check engine bot fakediscord tests

typecheck: $(STAMP)
	$(BIN)/mypy engine bot fakediscord

test: lint typecheck
	$(BIN)/python -m pytest

sandbox: $(STAMP)
	$(BIN)/python -m bot.sandbox

bench: $(STAMP)
	$(BIN)/python -m engine.bench
