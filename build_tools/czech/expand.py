"""Expand one Czech headword (a cs_CZ.dic stem with its flags) into tagged forms.

Result items are plain tuples so that worker processes can return them cheaply:
  ("F", form, lemma, tag_tuple, paradigm)   an inflected form with its features (sorted tuple)
  ("R", item, reason, detail)               something excluded, with the reason
"""

from __future__ import annotations

import re
from collections import defaultdict

from . import tables as irregular
from .dictionary import CzechDictionary
from .places import place_of
from .flagless import (adverb_of_adjective, collective_numeral, forms_of_other_headwords,
                       animate_plural_variant, deictic_demonstrative, short_adjective, third_plural_variant,
                       ordinal_adverb, reviewed_words)
from .tagger import (PREFIX_TAGS, split_mixed, adj_slots, flag_genders, is_infinitive, noun_gender, noun_slots, tag_cvb,
                     tag_passive, tag_short, tag_verb_forms, word_class)

LETTERS = re.compile(r"^[a-záčďéěíňóřšťúůýžäöüëàèìòùâêîôûçłľĺŕąęśźżćńőű]+$")


_TAGS: dict = {}
_NOUN_TAGS: dict = {}
_ADJ_TAGS: dict = {}


def _tag(*parts) -> tuple[str, ...]:
    key = parts
    t = _TAGS.get(key)
    if t is None:
        s = set()
        for p in parts:
            s.update(p)
        t = _TAGS[key] = tuple(sorted(s))
    return t


def _future(tag: frozenset) -> frozenset:
    """A present-tense tag as the future (ponesu of nést)."""
    return tag - {"PRS"} | {"FUT"} if "PRS" in tag else tag


