"""Czech inflection engine: classifies cs_CZ.dic headwords (Hunspell flags, word endings, an optional part
of speech) into paradigms and generates every form with its tag (UniMorph-based features).

Public API: `expand_headwords(entries, *, workers=1)` -> ExpandedForm | Rejection (build_tools/model.py).
"""

from __future__ import annotations

from typing import Iterable, Iterator

from ..model import ExpandedForm, HeadwordEntry, Rejection
from .driver import expand_headwords, expand_judged, expand_lemma

__all__ = ["expand_headwords", "expand_judged", "expand_lemma"]
