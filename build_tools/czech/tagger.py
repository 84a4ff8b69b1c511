"""Tag the forms that the Hunspell affix rules make for one cs_CZ.dic entry.

The affix file says *which* forms a stem has; the paradigm tables of `data/` say *which slot* each
form fills. Nouns and adjectives are tagged by table rows (flag, lemma ending, form ending); verbs are
tagged by the shape of the whole set of forms (2nd person singular -š gives the present stem, triples
X / X+me / X+te give the imperative, l-forms with -a/-o/-i/-y the l-participle, ...), which holds for
every conjugation class without listing them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from importlib import resources


NOUN_FLAGS = frozenset("PIVDUHLSZQCMK")
VERB_FLAGS = frozenset("AJB")
PREFIX_TAGS = {"ne": ("NEG",), "nej": ("SPRL",), "nejne": ("SPRL", "NEG")}
SOFT = "jščřžcďťň"
VOWELS = "aeiouyáéíóúůýě"


def _data_lines(name: str):
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        yield line.split("\t")


class _Tables:
    def __init__(self) -> None:
        self.noun: dict[str, list[tuple[re.Pattern, re.Pattern, tuple[frozenset, ...]]]] = defaultdict(list)
        for flag, lem, form, slots in _data_lines("noun_slots.tsv"):
            self.noun[flag].append((re.compile(lem), re.compile(form),
                                    tuple(frozenset(s.split(";")) for s in slots.split())))
        self.genders = [(flag, re.compile(lem), tuple(feats.split())) for flag, lem, feats in _data_lines("genders.tsv")]
        self.adj = [(re.compile(lem), re.compile(form), tuple(frozenset(s.split(";")) for s in slots.split()))
                    for lem, form, slots in _data_lines("adj_slots.tsv")]


@lru_cache(maxsize=1)
def tables() -> _Tables:
    return _Tables()


# ---------------------------------------------------------------- nouns

def noun_gender(lemma: str, flags: str) -> tuple[str, ...]:
    for flag, rx, feats in tables().genders:
        if flag in flags and rx.search(lemma):
            return feats
    return ()


# Declension flags that carry a gender of their own (genders.tsv): a noun listed with two of them is
# two nouns with one spelling -- jeřáb/HPI (the bird: jeřábi; the crane: jeřáby), los/PHIV, balič/SU,
# esej/ZS, brepta/ZQPV (ta brepta, ten brepta) -- and each flag's forms take that flag's gender. Q is
# such a flag only on consonant-final masculines (bílek/Q: the hrad declension with a mobile -e-);
# on -a/-o/-e words and on feminines (hepatitis/ZQ) it just adds forms, as I and R do.
GENDER_FLAGS = frozenset("PUDVHLSZMK")


def flag_genders(lemma: str, flags: str) -> dict[str, tuple[str, ...]]:
    """{flag: gender} when the noun's declension flags give different genders, else {}."""
    return _flag_genders(lemma[-4:], flags)


@lru_cache(maxsize=50_000)
def _flag_genders(lemma: str, flags: str) -> dict[str, tuple[str, ...]]:
    # by the lemma's last letters: the genders.tsv patterns look at its ending only
    out = {}
    for fl in flags:
        if fl in GENDER_FLAGS or (fl == "Q" and lemma[-1:] not in VOWELS and not lemma.endswith(("um", "on"))
                                  and not set(flags) & set("ZKMC")):
            g = noun_gender(lemma, fl)
            if g:
                out[fl] = g
    return out if len(set(out.values())) > 1 else {}


@lru_cache(maxsize=200_000)
def noun_slots(flag: str, lemma_end: str, form_end: str) -> tuple[frozenset, ...] | None:
    for lem_rx, form_rx, slots in tables().noun.get(flag, ()):
        if lem_rx.search(lemma_end) and form_rx.search(form_end):
            return slots
    return None


@lru_cache(maxsize=100_000)
def adj_slots(lemma_end: str, form_end: str) -> tuple[frozenset, ...] | None:
    for lem_rx, form_rx, slots in tables().adj:
        if lem_rx.search(lemma_end) and form_rx.search(form_end):
            return slots
    return None


