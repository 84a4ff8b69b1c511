"""`lexicon-service check`: validity of words read from standard input (or given as arguments).

    echo -e "kot\nkotx" | lexicon-service check --lexicon lexicons/pl-scrabble.lex
    kot	valid
    kotx	invalid

One line out per non-empty line in: ``word<TAB>valid`` or ``word<TAB>invalid``. Words are typed in
any case; they are spelled into tiles of the lexicon's rule set (a letter outside its tiles makes
the word invalid). Input is UTF-8 (a byte-order mark is ignored; other bytes are an error naming the
line). Exit status 0 (with --strict: 1 when any word is invalid), 2 on unreadable input.
"""

from __future__ import annotations

import sys

from lexicon_service.cli import UserError, error_line, text_lines


def add_lexicon_argument(parser, *, flag: bool = True) -> None:
    parser.add_argument("--lexicon", "-l", required=True, metavar="LEX",
                        help="lexicon directory (lexicons/pl-scrabble.lex) or name (pl-scrabble, "
                        "looked up in --lexicons)")
    parser.add_argument("--lexicons", default="lexicons", metavar="DIR",
                        help="where lexicon names are looked up (default: %(default)s)")


def open_lexicon(name_or_path: str, lexicons_dir: str = "lexicons"):
    from lexicon_service.lexicon import LexiconError, load_lexicon, resolve_lexicon_path

    try:
        return load_lexicon(resolve_lexicon_path(name_or_path, lexicons_dir))
    except (LexiconError, OSError, ValueError) as exc:
        raise UserError(str(exc) if isinstance(exc, LexiconError) else f"{name_or_path}: {error_line(exc)}") from None


def key_of(lexicon, word: str):
    """Tile key of a typed word, or None when it has a letter outside the rule set's tiles."""
    try:
        return lexicon.rule_set.tile_set.key_of_text(word)
    except ValueError:
        return None


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("check", help="check words from stdin against a lexicon (word<TAB>valid|invalid)",
                              description=__doc__.split("\n\n")[0])
    add_lexicon_argument(p)
    p.add_argument("words", nargs="*", help="words to check (default: read from stdin, one per line)")
    p.add_argument("--strict", action="store_true", help="exit status 1 when any word is invalid")
    p.set_defaults(func=run)


def run(args) -> int:
    lex = open_lexicon(args.lexicon, args.lexicons)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    words = args.words if args.words else (line.strip() for line in text_lines(stdin, "<stdin>"))
    out = sys.stdout
    bad = 0
    contains = lex.is_admissible
    for word in words:
        if not word:
            continue
        key = key_of(lex, word)
        ok = key is not None and contains(key)
        bad += not ok
        out.write(f"{word}\t{'valid' if ok else 'invalid'}\n")
    out.flush()
    return 1 if (args.strict and bad) else 0
