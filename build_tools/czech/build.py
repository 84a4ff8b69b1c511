"""The Czech part of a `lexicon-build` run: which dictionary each source is expanded with, and what the
manifest records of them and of the engine.

- `--hunspell X.dic`: every line of X is a headword; X (with X.aff) is also the dictionary its
  flagless lines are read against. Nothing else is consulted.
- `--headwords FILE`: the listed lemmas are the headwords; the paradigm source (`--paradigms DIC`, by
  default the shipped cs_CZ.dic) says how to inflect them and contributes no words of its own.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from lexicon_service.lexicon_format import checksum, source_entry

from ..sources import SourceError, hunspell_files
from .dictionary import CzechDictionary, DicLines, engine_data_files, shipped_paths

# Bumped when the engine's code changes what it generates for the same inputs.
ENGINE_VERSION = "11"


class CzechSourceError(ValueError):
    """A dictionary path that cannot be used (one line, for the user)."""


def _check(dic: Path, what: str) -> Path:
    try:
        return hunspell_files(dic, what)
    except SourceError as exc:
        raise CzechSourceError(str(exc)) from None


class CzechBuild:
    def __init__(self, paradigms: str | None) -> None:
        if paradigms is not None:
            self.paradigm_dic = Path(paradigms)
            self.paradigm_aff = _check(self.paradigm_dic, "paradigm source")
            self.shipped = False
        else:
            self.paradigm_dic, self.paradigm_aff = shipped_paths()
            self.shipped = True
        self._paradigms: CzechDictionary | None = None
        self.dictionary: CzechDictionary | None = None
        self.headwords = False          # the next source is a headword list (not the dictionary's own lines)
        self.stats: Counter = Counter()

    def use_paradigms(self) -> None:
        """Expand the next source (a headword list) against the paradigm source."""
        if self._paradigms is None:
            self._paradigms = CzechDictionary.load(self.paradigm_dic, self.paradigm_aff)
        self.dictionary = self._paradigms
        self.headwords = True

    def use_dictionary(self, dic: Path) -> DicLines:
        """Expand the next source (a Hunspell dictionary) against itself; its lines, read once for
        both (the caller expands them as headwords)."""
        self.dictionary, lines = CzechDictionary.load_with_lines(dic, _check(dic, "hunspell source"))
        self.headwords = False
        return lines

    def paradigm_manifest(self) -> list[dict]:
        kind = "paradigms-shipped" if self.shipped else "paradigms"
        return [source_entry(kind, self.paradigm_dic), source_entry(kind + "-aff", self.paradigm_aff)]

    @staticmethod
    def engine_manifest() -> dict:
        """The engine version and the sha256 of each of its data tables (build_tools/czech/data/*)."""
        return {"version": ENGINE_VERSION,
                "data": {name: checksum(content) for name, content in engine_data_files()}}
