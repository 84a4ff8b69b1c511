"""The common tag vocabulary, and mappers into it from SGJP/NKJP tags and from UniMorph strings.

A tag is a ``frozenset`` of feature strings; it is written sorted and joined by ``;``
(``format_tag``) and read back with ``parse_tag``.  The features are those of the UniMorph
schema, plus a few lexical-class and project-specific features where UniMorph has none.

Syncretism: SGJP writes one tag for a form that has several readings (``subst:sg:gen.acc:m1``).
We keep one tag and put every alternative in it (``ACC;ANIM...;GEN``): two features of the same
*category* (two cases, two genders, ...) in one tag are alternatives, never a conjunction.
``readings_of(tag)`` spells the alternatives out; the profile matcher (``profiles.py``) uses it,
so "admitted" means "at least one reading is admitted".

Vocabulary (category: features)
-------------------------------
pos       N, ADJ, ADV, V, V.PTCP, V.MSDR (verbal noun / gerund, written with N: ``N;V.MSDR``),
          V.CVB (transgressive / adverbial participle), PRO, NUM, ADP, CONJ, PART, INTJ, DET
case      NOM GEN DAT ACC VOC ESS (locative; UniMorph's LOC is normalised to ESS) INS
number    SG PL
gender    MASC FEM NEUT
animacy   HUM (Polish m1, masculine personal), ANIM (m2), INAN (m3), NHUM (UniMorph Polish,
          plural "not masculine personal")
person    1 2 3
mood      IND IMP COND
finite    NFIN (infinitive)
tense     PRS PST FUT
perfect   PRF (UniMorph: the Czech l-participle is ``V.PTCP;ACT;PRF``)
voice     ACT PASS
aspect    IPFV PFV
degree    CMPR SPRL
polarity  NEG
impers    IMPRS (Polish impersonal -no/-to form: zrobiono)

Lexical classes
---------------
PROPN   proper name (SGJP: any name class other than common noun, or a capitalised form)
ABBR    abbreviation (SGJP ``brev``)

Project-specific features (UniMorph has none)
---------------------------------------------
SHORT    short (predicative) adjective form: Czech šťasten, Polish SGJP ``adjc`` (zdrów)
POSS     possessive adjective (Czech otcův, matčin)
FUSED    a Polish form joined from SGJP segments: past tense + person ending (zrobiłem),
         conditional (zrobiłbym), emphatic -że/-ż (zróbże)
CLITIC   a bound clitic or a contraction: SGJP ``aglt`` (-em, -śmy), Czech byls, tys, žes
ADJA     ad-adjectival combining form (SGJP ``adja``: polsko in polsko-niemiecki)
ADJP     post-prepositional adjective form (SGJP ``adjp``: po polsku)
PRED     predicative (SGJP ``pred``: trzeba, można)
FIXED    a word used only inside fixed phrases (SGJP ``frag``/``burk``: na oścież, wskroś)
DEPR     depreciative noun form (SGJP ``depr``: te chłopy)
MOD      Polish modal adjective-verb (SGJP ``winien``: powinien)
ARCH     marked archaic / obsolete by SGJP qualifiers (daw., przest., daw. dziś ...)
NONSTD   marked incorrect by SGJP qualifiers (niepopr.)
VULG     marked vulgar by SGJP qualifiers (wulg.)
RARE     marked rare by SGJP qualifiers (rzad.)
DIAL     marked dialectal or regional by SGJP qualifiers (gwar., reg.)
COLL     marked colloquial by SGJP qualifiers (pot.)
INDIV    marked individual (one author's coinage) by SGJP qualifiers (indyw.)
UNKNOWN  the analyser does not know the word (SGJP ``ign``)
GUESSED  inflected by analogy: the paradigm source (Czech dictionary, SGJP) does not hold the headword
HUNSPELL a Polish Hunspell affix form of a lemma SGJP knows that SGJP's paradigm does not make
UNATTESTED a Polish SGJP form that the build's Hunspell dictionary lacks, though it has the lemma
TOPO     adjective derived from a place name, or its comparative or adverb (Czech ostravský from Ostrava)
NOVOWEL  a Polish lemma written without a vowel: an abbreviation SGJP inflects (mgr, płk), an
         interjection (hm) or a one-letter preposition
LY       a Polish lemma ending in -ły (doschły, zmilkły: adjectives of a verb's past stem; also biały)
"""

from __future__ import annotations

from itertools import product
from typing import Iterable

Tag = frozenset  # frozenset[str]

