"""Plays and game records: the context of a game call (lexicon, rule set, board, rack), validating and
scoring a play, generating moves, and a record's replay, analysis and the game viewer's whole answer from
one replay.

Values in and out are plain (names, strings, rule-engine objects, dataclasses); a deadline is a
time.monotonic() value or None. Client mistakes raise FieldError naming the field (server/errors.py).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field as dataclass_field

from lexicon_service.rules import SetupError, apply_setup, validate_move
from lexicon_service.rules.board import Board
from lexicon_service.rules.gcg import GcgGame, parse_gcg
from lexicon_service.rules.moves import MoveResult
from lexicon_service.rules.replay import ReplayReport, replay
from lexicon_service.errors import DeadlineError, FieldError, LimitError, field, require
from lexicon_service.core.limits import Limits
from lexicon_service.core.registry import resolve_rule_set
from lexicon_service.movegen import generate_moves
from lexicon_service.movegen.analysis import analyse_replay

# An analysis may take this many times Limits.max_generate_seconds (5 s by default; a real game's analysis
# takes far less: docs/measurements.md).
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


def read_board(limits: Limits, rule_set, rows) -> Board:
    """A board from its rows (empty: the empty board), bounded by the server's limits."""
    if not rows:
        return Board.empty(rule_set)
    if len(rows) > limits.max_board_rows:
        raise LimitError("board", f"{len(rows)} rows; a board has at most {limits.max_board_rows}")
    for i, row in enumerate(rows):
        if len(row) > 8 * limits.max_board_rows:
            raise LimitError(f"board[{i}]", f"{len(row)} characters; too long for a board row")
    with field("board"):
        return Board.from_rows(rule_set, list(rows))


def read_rack(rule_set, rack: str) -> str:
    """A rack as given ("" for none), checked: letters of the rule set, at most a rack's tiles."""
    if len(rack) > 4 * max(rule_set.rack_size, 8):
        raise LimitError("rack", f"{len(rack)} characters; too long for a rack")
    if rack:
        with field("rack"):
            tiles = rule_set.tile_set.spell_rack(rack)
        if len(tiles) > rule_set.rack_size:
            raise FieldError("rack", f"{len(tiles)} tiles; a {rule_set.id} rack holds {rule_set.rack_size}")
    return rack


def apply_setup_plays(rule_set, board: Board, setup) -> None:
    """Put setup plays, (position, word) pairs, on `board` (words not judged); each failure names its play."""
    if len(setup) > rule_set.rows * rule_set.columns:
        raise LimitError("setup", f"{len(setup)} plays; more than the board has squares")
    for i, (position, word) in enumerate(setup):
        require(bool(position), f"setup[{i}].position", "required (e.g. '8D' across, 'D8' down)")
        require(bool(word), f"setup[{i}].word", "required")
        if len(word) > 8 * max(rule_set.rows, rule_set.columns):
            raise LimitError(f"setup[{i}].word", f"{len(word)} characters; longer than the board")
    try:
        apply_setup(rule_set, board, list(setup))
    except SetupError as exc:
        raise FieldError(f"setup[{exc.index}]", str(exc)) from None


def check_play(rule_set, position: str, word: str) -> tuple[str, str]:
    require(bool(position), "play.position", "required (e.g. '8D' across, 'D8' down)")
    require(bool(word), "play.word", "required")
    if len(word) > 8 * max(rule_set.rows, rule_set.columns):
        raise LimitError("play.word", f"{len(word)} characters; longer than the board")
    # What the play says is judged (valid: false with its reason code), as in a replay and the CLI.
    return (position, word)


@dataclass
class JudgedMove:
    """A play judged on a board: the rules' MoveResult; when it could be placed, the board after it and
    the rack it leaves (None: no rack given, or the rack lacks its tiles)."""

    rule_set: object
    result: MoveResult
    board_after: Board | None = None
    leave: str | None = None


