"""Czech inflection engine: classifies cs_CZ.dic headwords (Hunspell flags, word endings, an optional part
of speech) into paradigms and generates every form with its tag (UniMorph-based features).

Public API: `expand_headwords(entries, *, workers=1)` -> ExpandedForm | Rejection (build_tools/model.py);
`expand_judged(entries, judge, *, workers, log)`: the same with the compiler's per-form judging done in the
worker processes (protocol of build_tools.expand_pl.expand_judged / build_tools.cli._merge_judged);
`expand_lemma(lemma, flags=None)`: one headword, for tools and tests. See README.md in this directory.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..model import ExpandedForm, HeadwordEntry, Rejection
from .dictionary import CzechDictionary
from .driver import expand_headwords, expand_judged, expand_lemma

__all__ = ["CzechDictionary", "expand_headwords", "expand_judged", "expand_lemma"]
