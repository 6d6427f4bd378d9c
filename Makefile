# The two commands: `make demo` and `make test` (`make check` is the quick loop). Each creates .venv and
# installs on first use; `make test` also creates .venv-pi, with the Pi's numpy and OpenCV, for the vision tests.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The Pi's versions, the oldest supported: Raspberry Pi OS Bookworm's Python and apt numpy, and the
# OpenCV 4.x that pip picks with that numpy (the 5.x wheels need numpy 2).
PI_PYTHON ?= python3.11
PI_VENV ?= .venv-pi
PI_PY := $(PI_VENV)/bin/python
PI_STAMP := $(PI_VENV)/.installed
PI_NUMPY := 1.24.2
PI_TESTS := tests/vision
# what ruff reads (mypy's packages, its strict game modules and the import contracts are in pyproject.toml)
LINT_PATHS := companion hardware web vision tests bench docs

.PHONY: demo test check lint vision-pi pi-check bench fonts screens soak demo-check clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(PI_STAMP): pyproject.toml
	@command -v $(PI_PYTHON) >/dev/null || { echo "$(PI_VENV), the vision tests with the Pi's numpy, needs" \
		"$(PI_PYTHON) (Raspberry Pi OS Bookworm's Python): apt-get install python3.11-venv"; exit 1; }
	$(PI_PYTHON) -m venv $(PI_VENV)
	$(PI_PY) -m pip install --quiet --upgrade pip
	printf 'numpy==%s\n' '$(PI_NUMPY)' > $(PI_VENV)/constraints.txt
	$(PI_PY) -m pip install --quiet --constraint $(PI_VENV)/constraints.txt -e '.[test]'
	touch $(PI_STAMP)

demo: $(STAMP)
	$(VENV)/bin/companion demo

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# a developer's quick loop: lint and the tests not marked slow (about 3½ minutes on two cores)
check: lint
	$(PY) -m pytest -n 2 --dist loadfile -m 'not slow' -q

# the whole suite (to keep under 15 minutes on two cores: README, Checks and benchmarks); each run lists its
# slowest tests to keep that in sight.
# Three workers on two cores: many tests wait on processes, browsers and games played in real time, and
# a third worker keeps both cores busy then (13.4 -> 11.6 minutes for this part)
TEST_WORKERS ?= 3
test: lint $(PI_STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --durations 15
	@$(MAKE) --no-print-directory vision-pi

# the vision tests again with the Pi's numpy and OpenCV: every reading, teaching and watching path runs
# there. Two kinds are left to the main run: tests reading frames drawn at test time (the renderer's
# numerals differ between OpenCV 4 and 5; stored frames stand in for them), and the slow tests, which
# repeat those paths over whole decks and games to measure them (PI_MARKS='not renderer_digits' adds them)
PI_MARKS ?= not renderer_digits and not slow
vision-pi: $(PI_STAMP)
	@$(PI_PY) -c 'import cv2, numpy; print("== vision with numpy", numpy.__version__, "and OpenCV", cv2.__version__)'
	$(PI_PY) -m pytest -n 2 --dist loadfile --durations 10 -m '$(PI_MARKS)' $(PI_TESTS)

# the install script in an emulated arm64 Raspberry Pi OS-like root (slow; PI_CHECK_REBUILD=1 rebuilds it)
pi-check:
	systemd/pi-check.sh

# the typefaces of the card designs (as root): training, the held-out figures and the vision tests' floors
# are measured with them
FONT_PACKAGES := $(shell grep -v '^\#' vision/font-packages.txt)
fonts:
	@dpkg -s $(FONT_PACKAGES) >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] || \
		{ echo "make fonts installs Debian packages: run it as root (sudo make fonts)"; exit 1; }; \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(FONT_PACKAGES) >/dev/null; }
	@echo "$(words $(FONT_PACKAGES)) font packages installed"

bench: $(STAMP)
	@for f in bench/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf $(VENV) $(PI_VENV) build *.egg-info .pytest_cache .hypothesis

screens: $(STAMP)
	$(PY) -m hardware.contact_sheet --out screens.png

soak: $(STAMP)
	$(PY) -m tests.robustness.soak --games 55

demo-check: $(STAMP)
	$(PY) -m pytest tests/system/test_demo.py -q

# The one catalogue of words (companion/words): extract every marked message into the template, merge it
# into each language's .po (translate what is new there), compile the .mo files the box reads.
WORDS := companion/words
WORDS_LOCALE := $(WORDS)/locale
WORDS_LANGUAGES := pl de cs
# Babel's defaults spelled out, plus the catalogue's own markers: N_ (a shared word) and NP_ (context, word)
WORDS_KEYWORDS := --no-default-keywords -k _ -k gettext -k ngettext:1,2 -k pgettext:1c,2 -k npgettext:1c,2,3 \
	-k N_ -k NP_:1c,2 -k lazy_gettext -k lazy_pgettext:1c,2
.PHONY: words-extract words-update words-compile

words-extract: $(STAMP)
	$(VENV)/bin/pybabel extract -F $(WORDS)/babel.cfg $(WORDS_KEYWORDS) --no-location --width 120 \
		--project hanabi-companion --copyright-holder "the hanabi-companion authors" \
		-o $(WORDS_LOCALE)/messages.pot companion hardware web

words-update: words-extract
	@for lang in $(WORDS_LANGUAGES); do \
		$(VENV)/bin/pybabel update -i $(WORDS_LOCALE)/messages.pot -d $(WORDS_LOCALE) -l $$lang \
			--no-fuzzy-matching --ignore-obsolete --width 120 || exit 1; done

words-compile: $(STAMP)
	$(VENV)/bin/pybabel compile -d $(WORDS_LOCALE) --statistics