def judged(rule_set, result: MoveResult, board_before: Board, rack: str) -> JudgedMove:
    move = JudgedMove(rule_set, result)
    if result.score is None:
        return move
    move.board_after = board_before.copy()
    move.board_after.apply(result)
    if rack:
        leave = list(rule_set.tile_set.spell_rack(rack))
        try:
            for tile in result.tiles_used:
                leave.remove(tile)
        except ValueError:
            pass  # TILE_NOT_IN_RACK: no leave
        else:
            move.leave = rule_set.tile_set.rack_text(leave)
    return move


def judge_move(snapshot, limits: Limits, lexicon_name: str, rule_set_name: str, board_rows, rack: str,
               position: str, word: str, *, judge_words: bool) -> JudgedMove:
    """ValidateMove (judge_words: the lexicon, required, judges the words) and ScoreMove."""
    rule_set, lexicon = game_context(snapshot, lexicon_name, rule_set_name, need_lexicon=judge_words)
    board = read_board(limits, rule_set, board_rows)
    rack = read_rack(rule_set, rack)
    play = check_play(rule_set, position, word)
    result = validate_move(rule_set, board, rack or None, play, lexicon=lexicon if judge_words else None)
    return judged(rule_set, result, board, rack)


@dataclass(frozen=True)
class MoveFilters:
    """What a move generation may be asked beside the position: how many moves (0: the server's maximum),
    their order, filters, and the tiles left in the bag (None: unknown)."""

    limit: int = 0
    sort: str = ""
    min_length: int = 0
    must_use: str = ""
    must_contain: str = ""
    bag_count: int | None = None
    plays_only: bool = False


@dataclass
class Generated:
    rule_set: object
    moves: list  # movegen.GeneratedMove, best first
    truncated: bool


def check_filters(limits: Limits, filters: MoveFilters) -> None:
    if not 0 <= filters.limit <= limits.max_results:
        raise LimitError("limit", f"{filters.limit} moves; 0 (the server's maximum) to {limits.max_results}")
    for name in ("must_use", "must_contain", "sort"):
        value = getattr(filters, name)
        if len(value) > limits.max_word_chars:
            raise LimitError(name, f"{len(value)} characters; at most {limits.max_word_chars}")


def generate(snapshot, limits: Limits, lexicon_name: str, rule_set_name: str, board_rows, setup, rack: str,
             filters: MoveFilters, call_deadline: float | None) -> Generated:
    """The legal moves from `rack` on the board (rows, then the (position, word) setup plays), best first."""
    check_filters(limits, filters)
    limit = filters.limit or limits.max_results
    # The call's deadline, and the server's own bound on one generation: a worker is never held longer.
    deadline = time.monotonic() + limits.max_generate_seconds
    if call_deadline is not None:
        deadline = min(deadline, call_deadline)
    rule_set, lexicon = game_context(snapshot, lexicon_name, rule_set_name, need_lexicon=True)
    board = read_board(limits, rule_set, board_rows)
    apply_setup_plays(rule_set, board, setup)
    require(bool(rack), "rack", "required (e.g. 'KOTABC?')")
    rack = read_rack(rule_set, rack)
    # The generator checks the rest (the blanks and letters the set has, the filters) and names the
    # field of what it refuses (MoveGenerationError, mapped in errors.py).
    try:
        moves = generate_moves(
            rule_set, board, rack, lexicon, limit=limit + 1, sort=filters.sort or "score",
            min_length=filters.min_length or None, must_use=filters.must_use or None,
            must_contain=filters.must_contain or None, bag_count=filters.bag_count,
            include_exchanges=not filters.plays_only, include_pass=not filters.plays_only, deadline=deadline)
    except TimeoutError:  # the generator's own check of `deadline`
        if call_deadline is not None and deadline == call_deadline:
            raise DeadlineError("move generation") from None
        raise DeadlineError(f"move generation (at most {limits.max_generate_seconds:g} s on this server)") from None
    return Generated(rule_set, moves[:limit], len(moves) > limit)


