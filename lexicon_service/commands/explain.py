"""`lexicon-service explain`: why a word is (or is not) in a lexicon.

    lexicon-service explain --lexicon lexicons/pl-scrabble.lex zrobiłbym
    zrobiłbym	headword zrobić	tag 1;ANIM;COND;FUSED;HUM;INAN;MASC;PFV;SG;V	rule fused-form	from SGJP

One line per reading: the form, its headword, its tag (common tag vocabulary, build_tools/tags.py)
the profile rule that admitted it, and where it came from: "from SGJP" (or the Czech paradigm
engine, a word list, a tagged list), "from Hunspell affix form" (a form of an SGJP lemma that only
the Hunspell entry attests), "guessed from <model lemma>" (inflected by analogy). Exit status 1
when the word is not in the lexicon.
"""

from __future__ import annotations

import json
import struct
import sys

from lexicon_service.cli import UserError
from lexicon_service.commands.check import add_lexicon_argument, key_of, open_lexicon


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("explain", help="show headword, tag and rule of a word in a lexicon",
                              description=__doc__.split("\n\n")[0])
    add_lexicon_argument(p)
    p.add_argument("word")
    p.add_argument("--json", action="store_true", help="print the readings as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    lex = open_lexicon(args.lexicon, args.lexicons)
    key = key_of(lex, args.word)
    try:
        readings = lex.explain(key) if key is not None else []
    except (IndexError, KeyError, TypeError, ValueError, struct.error) as exc:
        # Files whose checksums match the manifest but whose content does not hold together.
        raise UserError(f"{args.lexicon}: corrupt lexicon: its provenance tables do not fit together "
                        f"({type(exc).__name__}: {exc})") from None
    if args.json:
        print(json.dumps({"word": args.word, "valid": bool(readings),
                          "readings": [r.__dict__ for r in readings]}, ensure_ascii=False))
        return 0 if readings else 1
    if key is None:
        print(f"{args.word}: invalid (a letter is not a tile of rule set {lex.rule_set.id})")
        return 1
    if not readings:
        print(f"{args.word}: invalid (not in lexicon {lex.name})")
        return 1
    for r in readings:
        origin = f"guessed from {r.model}" if r.model else f"from {r.origin}"
        sys.stdout.write(f"{r.form}\theadword {r.headword}\ttag {r.tag}\trule {r.rule}\t{origin}\n")
    return 0
