"""`lexicon-service recover-games DAMAGED NEW`: copy every game that still reads whole out of a damaged games
database into a new file, and list the games left out.

    lexicon-service recover-games games.db games-recovered.db && lexicon-service serve --db games-recovered.db

Stop every server using the damaged file first. It is only read; NEW must not exist. See
lexicon_service/games/salvage.py for what "reads whole" means.
"""

from __future__ import annotations

import sqlite3

from lexicon_service.command_line import UserError

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("recover-games", help="copy the readable games of a damaged games database into a new file",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("damaged", help="the damaged games database (only read)")
    p.add_argument("new", help="the new file to write (must not exist)")
    p.set_defaults(func=run)


def run(args) -> int:
    from lexicon_service.games.salvage import recover_games

    try:
        result = recover_games(args.damaged, args.new)
    except sqlite3.Error as exc:
        raise UserError(f"cannot recover games from {args.damaged}: {exc}") from None
    print(f"copied {len(result.copied):,} games into {args.new}; left out {len(result.lost):,} that do not read whole"
          + (f" ({', '.join(result.lost[:20])}{', ...' if len(result.lost) > 20 else ''})" if result.lost else "")
          + (f"; stepped over {result.skips:,} damaged stretches of the index (their games are not known)"
             if result.skips else ""))
    return 0
