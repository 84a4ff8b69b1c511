"""Nouns that cs_CZ.dic lists without flags (or with the negation flag N only) because their stems alternate (dům/domu, mráz/mrazu,
kašel/kašle, lest/lsti): every form is a separate flagless line. A flagless word is taken for the
nominative singular of such a noun when at least three flagless lines are its case forms under one of
the regular stem alternations (vowel shortening of the last syllable, loss of the mobile -e-); those case
forms are tagged too. Endings and alternations are data (data/unflagged.tsv); nothing is listed per word.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from importlib import resources


SHORTEN = {"ů": "o", "á": "a", "é": "e", "í": "i", "ú": "u", "ý": "y"}
VOWELS = set("aeiouyáéíóúůýě")
SINGULAR_OBLIQUE = {"u", "a", "e", "ě"}           # a genitive singular must be among the evidence
FEMININE_NEUTER_PLURAL = ("ám", "ami")  # not -ách: velar masculines have it (lih: lihách)
PLURAL_OBLIQUE = {"ů", "ům", "y", "ech", "ích", "ové", "í", "emi", "ěmi", "mi", "ím"}


def _rows():
    text = resources.files("build_tools.czech").joinpath("data", "unflagged.tsv").read_text(encoding="utf-8")
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


SOFTEN = {"ť": "t", "ď": "d", "ň": "n"}


def join(stem: str, ending: str) -> str:
    """Stem + ending with the spelling of ť/ď/ň before e/ě/i/í (dešť + e -> deště, dešť + i -> dešti)."""
    if stem and stem[-1] in SOFTEN and ending[:1] in ("e", "ě", "i", "í"):
        if ending[0] == "e":
            ending = "ě" + ending[1:]
        return stem[:-1] + SOFTEN[stem[-1]] + ending
    return stem + ending


def stems(word: str) -> list[str]:
    """Oblique stems of a consonant-final nominative: itself, with the last vowel shortened, í
    alternating with ě (sníh -> sněh, vítr -> větr), without a mobile -e- (kašel -> kašl, den -> dn)."""
    out = [word]
    for i in range(len(word) - 1, -1, -1):
        if word[i] in VOWELS:
            if word[i] in SHORTEN:
                out.append(word[:i] + SHORTEN[word[i]] + word[i + 1:])
            if word[i] == "í" and i > 0:
                out.append(word[:i] + "ě" + word[i + 1:])
            if word[i] == "e" and i > 0 and i >= len(word) - 3:
                out.append(word[:i] + word[i + 1:])
            break
    return out


def build_noun_index(plain_lines: frozenset) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """form -> [(lemma, tag)] for the flagless nouns of a dictionary (`plain_lines`: its lines without
    a paradigm flag)."""
    # flagless lines and lines whose only flag is N (spolupráce/N: the word itself is classified as a
    # flagless one; expand.py adds its ne- forms with NEG)
    plain = {w for w in plain_lines if w.isalpha()}
    ends = endings()
    index: dict[str, list] = defaultdict(list)
    for w in plain:
        if w[-1] == "a" and len(w) >= 4 and _plural_tantum_neuter(w, plain, index):
            continue
        if w[-1] in "eě" and len(w) >= 4:
            _soft_vowel_final(w, plain, ends, index)
            continue
        if w[-1] in VOWELS or len(w) < 3:
            continue
        # not a genitive plural of a feminine/neuter (dcer: dcera, dcerou) nor a short adjective
        # (smuten: smutna, smutno): those have -a with -ou, or -o forms beside them
        # (an s + "o" line counts only with another case form of s beside it: vitro is no
        # neighbour of vítr)
        if any((s + "o" in plain and any(s + e in plain for e in ("a", "u", "em")))
               or (s + "a" in plain and s + "ou" in plain) for s in stems(w)[1:] + [w]):
            continue
        # nor the zero-ending genitive plural of a hard feminine or neuter (beder: bedra, bedrám,
        # bedrami): -ám and -ami are never masculine endings
        if any(join(s, e) in plain for s in stems(w) for e in FEMININE_NEUTER_PLURAL):
            continue
        best = None
        for s in stems(w):
            found = [(e, sl) for e, sl in ends["evidence"] if join(s, e) in plain and join(s, e) != w]
            ends_found = {e for e, _ in found}
            # the genitive singular: -u/-a/-e/-ě, or -i of the feminine i-stems (mysl: mysli, myslí)
            sg = ends_found & SINGULAR_OBLIQUE or ("i" in ends_found and "í" in ends_found)
            # plural evidence, or else the instrumental -em of a masculine noun whose plural stem
            # alternates (kněz: kněze, knězi, knězem; kněží)
            if (len(found) >= 3 and sg and (ends_found & PLURAL_OBLIQUE or "em" in ends_found)
                    and (best is None or len(found) > len(best[1]))):
                best = (s, found)
        if best is None:
            continue
        s, found = best
        have = {e for e, _ in found}
        animate = "ovi" in have or "ové" in have
        index[w].append((w, ("N", "NOM", "SG")))
        if not have & PLURAL_OBLIQUE:
            plural = []  # singular evidence only (kněz): the plural stem alternates (kněží)
        elif animate:
            plural = [e for e in ("ové", "i") if e in have]
            # the -i plural palatalises a velar or r (šnek: šneci, bůh: bozi, Čech: Češi, bratr: bratři);
            # taken only when the dictionary lists that form
            pal = palatalised(s) + "i"
            if pal != s + "i" and pal in plain:
                index[pal].append((w, ("N", "NOM", "PL")))
        elif "y" in have and ("u" in have or "a" in have):
            plural = ["y"]
        elif ("e" in have or "ě" in have) and ("í" in have or {"ů", "ích"} <= have):
            # soft feminine (-í genitive plural) or soft masculine inanimate (kašel: kašle, kašlů, kašlích)
            plural = [e for e in ("e", "ě") if e in have]
        elif "i" in have and "í" in have:
            plural = ["i"]
        else:
            plural = []
        for e, slots in found:
            for sl in slots:
                if sl == ("NOM", "PL"):
                    continue
                index[join(s, e)].append((w, ("N",) + sl))
        for e in plural:
            index[join(s, e)].append((w, ("N", "NOM", "PL")))
    return dict(index)


PALATALISE = (("ck", "čt"), ("sk", "št"), ("ch", "š"), ("k", "c"), ("h", "z"), ("g", "z"), ("r", "ř"))


def palatalised(stem: str) -> str:
    """The stem before the animate nominative plural -i (šnek -> šnec, bůh -> boz, Čech -> Češ)."""
    for hard, soft in PALATALISE:
        if stem.endswith(hard):
            return stem[: len(stem) - len(hard)] + soft
    return stem


def _plural_tantum_neuter(w: str, plain: set, index) -> bool:
    """A flagless -a word that is the nominative plural of a neuter plurale tantum (bedra, kamna): its
    stem has the neuter plural -ům and -ech and a zero-ending genitive (beder, kamen, with the mobile -e-),
    and no singular case form (-u, -ovi, -o, -ou: those make it a masculine genitive like pána or a
    feminine like žena)."""
    s = w[:-1]
    if not (s + "ech" in plain and s + "ům" in plain) or any(s + e in plain for e in ("u", "ovi", "o", "ou")):
        return False
    gen = [g for g in (s, s[:-1] + "e" + s[-1], s[:-1] + "ě" + s[-1]) if g in plain]
    if not gen:
        return False
    index[w] += [(w, ("N", "NOM", "PL")), (w, ("N", "ACC", "PL"))]
    index[gen[0]].append((w, ("N", "GEN", "PL")))
    for e, slot in (("ům", "DAT"), ("ech", "ESS"), ("y", "INS")):
        if s + e in plain:
            index[s + e].append((w, ("N", slot, "PL")))
    return True


LENGTHEN = {v: k for k, v in SHORTEN.items()}
HARDEN = {v: k for k, v in SOFTEN.items()}


def _consonant_nominative(stem: str, plain: set) -> str | None:
    """A flagless consonant-final word whose oblique stem is `stem` (pec, nit, červeň, hůl), or None."""
    cands = [stem]
    if stem[-1] in HARDEN:
        cands.append(stem[:-1] + HARDEN[stem[-1]])
    for c in list(cands):
        for i in range(len(c) - 1, -1, -1):
            if c[i] in VOWELS:
                if c[i] in LENGTHEN:
                    cands.append(c[:i] + LENGTHEN[c[i]] + c[i + 1:])
                break
    for c in cands:
        if c in plain:
            return c
    return None


SOFT_E_EVIDENCE = {"í": (("INS", "SG"), ("GEN", "PL")), "ím": (("DAT", "PL"),), "ích": (("ESS", "PL"),),
                   "emi": (("INS", "PL"),), "ěmi": (("INS", "PL"),), "em": (("INS", "SG"),)}


def _soft_vowel_final(w: str, plain: set, ends, index) -> None:
    """Flagless soft-declension nouns in -e/-ě (práce: pracemi, pracích, pracím): the stem (last vowel
    possibly shortened) must have the instrumental plural -emi/-ěmi, which only nouns have, and the
    locative or dative plural -ích/-ím. Such a noun's nominative plural equals its nominative singular
    (práce, růže, moře), unless it is animate (-ovi/-ové forms listed): then -i/-ové. Nouns without
    listed plural forms (ovoce) are left unclassified (conservative)."""
    base = w[:-1]
    for s in stems(base)[::-1]:
        found = {e: sl for e, sl in SOFT_E_EVIDENCE.items() if s + e in plain and s + e != w}
        if not ({"emi", "ěmi"} & set(found) and {"ích", "ím"} & set(found)):
            continue
        nom = _consonant_nominative(s, plain)
        if nom:
            # the -e word is the genitive singular / nominative plural of a consonant-final noun listed
            # beside it (pec: pece, nit: nitě, hůl: hole, červeň: červeně)
            index[w].append((nom, ("N", "GEN", "SG")))
            index[w].append((nom, ("N", "NOM", "PL")))
            for e, slots in found.items():
                for sl in slots:
                    index[s + e].append((nom, ("N",) + sl))
            return
        index[w].append((w, ("N", "NOM", "SG")))
        if s + "ovi" in plain or s + "ové" in plain:
            for e in ("ové", "i"):
                if s + e in plain:
                    index[s + e].append((w, ("N", "NOM", "PL")))
        else:
            index[w].append((w, ("N", "NOM", "PL")))
        for e, slots in found.items():
            for sl in slots:
                index[s + e].append((w, ("N",) + sl))
        return
