"""The build's one Hunspell engine, for both languages: ``read.py`` (the .aff and .dic readers),
``data.py`` (the affix model: one rule type, ``AffRule``, and the two indexes the engines look
rules up in) and ``expand.py`` (generating forms)."""

from .data import AffixFile, AffixTable, AffRule
from .expand import expand_chains, expand_word
from .read import AffHeader, AffOption, aff_lines, read_aff, read_affix_table, read_dic

__all__ = ["AffHeader", "AffOption", "AffRule", "AffixFile", "AffixTable", "aff_lines", "expand_chains",
           "expand_word", "read_aff", "read_affix_table", "read_dic"]
