"""Flagless dictionary lines (no inflection flag; at most the negation flag N) that are not case forms of
flagless nouns nor present forms of flagless verbs (nouns.py, ../finite.py):

1. **Forms of another headword.** cs_CZ.dic lists many inflected forms as separate flagless lines
   (hrejte beside hrát/BTN, zombii beside zombie). Such a line needs no classification of its own: the
   other headword generates it with its tag. `forms_of_other_headwords` finds the headwords by reverse
   affix lookup (a suffix rule whose added ending the word has, a stem in the dictionary with that flag,
   one continuation level, the ne-/nej- prefixes) and returns the readings their full expansion gives the
   word (the same engine path as the headword itself, so the tag is the one the form already has).
2. **Regular deadjectival adverbs.** A word in -e/-ě whose adjective in -ý/-í is a dictionary headword
   (rychle: rychlý, hloupě: hloupý, lidsky -> see 3) with the spelling changes of the adverb suffix
   (k/h/ch/r before -e: -ce/-ze/-še/-ře; d/t/n before -ě: -dě/-tě/-ně; -ský/-cký -> -sky/-cky handled by
   tables.looks_like_adverb), and -sky/-cky/-zky/-ky words whose -ký adjective is a headword (česky:
   český; hezky: hezký). Only when the adjective is an adjective headword of the dictionary (flag Y).
3. Everything else is looked up in data/closed_class.tsv (reviewed word lists: prepositions,
   conjunctions, particles, interjections, adverbs, indeclinable pronouns/numerals/nouns) by expand.py,
   and otherwise stays `unclassified`.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from importlib import resources

from ...model import Reading
from .nouns import PALATALISE, SOFTEN
from .. import tables
from ..tagger import word_class

# ---------------------------------------------------------------- 1. forms of other headwords

NEG_PREFIXES = ("nejne", "nej", "ne")


def _suffix_index(aff):
    """(rules by added ending, {flag: rules whose continuation has the flag, by added ending}, longest
    added ending) of the affix table, kept on it."""
    hit = aff.__dict__.get("_reverse_sfx")
    if hit is None:
        by_add = defaultdict(list)
        by_cont: dict = defaultdict(lambda: defaultdict(list))
        for c in aff.suffixes.values():
            for r in c.rules:
                by_add[r.add].append(r)
                for f in set(r.cont):
                    by_cont[f][r.add].append(r)
        maxlen = max((len(a) for a in by_add), default=0)
        hit = aff.__dict__["_reverse_sfx"] = (dict(by_add), {f: dict(v) for f, v in by_cont.items()}, maxlen)
    return hit


def _candidate_stems(word: str, aff, dic: dict) -> set[tuple[str, str]]:
    """(stem, flags) of dictionary headwords whose suffix rules could make `word` (unverified)."""
    by_add, by_cont, maxlen = _suffix_index(aff)
    out = set()

    def one_level(w: str, index: dict):
        n = len(w)
        for k in range(0, min(n - 1, maxlen) + 1):
            for r in index.get(w[n - k:], ()):
                yield w[: n - k] + r.strip, r

    for w in {word} | {word[len(p):] for p in NEG_PREFIXES if word.startswith(p) and len(word) > len(p) + 1}:
        for flags in dic.get(w, ()):
            out.add((w, flags))
        for stem, r in one_level(w, by_add):
            for flags in dic.get(stem, ()):
                if r.flag in flags:
                    out.add((stem, flags))
            # a continuation class: w = (stem + rule1) + rule2, rule1 naming rule2's flag
            cont = by_cont.get(r.flag) if r.flag else None
            if cont:
                for stem1, r1 in one_level(stem, cont):
                    for flags in dic.get(stem1, ()):
                        if r1.flag in flags:
                            out.add((stem1, flags))
    return out


def forms_of_other_headwords(word: str, dic, expand_entry) -> list[tuple]:
    """The readings that other flagged headwords of the dictionary `dic` generate for `word`."""
    items = []
    for stem, flags in sorted(_candidate_stems(word, dic.aff, dic.flagged)):
        if word_class(stem, flags) == "plain":
            continue        # only paradigm headwords (no recursion into other plain lines)
        for it in _expand_cached(stem, flags, dic, expand_entry):
            if isinstance(it, Reading) and it.form == word:
                items.append(it)
    return items


def third_plural_variant(word: str, dic, expand_entry) -> list[tuple]:
    """bydlejí, mizejí, sedějí: the -ejí/-ějí 3rd person plural that verbs of the -et/-ět class have
    beside -í (bydlí). cs_CZ.dic lists it as a line of its own; it takes the lemma and tag of the -í
    form that a flagged verb headword generates as 3rd person plural."""
    if not word.endswith(("ejí", "ějí")) or len(word) < 6:
        return []
    plain = word[:-3] + "í"
    return [Reading(word, it.lemma, it.tag, it.rule) for it in forms_of_other_headwords(plain, dic, expand_entry)
            if {"V", "PRS", "3", "PL"} <= set(it.tag) and "NEG" not in it.tag
            and it.lemma.endswith(("et", "ět", "eti", "ěti"))]  # prosit: prosí, never prosejí


# stem endings undone to find the nominative of a palatalised -i plural (brontosauři: brontosaur-us)
UNPALATALISE = tuple((soft, hard) for hard, soft in PALATALISE)


def animate_plural_variant(word: str, dic, expand_entry) -> list[tuple]:
    """milostpánové, dinosauři, brontosauři: a nominative plural that cs_CZ.dic lists as a line of its
    own beside an animate masculine noun headword whose flags give the other plural (milostpán/PI:
    milostpáni; dinosaurus/D: dinosaurové). -ové is added to the nominative singular, or to the stem of
    the genitive singular of a noun with mobile -e- (otcové: otec, otce); -i follows the
    palatalised stem (r -> ř, k -> c, h -> z, ch -> š), of the nominative or of an -us/-os/-es one.
    The headword must generate its nominative singular as an animate masculine noun."""
    if word.endswith("ové") and len(word) > 5:
        cands = [word[:-3]]
    elif word.endswith("i") and len(word) > 4:
        stem = word[:-1]
        stems = [stem] + [stem[: len(stem) - len(a)] + b for a, b in UNPALATALISE if stem.endswith(a)]
        cands = [c + e for c in stems for e in ("", "us", "os", "es")]
    else:
        return []
    for nom in cands:
        for it in forms_of_other_headwords(nom, dic, expand_entry):
            t = set(it.tag)
            if it.lemma == nom and {"N", "NOM", "SG", "MASC", "ANIM"} <= t and "NEG" not in t:
                return [Reading(word, nom, tuple(sorted((t - {"SG", "ACC"}) | {"PL"})), "noun/plural-variant")]
    if word.endswith("ové") and len(word) > 5:
        # -ové on the oblique stem of a noun with mobile -e- (otcové: otec, genitive otce)
        for gen in (word[:-3] + "e", word[:-3] + "a"):
            for it in forms_of_other_headwords(gen, dic, expand_entry):
                t = set(it.tag)
                if {"N", "GEN", "SG", "MASC", "ANIM"} <= t and "NEG" not in t and it.lemma != gen:
                    tag = (t - {"SG", "GEN"}) | {"PL", "NOM"}
                    return [Reading(word, it.lemma, tuple(sorted(tag)), "noun/plural-variant")]
    return []


# Demonstratives that take the deictic suffixes -hle and -to (tenhle, tahle, takovýto, tomhle).
DEMONSTRATIVES = ("ten", "tamten", "takový")
DEICTIC_SUFFIXES = ("hle", "to")


def deictic_demonstrative(word: str, dic, expand_entry) -> list[tuple[str, tuple[str, ...]]]:
    """[(lemma, tag)] when WORD is a form of a demonstrative plus -hle/-to (tenhle, tahle, tihle,
    tomhle, takovýhle, takovéto): the tags of the form without the suffix, lemma with the suffix."""
    for sfx in DEICTIC_SUFFIXES:
        if not word.endswith(sfx) or len(word) < len(sfx) + 2:
            continue
        base = word[: -len(sfx)]
        out = [(lemma + sfx, tag) for lemma, tag in tables.readings_of(base) if lemma in DEMONSTRATIVES]
        out += [(it.lemma + sfx, it.tag) for it in forms_of_other_headwords(base, dic, expand_entry)
                if it.lemma in DEMONSTRATIVES and not {"NEG", "CMPR", "SPRL"} & set(it.tag)]
        if out:
            return sorted(set(out))
    return []


SHORT_ENDINGS = ("a", "o", "i", "y", "u")


def short_adjective(word: str, dic) -> tuple[str, str] | None:
    """(adjective, masculine short form) when WORD is a short (predicative) form of a Y adjective that
    cs_CZ.dic lists as flagless lines: hoden/hodna/hodno/hodni/hodny/hodnu (hodný), vděčen,
    osamocen/osamocena (osamocený), blízek/blízka (blízký). The masculine and the feminine form must
    both be lines: that keeps out fossils such as z mlada, do široka (no mlad, širok line)."""
    plain = dic.plain
    flagged = dic.flagged

    def is_adjective(adj: str) -> bool:
        return any("Y" in f for f in flagged.get(adj, ()))

    if word.endswith(SHORT_ENDINGS):
        base = word[:-1]                        # hodn, osamocen, blízk
        if len(base) < 3 or base[-1] in "aeiouyáéíóúůýě" or not is_adjective(base + "ý"):
            return None
        for masc in (base, base[:-1] + "e" + base[-1]):
            if masc in plain and base + "a" in plain:
                return base + "ý", masc
        return None
    if len(word) < 3 or word[-1] in "aeiouyáéíóúůýě":
        return None
    bases = [word] + ([word[:-2] + word[-1]] if word.endswith(("en", "ek")) else [])
    for base in bases:                          # osamocen -> osamocen-; hoden -> hodn-
        if is_adjective(base + "ý") and base + "a" in plain:
            return base + "ý", word
    return None


def _expand_cached(stem, flags, dic, expand_entry):
    cache = dic.expansions
    key = (stem, flags)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 4096:
            cache.clear()
        hit = cache[key] = tuple(expand_entry(stem, flags, dic))
    return hit


# ---------------------------------------------------------------- 2. regular deadjectival adverbs

# adverb ending -> adjective endings it comes from (the consonant alternations of the -e/-ě suffix)
ADVERB_TO_ADJ = (
    ("ce", ("ký",)), ("ze", ("hý",)), ("še", ("chý",)), ("ře", ("rý",)),
    ("dě", ("dý",)), ("tě", ("tý",)), ("ně", ("ný",)),
    ("bě", ("bý",)), ("pě", ("pý",)), ("vě", ("vý",)), ("mě", ("mý",)), ("fě", ("fý",)),
    ("le", ("lý",)), ("se", ("sý",)), ("ze", ("zý",)),
    ("ky", ("ký",)),
    ("ně", ("ní",)),
)
# not -e/-ě from every -í adjective: participial (plačící: plačíce is a transgressive), relational
# (hmyzí: hmyze is a noun case) and numeral (dvojí: dvoje) adjectives have no such adverb; -ní -> -ně
# (jarní: jarně, denní: denně) is regular.


def adverb_of_adjective(word: str, dic) -> str | None:
    """The adjective headword a regular adverb comes from (rychle -> rychlý, česky -> český), or None."""
    adjs = dic.adjectives
    if len(word) < 4:
        return None
    for end, adj_ends in ADVERB_TO_ADJ:
        if word.endswith(end):
            stem = word[: len(word) - len(end)]
            for ae in adj_ends:
                if stem + ae in adjs:
                    return stem + ae
    return None


# ---------------------------------------------------------------- 3. flagless imperatives

VOWEL_END = set("aeiouyáéíóúůýě")
SOFT = {"t": "ť", "d": "ď", "n": "ň"}


def build_imperative_index(plain: frozenset, dic: dict) -> dict[str, tuple[str, tuple[str, ...]]]:
    """form -> (lemma, tag) for imperatives the dictionary lists as flagless triples: the singular X (hrej,
    plavej, brzdi, husti) with its 1st and 2nd plural P+me, P+te (hrejme/hrejte, brzděme/brzděte,
    hustěme/hustěte), where P = X after a consonant and X - i + e/ě (or the softened stem: vyprosťme)
    after -i. All three must be flagless lines (mutual evidence; -me/-te beside a consonant- or
    -i-final singular is the imperative pattern, present forms end in a vowel). The lemma is the
    infinitive (stem + it/et/ět, X + t for -ej, -ovat for -uj, X + at/it/ět/et after another
    consonant: nech -> nechat, uč -> učit) when it is a verb headword, else X. `plain`: the
    dictionary's flagless lines, `dic`: its flagged ones (word -> flag strings)."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for x in plain:
        if len(x) < 2:
            continue
        if x[-1] == "i":
            stem = x[:-1]
            if not stem or stem[-1] in VOWEL_END:
                continue
            cands = [stem + "e", stem + "ě"] + ([stem[:-1] + SOFT[stem[-1]]] if stem[-1] in SOFT else [])
            infs = [stem + "it", stem + "et", stem + "ět"]
        elif x[-1] in VOWEL_END:
            continue
        else:
            cands = [x]
            # -ej: hrej (hrát), -uj: kupuj (kupovat), other consonants: nech (nechat), uč (učit),
            # čum (čumět), jisť (jistit)
            infs = [x[:-2] + "at", x[:-2] + "át", x[:-1] + "t"] if x.endswith("ej") else (
                [x[:-2] + "ovat"] if x.endswith("uj") else
                [x + "at", x + "it", x + "ět", x + "et", x[:-1] + SOFTEN.get(x[-1], x[-1]) + "it"])
        for p in cands:
            if p + "me" in plain and p + "te" in plain:
                lemma = next((i for i in infs if i in dic), x)
                out[x] = (lemma, ("IMP", "SG", "2", "V"))
                out[p + "me"] = (lemma, ("1", "IMP", "PL", "V"))
                out[p + "te"] = (lemma, ("2", "IMP", "PL", "V"))
                break
    return out