# ---------------------------------------------------------------- classification

def is_infinitive(word: str) -> bool:
    return word.endswith(("t", "ti", "ct", "ci"))


VERB_PART = frozenset("AJBITXCN")
NOUN_PART = frozenset("PIVDUHLSZQCMKRN")


def split_mixed(lemma: str, flags: str) -> list[str]:
    """A dictionary line may merge a noun and a verb (stát/HRIN: státu, státy ... and státi, nestát).
    Split such flags into the noun part and the verb part; other lines are returned as they are."""
    fs = set(flags)
    # I next to an animate flag (atlet/PI) is the nominative plural -i, not the long infinitive
    if (is_infinitive(lemma) and "I" in fs and fs & set("HLSZMKQ") and not fs & set("PUDV")
            and not fs & VERB_FLAGS):
        noun = "".join(f for f in flags if f in NOUN_PART and f != "I")
        verb = "".join(f for f in flags if f in VERB_PART and f not in NOUN_FLAGS - {"I", "C"})
        return [noun, verb]
    # an infinitive with conjugation flags (A/J/B) AND noun declension flags is a merged line of a verb
    # and a homonymous noun (drát/ATHR: drát-deru and drát-dráty; nýt/BHN; obrat/AHNTX): the noun part
    # takes the declension flags, the verb part the rest
    # a noun line with the comparative flag E (nej-) is also a comparative adverb (výše/EZ: the noun výše
    # and the adverb výše, nejvýše; dále/EZ)
    if "E" in fs and fs & NOUN_DECL and not fs & VERB_FLAGS and not lemma.endswith(("í", "ý")):
        return ["".join(f for f in flags if f != "E"), "E"]
    # a transgressive line with declension flags is a noun and a transgressive (věda/XNZQ: věda-vědy and
    # věda-vědouc of vědět; vliv/HXN: vliv-vlivy and vliv-vlivše of vlít)
    if "X" in fs and not is_infinitive(lemma) and fs & NOUN_DECL and not fs & VERB_FLAGS:
        return ["".join(f for f in flags if f in NOUN_DECL), "".join(f for f in flags if f not in NOUN_DECL)]
    # a noun line with O: the noun and a homonymous short form (bál/HNO: the ball and bát se's bál, bála;
    # bit/HNO: the bit and bít's bit, bita; osel/INOPV: the donkey and osít's osel, osela)
    if "O" in fs and fs & NOUN_DECL and not fs & VERB_FLAGS and not fs & {"X", "Y", "y"}:
        return ["".join(f for f in flags if f not in "ON"), "".join(f for f in flags if f in "ON")]
    if is_infinitive(lemma) and fs & VERB_FLAGS and fs & NOUN_DECL:
        noun = "".join(f for f in flags if f in NOUN_DECL)
        verb = "".join(f for f in flags if f not in NOUN_DECL)
        return [noun, verb]
    return [flags]


NOUN_DECL = frozenset("PVDUHLSZQMK")


def word_class(lemma: str, flags: str) -> str:
    """'verb', 'adj', 'noun', 'short', 'cvb' or 'plain' (no paradigm flag)."""
    fs = set(flags)
    if fs & VERB_FLAGS or "T" in fs:
        return "verb"
    if "Y" in fs or "y" in fs:
        return "adj"
    # I (long infinitive) with only C (the passive here: udit/CIN -> uzen) is a verb
    if "I" in fs and is_infinitive(lemma) and not (fs & (NOUN_FLAGS - {"I", "C"})):
        return "verb"
    if "X" in fs:
        return "verb" if is_infinitive(lemma) else "cvb"
    if fs & NOUN_FLAGS:
        return "noun"
    if "O" in fs:
        return "short"
    return "plain"


# ---------------------------------------------------------------- verbs

PTCP_ENDINGS = {
    "": (("MASC", "SG"),),
    "a": (("FEM", "SG"), ("NEUT", "PL")),
    "o": (("NEUT", "SG"),),
    "i": (("MASC", "ANIM", "PL"),),
    "y": (("MASC", "INAN", "PL"), ("FEM", "PL")),
}
PASS_ENDINGS = dict(PTCP_ENDINGS, u=(("FEM", "SG", "ACC"),))