CATEGORIES: dict[str, tuple[str, ...]] = {
    "pos": ("N", "ADJ", "ADV", "V", "V.PTCP", "V.MSDR", "V.CVB", "PRO", "NUM", "ADP", "CONJ",
            "PART", "INTJ", "DET"),
    "case": ("NOM", "GEN", "DAT", "ACC", "VOC", "ESS", "INS"),
    "number": ("SG", "PL"),
    "gender": ("MASC", "FEM", "NEUT"),
    "animacy": ("HUM", "ANIM", "INAN", "NHUM"),
    "person": ("1", "2", "3"),
    "mood": ("IND", "IMP", "COND"),
    "finite": ("NFIN",),
    "tense": ("PRS", "PST", "FUT"),
    "perfect": ("PRF",),
    "voice": ("ACT", "PASS"),
    "aspect": ("IPFV", "PFV"),
    "degree": ("CMPR", "SPRL"),
    "polarity": ("NEG",),
    "impers": ("IMPRS",),
    "class": ("PROPN", "ABBR"),
    "extra": ("SHORT", "POSS", "FUSED", "CLITIC", "ADJA", "ADJP", "PRED", "FIXED", "DEPR", "MOD",
              "ARCH", "NONSTD", "VULG", "UNKNOWN", "GUESSED", "HUNSPELL", "TOPO", "RARE", "DIAL", "COLL", "INDIV",
              "UNATTESTED", "NOVOWEL", "LY"),
}
# Categories whose features are alternatives of one another when several appear in one tag.
# "pos" is not one: N;V.MSDR is a gerund, not "noun or gerund".
ALTERNATIVE_CATEGORIES = ("case", "number", "gender", "animacy", "person", "tense")

CATEGORY_OF: dict[str, str] = {f: c for c, fs in CATEGORIES.items() for f in fs}
FEATURES: frozenset[str] = frozenset(CATEGORY_OF)
ALIASES = {"LOC": "ESS"}


class TagError(ValueError):
    """A feature outside the vocabulary, or an unparsable tag."""


def format_tag(tag: Iterable[str]) -> str:
    """The written form of a tag: features sorted and joined by ';'."""
    return ";".join(sorted(tag))


def parse_tag(text: str, *, strict: bool = True) -> frozenset[str]:
    """Read a written tag ('N;NOM;SG'); UniMorph aliases are normalised (LOC -> ESS)."""
    feats = set()
    for raw in text.replace(",", ";").split(";"):
        f = raw.strip()
        if not f:
            continue
        f = ALIASES.get(f, f)
        if strict and f not in FEATURES:
            raise TagError(f"unknown feature {f!r} in tag {text!r}")
        feats.add(f)
    return frozenset(feats)


def unimorph_to_tag(text: str) -> frozenset[str]:
    """UniMorph feature string -> Tag. Unknown features raise TagError (never silently dropped).

    Normalisations: LOC -> ESS; a UniMorph verbal noun ``V.MSDR;...`` gets N as well, as in our
    vocabulary (``N;V.MSDR``).
    """
    tag = set(parse_tag(text, strict=True))
    if "V.MSDR" in tag:
        tag.add("N")
    return frozenset(tag)


def readings_of(tag: frozenset[str]) -> list[frozenset[str]]:
    """Spell out the alternatives of a syncretic tag: one frozenset per reading."""
    fixed = []
    groups = []
    for cat in ALTERNATIVE_CATEGORIES:
        vals = sorted(f for f in tag if CATEGORY_OF.get(f) == cat)
        if len(vals) > 1:
            groups.append(vals)
    if not groups:
        return [tag]
    alt = {f for g in groups for f in g}
    fixed = [f for f in tag if f not in alt]
    return [frozenset(fixed).union(combo) for combo in product(*groups)]


# --------------------------------------------------------------------------------------------
# SGJP / NKJP (Morfeusz 2) tags
# --------------------------------------------------------------------------------------------

