"""Words without a paradigm flag (at most N, or E/W): an ordered list of named classifier rules.

Every form of such a line (the word, and its ne-/nej- forms) goes through `CLASSIFIERS` in order; the
first rule that classifies it wins, and a form no rule classifies is rejected as `unclassified`. The
reviewed lists (data/closed_class.tsv, data/flagless.tsv) come first and on top of whatever else the
word is (tu is a form of ten and an adverb, se the reflexive pronoun and a preposition), so they do not
stop the list: `reviewed-only` stops it after the rules that may add to them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import tables as irregular
from ..tagger import tag_short
from .rules import (adverb_of_adjective, animate_plural_variant, collective_numeral, deictic_demonstrative,
                       forms_of_other_headwords, ordinal_adverb, reviewed_words, short_adjective,
                       third_plural_variant)


@dataclass
class Form:
    """One form of a flagless line being classified."""

    form: str                   # the form (with a ne-/nej- prefix)
    base: str                   # the form without the prefix
    ptags: tuple                # the prefix's features (NEG, SPRL)
    lemma: str                  # the dictionary line
    flags: str
    dic: object                 # CzechDictionary
    emit: object                # emit(form, lemma, tag, paradigm)
    extend: object              # extend(items): items of another headword, as they are
    tag: object                 # _tag(*parts): the cached sorted union of features
    expand_entry: object
    listed: bool = field(default=False)


def _table(f: Form) -> bool:
    readings = irregular.readings_of(f.base)
    for lem, tag in readings:
        # ne- on a table form (jsem/N, mají/N, bojí/N, přátelé/N): where the paradigm negates it
        if f.ptags and not ("NEG" in f.ptags and irregular.negatable(lem, f.base, tag)):
            continue
        f.emit(f.form, lem, f.tag(tag, f.ptags), "table")
    return bool(readings)


def _present(f: Form) -> bool:
    present = f.dic.present_index.get(f.base)
    for lem, tag in present or ():
        f.emit(f.form, lem, f.tag(tag, f.ptags), "verb/flagless")
    return bool(present)


def _nul_participle(f: Form) -> bool:
    inf = f.dic.nul_participles.get(f.base)
    if inf:
        f.emit(f.form, inf, f.tag(("V.PTCP", "ACT", "PRF", "MASC", "SG"), f.ptags), "verb/flagless")
    return bool(inf)


def _linked_infinitive(f: Form) -> bool:
    inf = irregular.linked_infinitive(f.base)
    if inf:
        f.emit(f.form, inf, f.tag(("V", "NFIN"), f.ptags), "verb/linked-infinitive")
    return bool(inf)


def _noun(f: Form) -> bool:
    nouns = f.dic.noun_index.get(f.base)
    for lem, tag in nouns or ():
        f.emit(f.form, lem, f.tag(tag, f.ptags), "noun/flagless")
    return bool(nouns)


def _comparative_adverb(f: Form) -> bool:
    if "E" not in f.flags and "W" not in f.flags:
        return False
    # a comparative adverb headword: nej- makes its superlative (déle, lépe, více, méně, dál, líp)
    f.emit(f.form, f.lemma, f.tag(("ADV",), ("SPRL",) if "SPRL" in f.ptags else ("CMPR",),
                                  tuple(p for p in f.ptags if p != "SPRL")), "adv")
    return True


def _short_comparative_adverb(f: Form) -> bool:
    cmp_adv = f.dic.comparative_adverbs
    if not f.flags and (f.base + "e" in cmp_adv or f.base + "ě" in cmp_adv):
        f.emit(f.form, f.lemma, f.tag(("ADV", "CMPR"), f.ptags), "adv")      # spíš beside spíše/E
        return True
    return False


def _reviewed_only(f: Form) -> bool:
    return f.listed


def _adverb_ending(f: Form) -> bool:
    if irregular.looks_like_adverb(f.base):
        f.emit(f.form, f.base, f.tag(("ADV",), f.ptags), "adv-guess")
        return True
    return False


def _imperative(f: Form) -> bool:
    imp = f.dic.imperative_index.get(f.base)
    if imp:
        f.emit(f.form, imp[0], f.tag(imp[1], f.ptags), "imperative/flagless")
    return bool(imp)


def _form_of_other_headword(f: Form) -> bool:
    other = forms_of_other_headwords(f.form, f.dic, f.expand_entry)
    if other:
        f.extend(other)     # a form another headword generates (hrejte: hrát): its tags there, nothing of its own
    return bool(other)


def _third_plural(f: Form) -> bool:
    pl3 = third_plural_variant(f.base, f.dic, f.expand_entry)
    for r in pl3:
        f.emit(f.form, r.lemma, f.tag(r.tag, f.ptags), "verb/3pl-variant")
    return bool(pl3)


def _plural_variant(f: Form) -> bool:
    pl = animate_plural_variant(f.base, f.dic, f.expand_entry)
    for r in pl:
        f.emit(f.form, r.lemma, f.tag(r.tag, f.ptags), r.rule)
    return bool(pl)


def _deictic(f: Form) -> bool:
    deictic = deictic_demonstrative(f.base, f.dic, f.expand_entry)
    for lem, tag in deictic:
        f.emit(f.form, lem, f.tag(tag, f.ptags), "pronoun/deictic")
    return bool(deictic)


def _short_adjective(f: Form) -> bool:
    short = short_adjective(f.base, f.dic)
    if short:
        adjective, masculine = short
        for t in tag_short(f.base, masculine):
            f.emit(f.form, adjective, f.tag(tuple(t), f.ptags), "adj/short-flagless")
    return bool(short)


def _deadjectival_adverb(f: Form) -> bool:
    if adverb_of_adjective(f.base, f.dic) or ordinal_adverb(f.base, f.dic):
        f.emit(f.form, f.base, f.tag(("ADV",), f.ptags), "adv/deadjectival")
        return True
    return False


def _collective_numeral(f: Form) -> bool:
    num = collective_numeral(f.base, f.dic)
    if num:
        f.emit(f.form, f.base, f.tag(num, f.ptags), "num/collective")
    return bool(num)


# (name, rule): tried in this order; the first that classifies a form wins
CLASSIFIERS = (
    ("table", _table),                                  # forms of data/irregular.paradigms (jsem, mají)
    ("present-line", _present),                         # musím beside muset (finite.py)
    ("nul-participle", _nul_participle),                # kliknul beside kliknout
    ("linked-infinitive", _linked_infinitive),          # říci, říct (data/verb_links.tsv)
    ("flagless-noun", _noun),                           # dům, domu, domy (nouns.py)
    ("comparative-adverb", _comparative_adverb),        # déle/E, více/E
    ("short-comparative-adverb", _short_comparative_adverb),  # spíš beside spíše/E
    ("reviewed-only", _reviewed_only),                  # in a reviewed list: nothing more
    ("adverb-ending", _adverb_ending),                  # -sky, -krát, -kdy, ...
    ("imperative-triple", _imperative),                 # hrej, hrejme, hrejte
    ("form-of-other-headword", _form_of_other_headword),  # stavu of stav/H
    ("third-plural-variant", _third_plural),            # bydlejí beside bydlí
    ("plural-variant", _plural_variant),                # dinosauři beside dinosaurus/D
    ("deictic-demonstrative", _deictic),                # tenhle, takovýto
    ("short-adjective", _short_adjective),              # hoden, hodna of hodný
    ("deadjectival-adverb", _deadjectival_adverb),      # drobounce, poprvé
    ("collective-numeral", _collective_numeral),        # patero, patery
)


def classify(f: Form) -> bool:
    """Emit the readings of one flagless form; False when no rule classifies it (unclassified)."""
    if (cc := irregular.closed_class(f.base)):
        f.emit(f.form, f.base, f.tag(cc, f.ptags), "closed")
        f.listed = True
    for t in reviewed_words().get(f.base, ()):
        f.emit(f.form, f.base, f.tag(t, f.ptags), "reviewed")
        f.listed = True
    for _name, rule in CLASSIFIERS:
        if rule(f):
            return True
    return False
