# Two commands set everything up on a fresh machine:
#   make run    install, build the default lexicons if missing, serve on localhost:50051 (gRPC) and
#               localhost:8080 (JSON API and pages; the word judge's URL is printed)
#   make test   install and run the test suite (what CI runs; the browser tests too when chromium is
#               installed or installable)
# Other targets: make e2e (browser tests only, screenshots in ./screenshots),
#                make bench (benchmarks on full data), make quality (Czech paradigm accuracy),
#                make lexicons, make proto, make clean.

PYTHON    ?= python3
VENV      ?= .venv
PY        := $(VENV)/bin/python
ADDRESS   ?= localhost:50051
HTTP      ?= localhost:8080
LEXICONS  ?= lexicons
WORKERS   ?= 8
SHARED    ?= ../shared

.PHONY: install run test e2e chromium bench quality lexicons proto clean

# Installed once per change of pyproject.toml; the stamp keeps `make test` fast afterwards.
$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed proto

# gRPC stubs are generated from proto/ by the build, never edited by hand.
proto: $(VENV)/.installed
	$(PY) -m build_tools.gen_proto

# --- default lexicons (built only when missing or when their sources change) ---
lexicons: $(LEXICONS)/pl-scrabble.lex $(LEXICONS)/cs-scrabble.lex $(LEXICONS)/cs-kriskros.lex

# Polish: SGJP (morfeusz2) expansion of the headword list, plus the sjp.pl Hunspell forms.
$(LEXICONS)/pl-scrabble.lex: data/pl/headwords.txt data/pl/headwords-sjp-growy.txt data/pl/pl_PL.dic data/pl/pl_PL.aff | $(VENV)/.installed
	$(VENV)/bin/lexicon-build --rules pl-scrabble --headwords data/pl/headwords.txt --headwords data/pl/headwords-sjp-growy.txt --hunspell data/pl/pl_PL.dic -o $@

# Czech: our paradigm engine over the Czech Hunspell stems and flags.
$(LEXICONS)/cs-scrabble.lex: data/cs/cs_CZ.dic data/cs/cs_CZ.aff | $(VENV)/.installed
	$(VENV)/bin/lexicon-build --rules cs-scrabble --hunspell data/cs/cs_CZ.dic -o $@

$(LEXICONS)/cs-kriskros.lex: data/cs/cs_CZ.dic data/cs/cs_CZ.aff | $(VENV)/.installed
	$(VENV)/bin/lexicon-build --rules cs-kriskros --hunspell data/cs/cs_CZ.dic -o $@

run: install lexicons
	$(VENV)/bin/lexicon-service serve --address $(ADDRESS) --http $(HTTP) --lexicons $(LEXICONS) --workers $(WORKERS)

test: install chromium
	$(PY) -m pytest

# Browser tests (tests/e2e): Debian's chromium, headless, driven by Playwright. Screenshots: ./screenshots.
e2e: install chromium
	E2E_ARTIFACTS=$(CURDIR)/screenshots $(PY) -m pytest tests/e2e -s

# Installs Debian's chromium when missing and apt-get can (as root); otherwise the browser tests skip.
chromium:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	  && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1; } \
	  || echo "chromium is not installed and cannot be: the browser tests will be skipped"

# Benchmarks on full data; each script prints its measurements and a ratio to a baseline measured in the same run.
bench: install lexicons
	@set -e; for b in bench/bench_*.py; do echo "=== $$b"; $(PY) $$b --shared $(SHARED) --lexicons $(LEXICONS); done

quality: install
	$(PY) -m build_tools.czech.quality --shared $(SHARED)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache $(LEXICONS)/*.lex lexicon_service/grpc_gen/*_pb2*.py
