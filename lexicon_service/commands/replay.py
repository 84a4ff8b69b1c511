"""`lexicon-service replay`: replay a GCG game record on a rule set and check every line.

    lexicon-service replay game.gcg --rules pl-scrabble [--lexicon pl-scrabble] [--end-2x] [--show-board]

Prints a move table (recorded and recomputed score, total, tiles in the bag, what disagrees); `client
replay` prints the same table from the server's answer; --json prints that answer as `client replay --json`
does. The rule set: --rules, else the lexicon's, else the record's #rules (which must agree with the
others). Exit status 0 when every line agrees, 1 when
any line disagrees (a score, a total, an illegal play), 2 with a one-line message (naming the line)
when the file cannot be read.
"""

from __future__ import annotations

from dataclasses import dataclass

from lexicon_service.command_line import UserError, message_json, read_input

# Imports inside functions: a subcommand's dependencies load when it runs, not when lexicon-service builds
# its parser, which imports every subcommand's module (startup cost: docs/development.md).


def add_replay_arguments(p) -> None:
    """Options shared by `replay` and `client replay`."""
    p.add_argument("gcg", metavar="FILE.gcg", help="the game record ('-' = stdin)")
    p.add_argument("--rules", "-r", metavar="RULES",
                   help="rule set id (cs-scrabble, pl-scrabble, cs-kriskros) or path to a .rules file "
                   "(default: the record's #rules pragma)")


def add_parser(subparsers) -> None:
    from lexicon_service.commands.check import add_lexicon_argument

    p = subparsers.add_parser("replay", help="replay a GCG game record: recompute scores, flag disagreements",
                              description=__doc__.split("\n\n")[0])
    add_replay_arguments(p)
    add_lexicon_argument(p, required=False)
    p.add_argument("--end-2x", action="store_true",
                   help="the player who went out scores twice the others' racks (two-player 2x convention)")
    p.add_argument("--show-board", action="store_true",
                   help="draw the final board (coordinates, premium squares); with --json nothing more: the "
                   "answer holds the final board (final_board)")
    p.add_argument("--json", action="store_true", help="print the ReplayGame answer as `client replay --json` does")
    p.set_defaults(func=run)


@dataclass
class LocalRecord:
    """What `replay` and `analyse` give the core's replay: the lexicons and rule set they opened (--rules
    may be a .rules file), the names a request would give them ("": none), the record's text and name."""

    snapshot: object
    lexicon_name: str
    rule_set_name: str
    gcg: str
    origin: str

    def errors(self):
        """The app's errors with the options and the file they come from named."""
        from lexicon_service.commands import in_process as local

        return local.user_errors({"lexicon": "--lexicon", "rule_set": "--rules", "gcg": self.origin})


def read_record(args) -> LocalRecord:
    """The GCG record named by args.gcg (its encoding detected), with --lexicon and --rules opened."""
    from lexicon_service.commands import in_process as local
    from lexicon_service.commands.check import open_lexicon
    from lexicon_service.rules import RuleSetError, load_rule_set
    from lexicon_service.rules.gcg import GcgError, decode_gcg

    origin = "<stdin>" if args.gcg == "-" else args.gcg
    data = read_input(args.gcg)      # bounded: not read_gcg, which reads all there is
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        text, _ = decode_gcg(data, origin)
    except GcgError as exc:
        raise UserError(str(exc)) from None
    rule_sets = []
    if args.rules:
        try:
            rule_sets.append(load_rule_set(args.rules))
        except RuleSetError as exc:
            raise UserError(str(exc)) from None
    lexicon = open_lexicon(args.lexicon, args.lexicons) if args.lexicon else None
    return LocalRecord(local.snapshot([lexicon] if lexicon else [], rule_sets, args.lexicons),
                       lexicon.name if lexicon else "", rule_sets[0].id if rule_sets else "", text, origin)


def run(args) -> int:
    from lexicon_service.commands import in_process as local
    from lexicon_service.core.plays import replay_record
    from lexicon_service.rules.replay import format_report
    from lexicon_service.core.messages import replay_response

    record = read_record(args)
    with record.errors():
        replayed = replay_record(record.snapshot, local.LIMITS, record.lexicon_name, record.rule_set_name,
                                 record.gcg, end_2x=args.end_2x, origin=record.origin)
    report = replayed.report
    print(message_json(replay_response(replayed, record.lexicon_name)) if args.json else format_report(report))
    if args.show_board and not args.json:  # the JSON answer holds the final board: one document
        print(report.board.render_text())
    return 0 if report.ok else 1
