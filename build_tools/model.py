"""Records passed between build stages. Shared contract of the sources, the language expanders
(`build_tools/polish/`, `build_tools/czech/`) and the compiler: extend, never break.

Tags use the common tag vocabulary of `build_tools/tags.py`: UniMorph schema features (N, ADJ, V,
V.PTCP, V.MSDR, NOM, SG, PL, MASC, ..., CMPR, RSUP, NEG, IMP, ...) plus lexical-class features
(PROPN, ABBR, INTJ, ...). A tag is a frozenset of feature strings; written sorted and joined by ';'.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class HeadwordEntry:
    """One headword read from a source, before expansion."""

    lemma: str                 # the headword as written in the source
    source: str                # source file name, for error messages and the manifest
    line: int                  # 1-based line number in that source
    pos: str | None = None     # optional part of speech given by the source (headword lists)
    flags: str | None = None   # Hunspell affix flags (they name the paradigm in cs_CZ.dic)


@dataclass(frozen=True)
class ExpandedForm:
    """One inflected form produced from a headword, with the grammatical reading that made it."""

    form: str                  # the word form, lowercase
    lemma: str                 # the headword it comes from
    tag: frozenset[str]        # features in the common tag vocabulary
    paradigm: str = ""         # paradigm / SGJP class that produced it ("žena", "subst:f", ...)


@dataclass(slots=True)
class Reading:
    """One reading a language expander's step produces (build_tools/czech): a form, its lemma, its tag (a
    sorted tuple of features, cheap to merge) and the rule or paradigm step that made it ("noun/ZQ",
    "table:být", "imperative/flagless", "guessed:abdikovat"). Not frozen: made by the million."""

    form: str
    lemma: str
    tag: tuple
    rule: str


@dataclass(frozen=True)
class Rejection:
    """Input that did not become a lexicon form, with the reason; builds report these, never drop silently."""

    item: str                  # the form or headword
    reason: str                # short machine-friendly reason ("proper-name", "letter-not-in-alphabet", ...)
    source: str = ""
    line: int = 0
    detail: str = field(default="", compare=False)
