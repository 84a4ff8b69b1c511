"""Count the witnesses of animacy and gender (build_tools/czech/guess.py) on the shipped Czech dictionary:
the table "Guessed Czech nouns" of docs/build.md.

    python -m tools.czech_witness_counts

Each witness is a word the dictionary derives from a headword. It is counted on the dictionary's own
single-line lowercase nouns of its kind (consonant-final ones of three letters or more; -e/-ě ones for the
-átko diminutive; -í words for the neuter witness): how many of the words it should find have it (right)
and how many others have it too (wrong). A noun is animate when its flags hold one of ANIMATE_FLAGS
(pán, muž, soudce, -ové).
"""

from __future__ import annotations

from build_tools.czech import CzechDictionary
from build_tools.czech import guess
from build_tools.czech.tagger import word_class


def _has(dic, word: str, flags_wanted) -> bool:
    return any(flags_wanted(f) for f in dic.flags_of(word) or ())


def _adjective(dic, word: str) -> bool:
    return _has(dic, word, lambda f: "Y" in f)


def _single_line_nouns(dic):
    """(lemma, flags) of the lowercase single-line nouns."""
    for lemma, lines in dic.entries.items():
        if lemma == lemma.lower() and len(lines) == 1 and word_class(lemma, lines[0]) == "noun":
            yield lemma, lines[0]


def _animate(flags: str) -> bool:
    return bool(set(flags) & guess.ANIMATE_FLAGS)


def _animate_rows(dic):
    """The animate witnesses, each a test of (lemma) -> bool, counted right on animate nouns."""
    def possessive(lemma):
        stems = [lemma] + ([lemma[:-2]] if lemma.endswith(("ek", "ec")) else [])
        return any(_adjective(dic, s + "čin") for s in stems)

    def feminine_kyne(lemma):
        return lemma.endswith("ec") and _has(dic, lemma[:-2] + "kyně", lambda f: "Z" in f)

    def animate_diminutive(lemma):
        if lemma.endswith("ch"):
            return False
        return any(len(dic.flags_of(w) or ()) == 1 and set(dic.flags_of(w)[0]) & guess.ANIMATE_FLAGS
                   and "H" not in dic.flags_of(w)[0] for w in guess._diminutives(lemma))

    def abstract(lemma):
        return guess.inanimate_witness(lemma, dic) is None and \
            any(_has(dic, w, lambda f: "S" in f) for w in guess._abstracts_of_a_person(lemma))

    return [
        ("the feminine's possessive in -čin/Y (architekt -> architektčin)", possessive),
        ("the animal adjective lemma + í/Y (kojot -> kojotí)", lambda lemma: _adjective(dic, lemma + "í")),
        ("the feminine in -kyně of an -ec noun (lovec -> lovkyně)", feminine_kyne),
        ("the animal adjective in -í on a softened stem (bobr -> bobří)",
         lambda lemma: any(_adjective(dic, w) for w in guess._softened_animal_adjectives(lemma))),
        ("an animate diminutive, single line P/U/D/V without H (komár -> komárek)", animate_diminutive),
        ("the abstract noun in -ství/-ctví, the noun without an -ový adjective (papež -> papežství)", abstract),
    ]


def _person_after(dic, lemma: str, end: str) -> bool:
    """The headword (or its mobile-e stem) + `end` is a word on animate flags (inanimate_base_witness)."""
    stem = guess.mobile_e_stem(lemma)
    return any(_has(dic, w, lambda f: bool(set(f) & guess.ANIMATE_FLAGS))
               for w in [lemma + end] + ([stem + end] if stem else []))


def _thing_rows(dic):
    return [
        ("the relational adjective + ový/Y (blatník -> blatníkový)",
         lambda lemma: guess.inanimate_witness(lemma, dic) is not None),
        *((f"a person named after the thing, + -{end} on animate flags (žalář -> žalářník), no other witness",
           lambda lemma, end=end: _person_after(dic, lemma, end) and guess.animate_witness(lemma, dic) is None
           and guess.inanimate_witness(lemma, dic) is None and guess.inanimate_diminutive_witness(lemma, dic) is None)
          for end in ("ník", "ář", "ař", "ista")),
        ("a diminutive declined as a thing, one line H or Q (pilník -> pilníček)",
         lambda lemma: guess.inanimate_diminutive_witness(lemma, dic) is not None),
    ]


