# Two entry points: `make run` (serve the table; it prints the URL) and `make test` (the whole suite).
# Both build their own virtual environment in .venv from the package registries.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test venv clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The dds extra (endplay: Spades' pimc bot) where a wheel installs; without one, Goat alone.
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dds]' || $(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(VENV)/.installed-test

run: $(VENV)/.installed-run
	$(BIN)/goat serve

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n auto --dist loadgroup -q

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .hypothesis tests/artifacts
