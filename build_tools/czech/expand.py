"""Expand one Czech dictionary line (a stem with its flags) into tagged forms: guards, the hand-written
tables, merged lines split, then one expander per word class (nouns.py, adjectives.py, verbs.py,
participles.py, and the ordered classifier rules of flagless/classify.py for words without a paradigm flag).
Items: see output.py.
"""

from __future__ import annotations

import re

from ..hunspell import expand_chains
from ..model import Reading, Rejection
from . import tables as irregular
from .flagless import classify as plain
from .adjectives import expand_adj
from .dictionary import CzechDictionary
from .nouns import expand_noun
from .output import Output, _tag, split_prefix
from .participles import expand_cvb, expand_short
from .tagger import split_mixed, word_class
from .verbs import expand_verb

# a present active participle (pálící, vedoucí) declines as a soft adjective, also where the dictionary
# gives it only S, the flag of -í neuter nouns (pálící/S: pálícím, pálících, but no pálícího, pálícímu)
PRESENT_PARTICIPLE = ("ící", "oucí")
LETTERS = re.compile(r"^[a-záčďéěíňóřšťúůýžäöüëàèìòùâêîôûçłľĺŕąęśźżćńőű]+$")


def expand_entry(lemma: str, flags: str, dic: CzechDictionary) -> list[Reading | Rejection]:
    """The items of one dictionary line (`lemma` with `flags`), in the context of the dictionary `dic`
    (its affix table, and its other lines for the words without a paradigm flag)."""
    out: list = []
    flags = flags or ""
    if not lemma:
        return out
    if not LETTERS.match(lemma.lower()):
        return [Rejection(lemma, "non-letter", detail="contains a character that is not a letter")]
    if lemma != lemma.lower():
        reason = "abbreviation" if lemma.isupper() and len(lemma) > 1 else "proper-name"
        return [Rejection(lemma, reason, detail="capitalised headword")]

    # hand-written tables (pronouns, numerals, irregular verbs and nouns) take precedence
    tab = irregular.paradigm_for(lemma)
    if tab is not None:
        name, rows = tab
        # N: the ne- forms, as the flag gives regular verbs and nouns (nemít, nemám, neměj, neměl, nebýt,
        # nejsem, nepřítel; rows marked NONEG or with a negated row of their own excepted: bych,
        # je -> není).
        # Explicit NEG rows (není) belong to the negated paradigm: only with N.
        neg = "N" in flags
        for form, tag in rows:
            if "NEG" in tag and not neg:
                continue
            out.append(Reading(form, lemma, tag, name))
            if neg and irregular.negatable(lemma, form, tag):
                out.append(Reading("ne" + form, lemma, _tag(tag, ("NEG",)), name))
        if (cc := irregular.closed_class(lemma)):
            out.append(Reading(lemma, lemma, cc, "closed"))  # se: the reflexive and the preposition
        return out

    if flags == "S" and lemma.endswith(PRESENT_PARTICIPLE):
        flags = "Y"
    parts = split_mixed(lemma, flags)
    if len(parts) > 1:
        for part in parts:
            out.extend(expand_entry(lemma, part, dic))
        return out

    cls = word_class(lemma, flags)
    o = Output(f"{cls}/{flags}" if flags else cls)
    expanded = expand_chains(dic.aff, lemma, flags)
    if cls == "plain":
        expand_plain(lemma, flags, dic, expanded, o)
    else:
        EXPANDERS[cls](lemma, flags, dic, expanded, o)
    out.extend(o.items)
    return out


def expand_plain(lemma: str, flags: str, dic, expanded, out: Output) -> None:
    """Words without a paradigm flag: the ordered classifier rules of flagless/classify.py."""
    for form, chain in expanded:
        ptags, base, sfx = split_prefix(form, chain)
        f = plain.Form(form, base, ptags, lemma, flags, dic, out.emit, out.items.extend, _tag, expand_entry)
        if not plain.classify(f):
            out.reject(form, "unclassified", f"{lemma}/{flags}: no paradigm flag and not in the tables")


# one expander per word class (tagger.word_class)
EXPANDERS = {"noun": expand_noun, "adj": expand_adj, "verb": expand_verb, "short": expand_short,
             "cvb": expand_cvb, "plain": expand_plain}


