"""Plays and game records: the request context of a game call, the record's bounds, replay, analysis and
the game viewer's whole answer from one replay.

Values in and out are plain (names, strings, rule-engine objects, dataclasses); a deadline is a
time.monotonic() value or None. Client mistakes raise FieldError naming the field (server/errors.py).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field as dataclass_field

from lexicon_service.rules.board import Board
from lexicon_service.rules.gcg import GcgGame, parse_gcg
from lexicon_service.rules.moves import MoveResult
from lexicon_service.rules.replay import ReplayReport, replay
from lexicon_service.server.errors import DeadlineError, FieldError, LimitError, field, require
from lexicon_service.server.limits import Limits
from lexicon_service.server.registry import resolve_rule_set

# An analysis may take this many times Limits.max_generate_seconds (5 s by default; the 50 turns of a
# real Polish game take 0.12 s).
ANALYSIS_GENERATIONS = 5

# Every line separator str.splitlines knows ("\r\n" is one); the GCG reader splits on fewer of them.
_LINE_BREAKS = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def count_lines(text: str) -> int:
    """Lines of `text` as len(text.splitlines()) counts them (a separator ends a line: a last line with a
    newline is not followed by an empty one), without building the lines."""
    breaks = 0
    last_end = 0
    for match in _LINE_BREAKS.finditer(text):
        breaks += 1
        last_end = match.end()
    return breaks + (last_end < len(text))


def game_context(snapshot, lexicon_name: str, rule_set_name: str, *, need_lexicon: bool):
    """(rule_set, lexicon or None) of a call naming a lexicon and/or a rule set; checks that they agree."""
    lexicon = None
    if lexicon_name:
        lexicon = snapshot.lexicon(lexicon_name)
    elif need_lexicon:
        raise FieldError("lexicon", "required")
    if lexicon is not None:
        rule_set = lexicon.rule_set
        if rule_set_name and rule_set_name != rule_set.id:
            raise FieldError("rule_set", f"lexicon {lexicon_name!r} is for rule set {rule_set.id!r}, "
                                         f"not {rule_set_name!r}")
        return rule_set, lexicon
    if not rule_set_name:
        raise FieldError("lexicon", "a lexicon or a rule_set is required")
    return resolve_rule_set(snapshot, rule_set_name), None


def read_record(limits: Limits, gcg: str) -> tuple[GcgGame, str]:
    """A GCG record (bounded by the server's limits) and the rule set its #rules names ("" if none)."""
    if len(gcg) > limits.max_gcg_chars:
        raise LimitError("gcg", f"{len(gcg)} characters; at most {limits.max_gcg_chars}")
    require(bool(gcg.strip()), "gcg", "empty record")
    n_lines = count_lines(gcg)
    if n_lines > limits.max_gcg_lines:
        raise LimitError("gcg", f"{n_lines} lines; at most {limits.max_gcg_lines}")
    with field("gcg"):
        game = parse_gcg(gcg, "<request>")
    recorded_rules = next((args.strip().split()[0] for keyword, args in game.pragmas
                           if keyword == "rules" and args.strip()), "")
    return game, recorded_rules


def _check_recorded_rules(recorded_rules: str, rule_set) -> None:
    if recorded_rules and recorded_rules != rule_set.id:
        raise FieldError("gcg", f"the record is for rule set {recorded_rules!r}, not {rule_set.id!r}")


@dataclass
class Replayed:
    """A record replayed: its rule set, the lexicon that judged its words (None: not judged), the parsed
    record, the replay's report and, when asked for, the board after each line (copies)."""

    rule_set: object
    lexicon: object
    game: GcgGame
    report: ReplayReport
    boards: list[Board] = dataclass_field(default_factory=list)


def replay_record(snapshot, limits: Limits, lexicon_name: str, rule_set_name: str, gcg: str, *,
                  keep_boards: bool = False) -> Replayed:
    """Replay a GCG record under the named lexicon or rule set (else the record's #rules)."""
    game, recorded_rules = read_record(limits, gcg)
    if lexicon_name or rule_set_name:
        rule_set, lexicon = game_context(snapshot, lexicon_name, rule_set_name, need_lexicon=False)
    elif recorded_rules:
        rule_set, lexicon = resolve_rule_set(snapshot, recorded_rules), None
    else:
        raise FieldError("lexicon", "a lexicon or a rule_set is required (the record has no #rules)")
    _check_recorded_rules(recorded_rules, rule_set)
    boards: list[Board] = []
    on_line = (lambda line, board: boards.append(board.copy())) if keep_boards else None
    report = replay(rule_set, game, judge=lexicon, on_line=on_line)
    return Replayed(rule_set, lexicon, game, report, boards)


def analysis_deadline(limits: Limits, call_deadline: float | None) -> float:
    """The deadline of one game's analysis: a few generations' time, or the call's own if sooner."""
    deadline = time.monotonic() + ANALYSIS_GENERATIONS * limits.max_generate_seconds
    return deadline if call_deadline is None else min(deadline, call_deadline)


def analyse_replayed(limits: Limits, replayed: Replayed, call_deadline: float | None) -> list:
    """The TurnAnalysis of each turn of a record replayed with its boards kept (movegen.analysis)."""
    from lexicon_service.movegen.analysis import analyse_replay

    deadline = analysis_deadline(limits, call_deadline)
    try:
        return analyse_replay(replayed.rule_set, replayed.report, replayed.boards, replayed.lexicon,
                              deadline=deadline, turn_seconds=limits.max_generate_seconds)
    except TimeoutError:  # the generator's own check of the deadlines
        if call_deadline is not None and deadline == call_deadline:
            raise DeadlineError("game analysis") from None
        raise DeadlineError(f"game analysis (at most {ANALYSIS_GENERATIONS * limits.max_generate_seconds:g} s "
                            f"on this server, {limits.max_generate_seconds:g} s a turn)") from None


def analyse_record(snapshot, limits: Limits, lexicon_name: str, rule_set_name: str, gcg: str,
                   call_deadline: float | None) -> tuple[Replayed, list]:
    """AnalyseGame: the record replayed (its words judged by the lexicon, which is required) and the
    TurnAnalysis of each of its turns."""
    game, recorded_rules = read_record(limits, gcg)
    rule_set, lexicon = game_context(snapshot, lexicon_name, rule_set_name, need_lexicon=True)
    _check_recorded_rules(recorded_rules, rule_set)
    boards: list[Board] = []
    report = replay(rule_set, game, judge=lexicon, on_line=lambda line, board: boards.append(board.copy()))
    replayed = Replayed(rule_set, lexicon, game, report, boards)
    return replayed, analyse_replayed(limits, replayed, call_deadline)


@dataclass
class GameView:
    """What the game viewer shows of a record: the replay (boards kept), each line's scored play (its
    MoveResult, None for lines that place nothing), and each turn's analysis by GCG line (empty when
    the lexicon has no move graph, or no lexicon was named)."""

    replayed: Replayed
    moves: list[MoveResult | None]
    turns: dict = dataclass_field(default_factory=dict)


def view_record(snapshot, limits: Limits, lexicon_name: str, rule_set_name: str, gcg: str,
                call_deadline: float | None) -> GameView:
    """The viewer's whole answer from one parse and one replay of the record."""
    replayed = replay_record(snapshot, limits, lexicon_name, rule_set_name, gcg, keep_boards=True)
    moves = [line.move if line.event.kind == "play" and line.expected_score is not None else None
             for line in replayed.report.lines]
    turns = {}
    if getattr(replayed.lexicon, "move_graph", None) is not None:
        turns = {turn.line: turn for turn in analyse_replayed(limits, replayed, call_deadline)}
    return GameView(replayed, moves, turns)
