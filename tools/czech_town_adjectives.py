"""How many Czech town adjectives the Kris Kros place-name rule refuses, and whether ordinary adjectives
of the same shapes stay (issue 38). The towns and their adjectives are tests/data/czech_town_adjectives.tsv
(written from general knowledge, for measuring only: no build step reads it), the ordinary adjectives
tests/data/czech_ordinary_adjectives.txt.

    python -m tools.czech_town_adjectives [--lexicon lexicons/cs-kriskros.lex] [--part dev|held|all] [--misses]

The towns are split in two halves by the CRC-32 of the adjective: rules were written looking at the
misses of `dev` only; `held` is the figure reported. Without --lexicon the rule is asked directly
(`place_rules.place_of` on the shipped dictionary; an adjective the dictionary lacks counts as refused,
since no build makes it); with it, an adjective counts as refused when the lexicon does not admit it.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
TOWNS = DATA / "czech_town_adjectives.tsv"
ORDINARY = DATA / "czech_ordinary_adjectives.txt"


def towns(part: str) -> list[tuple[str, str]]:
    """(town, adjective) of the part: dev, held or all."""
    rows = [line.split("\t") for line in TOWNS.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    if part == "all":
        return [(t, a) for t, a in rows]
    want = 0 if part == "dev" else 1
    return [(t, a) for t, a in rows if zlib.crc32(a.encode("utf-8")) % 2 == want]


def ordinary() -> list[str]:
    return [w for w in ORDINARY.read_text(encoding="utf-8").splitlines() if w and not w.startswith("#")]


def _admission_tests(lexicon_path: str | None):
    """(admitted(word), in_dictionary(word)) for the lexicon or the rule on the shipped dictionary."""
    from build_tools.czech import CzechDictionary
    from build_tools.czech.place_rules import place_of

    dic = CzechDictionary.shipped()
    in_dic = dic.entries.__contains__
    if lexicon_path is None:
        return (lambda w: w.isalpha() and w in dic.entries and place_of(w, dic) is None), in_dic
    from lexicon_service.lexicon import load_lexicon

    lex = load_lexicon(lexicon_path)
    key = lex.rule_set.tile_set.key_of_text

    def admitted(word: str) -> bool:
        try:
            return lex.is_admissible(key(word))
        except (KeyError, ValueError):
            return False
    return admitted, in_dic


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lexicon", help="a built cs-kriskros lexicon (default: ask the rule directly)")
    p.add_argument("--part", choices=("dev", "held", "all"), default="held")
    p.add_argument("--misses", action="store_true", help="list the town adjectives admitted")
    args = p.parse_args(argv)
    admitted, in_dic = _admission_tests(args.lexicon)
    rows = towns(args.part)
    missed = [(t, a) for t, a in rows if admitted(a)]
    known = [a for _t, a in rows if in_dic(a)]
    refused_known = [a for a in known if not admitted(a)]
    print(f"{args.part}: {len(rows)} town adjectives, refused {len(rows) - len(missed)} "
          f"({(len(rows) - len(missed)) / len(rows):.1%}); of the {len(known)} the dictionary has, refused "
          f"{len(refused_known)} ({len(refused_known) / max(len(known), 1):.1%})")
    words = ordinary()
    kept = [w for w in words if admitted(w)]
    lost = [w for w in words if in_dic(w) and not admitted(w)]
    print(f"ordinary adjectives: {len(words)}, {sum(map(in_dic, words))} in the dictionary, "
          f"admitted {len(kept)}; refused though in the dictionary: {lost or 'none'}")
    if args.misses:
        sys.stdout.write("".join(f"{t}\t{a}\n" for t, a in missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
