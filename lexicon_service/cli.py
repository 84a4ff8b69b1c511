"""`lexicon-service`: one command, one subcommand per module in `lexicon_service/commands/`, listed in
COMMANDS. Each module defines `add_parser(subparsers)`, which registers its subcommand and sets
`func=<callable(args) -> int>` as the parser default; a new subcommand is a new module and a line here.
What the command lines share (user errors, input reading, argument types) is lexicon_service/command_line.py.
"""

from __future__ import annotations

import argparse

from lexicon_service import __version__
from lexicon_service.command_line import run_reporting_errors
from lexicon_service.commands import (
    analyse,
    check,
    client,
    diff,
    dump,
    explain,
    export_kwg,
    moves,
    recover_games,
    replay,
    serve,
    tournament,
    validate,
)

# in the order `lexicon-service --help` lists them (`client game` is the client's: commands/game_client.py;
# `tournament` on a server is commands/tournament_client.py)
COMMANDS = (analyse, check, client, diff, dump, explain, export_kwg, moves, recover_games, replay, serve, tournament,
            validate)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lexicon-service",
        description="Word checks, explanations, move validation, scoring and game-record replay "
        "for Czech and Polish word games, in-process or as a gRPC server.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return run_reporting_errors(f"lexicon-service {args.command}", args.func, args)


if __name__ == "__main__":
    raise SystemExit(main())