_SGJP_POS = {
    "subst": ("N",), "depr": ("N", "DEPR"), "ger": ("N", "V.MSDR"),
    "adj": ("ADJ",), "adja": ("ADJ", "ADJA"), "adjp": ("ADJ", "ADJP"), "adjc": ("ADJ", "SHORT"),
    "adv": ("ADV",), "num": ("NUM",), "numcomp": ("NUM",), "numcol": ("NUM",),
    "ppron12": ("PRO",), "ppron3": ("PRO",), "siebie": ("PRO",),
    "fin": ("V", "IND"), "bedzie": ("V", "IND", "FUT"), "aglt": ("V", "CLITIC"),
    "praet": ("V", "IND", "PST"), "impt": ("V", "IMP"), "imps": ("V", "IMPRS", "PST"),
    "inf": ("V", "NFIN"), "pcon": ("V.CVB", "PRS"), "pant": ("V.CVB", "PST"),
    "pact": ("V.PTCP", "ACT", "PRS"), "pacta": ("V.PTCP", "ACT", "ADJA"), "ppas": ("V.PTCP", "PASS"),
    "winien": ("V", "MOD"), "pred": ("PRED",), "prep": ("ADP",), "conj": ("CONJ",),
    "comp": ("CONJ",), "qub": ("PART",), "part": ("PART",), "interj": ("INTJ",),
    "brev": ("ABBR",), "burk": ("FIXED",), "frag": ("FIXED",),
    "ign": ("UNKNOWN",), "xxx": ("UNKNOWN",), "interp": ("UNKNOWN",), "dig": ("UNKNOWN",),
    "romandig": ("UNKNOWN",), "emoticon": ("UNKNOWN",),
}
_SGJP_VALUE = {
    "sg": ("SG",), "pl": ("PL",),
    "nom": ("NOM",), "gen": ("GEN",), "dat": ("DAT",), "acc": ("ACC",), "inst": ("INS",),
    "loc": ("ESS",), "voc": ("VOC",),
    "m1": ("MASC", "HUM"), "m2": ("MASC", "ANIM"), "m3": ("MASC", "INAN"), "f": ("FEM",),
    "n": ("NEUT",), "n1": ("NEUT",), "n2": ("NEUT",), "p1": ("MASC", "HUM"), "p2": ("NEUT",),
    "p3": ("NEUT",),
    "pri": ("1",), "sec": ("2",), "ter": ("3",),
    "imperf": ("IPFV",), "perf": ("PFV",),
    "pos": (), "com": ("CMPR",), "sup": ("SPRL",),
    "aff": (), "neg": ("NEG",),
}
# SGJP name classes that are common words; every other class marks a proper name.
COMMON_NAME_CLASSES = frozenset({"nazwa_pospolita", "nazwa pospolita", "pospolita", ""})
# SGJP qualifiers that become features.
_QUALIFIER_FEATURES = {"daw.": "ARCH", "przest.": "ARCH", "niepopr.": "NONSTD", "wulg.": "VULG",
                       "rzad.": "RARE", "gwar.": "DIAL", "reg.": "DIAL", "pot.": "COLL",
                       "indyw.": "INDIV"}


def sgjp_to_tag(tag: str, name_classes: Iterable[str] = (), qualifiers: Iterable[str] = (),
                form: str = "") -> frozenset[str]:
    """Morfeusz 2 / SGJP tag (``subst:sg:gen.acc:m1``), name classes and qualifiers -> Tag.

    - dotted values are alternatives and all go into the tag (see ``readings_of``);
    - ``fin`` of a perfective verb is the future (FUT), of an imperfective one the present (PRS);
    - a name class other than the common-noun one, or a capitalised form, adds PROPN;
    - qualifiers daw./przest. add ARCH, niepopr. NONSTD, wulg. VULG, rzad. RARE, gwar./reg.
      DIAL, pot. COLL, indyw. INDIV (a compound label daw._dziś_gwar. by its first part);
    - values not in the vocabulary (agl/nagl, wok/nwok, akc/nakc, praep/npraep, congr/rec, col/
      ncol, vocalic variants) carry no grammatical meaning for the games and are left out.
    """
    parts = tag.split(":")
    pos = parts[0]
    feats = set(_SGJP_POS.get(pos, ("UNKNOWN",)))
    for part in parts[1:]:
        for value in part.split("."):
            feats.update(_SGJP_VALUE.get(value, ()))
    if pos == "fin":
        feats.add("FUT" if "PFV" in feats else "PRS")
    if pos == "ppron3" and not any(p in feats for p in ("1", "2", "3")):
        feats.add("3")
    for nc in name_classes:
        if nc not in COMMON_NAME_CLASSES:
            feats.add("PROPN")
    if form[:1].isupper():
        feats.add("PROPN")
    for q in qualifiers:
        for single in q.split(","):
            single = single.strip()
            # compound labels (daw._dziś_gwar., przest._dziś_książk.): the first part
            f = _QUALIFIER_FEATURES.get(single) or _QUALIFIER_FEATURES.get(single.split("_", 1)[0])
            if f:
                feats.add(f)
    return frozenset(feats)
