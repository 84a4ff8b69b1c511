"""Nouns (declension flags P I V D U H L S Z Q C M K): noun_slots.tsv and genders.tsv give each
form its slots; possessive adjectives (otcův, matčin) and -ost nouns (flag K) come with them."""

from __future__ import annotations

from ..model import Reading
from .output import Output, _NOUN_TAGS, _tag, emit_ost, split_prefix
from .tagger import adj_slots, flag_genders, noun_gender, noun_slots



def expand_noun(lemma: str, flags: str, dic, expanded, out: Output) -> None:
    emit, reject, append, paradigm = out.emit, out.reject, out.items.append, out.paradigm
    gender = noun_gender(lemma, flags)
    gfeat = tuple(g for g in gender if g not in ("PL", "SAMEPL"))
    msdr = lemma.endswith(("ní", "tí")) and "S" in flags and "N" in flags
    if msdr:
        gfeat += ("V.MSDR",)        # verbal noun (dělání, bytí): negatable -ní/-tí noun of the stavení type
    # one gender per declension flag when they differ (jeřáb/HPI: jeřábi animate, jeřáby inanimate)
    fg = flag_genders(lemma, flags)
    by_flag = {fl: tuple(g for g in gd if g not in ("PL", "SAMEPL")) + (("V.MSDR",) if msdr else ())
               for fl, gd in fg.items()}
    lemma_genders = sorted(set(fg.values())) or [gender]
    for form, chain in expanded:
        ptags, base, sfx = split_prefix(form, chain)
        if not sfx:
            for gd in lemma_genders:
                gf = tuple(g for g in gd if g not in ("PL", "SAMEPL")) + (("V.MSDR",) if msdr else ())
                emit(form, lemma, _tag(("N", "NOM"), ("PL",) if "PL" in gd else ("SG",), gf, ptags))
                if "SAMEPL" in gd:
                    emit(form, lemma, _tag(("N", "NOM", "PL"), gf, ptags))
            continue
        r1 = sfx[0]
        if r1.cont and "Y" in r1.cont:
            # possessive adjective otcův / matčin and its forms
            poss = lemma[: len(lemma) - len(r1.strip)] + r1.add if r1.strip else lemma + r1.add
            slots = adj_slots(poss[-3:], base[-6:]) if len(sfx) > 1 else adj_slots(poss[-3:], poss[-6:])
            if not slots:
                reject(form, "untagged-form", f"{lemma}/{flags} possessive")
                continue
            for s in slots:
                emit(form, poss, _tag(("ADJ", "POSS"), s, ptags), "poss")
            continue
        if r1.flag == "K" and base.endswith(("ost", "osti", "ostí", "ostem", "ostech", "ostmi")) and not lemma.endswith("ost"):
            emit_ost(emit, reject, form, base, r1, lemma, ptags)
            continue
        gf = by_flag.get(r1.flag, gfeat) if by_flag else gfeat
        ck = (r1.flag, lemma[-5:], base[-6:], gf, ptags)
        tags = _NOUN_TAGS.get(ck)
        if tags is None:
            slots = noun_slots(r1.flag, lemma[-5:], base[-6:])
            tags = _NOUN_TAGS[ck] = tuple(_tag(("N",), s_, gf, ptags) for s_ in slots) if slots else ()
        if not tags:
            reject(form, "untagged-form", f"{lemma}/{flags} {r1.flag}:{r1.strip}>{r1.add}")
            continue
        for t in tags:
            append(Reading(form, lemma, t, paradigm))
