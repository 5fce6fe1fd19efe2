# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-long lint format bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sleuth solve examples/three-of-a-crime/multi-round.yaml
	$(BIN)/sleuth suggest examples/three-of-a-crime/multi-round.yaml
	$(BIN)/sleuth check examples/three-of-a-crime/puzzle-deep.yaml
	$(BIN)/sleuth solve examples/six-suspects/worked-check.yaml
	$(BIN)/sleuth solve examples/game-of-suspicion/round-3p.yaml
	$(BIN)/sleuth solve examples/suspeicao/round-4p.yaml --upto 12

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: lint
	$(BIN)/pytest -q -n auto --dist worksteal --durations=25

test-long: $(STAMP)
	HYPOTHESIS_PROFILE=long $(BIN)/pytest -q -n auto --dist worksteal -m "long or not long"

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis *.egg-info
