# Two commands set everything up on a fresh machine:
#   make run    install, build the default lexicons if missing, serve on localhost:50051
#   make test   install and run the test suite (what CI runs)
# Other targets: make bench (benchmarks on full data), make quality (Czech paradigm accuracy),
#                make fuzz (fuzz every RPC of a real server), make lexicons, make proto, make clean.

PYTHON    ?= python3
VENV      ?= .venv
PY        := $(VENV)/bin/python
ADDRESS   ?= localhost:50051
LEXICONS  ?= lexicons
WORKERS   ?= 8
SHARED    ?= ../shared
FUZZ_REQUESTS ?= 200000

.PHONY: install run test bench fuzz quality lexicons proto clean

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
	$(VENV)/bin/lexicon-service serve --address $(ADDRESS) --lexicons $(LEXICONS) --workers $(WORKERS)

test: install
	$(PY) -m pytest

# Benchmarks on full data; each script prints its measurements and a ratio to a baseline measured in the same run.
bench: install lexicons
	@set -e; for b in bench/bench_*.py; do echo "=== $$b"; $(PY) $$b --shared $(SHARED) --lexicons $(LEXICONS); done

# Fuzz every RPC of a real server on loopback (fields and raw bytes): counts INTERNAL answers
# (target 0), the worst server CPU for one request and the memory growth of the largest requests.
fuzz: install lexicons
	$(PY) bench/fuzz_service.py --lexicons $(LEXICONS) --requests $(FUZZ_REQUESTS)

quality: install
	$(PY) -m build_tools.czech.quality --shared $(SHARED)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache $(LEXICONS)/*.lex lexicon_service/grpc_gen/*_pb2*.py
