# Two commands set everything up on a fresh machine:
#   make run    install, build the default lexicons if missing, serve on localhost:50051 (gRPC) and
#               localhost:8080 (JSON API and pages; the word judge's URL is printed)
#   make test   install and run the test suite (what CI runs; the browser tests too when chromium is
#               installed or installable: as root it installs Debian's chromium with apt-get, and says
#               so; CHROMIUM=no skips that)
# Other targets: make e2e (browser tests only, screenshots in ./screenshots),
#                make bench (benchmarks on full data), make quality (Czech paradigm accuracy),
#                make fuzz (fuzz every RPC of a real server), make lexicons, make proto, make clean.

PYTHON    ?= python3
VENV      ?= .venv
PY        := $(VENV)/bin/python
ADDRESS   ?= localhost:50051
HTTP      ?= localhost:8080
LEXICONS  ?= lexicons
WORKERS   ?= 8
SHARED    ?= ../shared
# the shipped dictionaries and headword lists (package data; build_tools/defaults.py names them for
# `lexicon-build --defaults`): Czech in build_tools/czech/hunspell, Polish in build_tools/data/pl
CS_DIC    := build_tools/czech/hunspell/cs_CZ.dic
CS_AFF    := build_tools/czech/hunspell/cs_CZ.aff
PL_DATA   := $(addprefix build_tools/data/pl/,headwords.txt headwords-sjp-growy.txt headwords-sjp-growy-guessed.txt pl_PL.dic pl_PL.aff)

FUZZ_REQUESTS ?= 200000

.PHONY: install run test e2e chromium postgresql bench bench-cluster fuzz fuzz-openapi quality lexicons proto clean buf-lint buf-breaking clients clients-go

