"""Inflection by analogy: paradigm flags for a headword the paradigm source does not hold, from the
words of the dictionary that end alike (the longest shared ending whose words agree on their flags, as
pymorphy2's predictor does). The readings of such a headword carry the feature GUESSED and name the
model word (`guessed:<model>` in the provenance).
"""

from __future__ import annotations

from .tagger import word_class

GUESSED = "GUESSED"

POS_CLASSES = {"noun": "noun", "n": "noun", "subst": "noun", "adj": "adj", "a": "adj", "verb": "verb", "v": "verb",
               "adv": "plain", "prep": "plain", "conj": "plain", "part": "plain", "intj": "plain", "num": "plain",
               "pron": "plain", "pro": "plain"}

# derivation and lexical extras left out of a guessed paradigm (negation, adverbs, -ost nouns,
# passives, transgressives, comparatives): a guess gives the inflection only
EXTRAS = frozenset("NRKEWCTXyO")
MIN_ENDING, MAX_ENDING = 3, 6
MIN_WORDS, MIN_AGREEMENT = 5, 0.9


def pos_fits(lemma: str, flags: str, pos: str) -> bool:
    want = POS_CLASSES.get(pos.lower().strip("."))
    return want is None or word_class(lemma, flags) == want


def core(flags: str) -> str:
    return "".join(f for f in flags if f not in EXTRAS)


def build_ending_index(entries: dict[str, list[str]]) -> dict[str, dict[str, list]]:
    """ending -> {core flags: [number of words, model word]} over the lowercase single-line
    headwords with flags; the model is the alphabetically first word of the class."""
    idx: dict[str, dict[str, list]] = {}
    for word, fl in entries.items():
        if word != word.lower() or len(fl) != 1 or not fl[0]:
            continue
        c = core(fl[0])
        for k in range(MIN_ENDING, min(MAX_ENDING, len(word) - 1) + 1):
            by = idx.setdefault(word[-k:], {})
            hit = by.get(c)
            if hit is None:
                by[c] = [1, word]
            else:
                hit[0] += 1
                if word < hit[1]:
                    hit[1] = word
    return idx


def guess_flags(lemma: str, pos: str | None, dic) -> tuple[str, str] | None:
    """(flags, model word) for a headword missing from the dictionary `dic`: the flags most words with
    the longest shared ending (at least 3 letters) carry, if they agree (>= 90 %) and fit the part of
    speech. None (unclassified) when the evidence is weak: conservative by design."""
    idx = dic.ending_index
    for k in range(min(MAX_ENDING, len(lemma) - 1), MIN_ENDING - 1, -1):
        counts = idx.get(lemma[-k:])
        if not counts:
            continue
        total = sum(n for n, _ in counts.values())
        flags, (n, model) = max(counts.items(), key=lambda kv: (kv[1][0], kv[0]))
        if flags and total >= MIN_WORDS and n / total >= MIN_AGREEMENT and (not pos or pos_fits(lemma, flags, pos)):
            return flags, model
        return None
    return None
