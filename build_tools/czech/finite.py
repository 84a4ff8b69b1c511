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

ENDINGS = (("ím", (("1", "SG"),)), ("íš", (("2", "SG"),)), ("íme", (("1", "PL"),)), ("íte", (("2", "PL"),)),
           ("í", (("3", "SG"), ("3", "PL"))))
THIRD_PL = ("ejí", "ějí")
INFINITIVE_ENDINGS = ("it", "et", "ět")
MIN_EVIDENCE = 3


def build_present_index(plain: frozenset, verbs: frozenset) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """form -> [(infinitive, tag)] for the flagless present-tense lines of a dictionary (`plain`: its
    flagless lines, `verbs`: its infinitives with flag I)."""
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


def build_nul_participles(plain: frozenset, nout: frozenset) -> dict[str, str]:
    """{l-participle: infinitive} for the flagless -nul lines of -nout verbs (kliknul beside klikl of
    kliknout/...): the dictionary lists this masculine singular variant as a separate line. Taken only
    when the infinitive X-nout is a headword of the dictionary."""
    return {w: w[:-2] + "out" for w in plain if w.endswith("nul") and w[:-2] + "out" in nout}