def expand_entry(lemma: str, flags: str, dic: CzechDictionary) -> list[tuple]:
    """The items of one dictionary line (`lemma` with `flags`), in the context of the dictionary `dic`
    (its affix table, and its other lines for the words without a paradigm flag)."""
    out: list[tuple] = []
    flags = flags or ""
    if not lemma:
        return out
    if not LETTERS.match(lemma.lower()):
        return [("R", lemma, "non-letter", "contains a character that is not a letter")]
    if lemma != lemma.lower():
        reason = "abbreviation" if lemma.isupper() and len(lemma) > 1 else "proper-name"
        return [("R", lemma, reason, "capitalised headword")]

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
            out.append(("F", form, lemma, tag, name))
            if neg and irregular.negatable(lemma, form, tag):
                out.append(("F", "ne" + form, lemma, _tag(tag, ("NEG",)), name))
        if (cc := irregular.closed_class(lemma)):
            out.append(("F", lemma, lemma, cc, "closed"))  # se: the reflexive and the preposition
        return out

    parts = split_mixed(lemma, flags)
    if len(parts) > 1:
        for part in parts:
            out.extend(expand_entry(lemma, part, dic))
        return out

    cls = word_class(lemma, flags)
    paradigm = f"{cls}/{flags}" if flags else cls
    aff = dic.aff
    expanded = aff.expand(lemma, flags)
    seen = set()

    append = out.append

    def emit(form, lem, tag, par=paradigm):
        # duplicates are harmless: the driver merges the readings of a form (merge_readings)
        append(("F", form, lem, tag, par))

    def reject(form, reason, detail=""):
        key = (form, reason)
        if key not in seen:
            seen.add(key)
            out.append(("R", form, reason, detail))

    def split_prefix(form, chain):
        if chain and chain[0].kind == "PFX":
            p = chain[0]
            return PREFIX_TAGS.get(p.add, ()), form[len(p.add):], chain[1:]
        return (), form, chain

    if cls == "noun":
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
                _emit_ost(emit, reject, form, base, r1, lemma, ptags)
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
                append(("F", form, lemma, t, paradigm))
        return out

    if cls == "adj":
        is_cmpr = lemma.endswith("í") and ("E" in flags or "W" in flags)
        # adjectives derived from place names (ostravský): TOPO, which cs-kriskros excludes (seed 004)
        topo = ("TOPO",) if place_of(lemma, dic) else ()
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
                        emit(form, lemma, _tag(("ADV",), d, tuple(p for p in ptags if p != "SPRL")), "adv")
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
                ck = (slots, d, pt, poss, topo)
                tags = _ADJ_TAGS.get(ck)
                if tags is None:
                    tags = _ADJ_TAGS[ck] = tuple(_tag(("ADJ",), s_, d, pt, poss, topo) for s_ in slots)
                for t in tags:
                    append(("F", form, lemma, t, paradigm))
                continue
            r1 = sfx[0]
            pt = tuple(p for p in ptags if p != "SPRL")
            if r1.flag in "KC" and "ost" in r1.add:
                _emit_ost(emit, reject, form, base, r1, lemma, ptags)
            elif r1.flag == "R" or (r1.flag == "O" and r1.add == "o" and lemma.endswith("ý")):
                emit(form, lemma, _tag(("ADV",), deg, pt), "adv")
            else:
                reject(form, "untagged-form", f"{lemma}/{flags} {r1.flag}:{r1.strip}>{r1.add}")
        return out

    if cls == "verb":
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
        return out

    if cls == "short":
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
        return out

    if cls == "cvb":
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
        return out

    # plain words: forms of irregular paradigms, closed-class words, adverbs
    for form, chain in expanded:
        ptags, base, sfx = split_prefix(form, chain)
        # Reviewed word classes (data/closed_class.tsv, data/flagless.tsv) come on top of whatever
        # else the word is: tu is a form of ten and an adverb, se the reflexive pronoun and a
        # preposition, domů a genitive plural and an adverb.
        listed = False
        if (cc := irregular.closed_class(base)):
            emit(form, base, _tag(cc, ptags), "closed")
            listed = True
        for t in reviewed_words().get(base, ()):
            emit(form, base, _tag(t, ptags), "reviewed")
            listed = True
        readings = irregular.readings_of(base)
        if readings:
            for lem, tag in readings:
                # ne- on a table form (jsem/N, mají/N, bojí/N, přátelé/N): where the paradigm negates it
                if ptags and not ("NEG" in ptags and irregular.negatable(lem, base, tag)):
                    continue
                emit(form, lem, _tag(tag, ptags), "table")
            continue
        present = dic.present_index.get(base)
        if present:
            for lem, tag in present:
                emit(form, lem, _tag(tag, ptags), "verb/flagless")
            continue
        inf = dic.nul_participles.get(base)
        if inf:
            emit(form, inf, _tag(("V.PTCP", "ACT", "PRF", "MASC", "SG"), ptags), "verb/flagless")
            continue
        if (inf := irregular.linked_infinitive(base)):
            emit(form, inf, _tag(("V", "NFIN"), ptags), "verb/linked-infinitive")
            continue
        nouns = dic.noun_index.get(base)
        if nouns:
            for lem, tag in nouns:
                emit(form, lem, _tag(tag, ptags), "noun/flagless")
            continue
        if "E" in flags or "W" in flags:
            # a comparative adverb headword: nej- makes its superlative (déle, lépe, více, méně, dál, líp)
            emit(form, lemma, _tag(("ADV",), ("SPRL",) if "SPRL" in ptags else ("CMPR",),
                                   tuple(p for p in ptags if p != "SPRL")), "adv")
            continue
        if not flags and (base + "e" in (cmp_adv := dic.comparative_adverbs)
                          or base + "ě" in cmp_adv):
            emit(form, lemma, _tag(("ADV", "CMPR"), ptags), "adv")      # spíš beside spíše/E
            continue
        if listed:
            continue
        if irregular.looks_like_adverb(base):
            emit(form, base, _tag(("ADV",), ptags), "adv-guess")
            continue
        imp = dic.imperative_index.get(base)
        if imp:
            emit(form, imp[0], _tag(imp[1], ptags), "imperative/flagless")
            continue
        other = forms_of_other_headwords(form, dic, expand_entry)
        if other:
            # a form another headword generates (hrejte: hrát): its tags there, nothing of its own
            out.extend(other)
            continue
        if (pl3 := third_plural_variant(base, dic, expand_entry)):
            for _f, _b, lem, tag, _par in pl3:
                emit(form, lem, _tag(tag, ptags), "verb/3pl-variant")
            continue
        if (pl := animate_plural_variant(base, dic, expand_entry)):
            for _kind, _form, lem, tag, par in pl:
                emit(form, lem, _tag(tag, ptags), par)
            continue
        if (deictic := deictic_demonstrative(base, dic, expand_entry)):
            for lem, tag in deictic:
                emit(form, lem, _tag(tag, ptags), "pronoun/deictic")
            continue
        if (short := short_adjective(base, dic)):
            adjective, masculine = short
            for t in tag_short(base, masculine):
                emit(form, adjective, _tag(tuple(t), ptags), "adj/short-flagless")
            continue
        if adverb_of_adjective(base, dic) or ordinal_adverb(base, dic):
            emit(form, base, _tag(("ADV",), ptags), "adv/deadjectival")
            continue
        if (num := collective_numeral(base, dic)):
            emit(form, base, _tag(num, ptags), "num/collective")
            continue
        reject(form, "unclassified", f"{lemma}/{flags}: no paradigm flag and not in the tables")
    return out


def _emit_ost(emit, reject, form, base, r1, lemma, ptags):
    """-ost nouns derived from adjectives by flag K/C (mladý -> mladost, toxický -> toxičnost)."""
    i = base.rfind("ost")
    stem = base[: i + 3]
    noun = stem if not ptags else form[: len(form) - len(base)] + stem
    end = base[i + 3:]
    slots = {"": (("NOM", "SG"), ("ACC", "SG")), "i": (("GEN", "SG"), ("DAT", "SG"), ("ESS", "SG"), ("VOC", "SG"), ("NOM", "PL"), ("ACC", "PL"), ("VOC", "PL")),
             "í": (("INS", "SG"), ("GEN", "PL")), "em": (("DAT", "PL"),), "ech": (("ESS", "PL"),), "mi": (("INS", "PL"),)}.get(end)
    if not slots:
        reject(form, "untagged-form", f"{lemma} -ost")
        return
    for s in slots:
        emit(form, noun, _tag(("N", "FEM"), s, ptags), "noun/kost")