def tag_verb_forms(lemma: str, forms: set[str], infinitive: str | None = None
                   ) -> tuple[dict[str, set[frozenset]], set[str]]:
    """Slot inference over the finite forms of one verb. Returns (tags by form, clitic forms).
    `infinitive`: the verb's infinitive when `lemma` is a finite headword (píšu -> psát)."""
    tags: dict[str, set[frozenset]] = defaultdict(set)
    S = set(forms)
    if is_infinitive(lemma):
        S.discard(lemma)
    _tag_infinitive_variants(lemma, S, tags)
    _tag_l_participles(lemma, S, tags)
    clitics = _clitic_forms(S, tags)
    S -= clitics
    present = _tag_present(S, tags)
    imp_pl = _tag_imperatives(S, tags, present)
    _tag_leftovers(lemma, S, tags, imp_pl)
    _mark_colloquial_j_variants(tags)
    if (infinitive or lemma).endswith(("at", "át")):
        _add_bookish_present(tags)
    _add_colloquial_first_plural(tags)
    return tags, clitics


def _put(tags: dict[str, set[frozenset]], form: str, *feats: str) -> None:
    tags[form].add(frozenset(("V",) + feats))


def _tag_infinitive_variants(lemma: str, S: set[str], tags: dict[str, set[frozenset]]) -> None:
    """long / short infinitive variants"""
    for f in list(S):
        if (is_infinitive(lemma) and (f == lemma + "i" or (lemma.endswith("ct") and f == lemma[:-2] + "ci")
                                      or (lemma.endswith("ci") and f == lemma[:-2] + "ct")
                                      or (lemma.endswith("ti") and f == lemma[:-1]))):
            _put(tags, f, "NFIN", *(("LIT",) if len(f) > len(lemma) else ()))


def _tag_l_participles(lemma: str, S: set[str], tags: dict[str, set[frozenset]]) -> None:
    for f in S:
        if f.endswith("l") and all(f + e in S for e in "aoiy"):
            for e, readings in PTCP_ENDINGS.items():
                for r in readings:
                    tags[f + e].add(frozenset(("V.PTCP", "ACT", "PRF") + r))
    # the -nul variant of the masculine singular (blbnul beside blbl) of -nout verbs
    if lemma.endswith("nout"):
        for f in S:
            if f.endswith("nul") and f not in tags:
                tags[f].add(frozenset(("V.PTCP", "ACT", "PRF", "MASC", "SG")))


def _clitic_forms(S: set[str], tags: dict[str, set[frozenset]]) -> set[str]:
    """l-participles + the clitic -s (psals)."""
    clitics = set()
    for f in S:
        if f.endswith("s") and f[:-1] in tags and any("V.PTCP" in t for t in tags[f[:-1]]):
            clitics.add(f)
        elif f.endswith(("las", "los")) and f[:-2] in tags and any("V.PTCP" in t for t in tags[f[:-2]]):
            clitics.add(f)                # blbnulas: l-participle + -s of the -nul variant
    return clitics


def _tag_present(S: set[str], tags: dict[str, set[frozenset]]) -> set[str]:
    """The present tense, from the 2nd person singular; the forms tagged as present."""
    present = set()
    for f in sorted(S):
        if not f.endswith("š") or f in tags:
            continue
        x = f[:-1]
        if x not in S:
            continue
        _put(tags, f, "IND", "PRS", "2", "SG")
        _put(tags, x, "IND", "PRS", "3", "SG")
        present |= {f, x}
        for suf, p in (("me", "1"), ("te", "2")):
            if x + suf in S:
                _put(tags, x + suf, "IND", "PRS", p, "PL")
                present.add(x + suf)
        first, third = _first_and_third_person(x, S, tags, present)
        for g in first:
            if g in S:
                _put(tags, g, "IND", "PRS", "1", "SG")
                present.add(g)
        for g in third:
            if g in S:
                _put(tags, g, "IND", "PRS", "3", "PL")
                present.add(g)
    return present


