"""Czech inflection engine: classifies cs_CZ.dic headwords (Hunspell flags, word endings, an optional part
of speech) into paradigms and generates every form with its tag (UniMorph-based features).

Public API: `CzechDictionary` (a .dic with its .aff and the indexes built from them: the dictionary
is a value passed explicitly); `expand_headwords(entries, dic, *, workers=1, headwords=False)` ->
ExpandedForm | Rejection (build_tools/model.py); `expand_judged(entries, judge, dic, *, workers, log,
stats, headwords)`: the same with the compiler's per-form judging done in the worker processes
(protocol of build_tools.expand_pl.expand_judged / build_tools.cli._merge_judged);
`expand_lemma(lemma, dic, flags=None)`: one headword, for tools and tests. See README.md here.
"""

from __future__ import annotations

from .dictionary import CzechDictionary
from .driver import expand_headwords, expand_judged, expand_lemma

__all__ = ["CzechDictionary", "expand_headwords", "expand_judged", "expand_lemma"]
