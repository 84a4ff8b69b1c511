"""`lexicon-service check`: validity of words read from standard input (or given as arguments).

    echo -e "kot\nkotx" | lexicon-service check --lexicon lexicons/pl-scrabble.lex
    kot	valid
    kotx	invalid

One line out per non-empty line in: ``word<TAB>valid`` or ``word<TAB>invalid``. Words are typed in
any case; they are spelled into tiles of the lexicon's rule set and judged as the server's CheckWords
judges them (app/words.py: a letter outside its tiles, or a length no board holds, makes the word invalid). Input is UTF-8 (a byte-order mark is ignored; other bytes are an error naming the
line). Exit status 0 when every word is valid, 1 when any is invalid, 2 on an error (as `client check`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from lexicon_service.cli import UserError, error_line, text_lines


def add_lexicons_dir_argument(parser) -> None:
    """--lexicons DIR, defaulting to $LEXICON_DIR (as `serve`) or ./lexicons: every command taking a name."""
    parser.add_argument("--lexicons", default=os.environ.get("LEXICON_DIR") or "lexicons", metavar="DIR",
                        help="where lexicon names are looked up (env LEXICON_DIR; default: %(default)s)")


def add_lexicon_argument(parser, *, flag: bool = True, required: bool = True) -> None:
    parser.add_argument("--lexicon", "-l", required=required, metavar="LEX",
                        help="lexicon directory (lexicons/pl-scrabble.lex) or name (pl-scrabble, "
                        "looked up in --lexicons)")
    add_lexicons_dir_argument(parser)


def no_such_lexicon(name: str, lexicons_dir) -> str:
    """Where a lexicon name was looked for, and what is there."""
    directory = Path(lexicons_dir)
    looked = f"no lexicon {name!r}: not a path, and no {directory / (name + '.lex')} (--lexicons / LEXICON_DIR)"
    if not directory.is_dir():
        return f"{looked}; {directory} is not a directory"
    names = sorted(p.name[:-4] for p in directory.glob("*.lex"))
    return f"{looked}; {directory} holds: {', '.join(names)}" if names else f"{looked}; {directory} holds no *.lex"


def open_lexicon(name_or_path: str, lexicons_dir: str = "lexicons"):
    from lexicon_service.lexicon import LexiconError, load_lexicon, resolve_lexicon_path

    path = resolve_lexicon_path(name_or_path, lexicons_dir)
    if not path.exists():
        raise UserError(no_such_lexicon(name_or_path, lexicons_dir))
    try:
        return load_lexicon(path)
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
    p.add_argument("--strict", action="store_true", help=argparse.SUPPRESS)  # now the default; kept for old scripts
    p.set_defaults(func=run)


def input_words(words: list[str]):
    """The words of a command: its arguments, else the non-empty lines of standard input (check, explain
    and their client namesakes)."""
    if words:
        return iter(words)
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    return (word for word in (line.strip() for line in text_lines(stdin, "<stdin>")) if word)


def verdict_line(word: str, valid: bool) -> str:
    """One answer of `check` and `client check`."""
    return f"{word}\t{'valid' if valid else 'invalid'}\n"


def run(args) -> int:
    from lexicon_service.app.words import VALID, WordChecker

    lex = open_lexicon(args.lexicon, args.lexicons)
    out = sys.stdout
    bad = 0
    check = WordChecker(lex).check  # the server's rules: letters, lengths, the lexicon
    for word in input_words(args.words):
        ok = check(word)[0] == VALID
        bad += not ok
        out.write(verdict_line(word, ok))
    out.flush()
    return 1 if bad else 0
