"""Czech inflection engine: classifies cs_CZ.dic headwords (Hunspell flags, word endings, an optional part
of speech) into paradigms and generates every form with its tag (UniMorph-based features).

Public API: `CzechDictionary` (a .dic with its .aff and the indexes built from them: the dictionary
is a value passed explicitly); `expand_headwords(entries, dic, *, workers=1, headwords=False)` ->
ExpandedForm | Rejection (build_tools/model.py); `czech_pass(entries, dic, *, stats, headwords)`: the
items and the expand function for build_tools.pipeline (expansion and admission in worker processes);
`expand_lemma(lemma, dic, flags=None)`: one headword, for tools and tests. See README.md here.
"""

from __future__ import annotations

from .dictionary import CzechDictionary
from .driver import czech_pass, expand_headwords, expand_lemma

__all__ = ["CzechDictionary", "czech_pass", "expand_headwords", "expand_lemma"]