def _first_and_third_person(x: str, S: set[str], tags: dict[str, set[frozenset]], present: set[str]
                            ) -> tuple[list[str], list[str]]:
    """The candidates for the 1st person singular and 3rd plural of the present whose 3rd singular
    is ``x`` (the bookish -i/-í variants of a soft stem are tagged here)."""
    stem = x[:-1]
    first, third = [], []
    if x.endswith("e"):
        first.append(stem + "u")
        third.append(stem + "ou")
        if stem and stem[-1] in "jc":
            # kupuji / kupuju, kupují / kupujou; chce -> chci
            first.append(stem + "i")
            third.append(stem + "í")
        elif stem and stem[-1] in SOFT and len(stem) > 1 and stem[-2] in VOWELS:
            # píše -> píši, píší beside píšu, píšou: the bookish variants (maže class, below)
            for g, p, n in ((stem + "i", "1", "SG"), (stem + "í", "3", "PL")):
                if g in S and g not in tags:
                    _put(tags, g, "IND", "PRS", p, n, "LIT")
                    present.add(g)
        # after a consonant cluster (zavře, umře, lže) stem + i is the imperative (zavři, umři,
        # lži), not a 1st person: the imperative rules tag it
    elif x.endswith(("í", "á", "ě")):
        first.append(x + "m")
        if x.endswith("í"):
            # prosí (3pl = 3sg), sázejí / sází, but jí -> jedí, ví -> vědí (another -í form)
            other = [g for g in S if g.endswith("í") and g != x and g not in tags and not g.endswith(("ejí", "ějí"))
                     and g[:1] == x[:1] and len(g) > len(x) and not g.endswith(("ší", "ci", "cí"))]
            third += [stem + "ejí", stem + "ějí"] + (other if other else [x])
        elif x.endswith("á"):
            third.append(x + "jí")
    return first, third


def _tag_imperatives(S: set[str], tags: dict[str, set[frozenset]], present: set[str]) -> list[str]:
    """The imperative: the rest of the -me/-te forms and their singulars; those plurals."""
    imp_pl = [f for f in S if f not in present and f.endswith(("me", "te")) and f not in tags]
    for f in imp_pl:
        _put(tags, f, "IMP", "1" if f.endswith("me") else "2", "PL")
    for f in imp_pl:
        p = f[:-2]
        cands = [p] if p in S else []
        if p.endswith(("ě", "e")) and p[:-1] + "i" in S:
            cands.append(p[:-1] + "i")
        for c in cands:
            if c not in present:
                _put(tags, c, "IMP", "2", "SG")
    # imperative X+i whose plural coincides with the present (pošli, pošleme, pošlete of pošle)
    for f in S:
        if f.endswith("i") and f not in tags and any({"PRS", "3", "SG"} <= t for t in tags.get(f[:-1] + "e", ())):
            _put(tags, f, "IMP", "2", "SG")
            for suf, p in (("eme", "1"), ("ete", "2")):
                if f[:-1] + suf in tags:
                    _put(tags, f[:-1] + suf, "IMP", p, "PL")
    return imp_pl


def _tag_leftovers(lemma: str, S: set[str], tags: dict[str, set[frozenset]], imp_pl: list[str]) -> None:
    """The forms still untagged, by ending."""
    for f in S:
        if f in tags:
            continue
        if f.endswith("aje") and lemma.endswith(("at", "át")):
            tags[f].add(frozenset(("V.CVB", "PRS", "MASC", "SG")))     # klouzaje (beside klouzajíc)
        elif f.endswith("ou") or f.endswith(("ejí", "ějí", "ají", "ijí")):
            _put(tags, f, "IND", "PRS", "3", "PL")
        elif f.endswith("u") or (f.endswith("m") and f[:-1].endswith(("í", "á"))):
            _put(tags, f, "IND", "PRS", "1", "SG")
        elif f.endswith("i") and imp_pl:
            _put(tags, f, "IMP", "2", "SG")


def _mark_colloquial_j_variants(tags: dict[str, set[frozenset]]) -> None:
    """-ju / -jou beside -ji / -jí (kupuju, kupujou): the colloquial-neutral variants."""
    for f in list(tags):
        for short, std in (("ju", "ji"), ("jou", "jí")):
            if f.endswith(short) and f[: -len(short)] + std in tags:
                tags[f] = {frozenset(t | {"COL"}) if "PRS" in t else t for t in tags[f]}