# Installed once per change of pyproject.toml or of the C core; the stamp keeps `make test` fast afterwards.
$(VENV)/.installed: pyproject.toml $(wildcard lexicon_service/movegen/csrc/*.c lexicon_service/movegen/csrc/*.h)
	@echo "install: pip installs this package (editable) with its dependencies and the test tools ([dev]) into $(VENV)"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

# gRPC stubs are generated from proto/ and committed (so a wheel works); never edit them by hand.
# After changing a .proto, run `make proto` and commit the stubs: `make test` fails while they are stale.
proto: $(VENV)/.installed
	$(PY) -m tools.gen_proto
	$(PY) -m tools.gen_descriptors

# buf (protobuf lint and breaking-change check) from npm, into the venv (so `make clean` removes it).
# Both checks run in `make test`; without npm they fail (a check that cannot run is not a pass).
BUF_VERSION ?= 1.75.0
BUF := $(VENV)/buf/node_modules/.bin/buf
# The protos of the last release (commit e8f9399), as a buf image: `make buf-breaking` compares against it.
BUF_AGAINST ?= proto/releases/v1-e8f9399.binpb
$(BUF):
	@command -v npm >/dev/null || { echo "buf: npm not found; install Node.js and npm (apt-get install npm) to run the protobuf checks" >&2; exit 1; }
	@echo "buf: npm installs @bufbuild/buf@$(BUF_VERSION) into $(VENV)/buf for the protobuf lint and breaking-change checks"
	npm install --silent --no-save --no-audit --no-fund --prefix $(VENV)/buf @bufbuild/buf@$(BUF_VERSION)

buf-lint: $(BUF)
	$(BUF) lint

buf-breaking: $(BUF)
	$(BUF) breaking --against $(BUF_AGAINST)

# Client stubs (clients/README.md): TypeScript with protobuf-es from npm; Go needs protoc-gen-go and
# protoc-gen-go-grpc on PATH. Generated into clients/gen/ (not committed).
clients: $(BUF)
	cd clients && npm ci --silent --no-audit --no-fund
	$(BUF) generate --template clients/buf.gen.yaml

clients-go: $(BUF)
	$(BUF) generate --template clients/buf.gen.go.yaml

# --- default lexicons (built only when missing or when their sources change) ---
# The first build takes minutes (docs/build.md: measured time and memory).
lexicons: $(LEXICONS)/pl-scrabble.lex $(LEXICONS)/cs-scrabble.lex $(LEXICONS)/cs-kriskros.lex

# Polish: SGJP (morfeusz2) expansion of the shipped headword lists, plus the sjp.pl Hunspell forms.
$(LEXICONS)/pl-scrabble.lex: $(PL_DATA) | $(VENV)/.installed
	$(VENV)/bin/lexicon-build --defaults pl-scrabble -o $@

# Czech: our paradigm engine over the shipped Czech Hunspell stems and flags.
$(LEXICONS)/cs-scrabble.lex: $(CS_DIC) $(CS_AFF) | $(VENV)/.installed
	$(VENV)/bin/lexicon-build --defaults cs-scrabble -o $@

$(LEXICONS)/cs-kriskros.lex: $(CS_DIC) $(CS_AFF) | $(VENV)/.installed
	$(VENV)/bin/lexicon-build --defaults cs-kriskros -o $@

run: install lexicons
	$(VENV)/bin/lexicon-service serve --address $(ADDRESS) --http $(HTTP) --lexicons $(LEXICONS) --workers $(WORKERS)

# The suite runs in TEST_WORKERS processes (pytest-xdist; each takes whole test files, so a module's
# servers start once); TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 2
test: install chromium postgresql buf-lint buf-breaking
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# Browser tests (tests/e2e): Debian's chromium, headless, driven by Playwright. Screenshots: ./screenshots.
e2e: install chromium
	E2E_ARTIFACTS=$(CURDIR)/screenshots $(PY) -m pytest tests/e2e -s

# $(call apt_install,PACKAGE,PRESENT-TEST,SWITCH,VALUE,WHAT-FOR,TESTS): installs Debian's PACKAGE when PRESENT-TEST
# fails and apt-get can (as root), saying so first and showing apt's own lines; SWITCH=no never installs it.
define apt_install
	@if $(2); then :; \
	elif [ "$(4)" = no ]; then echo "$(1): not installed ($(3)=no): $(6) will be skipped"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "$(1): installing Debian's $(1) with apt-get $(5); $(3)=no skips them instead"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(1) \
	  || echo "$(1): apt-get failed (above): $(6) will be skipped"; \
	else echo "$(1) is not installed and cannot be (needs root and apt-get): $(6) will be skipped"; fi
endef

# Debian's chromium (about 100 packages) for the browser tests; CHROMIUM=no: they skip.
CHROMIUM ?= install
chromium:
	$(call apt_install,chromium,command -v chromium >/dev/null 2>&1,CHROMIUM,$(CHROMIUM),(about 100 packages) for the browser tests in tests/e2e,the browser tests)

# The PostgreSQL tests (tests/test_games_postgres.py, and the game tests on both stores) start their own
# server from Debian's package; POSTGRESQL=no: they skip, each listed with the reason.
POSTGRESQL ?= install
postgresql:
	$(call apt_install,postgresql,ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1,POSTGRESQL,$(POSTGRESQL),for the PostgreSQL game-store tests,the PostgreSQL tests)

# Benchmarks on full data; each script prints its measurements and a ratio to a baseline measured in the same run.
bench: install lexicons
	@set -e; for b in bench/bench_*.py; do echo "=== $$b"; $(PY) $$b --shared $(SHARED) --lexicons $(LEXICONS); done

# Two servers on one PostgreSQL behind nginx (deploy/cluster.py): durable moves/s over 400 games through the
# proxy against raw single-row committed INSERTs on that PostgreSQL, in the same run (docs/deploy.md).
bench-cluster: install lexicons postgresql
	@command -v nginx >/dev/null || { echo "bench-cluster: nginx not found (apt-get install nginx)" >&2; exit 1; }
	$(PY) bench/bench_cluster.py --lexicons $(LEXICONS)

# Fuzz every RPC of a real server on loopback (fields and raw bytes): counts INTERNAL answers
# (target 0), the worst server CPU for one request and the memory growth of the largest requests.
fuzz: install lexicons
	$(PY) bench/fuzz_service.py --lexicons $(LEXICONS) --requests $(FUZZ_REQUESTS)

# The JSON API fuzzed from its own /openapi.json by schemathesis (not a dependency of the package: the [fuzz] extra).
fuzz-openapi: install lexicons
	@echo "fuzz-openapi: pip installs schemathesis (the [fuzz] extra) into $(VENV)"
	$(PY) -m pip install --quiet -e '.[fuzz]'
	$(PY) bench/fuzz_openapi.py --lexicons $(LEXICONS)

quality: install
	$(PY) -m tools.czech_quality --shared $(SHARED)
	$(PY) -m tools.czech_heldout --shared $(SHARED)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache $(LEXICONS)/*.lex clients/node_modules clients/gen
