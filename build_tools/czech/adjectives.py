"""Adjectives (flags Y, y): adj_slots.tsv gives each form its slots; comparatives and superlatives
(nej-), adverbs (R), -ost nouns (K, C); place-name adjectives, their comparatives and adverbs are
tagged TOPO (places.py).
A Y headword in -é or -á is a noun of adjectival declension (jízdné, házená): the dictionary files
adjectives under the masculine -ý."""

from __future__ import annotations

from ..model import Reading
from .output import Output, _ADJ_TAGS, _tag, emit_ost, split_prefix
from .place_rules import place_of, place_of_comparative
from .tagger import adj_slots



def expand_adj(lemma: str, flags: str, dic, expanded, out: Output) -> None:
    emit, reject, append, paradigm = out.emit, out.reject, out.items.append, out.paradigm
    is_cmpr = lemma.endswith("í") and ("E" in flags or "W" in flags)
    if lemma.endswith("á") and not adjectival_noun(lemma):
        for form, _chain in expanded:
            reject(form, "untagged-form", f"{lemma}/{flags}")
        return
    pos = ("N",) if adjectival_noun(lemma) else ("ADJ",)
    rule = f"noun-adjectival/{flags}" if pos == ("N",) else paradigm
    masculine = lemma[:-1] + "ý" if lemma.endswith(("é", "á")) else lemma
    # adjectives derived from place names (ostravský), their comparatives (pražštější) and adverbs
    # (pražsky): TOPO, which cs-kriskros excludes (seed 004)
    topo = ("TOPO",) if (place_of_comparative(lemma, dic) if is_cmpr else place_of(masculine, dic)) else ()
    lemma_end = "í" if is_cmpr else lemma[-3:]
    for form, chain in expanded:
        ptags, base, sfx = split_prefix(form, chain)
        deg = ("CMPR",) if is_cmpr else ()
        if "SPRL" in ptags:
            deg = ("SPRL",)
        if not sfx or sfx[0].flag in "Yy":
            r1 = sfx[0] if sfx else None
            if r1 is not None and r1.flag == "y":
                d = ("SPRL",) if "SPRL" in ptags else ("CMPR",)
                if base.endswith("ji"):
                    emit(form, lemma, _tag(("ADV",), d, tuple(p for p in ptags if p != "SPRL"), topo), "adv")
                    continue
                slots = adj_slots("í", base[-6:])
            else:
                d = deg
                slots = adj_slots(lemma_end, base[-6:])
            if not slots:
                reject(form, "untagged-form", f"{lemma}/{flags}")
                continue
            pt = tuple(p for p in ptags if p != "SPRL")
            poss = ("POSS",) if lemma.endswith(("ův", "in")) else ()
            ck = (slots, d, pt, poss, topo, pos)
            tags = _ADJ_TAGS.get(ck)
            if tags is None:
                tags = _ADJ_TAGS[ck] = tuple(_tag(pos, s_, d, pt, poss, topo) for s_ in slots)
            for t in tags:
                append(Reading(form, lemma, t, rule))
            continue
        r1 = sfx[0]
        pt = tuple(p for p in ptags if p != "SPRL")
        if r1.flag in "KC" and "ost" in r1.add:
            emit_ost(emit, reject, form, base, r1, lemma, ptags)
        elif r1.flag == "R" or (r1.flag == "O" and r1.add == "o" and lemma.endswith("ý")):
            emit(form, lemma, _tag(("ADV",), deg, pt, topo), "adv")
        else:
            reject(form, "untagged-form", f"{lemma}/{flags} {r1.flag}:{r1.strip}>{r1.add}")


def adjectival_noun(lemma: str) -> bool:
    """A Y headword filed under its neuter or feminine nominative is a noun of adjectival declension
    (jízdné, vstupné, házená, roštěná, vdaná: the married woman). Not the -ová lines: beside real
    feminines (švagrová, šéfová) the dictionary files lowercase copies of surnames there (radová,
    delová, ťienová, ibnová), and their forms stay out (precision first)."""
    return lemma.endswith("é") or (lemma.endswith("á") and not lemma.endswith("ová"))
