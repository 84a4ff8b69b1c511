"""Nouns that cs_CZ.dic lists without flags because their stems alternate (dům/domu, mráz/mrazu,
kašel/kašle, lest/lsti): every form is a separate flagless line. A flagless word is taken for the
nominative singular of such a noun when at least three flagless lines are its case forms under one of
the regular stem alternations (vowel shortening of the last syllable, loss of the mobile -e-); those case
forms are tagged too. Endings and alternations are data (data/unflagged.tsv); nothing is listed per word.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from importlib import resources
from pathlib import Path

SHORTEN = {"ů": "o", "á": "a", "é": "e", "í": "i", "ú": "u", "ý": "y"}
VOWELS = set("aeiouyáéíóúůýě")
SINGULAR_OBLIQUE = {"u", "a", "e", "ě"}           # a genitive singular must be among the evidence
PLURAL_OBLIQUE = {"ů", "ům", "y", "ech", "ích", "ové", "í", "emi", "ěmi", "mi", "ím"}


def _rows():
    text = resources.files(__package__).joinpath("data", "unflagged.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            yield line.split("\t")


@lru_cache(maxsize=1)
def endings():
    """{group: [(ending, slots)]}: group 'evidence' lists the case endings that count as evidence."""
    out = defaultdict(list)
    for group, end, slots in _rows():
        out[group].append((end if end != "0" else "", tuple(tuple(s.split(";")) for s in slots.split())))
    return out


def stems(word: str) -> list[str]:
    """Oblique stems of a consonant-final nominative: itself, with the last vowel shortened, without a
    mobile -e- (kašel -> kašl, den -> dn)."""
    out = [word]
    for i in range(len(word) - 1, -1, -1):
        if word[i] in VOWELS:
            if word[i] in SHORTEN:
                out.append(word[:i] + SHORTEN[word[i]] + word[i + 1:])
            if word[i] == "e" and i > 0 and i >= len(word) - 3:
                out.append(word[:i] + word[i + 1:])
            break
    return out


@lru_cache(maxsize=4)
def noun_index(dic_path: str) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """form -> [(lemma, tag)] for the flagless nouns of a dictionary."""
    plain = set()
    p = Path(dic_path)
    if not p.exists():
        return {}
    with open(p, encoding="utf-8") as fh:
        next(fh, None)
        for line in fh:
            w = line.rstrip("\n")
            if w and "/" not in w and w.islower() and w.isalpha():
                plain.add(w)
    ends = endings()
    index: dict[str, list] = defaultdict(list)
    for w in plain:
        if w[-1] in VOWELS or len(w) < 3:
            continue
        # not a genitive plural of a feminine/neuter (dcer: dcera, dcerou) nor a short adjective
        # (smuten: smutna, smutno): those have -a with -ou, or -o forms beside them
        if any(s + "o" in plain or (s + "a" in plain and s + "ou" in plain) for s in stems(w)[1:] + [w]):
            continue
        best = None
        for s in stems(w):
            found = [(e, sl) for e, sl in ends["evidence"] if s + e in plain and s + e != w]
            ends_found = {e for e, _ in found}
            if (len(found) >= 3 and ends_found & SINGULAR_OBLIQUE and ends_found & PLURAL_OBLIQUE
                    and (best is None or len(found) > len(best[1]))):
                best = (s, found)
        if best is None:
            continue
        s, found = best
        have = {e for e, _ in found}
        animate = "ovi" in have or "ové" in have
        index[w].append((w, ("N", "NOM", "SG")))
        if animate:
            plural = [e for e in ("ové", "i") if e in have]
        elif "y" in have and ("u" in have or "a" in have):
            plural = ["y"]
        elif ("e" in have or "ě" in have) and "í" in have:
            plural = [e for e in ("e", "ě") if e in have]
        elif "i" in have and "í" in have:
            plural = ["i"]
        else:
            plural = []
        for e, slots in found:
            for sl in slots:
                if sl == ("NOM", "PL"):
                    continue
                index[s + e].append((w, ("N",) + sl))
        for e in plural:
            index[s + e].append((w, ("N", "NOM", "PL")))
    return dict(index)
