"""`lexicon-service replay`: replay a GCG game record on a rule set and check every line.

    lexicon-service replay game.gcg --rules pl-scrabble [--lexicon pl-scrabble] [--end-2x] [--show-board]

Prints a move table (recorded and recomputed score, total, tiles in the bag, what disagrees); `client
replay` prints the same table from the server's answer. Exit status 0 when every line agrees, 1 when
any line disagrees (a score, a total, an illegal play), 2 with a one-line message (naming the line)
when the file cannot be read.
"""

from __future__ import annotations

import argparse

from lexicon_service.cli import UserError


def add_replay_arguments(p) -> None:
    """Options shared by `replay` and `client replay` (the old spelling --rule-set kept, hidden)."""
    p.add_argument("gcg", metavar="FILE.gcg", help="the game record ('-' = stdin)")
    p.add_argument("--rules", "-r", metavar="RULES",
                   help="rule set id (cs-scrabble, pl-scrabble, cs-kriskros) or path to a .rules file "
                   "(default: the record's #rules pragma)")
    p.add_argument("--rule-set", dest="rules", help=argparse.SUPPRESS)


def add_parser(subparsers) -> None:
    from lexicon_service.commands.check import add_lexicon_argument

    p = subparsers.add_parser("replay", help="replay a GCG game record: recompute scores, flag disagreements",
                              description=__doc__.split("\n\n")[0])
    add_replay_arguments(p)
    add_lexicon_argument(p, required=False)
    p.add_argument("--end-2x", action="store_true",
                   help="the player who went out scores twice the others' racks (two-player 2x convention)")
    p.add_argument("--show-board", action="store_true",
                   help="draw the final board (coordinates, premium squares)")
    p.set_defaults(func=run)


def _judge(name: str, lexicons_dir: str, rule_set=None):
    from lexicon_service.commands.check import open_lexicon

    lexicon = open_lexicon(name, lexicons_dir)
    lexicon_rules = getattr(getattr(lexicon, "rule_set", None), "id", None)
    if rule_set is not None and lexicon_rules and lexicon_rules != rule_set.id:
        # Tile keys of another rule set mean nothing here (Kris Kros CH vs Czech Scrabble C+H).
        raise UserError(f"lexicon {name} is for rule set {lexicon_rules}, not {rule_set.id}")
    return lexicon


def read_record(args):
    """The GCG record named by args.gcg and its rule set (--rules, else the record's #rules pragma)."""
    from lexicon_service.cli import read_input
    from lexicon_service.rules import RuleSetError, load_rule_set
    from lexicon_service.rules.gcg import GcgError, gcg_of_bytes

    name = "<stdin>" if args.gcg == "-" else args.gcg
    data = read_input(args.gcg)      # bounded: not read_gcg, which reads all there is
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        game = gcg_of_bytes(data, name)
    except GcgError as exc:
        raise UserError(str(exc)) from None
    rules_name = args.rules
    if not rules_name:
        rules_name = next((value for key, value in game.pragmas if key in ("rules", "rule-set")), None)
        if not rules_name:
            raise UserError(f"{args.gcg}: no --rules given and no #rules pragma in the record")
    try:
        rule_set = load_rule_set(rules_name)
    except RuleSetError as exc:
        raise UserError(str(exc)) from None
    return game, rule_set


def run(args) -> int:
    from lexicon_service.rules.replay import format_report, replay

    game, rule_set = read_record(args)
    judge = _judge(args.lexicon, args.lexicons, rule_set) if args.lexicon else None
    report = replay(rule_set, game, judge=judge, out_bonus="twice-others-racks" if args.end_2x else None)
    print(format_report(report))
    if args.show_board:
        print(report.board.render_text())
    return 0 if report.ok else 1
