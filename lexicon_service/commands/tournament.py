"""`lexicon-service tournament`: tournament files on this machine, and tournaments held by a server.

On files (TSH .t, one division):

    lexicon-service tournament standings div-a.t [--json] [--tiebreak points]
    lexicon-service tournament ratings div-a.t            # Elo after the event (docs/tournaments.md)
    lexicon-service tournament pairings div-a.t --method swiss --seed 7   # the next round, as CSV

On a server (--address as `client`; the director key from --key or env LEXICON_DIRECTOR_KEY):

    lexicon-service tournament create "Klubový turnaj" -l cs-scrabble --rounds 7   # prints the id and key
    lexicon-service tournament add ID "Nováková, Eva" "Dvořák, Jan" [--rating 1500] [--computer best]
    lexicon-service tournament import ID div-a.t | pairings.csv
    lexicon-service tournament pair ID [--method swiss|round-robin|king-of-the-hill]
    lexicon-service tournament start ID ROUND            # every table's game id and the players' tokens
    lexicon-service tournament result ID ROUND TABLE 412 398 --reason "played on a board"
    lexicon-service tournament show ID | games ID [--round N]
    lexicon-service tournament export ID [--format csv] [-o FILE] [--gcg ARCHIVE.zip]

`standings --json` prints exactly {"standings": [{"rank", "name", "wins", "losses", "spread"}, ...]}, each
name as the file writes it. Errors in a file name its line; exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from lexicon_service.command_line import UserError, read_text, whole_number
from lexicon_service.tournaments.pairing import METHODS
from lexicon_service.tournaments.standings import TIEBREAKS, standings, standings_json

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).

FILE_COMMANDS = ("standings", "ratings", "pairings")


def add_parser(subparsers) -> None:
    from lexicon_service.commands.client import client_options

    p = subparsers.add_parser("tournament", help="tournament standings, pairings and ratings; tournaments on a server",
                              description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="tournament_command", metavar="ACTION")
    for name, text in (("standings", "the standings of a TSH .t file"), ("ratings", "Elo ratings after the event"),
                       ("pairings", "pair the next round of a .t file (CSV: round,table,player1,player2)")):
        f = sub.add_parser(name, help=text)
        f.add_argument("file", metavar="FILE.t")
        f.add_argument("--tiebreak", action="append", default=[], choices=TIEBREAKS)
        f.add_argument("--json", action="store_true")
        if name == "pairings":
            f.add_argument("--method", choices=METHODS, default="swiss")
            f.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=0)
            f.add_argument("--bye-points", type=whole_number(0, 10_000), default=50)
    remote = [client_options(argparse.SUPPRESS)]
    _add_server_parsers(sub, remote)
    p.set_defaults(func=run, timeout=30.0, json=False, address=None, token=None, tls_ca=None, tls=False, key=None)


def _add_server_parsers(sub, parents) -> None:
    key = argparse.ArgumentParser(add_help=False)
    key.add_argument("--key", default=None, help="the director key (env LEXICON_DIRECTOR_KEY)")
    c = sub.add_parser("create", help="create a tournament on a server", parents=parents)
    c.add_argument("name")
    c.add_argument("-l", "--lexicon", required=True)
    c.add_argument("--division", action="append", default=[], help="a division's name (repeatable; default A)")
    c.add_argument("--rounds", type=whole_number(1, 100), default=7)
    c.add_argument("--game-seconds", type=whole_number(0, 24 * 3600), default=0)
    c.add_argument("--bye-points", type=whole_number(0, 10_000), default=50)
    c.add_argument("--tiebreak", action="append", default=[], choices=TIEBREAKS)
    c.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=None)
    a = sub.add_parser("add", help="enter players", parents=[*parents, key])
    a.add_argument("tournament")
    a.add_argument("names", nargs="+")
    a.add_argument("--rating", type=whole_number(0, 4000), default=0)
    a.add_argument("--computer", default="", help="a computer player's level: the server plays them")
    for name, text in (("import", "import a .t file or a pairings CSV into a division"),
                       ("pair", "pair the next round"), ("start", "start a round's games"),
                       ("result", "enter or correct a result, with a reason"), ("show", "the tournament"),
                       ("games", "its games"), ("export", "a division as a .t file or CSV")):
        s = sub.add_parser(name, help=text, parents=[*parents, key])
        s.add_argument("tournament")
        s.add_argument("--division", default="")
        if name == "import":
            s.add_argument("file", help="FILE.t, or a CSV (.csv)")
        elif name == "pair":
            s.add_argument("--method", choices=METHODS, default="swiss")
        elif name in ("start", "result"):
            s.add_argument("round", type=whole_number(1, 100))
        elif name == "games":
            s.add_argument("--round", type=whole_number(0, 100), default=0)
        elif name == "export":
            s.add_argument("--format", choices=("t", "csv"), default="t")
            s.add_argument("-o", "--output", default=None)
            s.add_argument("--gcg", default=None, metavar="ARCHIVE.zip", help="also every game's GCG record")
        if name == "result":
            s.add_argument("table", type=whole_number(1, 10_000))
            s.add_argument("score1", type=whole_number(-10_000, 10_000))
            s.add_argument("score2", type=whole_number(-10_000, 10_000), nargs="?", default=0)
            s.add_argument("--reason", required=True)


def run(args) -> int:
    if not args.tournament_command:
        raise UserError("which action? standings, ratings, pairings (on a .t file); create, add, import, pair, "
                        "start, result, show, games, export (on a server)")
    if args.tournament_command in FILE_COMMANDS:
        return _run_file(args)
    from lexicon_service.commands.tournament_client import run_remote

    return run_remote(args)


def _run_file(args) -> int:
    from lexicon_service.tournaments import pairing, tsh
    from lexicon_service.tournaments.ratings import ratings_after
    division = tsh.read_t(read_text(args.file))
    if args.tournament_command == "standings":
        rows = standings(division, args.tiebreak)
        if args.json:
            print(json.dumps(standings_json(rows), ensure_ascii=False))
            return 0
        width = max([len(r.name) for r in rows] + [4])
        print(f"{'rank':>4}  {'name':<{width}}  {'wins':>5}  {'losses':>6}  {'spread':>6}")
        for r in rows:
            print(f"{r.rank:>4}  {r.name:<{width}}  {r.wins:>5g}  {r.losses:>6g}  {r.spread:>+6d}")
    elif args.tournament_command == "ratings":
        new = ratings_after(division)
        out = [{"name": p.name, "before": p.rating, "after": n} for p, n in zip(division.players, new)]
        if args.json:
            print(json.dumps({"ratings": out}, ensure_ascii=False))
        else:
            for row in out:
                print(f"{row['name']}\t{row['before']}\t{row['after']}\t{row['after'] - row['before']:+d}")
    else:
        games = pairing.pair_round(division, args.method, args.seed, args.bye_points, tiebreaks=args.tiebreak)
        from lexicon_service.tournaments.csvfiles import write_pairings

        sys.stdout.write(write_pairings(division, games))
    return 0
