"""`lexicon-service dump`: print every form of a lexicon, one per line, sorted by tile key.

    lexicon-service dump --lexicon lexicons/pl-scrabble.lex | head
    lexicon-service dump --lexicon lexicons/cs-kriskros.lex --keys   # raw tile keys

Forms are printed as text (multi-letter tiles spelled out: Kris Kros CH -> "ch"); --keys prints
the raw tile keys. --prefix limits the output to forms whose key starts with a prefix.
"""

from __future__ import annotations

import sys

from lexicon_service.commands.check import add_lexicon_argument, key_of, open_lexicon


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("dump", help="print every form of a lexicon", description=__doc__.split("\n\n")[0])
    add_lexicon_argument(p)
    p.add_argument("--prefix", default="", help="only forms starting with this (typed as text)")
    p.add_argument("--keys", action="store_true", help="print raw tile keys instead of text")
    p.set_defaults(func=run)


def run(args) -> int:
    lex = open_lexicon(args.lexicon, args.lexicons)
    prefix = key_of(lex, args.prefix) if args.prefix else ""
    if prefix is None:
        return 0
    keys = lex.keys(prefix)
    ts = lex.rule_set.tile_set
    out = sys.stdout
    if args.keys or not ts.multi_letter_tiles:
        out.write("".join(k + "\n" for k in keys))
    else:
        out.write("".join(ts.text_of_key(k) + "\n" for k in keys))
    out.flush()
    return 0
