"""A Czech Hunspell dictionary as a value: its lines, its affix table and every index the engine
builds from them. Loaded once from the paths the user gives (`CzechDictionary.load`) or from the
package data (`CzechDictionary.shipped`, the default paradigm source) and passed explicitly to the
expander and its worker processes. The indexes are computed on first use and kept on the value.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Iterable, Iterator

from lexicon_service.lexicon_format import source_entry

from ..hunspell import read_affix_table, read_dic
from .finite import build_nul_participles, build_present_index
from .flagless.nouns import build_noun_index
from .flagless.rules import build_imperative_index
from .guess import build_ending_index
from .passives import build_attested_passives

# a .dic line as read_dic gives it: (line number, stem, flags, problem or None)
DicLine = tuple[int, str, str, str | None]


class DicLines:
    """The lines of a .dic (``read_dic``'s), kept for a build to expand as headwords: in flat sequences,
    its stems and flags the strings the dictionary keeps anyway (not a tuple a line: the peak memory
    this saves is in docs/measurements.md). Line 1200 ``kočka/ZQ`` is ``linenos[i] == 1200``,
    ``stems[i] == "kočka"``, ``flags[i] == "ZQ"``, and 1200 is
    no key of ``problems`` (the lines that have one)."""

    __slots__ = ("linenos", "stems", "flags", "problems")

    def __init__(self, lines: Iterable[DicLine]) -> None:
        self.linenos = array("L")
        self.stems: list[str] = []
        self.flags: list[str] = []
        self.problems: dict[int, str] = {}      # line number -> problem, of the lines that have one
        for lineno, stem, flags, problem in lines:
            self.linenos.append(lineno)
            self.stems.append(stem)
            self.flags.append(flags)
            if problem:
                self.problems[lineno] = problem

    def __iter__(self) -> Iterator[DicLine]:
        problems = self.problems
        for lineno, stem, flags in zip(self.linenos, self.stems, self.flags):
            yield lineno, stem, flags, problems.get(lineno)

    def __len__(self) -> int:
        return len(self.stems)

SHIPPED_PACKAGE = "build_tools.czech"
SHIPPED_DIR = "hunspell"
SHIPPED_DIC = "cs_CZ.dic"
# infinitives whose present the flagless present lines may be (finite.py)
INFINITIVE_ENDINGS = ("it", "et", "ět")


def shipped_paths() -> tuple[Path, Path]:
    """The .dic and .aff of the shipped dictionary (package data)."""
    root = resources.files(SHIPPED_PACKAGE).joinpath(SHIPPED_DIR)
    dic = root.joinpath(SHIPPED_DIC)
    aff = root.joinpath(SHIPPED_DIC[:-4] + ".aff")
    # an installed package is a directory on disk (setuptools wheels are not zip-imported)
    return Path(str(dic)), Path(str(aff))


class CzechDictionary:
    """Stems and flags of one .dic, its .aff, and the indexes built from them."""

    def __init__(self, dic_path: str | Path, aff_path: str | Path | None = None) -> None:
        self._read(dic_path, aff_path)

    def _read(self, dic_path: str | Path, aff_path: str | Path | None) -> DicLines:
        """Read the .aff and the .dic (``read_dic``, the one .dic parser) into this value; the .dic's
        lines, for a build that also expands them as headwords."""
        self.dic_path = Path(dic_path)
        self.aff_path = Path(aff_path) if aff_path is not None else self.dic_path.with_suffix(".aff")
        self.aff = read_affix_table(self.aff_path)
        lines = DicLines(read_dic(self.dic_path, self.aff))
        self._index_lines(lines)
        return lines

    def _index_lines(self, lines: DicLines) -> None:
        # lemma -> flag strings of its lines, in file order (a word may have several: stát noun and verb)
        self.entries: dict[str, list[str]] = {}
        flagged: dict[str, list[str]] = defaultdict(list)
        plain, verbs, nout, cmp_adv = set(), set(), set(), set()
        for _, word, flags, problem in lines:
            if problem:
                continue
            self.entries.setdefault(word, []).append(flags)
            if word != word.lower():
                continue
            fs = set(flags)
            if fs <= {"N"}:
                plain.add(word)
                continue
            flagged[word].append(flags)
            if "I" in fs and word.endswith(INFINITIVE_ENDINGS):
                verbs.add(word)
            if word.endswith("nout"):
                nout.add(word)
            if "E" in fs and fs <= {"E", "N", "W"}:
                cmp_adv.add(word)
        # lowercase word -> flag strings of its lines that carry a paradigm flag (not N-only)
        self.flagged: dict[str, tuple[str, ...]] = {w: tuple(f) for w, f in flagged.items()}
        # lowercase lines without a paradigm flag (none, or N only)
        self.plain = frozenset(plain)
        self.verbs = frozenset(verbs)           # infinitives with flag I (the long infinitive)
        self.nout = frozenset(nout)             # -nout infinitives
        self.comparative_adverbs = frozenset(cmp_adv)   # lines whose only paradigm flag is E
        self.expansions: dict = {}              # (stem, flags) -> expand_entry items (flagless/rules.py)

    @classmethod
    def load(cls, dic_path: str | Path, aff_path: str | Path | None = None) -> "CzechDictionary":
        return cls(dic_path, aff_path)

    @classmethod
    def load_with_lines(cls, dic_path: str | Path,
                        aff_path: str | Path | None = None) -> tuple["CzechDictionary", DicLines]:
        """The dictionary and the .dic's lines it was built from, from one read: a build expands
        those lines as its headwords (build.py), and does not read the file again."""
        dictionary = cls.__new__(cls)
        return dictionary, dictionary._read(dic_path, aff_path)

    @classmethod
    def shipped(cls) -> "CzechDictionary":
        """The dictionary shipped with the package (hunspell-cs, see hunspell/COPYRIGHT.hunspell-cs.txt)."""
        dic, aff = shipped_paths()
        return cls(dic, aff)

    def __getstate__(self):
        # workers started by fork inherit the value; elsewhere they rebuild it from its paths
        return {"dic_path": self.dic_path, "aff_path": self.aff_path}

    def __setstate__(self, state):
        self.__init__(state["dic_path"], state["aff_path"])

    def flags_of(self, lemma: str) -> list[str] | None:
        return self.entries.get(lemma)

    def __contains__(self, word: str) -> bool:
        return word in self.entries

    # ---------------------------------------------------------------- indexes (built on first use)

    @cached_property
    def present_index(self) -> dict:
        return build_present_index(self.plain, self.verbs)

    @cached_property
    def nul_participles(self) -> dict[str, str]:
        return build_nul_participles(self.plain, self.nout)

    @cached_property
    def noun_index(self) -> dict:
        return build_noun_index(self.plain)

    @cached_property
    def imperative_index(self) -> dict:
        return build_imperative_index(self.plain, self.flagged)

    @cached_property
    def adjectives(self) -> frozenset:
        """-ý/-í adjective headwords (flag Y)."""
        return frozenset(w for w, fl in self.flagged.items()
                         if any("Y" in f for f in fl) and w.endswith(("ý", "í")))

    @cached_property
    def ending_index(self) -> dict:
        return build_ending_index(self.entries)

    @cached_property
    def letter_pairs(self) -> frozenset:
        """Every two adjacent letters of a lowercase headword: what a word of the language may hold
        (guess.py guesses from one letter only a headword made of them: no qq)."""
        return frozenset(w[i:i + 2] for w in self.entries if w == w.lower() for i in range(len(w) - 1))

    @cached_property
    def place_names(self) -> dict[str, list[str]]:
        """Capitalised one-word lines (Ostrava, Praha, Brno) -> their flag strings: the names the
        place-name rule (places.py) looks adjectives up in."""
        return {w: f for w, f in self.entries.items() if w[:1].isupper() and w[1:].islower() and w.isalpha()}

    @cached_property
    def attested_passives(self) -> dict[str, tuple[str, ...]]:
        """infinitive -> the passive participles (short masculine forms) the dictionary attests for a
        verb whose lines carry no passive flag (passives.py: napsat -> napsán, utnout -> utnut)."""
        return build_attested_passives(self.aff, self.entries, self.flagged)

    def warm(self, headwords: bool = False) -> None:
        """Build every index now (before worker processes fork, so that they share them); `headwords`:
        also what the expansion of a headword list needs (its links: links.linked_headwords)."""
        for name in ("present_index", "nul_participles", "noun_index", "imperative_index", "adjectives",
                     "place_names", "attested_passives") + (("ending_index", "letter_pairs") if headwords else ()):
            getattr(self, name)

    def manifest_entries(self, kind: str) -> list[dict]:
        """What the manifest records of this dictionary: both files with their sha256."""
        return [source_entry(kind + role, p) for role, p in (("", self.dic_path), ("-aff", self.aff_path))]


def engine_data_files() -> list[tuple[str, bytes]]:
    """(name, content) of the engine's own data tables (build_tools/czech/data/*), sorted by name."""
    root = resources.files(SHIPPED_PACKAGE).joinpath("data")
    return sorted((p.name, p.read_bytes()) for p in root.iterdir() if p.is_file())