def _add_bookish_present(tags: dict[str, set[frozenset]]) -> None:
    """The bookish variants of the maže class (infinitive -at/-át, soft stem + -e): maži, maží
    beside mažu, mažou."""
    for f in list(tags):
        if f.endswith("e") and len(f) > 2 and f[-2] in "žščřj" and f[-3] in VOWELS \
                and any({"PRS", "3", "SG"} <= t for t in tags[f]):
            # (after a consonant cluster there is no bookish -i: lže -> lžu, lži is the imperative)
            stem = f[:-1]
            if stem + "u" in tags and stem + "i" not in tags:
                tags[stem + "i"].add(frozenset(("V", "IND", "PRS", "1", "SG", "LIT")))
            if stem + "ou" in tags and stem + "í" not in tags:
                tags[stem + "í"].add(frozenset(("V", "IND", "PRS", "3", "PL", "LIT")))


def _add_colloquial_first_plural(tags: dict[str, set[frozenset]]) -> None:
    """The colloquial 1st person plural: neseme -> nesem."""
    for f in list(tags):
        if f.endswith("eme") and any({"PRS", "1", "PL"} <= t for t in tags[f]):
            short = f[:-1]
            if short not in tags:
                tags[short].add(frozenset(("V", "IND", "PRS", "1", "PL", "COL")))


def tag_passive(form: str, stem_len: int) -> list[frozenset]:
    """Passive participle of a verb: nesen, nesena, neseno, neseni, neseny, nesenu."""
    out = []
    end = form[-1]
    if end in "nt":
        key = ""
    elif end in PASS_ENDINGS and len(form) > 1 and form[-2] in "nt":
        key = end
    else:
        return out
    for r in PASS_ENDINGS[key]:
        out.append(frozenset(("V.PTCP", "PASS") + r))
    return out


def tag_short(form: str, lemma: str) -> list[frozenset]:
    """Forms of a short-form headword (šťasten, byl, blit): by the added ending."""
    add = form[len(lemma):] if form.startswith(lemma) else None
    if lemma.endswith("l"):                                   # l-participle headword (byl)
        if add is None:
            add = form[-1] if form[-1] in "aoiy" else None
        if add is None or add not in PTCP_ENDINGS:
            return []
        return [frozenset(("V.PTCP", "ACT", "PRF") + r) for r in PTCP_ENDINGS[add]]
    e = form[-1]
    if form == lemma:
        e = ""
    if e not in PASS_ENDINGS:
        return []
    res = []
    for r in PASS_ENDINGS[e]:
        feats = ("ADJ", "SHORT") + tuple(x for x in r if x != "ACC")
        # no case feature for the predicative forms (šťasten, šťastna): they are not the attributive
        # nominatives the box rules admit; profiles admit them by SHORT. The -u form is accusative.
        res.append(frozenset(feats + (("ACC",) if "ACC" in r else ())))
    return res


CVB_PRS = {"": ("MASC", "SG"), "c": ("FEM", "SG"), "ce": ("PL",)}


def tag_cvb(form: str) -> list[frozenset]:
    if form.endswith(("vši", "ši")):
        return [frozenset(("V.CVB", "PST", "FEM", "SG")), frozenset(("V.CVB", "PST", "NEUT", "SG"))]
    if form.endswith(("vše", "še")):
        return [frozenset(("V.CVB", "PST", "PL"))]
    if form.endswith("v"):
        return [frozenset(("V.CVB", "PST", "MASC", "SG"))]
    if form.endswith("aje"):                          # klouzaje, hryzaje (beside klouzajíc)
        return [frozenset(("V.CVB", "PRS", "MASC", "SG"))]
    if form.endswith(("ouc", "íc")):
        return [frozenset(("V.CVB", "PRS", "FEM", "SG")), frozenset(("V.CVB", "PRS", "NEUT", "SG"))]
    if form.endswith(("ouce", "íce")):
        return [frozenset(("V.CVB", "PRS", "PL"))]
    return []