# ---------------------------------------------------------------- 4. ordinal adverbs, -kráte

ORDINAL_PREFIXES = ("napo", "po", "za")


def ordinal_adverb(word: str, dic) -> bool:
    """po-/za-/napo- + the neuter ordinal in -é/-í: poprvé, podesáté, pošedesáté, potřetí, zadruhé,
    napopáté (the adjective -ý/-í must be an adjective headword); -kráte beside -krát (desetkráte)."""
    adjs = dic.adjectives
    if word.endswith("kráte") and len(word) > 6:
        return True
    for p in ORDINAL_PREFIXES:
        if word.startswith(p) and len(word) > len(p) + 2:
            rest = word[len(p):]
            if rest.endswith("é") and rest[:-1] + "ý" in adjs:
                return True
            if rest.endswith("í") and rest in adjs and rest.endswith(("tí",)):
                return True        # potřetí (třetí); not every -í adjective
    return False


# ---------------------------------------------------------------- 5. reviewed word list

@lru_cache(maxsize=1)
def reviewed_words() -> dict[str, tuple[tuple[str, ...], ...]]:
    """data/flagless.tsv: word -> tags (a word may have several lines)."""
    text = resources.files("build_tools.czech").joinpath("data", "flagless.tsv").read_text(encoding="utf-8")
    out: dict[str, list] = defaultdict(list)
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        w, f = line.split("\t")[:2]
        out[w].append(tuple(sorted(set(f.split(";")))))
    return {w: tuple(t) for w, t in out.items()}


# ---------------------------------------------------------------- 6. collective (generic) numerals

def collective_numeral(word: str, dic) -> tuple[str, ...] | None:
    """Generic numerals listed as flagless pairs X-ero / X-ery (patero/patery, čtvero/čtvery, několikero/
    několikery, tisícero/tisícery): -ero is the nominative/accusative singular, -ery the plural (patery
    dveře). Both lines must be present (veškero alone, a pronoun form, does not qualify)."""
    plain = dic.plain
    if len(word) < 6:
        return None
    if word.endswith("ero") and word[:-1] + "y" in plain:
        return ("ACC", "NOM", "NUM", "SG")
    if word.endswith("ery") and word[:-1] + "o" in plain:
        return ("ACC", "NOM", "NUM", "PL")
    return None
