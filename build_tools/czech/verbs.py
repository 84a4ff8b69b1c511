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
    finite, neg_of, special = _sort_verb_forms(lemma, expanded)
    links = [] if is_infinitive(lemma) else irregular.verb_links_of(lemma, dic)
    vlemma = links[0][0] if links else lemma
    vtags, clitics = tag_verb_forms(lemma, finite, vlemma)
    targets = _lemma_targets(lemma, links, vlemma)
    if is_infinitive(lemma):
        vtags.setdefault(lemma, set()).add(frozenset(("V", "NFIN")))
    elif lemma not in vtags:
        vtags[lemma] = set()
    _tag_special_forms(lemma, flags, special, vtags, out)
    for form in clitics:
        out.reject(form, "clitic-contraction", f"{lemma}/{flags}")
    for form in finite:
        if form not in vtags and form not in clitics:
            out.reject(form, "untagged-form", f"{lemma}/{flags}")
    _emit_tagged(lemma, flags, vtags, targets, neg_of, out)
    if is_infinitive(lemma):
        emit_attested_passives(lemma, flags, dic, out.emit)


def _sort_verb_forms(lemma: str, expanded) -> tuple[set[str], dict[str, list], list[tuple]]:
    """The affix forms of a verb line as (finite forms, ne-/nej- forms by their base, the forms of
    the other flags with their suffix chain: passives, transgressives, verbal adjectives)."""
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
    return finite, neg_of, special


def _lemma_targets(lemma: str, links: list, vlemma: str) -> list[tuple[str, str | None]]:
    """The lemmas of the finite forms: the headword's infinitive. A po- future (ponesu, pojedu) gives
    its indicative to the motion verb (nést, jet: future) and everything to the po- infinitive
    when the dictionary has one (povedu: povést); else its imperative (poneste) keeps the headword."""
    targets = [(lem, "future" if fut else None) for lem, fut in links] or [(vlemma, None)]
    if links and all(fut for _, fut in links):
        targets.append((lemma, "rest"))
    return targets


def _tag_special_forms(lemma: str, flags: str, special: list[tuple], vtags: dict, out: Output) -> None:
    """Tag the passives and transgressives into ``vtags``; emit the verbal adjectives."""
    for form, sfx in special:
        r1 = sfx[0]
        if r1.flag in "TC" or (r1.flag == "O" and lemma.endswith("t")):
            # O on a -t verb: the short passive forms (dohřát: dohřáta, dohřáto, dohřáti, dohřáty)
            ts = tag_passive(form, 0)
        elif r1.flag == "X":
            if len(sfx) > 1 or (r1.cont and "Y" in r1.cont):
                _emit_verbal_adjective(lemma, form, sfx, out)
                continue
            ts = tag_cvb(form)
        else:
            ts = []
        if not ts:
            out.reject(form, "untagged-form", f"{lemma}/{flags} {r1.flag}:{r1.strip}>{r1.add}")
            continue
        for t in ts:
            vtags[form].add(t)


def _emit_verbal_adjective(lemma: str, form: str, sfx, out: Output) -> None:
    r1 = sfx[0]
    if len(sfx) > 1:
        base_adj = lemma[: len(lemma) - len(r1.strip)] + r1.add
        for s in adj_slots("í", form[-6:]) or ():
            out.emit(form, base_adj, _tag(("ADJ",), s), "verb-adj")
        return
    for s in adj_slots("í", form[-6:]) or ():
        out.emit(form, form, _tag(("ADJ",), s), "verb-adj")


def _emit_tagged(lemma: str, flags: str, vtags: dict, targets: list, neg_of: dict, out: Output) -> None:
    """Emit each tagged form, and its ne- form, under each target lemma."""
    for form, ts in vtags.items():
        if not ts and form == lemma:
            out.reject(form, "untagged-form", f"{lemma}/{flags} finite headword")
            continue
        for lem, mode in targets:
            if mode is None:
                tts = ts
            elif mode == "future":
                tts = [_future(t) for t in ts if "IND" in t]
            else:
                tts = [t for t in ts if "IND" not in t]
            for t in tts:
                out.emit(form, lem, tuple(sorted(t)))
            for nform, ptags in neg_of.get(form, ()):
                if "NEG" in ptags:
                    for t in tts:
                        out.emit(nform, lem, _tag(t, ("NEG",)))


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
