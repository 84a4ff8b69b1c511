"""The sources of the default lexicons, as this package ships them (package data, so the same names
work in a checkout and in an installed wheel): `lexicon-build --defaults RULESET` and
`--models default` resolve through here, and so does the Makefile's `lexicons` target.

Polish: build_tools/data/pl/ (three headword lists and the sjp.pl Hunspell dictionary; their
licences in NOTICE there). Czech: build_tools/czech/hunspell/cs_CZ.dic (GPL-2, notice beside it).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from build_tools.czech.dictionary import shipped_paths

POLISH_HEADWORD_LISTS = ("headwords.txt", "headwords-sjp-growy.txt", "headwords-sjp-growy-guessed.txt")
POLISH_DIC = "pl_PL.dic"
# `--models default`: the SGJP lemmas of the main Polish headword list (docs/build.md, Polish section)
DEFAULT_MODELS = "headwords.txt"


def polish_data_dir() -> Path:
    # an installed package is a directory on disk (setuptools wheels are not zip-imported)
    return Path(str(resources.files("build_tools").joinpath("data", "pl")))


def default_sources(rule_set_id: str) -> dict[str, list[Path]]:
    """The sources of the default build of a shipped rule set, by kind (headwords, hunspell);
    KeyError for a rule set without a default build."""
    if rule_set_id == "pl-scrabble":
        pl = polish_data_dir()
        return {"headwords": [pl / name for name in POLISH_HEADWORD_LISTS], "hunspell": [pl / POLISH_DIC]}
    if rule_set_id in ("cs-scrabble", "cs-kriskros"):
        return {"hunspell": [shipped_paths()[0]]}
    raise KeyError(rule_set_id)


DEFAULT_BUILDS = ("pl-scrabble", "cs-scrabble", "cs-kriskros")


def default_models() -> Path:
    return polish_data_dir() / DEFAULT_MODELS