def read_record(limits: Limits, gcg: str, origin: str = "<request>") -> tuple[GcgGame, str]:
    """A GCG record (bounded by the server's limits) and the rule set its #rules names ("" if none);
    `origin` names the record in a parse error ("<request>:12: ...", "game.gcg:12: ...")."""
    if len(gcg) > limits.max_gcg_chars:
        raise LimitError("gcg", f"{len(gcg)} characters; at most {limits.max_gcg_chars}", "GCG_TOO_LONG",
                         {"chars": len(gcg), "max": limits.max_gcg_chars})
    if not gcg.strip():
        raise FieldError("gcg", "empty record", "GCG_EMPTY")
    n_lines = count_lines(gcg)
    if n_lines > limits.max_gcg_lines:
        raise LimitError("gcg", f"{n_lines} lines; at most {limits.max_gcg_lines}", "GCG_TOO_MANY_LINES",
                         {"lines": n_lines, "max": limits.max_gcg_lines})
    with field("gcg"):
        game = parse_gcg(gcg, origin)
    recorded_rules = next((args.strip().split()[0] for keyword, args in game.pragmas
                           if keyword == "rules" and args.strip()), "")
    return game, recorded_rules


def _check_recorded_rules(recorded_rules: str, rule_set) -> None:
    if recorded_rules and recorded_rules != rule_set.id:
        raise FieldError("gcg", f"the record is for rule set {recorded_rules!r}, not {rule_set.id!r}",
                         "GCG_OTHER_RULES", {"recorded": recorded_rules[:40], "rule_set": rule_set.id})


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
                  keep_boards: bool = False, end_2x: bool = False, origin: str = "<request>") -> Replayed:
    """Replay a GCG record under the named lexicon or rule set (else the record's #rules); end_2x: the
    end-rack bonus is twice the others' racks (the two-player convention), whatever the rule set says."""
    game, recorded_rules = read_record(limits, gcg, origin)
    if lexicon_name or rule_set_name:
        rule_set, lexicon = game_context(snapshot, lexicon_name, rule_set_name, need_lexicon=False)
    elif recorded_rules:
        rule_set, lexicon = resolve_rule_set(snapshot, recorded_rules), None
    else:
        raise FieldError("lexicon", "a lexicon or a rule_set is required (the record has no #rules)", "GCG_NO_RULES")
    _check_recorded_rules(recorded_rules, rule_set)
    boards: list[Board] = []
    on_line = (lambda line, board: boards.append(board.copy())) if keep_boards else None
    report = replay(rule_set, game, lexicon=lexicon, out_bonus="twice-others-racks" if end_2x else None,
                    on_line=on_line)
    return Replayed(rule_set, lexicon, game, report, boards)


def analysis_deadline(limits: Limits, call_deadline: float | None) -> float:
    """The deadline of one game's analysis: a few generations' time, or the call's own if sooner."""
    deadline = time.monotonic() + ANALYSIS_GENERATIONS * limits.max_generate_seconds
    return deadline if call_deadline is None else min(deadline, call_deadline)


def analyse_replayed(limits: Limits, replayed: Replayed, call_deadline: float | None) -> list:
    """The TurnAnalysis of each turn of a record replayed with its boards kept (movegen.analysis)."""
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
                   call_deadline: float | None, origin: str = "<request>") -> tuple[Replayed, list]:
    """AnalyseGame: the record replayed (its words judged by the lexicon, which is required) and the
    TurnAnalysis of each of its turns."""
    game, recorded_rules = read_record(limits, gcg, origin)
    rule_set, lexicon = game_context(snapshot, lexicon_name, rule_set_name, need_lexicon=True)
    _check_recorded_rules(recorded_rules, rule_set)
    boards: list[Board] = []
    report = replay(rule_set, game, lexicon=lexicon, on_line=lambda line, board: boards.append(board.copy()))
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
                call_deadline: float | None, *, end_2x: bool = False) -> GameView:
    """The viewer's whole answer from one parse and one replay of the record."""
    replayed = replay_record(snapshot, limits, lexicon_name, rule_set_name, gcg, keep_boards=True, end_2x=end_2x)
    moves = [line.move if line.event.kind == "play" and line.expected_score is not None else None
             for line in replayed.report.lines]
    turns = {}
    if getattr(replayed.lexicon, "has_move_graph", False):
        turns = {turn.line: turn for turn in analyse_replayed(limits, replayed, call_deadline)}
    return GameView(replayed, moves, turns)
