"""`lexicon-service check`: validity of words read from standard input (or given as arguments).

    echo -e "kot\nkotx" | lexicon-service check --lexicon lexicons/pl-scrabble.lex
    kot	valid
    kotx	invalid

One line out per non-empty line in: ``word<TAB>valid`` or ``word<TAB>invalid``; --json: each CheckWords
answer (1,000 words a batch) as `client check --json` prints it. Words are typed in any case; they are
spelled into tiles of the lexicon's rule set and judged by the server's CheckWords (core/words.py: a letter
outside its tiles, or a length no board holds, makes the word invalid; an empty word or one over 64
characters is an error). Input is UTF-8 (a byte-order mark is ignored; other bytes are an error naming the
line). Exit status 0 when every word is valid, 1 when any is invalid, 2 on an error (as `client check`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from lexicon_service.command_line import UserError, error_line, message_json, text_lines

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


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
    p.add_argument("--json", action="store_true",
                   help="print each CheckWords answer (a batch of 1,000 words) as `client check --json` does")
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


CHECK_BATCH = 1000      # words per CheckWords answer, local or a server's (which takes 10,000 by default)


def batched(words, size: int = CHECK_BATCH):
    batch = []
    for word in words:
        batch.append(word)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def word_fields(offset: int, count: int, from_stdin: bool) -> dict[str, str]:
    """A batch's fields words[i] named by the word's place in the whole input: "<stdin>: words[1002]" for
    the third word of the second batch read from standard input."""
    where = "<stdin>: " if from_stdin else ""
    return {f"words[{i}]": f"{where}words[{offset + i}]" for i in range(count)}


def print_check_answers(answers, *, as_json: bool, verdict_only: bool = False, notes: bool = False) -> int:
    """What `check` and `client check` print of CheckWords answers, and their exit status: a verdict line a
    word (with `notes`, a note such as a letter that is no tile on stderr), or each answer as JSON."""
    out = sys.stdout
    acceptable = True
    for answer in answers:
        acceptable &= answer.acceptable
        if as_json:
            out.write(message_json(answer) + "\n")
            continue
        for r in answer.results:
            out.write(verdict_line(r.word, r.valid))
            if notes and r.message:
                print(f"{r.word}: {r.message}", file=sys.stderr)
    if verdict_only and not as_json:
        out.write("play acceptable\n" if acceptable else "play NOT acceptable\n")
    out.flush()
    return 0 if acceptable else 1


def run(args) -> int:
    from lexicon_service.commands import in_process as local
    from lexicon_service.core.words import check_words
    from lexicon_service.core.messages import check_words_response

    lexicon = open_lexicon(args.lexicon, args.lexicons)
    snapshot = local.snapshot([lexicon])

    def answers():  # as a server answers them, batch by batch as `client check` sends them
        offset = 0
        for batch in batched(input_words(args.words)):
            with local.user_errors({"lexicon": "--lexicon", **word_fields(offset, len(batch), not args.words)}):
                checks = check_words(snapshot, local.LIMITS, lexicon.name, batch)
            offset += len(batch)
            yield check_words_response(checks, lexicon.name)

    return print_check_answers(answers(), as_json=args.json)
