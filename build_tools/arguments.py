"""`lexicon-build`'s options (`build_parser`); what a build does with them: build_tools/cli.py."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from lexicon_service import __version__

from build_tools.defaults import DEFAULT_BUILDS, polish_data_dir
from build_tools.leave_fitting import DEFAULT_BUILD_GAMES, DEFAULT_GAMES, DEFAULT_SEED, MAX_GAMES
from build_tools.winprob import DEFAULT_GAMES as WIN_TABLE_GAMES
from build_tools.czech.dictionary import shipped_paths


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number, 0 or more, at most MAX_GAMES (self-play games)."""
    value = positive_int(text) if text.strip() not in ("0", "+0", "-0") else 0
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"at most {MAX_GAMES:,}")
    return value


def _shipped_czech_dic() -> Path:
    return shipped_paths()[0]


class _Once(argparse.Action):
    """An option that may be given once (a second value would silently replace the first)."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest) is not None:
            parser.error(f"{option_string} given more than once")
        setattr(namespace, self.dest, values)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="lexicon-build",
        description="Compile word sources into a lexicon (a directory NAME.lex) for one rule set.\n"
        "Sources may be combined and repeated. Forms are filtered by the rule set's admissibility\n"
        "profile (build_tools/profiles/*.profile) and stored as tile keys; every rejected form or\n"
        "bad input line is counted in the summary (and listed with --rejected).",
        epilog="examples:\n"
        "  lexicon-build --defaults pl-scrabble -o lexicons/pl-scrabble.lex      (the default Polish build:\n"
        "                --rules pl-scrabble, the three shipped headword lists and the sjp.pl pl_PL.dic;\n"
        f"                as installed here: {polish_data_dir()})\n"
        "  lexicon-build --defaults cs-kriskros -o lexicons/cs-kriskros.lex      (the default Czech build:\n"
        "                --rules cs-kriskros --hunspell with the shipped Czech dictionary,\n"
        f"                as installed here: {_shipped_czech_dic()})\n"
        "  lexicon-build --defaults pl-scrabble --words extra.txt -o my.lex     (the default build and more words)\n"
        "  lexicon-build --rules pl-scrabble --headwords new-words.txt --models default -o new.lex\n"
        "                (new words SGJP does not know, inflected after the SGJP lemmas of the shipped headwords.txt)\n"
        "  printf 'kot\\npies\\n' | lexicon-build --rules pl-scrabble --words - -o my.lex   ('-' = standard input)\n\n"
        "--hunspell: Czech stems and their paradigm flags go to the Czech expander; for Polish a\n"
        "stem gets SGJP's paradigm, or, when SGJP does not know it, a paradigm guessed by analogy\n"
        "and corroborated by the .aff's affix forms (never those forms on their own).\n"
        "Then: lexicon-service check|explain|dump|diff (see lexicon-service --help).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument("--move-graph-only", metavar="LEX.lex",
                   help="add the move graph (moves.gaddag, for move generation) to an existing lexicon and stop")
    p.add_argument("--leaves", metavar="LEX.lex",
                   help="add the leave table (leaves.tsv, for the computer level 'equity') to an existing lexicon "
                   "with its move graph, made from --games self-play games with --seed (the same bytes for "
                   "the same lexicon, games and seed; the Polish default takes a few minutes), and stop")
    p.add_argument("--win-table", metavar="LEX.lex",
                   help="add the win-probability table (winprob.tsv, for simulation and the computer level "
                   "'simulating') to an existing lexicon with its move graph (and its leave table, when it has "
                   "one), made from --games self-play games with --seed, and stop")
    p.add_argument("--games", type=positive_int, default=None, metavar="N",
                   help=f"--leaves, --win-table: self-play games (default {DEFAULT_GAMES} and "
                   f"{WIN_TABLE_GAMES}; at most {MAX_GAMES:,})")
    p.add_argument("--leave-games", type=non_negative_int, default=None, metavar="N",
                   help=f"a build: make its leave table (leaves.tsv) from N self-play games, 0 for none (default "
                   f"{DEFAULT_BUILD_GAMES} with --defaults, else none; --leaves makes one later from more games)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help="--leaves, --win-table: the games' seed (default %(default)s)")
    p.add_argument("--rules", metavar="RULESET",
                   help="rule set id (pl-scrabble, cs-scrabble, cs-kriskros) or path to a .rules file")
    p.add_argument("--defaults", metavar="RULESET", choices=DEFAULT_BUILDS,
                   help="the default build of a shipped rule set (%(choices)s): its --rules and the shipped "
                   "sources (Polish: the headword lists and pl_PL.dic; Czech: cs_CZ.dic); more sources may be added")
    p.add_argument("--profile", metavar="NAME|FILE",
                   help="admissibility profile (default: the rule set's; see build_tools/profiles/)")
    p.add_argument("--headwords", action="append", default=[], metavar="FILE",
                   help="headword list: 'lemma' or 'lemma<TAB>pos' per line; expanded by the language's generator "
                   "('-' = standard input, as for --words, --tagged and --models)")
    p.add_argument("--words", action="append", default=[], metavar="FILE",
                   help="plain word list: one inflected form per line, admitted as is")
    p.add_argument("--tagged", action="append", default=[], metavar="FILE",
                   help="tagged forms: form<TAB>lemma<TAB>tag (UniMorph or SGJP tag)")
    p.add_argument("--hunspell", action="append", default=[], metavar="DIC",
                   help="Hunspell dictionary X.dic (X.aff beside it; its SET encoding is respected)")
    p.add_argument("--paradigms", metavar="DIC", action=_Once,
                   help="Hunspell dictionary X.dic (X.aff beside it) consulted for how to inflect the "
                   "--headwords; it contributes no words of its own. Czech: the paradigm source (default: the "
                   "shipped cs_CZ.dic). Polish: a headword SGJP does not know gets the paradigm its entry there "
                   "would get from --hunspell (e.g. the shipped pl_PL.dic, named in the examples below)")
    p.add_argument("--models", action="append", default=[], metavar="FILE",
                   help="Polish: a headword list whose SGJP lemmas serve as analogy models for the headwords and "
                   "Hunspell stems SGJP does not know, besides the build's own SGJP lemmas; their forms are not "
                   "admitted (e.g. 'default', the shipped headwords.txt, for a build from a short list of new words)")
    p.add_argument("-o", "--output", metavar="OUT.lex",
                   help="lexicon to write (a directory; its parent directories are created if missing); an "
                   "existing lexicon there is replaced, anything else is refused")
    p.add_argument("--name", help="lexicon name (default: the output's file name without .lex)")
    p.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                   help="processes for the expansion (default: %(default)s, the CPU count)")
    p.add_argument("--rejected", metavar="FILE",
                   help="write every rejection (form, reason, where, detail) to FILE, tab-separated")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p
