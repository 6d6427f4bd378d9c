# The two commands: `make demo` and `make test`. Each creates .venv and installs on first use.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test bench screens soak demo-check clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/companion demo

test: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadfile

bench: $(STAMP)
	@for f in bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis

screens: $(STAMP)
	$(PY) -m hardware.contact_sheet --out screens.png

soak: $(STAMP)
	$(PY) -m tests.robustness.soak --games 55

demo-check: $(STAMP)
	$(PY) -m pytest tests/system/test_demo.py -q
