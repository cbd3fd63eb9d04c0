# Every target bootstraps .venv when it is missing or pyproject.toml or constraints.txt changed (pinned installs).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint format snapshots-update screenshots serve bench bench-quick constraints readme clean

$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]' -c constraints.txt
	@touch $(STAMP)

demo: $(STAMP)  ## open the TUI on the built-in sandbox
	$(BIN)/folio --demo

test: $(STAMP)  ## the whole test suite (contract tests fetch the public OpenAPI description with npm)
	$(BIN)/pytest

lint: $(STAMP)  ## what CI checks besides the tests
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff format src tests
	$(BIN)/ruff check --fix src tests

snapshots-update: $(STAMP)  ## regenerate snapshot SVGs: look at the report before committing them
	$(BIN)/pytest tests/snapshots --snapshot-update

screenshots: $(STAMP)  ## regenerate screenshots/ from the sandbox
	$(BIN)/python -m tests.snapshots.screenshots screenshots

serve: $(STAMP)  ## the sandbox over HTTP on 127.0.0.1:8765
	$(BIN)/folio sandbox serve --host 127.0.0.1 --port 8765

bench: $(STAMP)  ## every benchmark, full sizes (under 10 min on 2 cores); figures in .cache/bench/*.json
	$(BIN)/python -m tests.bench.run

bench-quick: $(STAMP)  ## every benchmark at tiny sizes: proves they still run (CI), the times mean nothing
	$(BIN)/python -m tests.bench.run --quick

readme: $(STAMP)  ## the README's table of : commands, from the screens' declarations
	$(BIN)/python -c 'from tests.unit.test_routes import write_readme; write_readme()'

constraints: $(STAMP)  ## pin what is installed now (after changing pyproject.toml's dependencies)
	@{ echo "# Every package Folio and its tests install, at the versions CI and the README's commands use (pip -c)."; \
	   echo "# Regenerate after changing pyproject.toml's dependencies: make constraints"; \
	   $(BIN)/python -m pip freeze --exclude-editable | grep -v '^#'; } > constraints.txt

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .cache
