"""Short forms (flag O: šťasten, dohřát) and transgressive lines (flag X without an infinitive)."""

from __future__ import annotations

from .output import Output, _tag, split_prefix
from .tagger import adj_slots, tag_cvb, tag_short



def expand_short(lemma: str, flags: str, dic, expanded, out: Output) -> None:
    emit, reject = out.emit, out.reject
    for form, chain in expanded:
        ptags, base, sfx = split_prefix(form, chain)
        if sfx and sfx[0].add.endswith("s") and lemma.endswith("l"):
            reject(form, "clitic-contraction", f"{lemma}/{flags}")
            continue
        if sfx and sfx[0].flag not in "O":
            reject(form, "untagged-form", f"{lemma}/{flags}")
            continue
        base_lemma = lemma
        ts = tag_short(base, base_lemma)
        if not ts:
            reject(form, "untagged-form", f"{lemma}/{flags}")
            continue
        for t in ts:
            emit(form, lemma, _tag(t, ptags))


def expand_cvb(lemma: str, flags: str, dic, expanded, out: Output) -> None:
    emit, reject = out.emit, out.reject
    for form, chain in expanded:
        ptags, base, sfx = split_prefix(form, chain)
        if not sfx:
            t = ("V.CVB", "PRS", "MASC", "SG") if lemma.endswith(("a", "e", "ě")) else ("V.CVB", "PST", "MASC", "SG")
            emit(form, lemma, _tag(t, ptags))
            continue
        if len(sfx) > 1 or (sfx[0].cont and "Y" in sfx[0].cont):
            adj_lemma = lemma[: len(lemma) - len(sfx[0].strip)] + sfx[0].add
            for s in adj_slots("í", base[-6:]) or ():
                emit(form, adj_lemma, _tag(("ADJ",), s, ptags), "verb-adj")
            continue
        ts = tag_cvb(base)
        if not ts:
            reject(form, "untagged-form", f"{lemma}/{flags}")
        for t in ts:
            emit(form, lemma, _tag(t, ptags))