def counts(dic) -> list[tuple[str, int, int]]:
    """(witness, right, wrong) for each row of the table."""
    nouns = list(_single_line_nouns(dic))
    consonant_final = [(lemma, flags) for lemma, flags in nouns if guess._consonant_final_common_word(lemma)]
    rows = []
    for name, test in _animate_rows(dic):
        hits = [flags for lemma, flags in consonant_final if test(lemma)]
        rows.append((name, sum(map(_animate, hits)), sum(not _animate(f) for f in hits)))
    for name, test in _thing_rows(dic):
        hits = [flags for lemma, flags in consonant_final if test(lemma)]
        rows.append((name, sum(not _animate(f) for f in hits), sum(map(_animate, hits))))
    ce_nouns = [flags for lemma, flags in nouns if len(lemma) > 3 and lemma.endswith("ce")
                and _has(dic, lemma[:-2] + "kyně", lambda f: "Z" in f)]
    rows.insert(3, ("the feminine in -kyně of a -ce noun (zástupce -> zástupkyně)",
                    sum(map(_animate, ce_nouns)), sum(not _animate(f) for f in ce_nouns)))
    young = [flags for lemma, flags in nouns if guess.young_witness(lemma, dic) is not None]
    rows.append(("the diminutive in -átko of an -e/-ě noun (kotě -> koťátko): K nouns / others",
                 sum("K" in f for f in young), sum("K" not in f for f in young)))
    rows.extend(_neuter_rows(dic))
    e_nouns = [flags for lemma, flags in nouns if len(lemma) >= 4 and lemma.endswith(("e", "ě"))
               and guess.inanimate_witness(lemma, dic) is not None]
    rows.append(("an -e/-ě noun: its stem + ový (srdce -> srdcový): not animate / animate",
                 sum(not _animate(f) for f in e_nouns), sum(map(_animate, e_nouns))))
    rows.extend(_feminine_rows(dic))
    rows.append(_animal_row(dic))
    return rows


def _neuter_rows(dic) -> list[tuple[str, int, int]]:
    """For the -í headwords (single line, lowercase, 4 letters or more): nouns / adjectives with each
    adjective the neuter witness looks for."""
    words = [(lemma, lines[0]) for lemma, lines in dic.entries.items()
             if lemma == lemma.lower() and len(lines) == 1 and len(lemma) >= 4 and lemma.endswith("í")]
    rows = []
    for name, adjective_of, skip_ni in (
            ("-í headword: its relational adjective in -ní", lambda lemma: lemma[:-1] + "ní", False),
            ("-í headword (not -ní): the hard adjective in -ý", lambda lemma: lemma[:-1] + "ý", True),
            ("-í headword, -ní ones too (not taken): the hard adjective in -ý or -ný", lambda lemma: lemma[:-1] + "ý",
             False)):
        hits = [word_class(lemma, flags) for lemma, flags in words
                if not (skip_ni and lemma.endswith("ní")) and _adjective(dic, adjective_of(lemma))]
        rows.append((name + ": nouns / adjectives", hits.count("noun"), hits.count("adj")))
    return rows


def _feminine_rows(dic) -> list[tuple[str, int, int]]:
    """For the -a nouns (single line, lowercase, 4 letters or more): which of feminine_witness's words each
    has first, counted on the nouns that are no masculine person (right) and those that are (wrong)."""
    counts = {"ový": [0, 0], "in": [0, 0], "ní": [0, 0]}
    for lemma, flags in _single_line_nouns(dic):
        if len(lemma) < 4 or not lemma.endswith("a"):
            continue
        found = guess.feminine_witness(lemma, dic)
        if found is None:
            continue
        kind = "ový" if found.endswith("ový") else "in" if found.endswith("in") else "ní"
        counts[kind][_animate(flags)] += 1
    return [(f"-a noun, its first witness the -{kind} word: no masculine person / a masculine person", right, wrong)
            for kind, (right, wrong) in counts.items()]


def _animal_row(dic) -> tuple[str, int, int]:
    """The consonant-final animate nouns with an animal adjective in -í: with a class _is_animal takes (the
    plural in -i) / without."""
    hits = [flags for lemma, flags in _single_line_nouns(dic)
            if guess._consonant_final_common_word(lemma) and _animate(flags)
            and any(_adjective(dic, w) for w in [lemma + "í"] + guess._softened_animal_adjectives(lemma))]
    animal = [guess._is_animal("", guess.core(flags)) for flags in hits]
    return ("an animal adjective in -í (kojotí, bobří): an animate class with the plural in -i / not",
            sum(animal), len(animal) - sum(animal))


def ending_classes(dic, ending: str, top: int = 3) -> list[tuple[str, int]]:
    """The largest classes (core flags, words) among the single-line words ending in `ending`: what the
    plurality guess of an unagreeing ending chooses from (krůta: the -ta words)."""
    by_class = dic.ending_index.get(ending, {})
    return sorted(((flags, hit[0]) for flags, hit in by_class.items()), key=lambda kv: (-kv[1], kv[0]))[:top]


def main() -> None:
    dic = CzechDictionary.shipped()
    print("| witness | right | wrong |\n|---|---|---|")
    for name, right, wrong in counts(dic):
        print(f"| {name} | {right:,} | {wrong:,} |")
    print("\nthe -ta words by class: " + ", ".join(f"{flags} {n:,}" for flags, n in ending_classes(dic, "ta")))


if __name__ == "__main__":
    main()
