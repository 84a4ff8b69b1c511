"""Verbs (conjugation flags A J B, T, I with an infinitive): slot inference over the whole form set
(tagger.tag_verb_forms); passives, transgressives, verbal adjectives; finite headwords of irregular
verbs linked to their infinitive."""

from __future__ import annotations

from collections import defaultdict

from . import tables as irregular
from .output import Output, _future, _tag, split_prefix
from .passives import short_forms
from .tagger import adj_slots, is_infinitive, tag_cvb, tag_passive, tag_verb_forms



def expand_verb(lemma: str, flags: str, dic, expanded, out: Output) -> None:
    emit, reject = out.emit, out.reject
    finite = set()
    neg_of: dict[str, list] = defaultdict(list)
    special: list[tuple] = []
    if not is_infinitive(lemma):
        finite.add(lemma)
    for form, chain in expanded:
        ptags, base, sfx = split_prefix(form, chain)
        if ptags:
            neg_of[base].append((form, ptags))
            continue
        if not sfx:
            continue
        r1 = sfx[0]
        if r1.flag in "AJBI":
            finite.add(form)
        else:
            special.append((form, sfx))
    links = [] if is_infinitive(lemma) else irregular.verb_links_of(lemma, dic)
    vlemma = links[0][0] if links else lemma
    vtags, clitics = tag_verb_forms(lemma, finite, vlemma)
    # lemmas of the finite forms: the headword's infinitive. A po- future (ponesu, pojedu) gives
    # its indicative to the motion verb (nést, jet: future) and everything to the po- infinitive
    # when the dictionary has one (povedu: povést); else its imperative (poneste) keeps the headword
    targets = [(lem, "future" if fut else None) for lem, fut in links] or [(vlemma, None)]
    if links and all(fut for _, fut in links):
        targets.append((lemma, "rest"))
    if is_infinitive(lemma):
        vtags.setdefault(lemma, set()).add(frozenset(("V", "NFIN")))
    elif lemma not in vtags:
        vtags[lemma] = set()
    for form, sfx in special:
        r1 = sfx[0]
        if r1.flag in "TC" or (r1.flag == "O" and lemma.endswith("t")):
            # O on a -t verb: the short passive forms (dohřát: dohřáta, dohřáto, dohřáti, dohřáty)
            ts = tag_passive(form, 0)
        elif r1.flag == "X":
            if len(sfx) > 1 or (r1.cont and "Y" in r1.cont):
                adjlemma = form if len(sfx) == 1 else None
                if adjlemma is None:
                    base_adj = lemma[: len(lemma) - len(r1.strip)] + r1.add
                    slots = adj_slots("í", form[-6:])
                    for s in slots or ():
                        emit(form, base_adj, _tag(("ADJ",), s), "verb-adj")
                    continue
                for s in adj_slots("í", form[-6:]) or ():
                    emit(form, form, _tag(("ADJ",), s), "verb-adj")
                continue
            ts = tag_cvb(form)
        else:
            ts = []
        if not ts:
            reject(form, "untagged-form", f"{lemma}/{flags} {r1.flag}:{r1.strip}>{r1.add}")
            continue
        for t in ts:
            vtags[form].add(t)
    for form in clitics:
        reject(form, "clitic-contraction", f"{lemma}/{flags}")
    for form in finite:
        if form not in vtags and form not in clitics:
            reject(form, "untagged-form", f"{lemma}/{flags}")
    for form, ts in vtags.items():
        if not ts and form == lemma:
            reject(form, "untagged-form", f"{lemma}/{flags} finite headword")
            continue
        for lem, mode in targets:
            if mode is None:
                tts = ts
            elif mode == "future":
                tts = [_future(t) for t in ts if "IND" in t]
            else:
                tts = [t for t in ts if "IND" not in t]
            for t in tts:
                emit(form, lem, tuple(sorted(t)))
            for nform, ptags in neg_of.get(form, ()):
                if "NEG" in ptags:
                    for t in tts:
                        emit(nform, lem, _tag(t, ("NEG",)))
    if is_infinitive(lemma):
        emit_attested_passives(lemma, flags, dic, emit)


def emit_attested_passives(lemma: str, flags: str, dic, emit) -> None:
    """The passive participle the dictionary attests for a verb without a passive flag (passives.py),
    with the ne- forms when the line has N (nenapsán)."""
    for short in dic.attested_passives.get(lemma, ()):
        for form in short_forms(short):
            for t in tag_passive(form, 0):
                tag = tuple(sorted(t))
                emit(form, lemma, tag, "verb/attested-passive")
                if "N" in flags:
                    emit("ne" + form, lemma, _tag(tag, ("NEG",)), "verb/attested-passive")
