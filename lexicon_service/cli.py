"""`lexicon-service`: one command, one subcommand per module in `lexicon_service/commands/`.

Each module there defines `add_parser(subparsers)`, which registers its subcommand and sets
`func=<callable(args) -> int>` as the parser default. Modules are discovered, so adding a
subcommand never means editing this file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from lexicon_service import __version__, commands


class UserError(Exception):
    """An error caused by the user's input: printed as one line, exit status 2, no traceback."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lexicon-service",
        description="Word checks, explanations, move validation, scoring and game-record replay "
        "for Czech and Polish word games, in-process or as a gRPC server.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"lexicon-service {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `dump | head`
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
