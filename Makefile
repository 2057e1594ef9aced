# Developer tasks. Everything runs inside .venv (created by scripts/setup).
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup test lint format typecheck bench check demo

setup:
	scripts/setup --dev

test:
	scripts/test

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: setup
	$(BIN)/mypy

check: lint typecheck test

bench: setup
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/verify_bench.py
	$(BIN)/python bench/turn_bench.py
	$(BIN)/python bench/qa_sweep.py
	$(BIN)/python bench/slack_load.py

demo: setup
	$(BIN)/prism ask --report northwind-outfitters "What do they use for search, and how is their conversion rate?"
