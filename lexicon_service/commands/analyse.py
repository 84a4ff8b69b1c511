"""`lexicon-service analyse`: the best move of each turn of a GCG record beside the one played.

    lexicon-service analyse game.gcg -r pl-scrabble -l pl-scrabble [--json] [-o annotated.gcg]

Per play, exchange and pass whose line gives the rack: the move played and its score, the best move by
score for that rack on the board before the turn, and the points given away (a withdrawn play gave
away the whole best score). The lexicon needs a move graph (`lexicon-build --move-graph-only`).
--json: one object a line (turn, line, player, rack, played, played_score, withdrawn, best, best_score,
given_away, best_words, note); -o: the record with a `#note` giving the best move after each turn.
Exit status 0, or 2 with a message.
"""

from __future__ import annotations

import json

from lexicon_service.command_line import UserError

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


def add_parser(subparsers) -> None:
    from lexicon_service.commands.check import add_lexicon_argument
    from lexicon_service.commands.moves import add_sim_arguments
    from lexicon_service.commands.replay import add_replay_arguments

    p = subparsers.add_parser("analyse", help="the best move of each turn of a GCG record and the points given away",
                              description=__doc__.split("\n\n")[0])
    add_replay_arguments(p)
    add_lexicon_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON object per turn, a line each")
    p.add_argument("--output", "-o", metavar="FILE.gcg", help="write the record annotated with the best moves")
    add_sim_arguments(p, position=False)
    p.set_defaults(func=run)


def run(args) -> int:
    from lexicon_service.commands import in_process as local
    from lexicon_service.core.plays import analyse_record
    from lexicon_service.commands.replay import read_record
    from lexicon_service.movegen.analysis import annotate, format_analysis
    from lexicon_service.rules.gcg import format_gcg

    record = read_record(args)
    with record.errors():
        replayed, turns = analyse_record(record.snapshot, local.LIMITS, record.lexicon_name, record.rule_set_name,
                                         record.gcg, None, origin=record.origin)
    if args.sim:
        look_ahead_turns(args, replayed, turns)
    if args.output:
        from lexicon_service.output_files import OutputRefused, write_atomically

        try:
            write_atomically(args.output, format_gcg(annotate(replayed.game, turns)))
        except OutputRefused as exc:
            raise UserError(f"--output: {exc}") from None
        except OSError as exc:
            raise UserError(f"--output: {exc.strerror or exc}: {args.output}") from None
    if args.json:
        print("\n".join(json.dumps(turn.as_dict(), ensure_ascii=False) for turn in turns))
    else:
        print(format_analysis(turns) if not args.sim else format_lookahead_analysis(turns))
    return 0


def look_ahead_turns(args, replayed, turns) -> None:
    from lexicon_service.commands import in_process as local
    from lexicon_service.games.lookahead import analyse_ahead
    from lexicon_service.commands.moves import SIM_OPTIONS, lookahead_options

    options = lookahead_options(args)
    with local.user_errors(SIM_OPTIONS):
        options.check(SIM_OPTIONS)
        analyse_ahead(replayed, turns, options, None)


def format_lookahead_analysis(turns) -> str:
    """The table `analyse --sim` prints: per turn the move played and its win chance, the simulation's
    (or endgame's) best move and its win chance, and the mean spread the choice cost."""
    header = ("turn", "player", "rack", "played", "win", "best", "win", "spread lost", "by")
    rows = [header]
    for t in turns:
        a = t.ahead
        if a is None:
            rows.append((str(t.turn), t.player, t.rack or "", t.played, "?", t.best or "?", "?", "?", ""))
            continue
        lost = "?" if a.played_spread is None else f"{a.best_spread - a.played_spread:.1f}"
        rows.append((str(t.turn), t.player, t.rack or "", t.played, _percent(a.played_win), a.best,
                     _percent(a.best_win), lost, a.kind))
    widths = [max(len(r[k]) for r in rows) for k in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    looked = [t.ahead for t in turns if t.ahead is not None]
    lines.append(f"{len(turns)} turns, {len(looked)} looked at by simulation or endgame search")
    return "\n".join(lines)


def _percent(chance) -> str:
    return "?" if chance is None else f"{100 * chance:.1f}%"
