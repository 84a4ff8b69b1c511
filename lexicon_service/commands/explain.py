"""`lexicon-service explain`: why a word is (or is not) in a lexicon.

    lexicon-service explain --lexicon lexicons/pl-scrabble.lex zrobiłbym
    zrobiłbym	headword zrobić	tag 1;ANIM;COND;FUSED;HUM;INAN;MASC;PFV;SG;V	rule fused-form	from SGJP

One line per reading: the form, its headword, its tag (common tag vocabulary, build_tools/tags.py)
the profile rule that admitted it, and where it came from: "from SGJP" (or the Czech paradigm
engine, a word list, a tagged list), "from Hunspell affix form" (a form of an SGJP lemma that only
the Hunspell entry attests), "guessed from <model lemma>" (inflected by analogy). Several words may
be given, or read from standard input, one per line. Exit status 1 when a word is not in the lexicon;
if the build met it and a rule of the profile refused it, that rule is named:

    mělnický: invalid (not in lexicon cs-kriskros; refused by rule place-name-adjective, headword mělnický
    (place name Mělník, rule ník: -ník -> -nický))
"""

from __future__ import annotations

import json
import struct
import sys

from lexicon_service.command_line import UserError
from lexicon_service.commands.check import add_lexicon_argument, input_words, open_lexicon

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("explain", help="show headword, tag and rule of words in a lexicon",
                              description=__doc__.split("\n\n")[0])
    add_lexicon_argument(p)
    p.add_argument("words", nargs="*", metavar="word", help="words to explain (default: read from stdin, one per line)")
    p.add_argument("--json", action="store_true", help="print each word's readings as one line of JSON")
    p.set_defaults(func=run)


def explanation_lines(word: str, readings, why_invalid: str) -> list[str]:
    """What `explain` and `client explain` print for one word: a line per reading, or why it is invalid."""
    if not readings:
        return [f"{word}: invalid ({why_invalid})"]
    return [f"{r.form}\theadword {r.headword}\ttag {r.tag}\trule {r.rule}\t"
            + (f"guessed from {r.model}" if r.model else f"from {r.origin}") for r in readings]


def why_not_in(lexicon_name: str, message: str, refusals) -> str:
    """Why a word is not in the lexicon: the checker's message, or the profile rules that refused it
    (triples of rule, headword and what the build said of the headword), or only that."""
    if message:
        return message
    why = f"not in lexicon {lexicon_name}"
    if refusals:
        why += "; refused by " + ", ".join(f"rule {rule}, headword {head}" + (f" ({detail})" if detail else "")
                                           for rule, head, detail in refusals)
    return why


def run(args) -> int:
    from lexicon_service.commands import in_process as local
    from lexicon_service.core.words import VALID, explain_word

    lexicon = open_lexicon(args.lexicon, args.lexicons)
    snapshot = local.snapshot([lexicon], directory=args.lexicons)
    invalid = 0
    for word in input_words(args.words):
        try:
            with local.user_errors({"lexicon": "--lexicon"}):
                found = explain_word(snapshot, local.LIMITS, lexicon.name, word)
        except (IndexError, KeyError, TypeError, ValueError, struct.error) as exc:
            # Files whose checksums match the manifest but whose content does not hold together.
            raise UserError(f"{args.lexicon}: corrupt lexicon: its provenance tables do not fit together "
                            f"({type(exc).__name__}: {exc})") from None
        readings = found.readings if found.status == VALID else []
        invalid += not readings
        if args.json:
            print(json.dumps({"word": word, "valid": bool(readings), "readings": [r.__dict__ for r in readings],
                              "refusals": [{"rule": rule, "headword": head, "detail": detail}
                                           for rule, head, detail in found.refusals]},
                             ensure_ascii=False))
            continue
        why = why_not_in(lexicon.name, found.message, found.refusals)
        sys.stdout.write("".join(line + "\n" for line in explanation_lines(word, readings, why)))
    return 1 if invalid else 0
