"""Present-tense forms that cs_CZ.dic lists as separate flagless lines (musím/N, musíš/N, musí/N ... next
to muset/IN, which has no conjugation flag). Verbs of the -í- conjugation (infinitive -it/-et/-ět) form
their present from one stem X: X+ím, X+íš, X+í, X+íme, X+íte (3rd plural X+í, or X+ejí/X+ějí). A flagless
(or negation-only) line is taken for such a form when the infinitive X+it/-et/-ět is a verb headword of the
dictionary (flag I, the long infinitive) and at least three of the five singular/plural forms are flagless
lines too (mutual evidence: one look-alike word such as a noun case form never qualifies on its own).
Nothing is listed per word.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from pathlib import Path

ENDINGS = (("ím", (("1", "SG"),)), ("íš", (("2", "SG"),)), ("íme", (("1", "PL"),)), ("íte", (("2", "PL"),)),
           ("í", (("3", "SG"), ("3", "PL"))))
THIRD_PL = ("ejí", "ějí")
INFINITIVE_ENDINGS = ("it", "et", "ět")
MIN_EVIDENCE = 3


@lru_cache(maxsize=4)
def _lines(dic_path: str) -> tuple[frozenset, frozenset, frozenset, frozenset]:
    """One pass over the dictionary: (flagless or N-only lines, infinitives with flag I, -nout
    infinitives, comparative adverbs: lines whose only paradigm flag is E)."""
    plain, verbs, nout, cmp_adv = set(), set(), set(), set()
    p = Path(dic_path)
    if p.exists():
        with open(p, encoding="utf-8") as fh:
            next(fh, None)
            for line in fh:
                word, _, flags = line.rstrip("\n").partition("/")
                if not word or word != word.lower():
                    continue
                fs = set(flags)
                if fs <= {"N"}:
                    plain.add(word)
                    continue
                if "I" in fs and word.endswith(INFINITIVE_ENDINGS):
                    verbs.add(word)
                if word.endswith("nout"):
                    nout.add(word)
                if "E" in fs and fs <= {"E", "N", "W"}:
                    cmp_adv.add(word)
    return frozenset(plain), frozenset(verbs), frozenset(nout), frozenset(cmp_adv)


def plain_lines(dic_path: str) -> frozenset:
    """The lowercase words of the dictionary's lines without a paradigm flag (none, or N only)."""
    return _lines(dic_path)[0]


@lru_cache(maxsize=4)
def present_index(dic_path: str) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """form -> [(infinitive, tag)] for the flagless present-tense lines of a dictionary."""
    plain, verbs, _, _ = _lines(dic_path)
    stems = defaultdict(set)
    for w in plain:
        for end, _ in ENDINGS:
            if w.endswith(end) and len(w) > len(end) + 1:
                stems[w[: -len(end)]].add(end)
    out: dict[str, list] = defaultdict(list)
    for x, ends in stems.items():
        if len(ends) < MIN_EVIDENCE:
            continue
        infs = [x + e for e in INFINITIVE_ENDINGS if x + e in verbs]
        for inf in infs:            # muset and musit: variants with the same present
            for end, readings in ENDINGS:
                if end in ends:
                    for person, number in readings:
                        out[x + end].append((inf, ("IND", "PRS", "V", person, number)))
            for end in THIRD_PL:
                if x + end in plain:
                    out[x + end].append((inf, ("IND", "PRS", "V", "3", "PL")))
    return dict(out)


@lru_cache(maxsize=4)
def comparative_adverbs(dic_path: str) -> frozenset[str]:
    """Comparative adverb headwords of a dictionary: lines whose only paradigm flag is E (nej-), e.g.
    spíše/E, více/E. A flagless line equal to one of them minus the final -e/-ě is its short variant
    (spíš, víc: expand.py tags it as a comparative adverb too)."""
    return _lines(dic_path)[3]


@lru_cache(maxsize=4)
def nul_participles(dic_path: str) -> dict[str, str]:
    """{l-participle: infinitive} for the flagless -nul lines of -nout verbs (kliknul beside klikl of
    kliknout/...): the dictionary lists this masculine singular variant as a separate line. Taken only
    when the infinitive X-nout is a headword of the dictionary."""
    plain, _, nout, _ = _lines(dic_path)
    return {w: w[:-2] + "out" for w in plain if w.endswith("nul") and w[:-2] + "out" in nout}
