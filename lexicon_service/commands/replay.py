"""`lexicon-service replay`: replay a GCG game record on a rule set and check every line.

    lexicon-service replay game.gcg --rules pl-scrabble [--lexicon pl-scrabble] [--end-2x]

Prints a move table (recorded and recomputed score, total, tiles in the bag, what disagrees).
Exit status 0 when every line agrees, 1 when any line disagrees (a score, a total, an illegal play),
2 with a one-line message (naming the line) when the file cannot be read.
"""

from __future__ import annotations

import sys

from lexicon_service.cli import UserError


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("replay", help="replay a GCG game record: recompute scores, flag disagreements",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("gcg", metavar="FILE.gcg", help="the game record")
    p.add_argument("--rules", "-r", metavar="RULES",
                   help="rule set id (cs-scrabble, pl-scrabble, cs-kriskros) or path to a .rules file "
                   "(default: the record's #rules pragma)")
    p.add_argument("--lexicon", "-l", metavar="LEX",
                   help="also report words this lexicon refuses (directory or name in --lexicons)")
    p.add_argument("--lexicons", default="lexicons", metavar="DIR",
                   help="where lexicon names are looked up (default: %(default)s)")
    p.add_argument("--end-2x", action="store_true",
                   help="the player who went out scores twice the others' racks (two-player 2x convention)")
    p.set_defaults(func=run)


def _judge(name: str, lexicons_dir: str, rule_set=None):
    try:
        from lexicon_service import lexicon as lexicon_module
    except ImportError:  # lexicon module not installed: score-only replay
        print("note: lexicon support unavailable; replaying without word checks", file=sys.stderr)
        return None
    try:
        resolve = getattr(lexicon_module, "resolve_lexicon_path", None)
        path = resolve(name, lexicons_dir) if resolve else name
        lexicon = lexicon_module.load_lexicon(path)
    except (lexicon_module.LexiconError, OSError, ValueError) as exc:
        raise UserError(f"lexicon {name}: {exc}") from None
    lexicon_rules = getattr(getattr(lexicon, "rule_set", None), "id", None)
    if rule_set is not None and lexicon_rules and lexicon_rules != rule_set.id:
        # Tile keys of another rule set mean nothing here (Kris Kros CH vs Czech Scrabble C+H).
        raise UserError(f"lexicon {name} is for rule set {lexicon_rules}, not {rule_set.id}")
    return lexicon


def run(args) -> int:
    from lexicon_service.rules import RuleSetError, load_rule_set
    from lexicon_service.rules.gcg import GcgError, read_gcg
    from lexicon_service.rules.replay import format_report, replay

    try:
        game = read_gcg(args.gcg)
    except GcgError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"{args.gcg}: {exc.strerror or exc}") from None
    rules_name = args.rules
    if not rules_name:
        rules_name = next((value for key, value in game.pragmas if key in ("rules", "rule-set")), None)
        if not rules_name:
            raise UserError(f"{args.gcg}: no --rules given and no #rules pragma in the record")
    try:
        rule_set = load_rule_set(rules_name)
    except RuleSetError as exc:
        raise UserError(str(exc)) from None
    judge = _judge(args.lexicon, args.lexicons, rule_set) if args.lexicon else None
    report = replay(rule_set, game, judge=judge, out_bonus="twice-others-racks" if args.end_2x else None)
    print(format_report(report))
    return 0 if report.ok else 1
