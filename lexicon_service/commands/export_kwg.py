"""`lexicon-service export-kwg`: a lexicon's words as a KWG word graph for MAGPIE and wolges.

    lexicon-service export-kwg --lexicon cs-kriskros -o out/    # out/cs-kriskros.kwg, out/cs-kriskros.csv

NAME.kwg holds the DAWG (arc 0) and the GADDAG (arc 1) of the words that fit on the rule set's board,
in the 22-bit layout both engines read (--kwg24: wolges' 24-bit variant, for graphs of more than 2^22
arcs); NAME.csv is the letter distribution in MAGPIE's layout, whose order gives the tile numbers
(layout: lexicon_service/movegen/kwg.py). Exit status 0, or 2 with a message (one naming the limit
when the graph is too large for the layout).
"""

from __future__ import annotations

from pathlib import Path

from lexicon_service.command_line import UserError

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


def add_parser(subparsers) -> None:
    from lexicon_service.commands.check import add_lexicon_argument

    p = subparsers.add_parser("export-kwg", help="write a lexicon as a KWG word graph and letter distribution CSV",
                              description=__doc__.split("\n\n")[0])
    add_lexicon_argument(p)
    p.add_argument("--output", "-o", required=True, metavar="DIR", help="directory for NAME.kwg and NAME.csv")
    p.add_argument("--name", metavar="NAME", help="file name stem (default: the lexicon's name)")
    p.add_argument("--kwg24", action="store_true", help="wolges' 24-bit layout (up to 2^24 arcs)")
    p.set_defaults(func=run)


def run(args) -> int:
    from lexicon_service.commands.check import open_lexicon
    from lexicon_service.movegen.kwg import KWG22, KWG24, KwgTooLarge, kwg_export
    from lexicon_service.output_files import OutputRefused, check_target, write_atomically

    lexicon = open_lexicon(args.lexicon, args.lexicons)
    name = args.name or Path(str(lexicon.path)).name.removesuffix(".lex")
    if not name or "/" in name or name in (".", ".."):
        raise UserError(f"--name: {name!r} is not a file name")
    out = Path(args.output)
    try:
        kwg, csv = kwg_export(lexicon, KWG24 if args.kwg24 else KWG22)
        out.mkdir(parents=True, exist_ok=True)
        kwg_path, csv_path = check_target(out / f"{name}.kwg"), check_target(out / f"{name}.csv")  # both first
        write_atomically(kwg_path, kwg)
        write_atomically(csv_path, csv)
    except KwgTooLarge as exc:
        raise UserError(str(exc)) from None
    except OutputRefused as exc:
        raise UserError(f"--output: {exc}") from None
    except OSError as exc:
        raise UserError(f"--output: {exc.strerror or exc}: {exc.filename or args.output}") from None
    print(f"{kwg_path}\t{len(kwg) // 4} arcs")
    print(csv_path)
    return 0
