"""Replay a GCG record on a rule set: recompute every score, check every total and every play.

A line *disagrees* when its recorded score differs from the recomputed one, when its cumulative total
is not the previous total plus its score, or when the move is illegal (cannot be placed, tiles not on
the recorded rack, an exchange with too few tiles in the bag, a withdrawal with nothing to withdraw).
Notes (not disagreements): words a lexicon refuses that stood unchallenged, rack-count oddities, and
checks skipped for lack of data.

The bag is tracked by counting: it starts with every tile minus full racks for each player; a play of
k tiles draws min(k, bag). Racks, when the record gives them, are checked against the plays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from lexicon_service.rules.board import Board
from lexicon_service.rules.gcg import (
    CHALLENGE_BONUS,
    END_RACK,
    EXCHANGE,
    PASS,
    PLAY,
    TIME_PENALTY,
    WITHDRAWN,
    GcgEvent,
    GcgGame,
)
from lexicon_service.rules.moves import MoveResult, validate_move
from lexicon_service.rules.reasons import Reason
from lexicon_service.rules.ruleset import RuleSet
from lexicon_service.tiles import BLANK, UnknownLetterError


@dataclass
class ReplayLine:
    event: GcgEvent
    player_index: int
    expected_score: int | None  # recomputed (None when it cannot be: e.g. an illegal play)
    expected_total: int  # previous recorded total + expected score (what the line should show)
    words: tuple[str, ...] = ()
    problems: list[str] = field(default_factory=list)  # disagreements: make the replay fail
    notes: list[str] = field(default_factory=list)  # information only
    bag_before: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class ReplayReport:
    rule_set: RuleSet
    game: GcgGame
    lines: list[ReplayLine]
    board: Board
    totals: list[int]  # recorded final totals per player
    expected_totals: list[int]  # sums of recomputed scores
    notes: list[str] = field(default_factory=list)  # whole-game notes (checks skipped...)
    bag: int = 0  # tiles left in the bag after the last event (tracked by counting)
    rack_counts: list[int] = field(default_factory=list)  # tiles on each player's rack at the end

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.lines)

    @property
    def disagreements(self) -> list[ReplayLine]:
        return [line for line in self.lines if not line.ok]


def replay(rule_set: RuleSet, game: GcgGame, judge=None, out_bonus: str | None = None,
           on_line=None) -> ReplayReport:
    """Replay `game`; judge (optional) marks words a lexicon refuses; out_bonus overrides the rule
    set's end-of-game bonus ("others-racks" or "twice-others-racks", the 2x two-player convention).
    on_line (optional) is called as on_line(line, board) after each line (the game viewer draws it)."""
    tile_set = rule_set.tile_set
    board = Board.empty(rule_set)
    n_players = max(1, len(game.players))
    lo, hi = rule_set.game.players
    report_notes = []
    if not lo <= n_players <= hi:
        report_notes.append(f"{n_players} players; {rule_set.id} is for {lo}-{hi}")
    if not game.has_racks:
        report_notes.append("the record gives no racks: rack checks skipped (bag tracked by tile counts)")
    rack_counts = [0] * n_players
    bag = tile_set.total_tiles
    for i in range(n_players):  # everyone starts with a full rack
        rack_counts[i] = min(rule_set.rack_size, bag)
        bag -= rack_counts[i]
    full_bag = Counter(tile_set.bag())
    on_board: Counter = Counter()  # tiles placed (blanks as "?"), to check racks against what is left
    recorded_totals = [0] * n_players
    expected_totals = [0] * n_players
    bonus_rule = out_bonus or rule_set.end.out_bonus
    lines: list[ReplayLine] = []
    # The last play of each player that is still withdrawable: (line, result, drawn tiles)
    last_play: dict[int, tuple[ReplayLine, MoveResult | None, int]] = {}
    # Game end (RULES.md section 6): rack emptied with the bag empty, N scoreless turns, passing rounds.
    scoreless_turns = 0
    passes_in_a_row = 0
    scoreless_before_play: dict[int, tuple[int, int]] = {}
    game_over: str | None = None

    for event in game.events:
        p = game.player_index(event.player)
        line = ReplayLine(event, p, None, 0, bag_before=bag)
        expected: int | None = None
        rack = None
        if event.rack and event.kind not in (END_RACK, WITHDRAWN):  # a withdrawal repeats the phony's rack
            try:
                rack = list(tile_set.spell_rack(event.rack))
            except UnknownLetterError as exc:
                line.problems.append(f"rack {event.rack!r}: {exc}")
            if rack is not None and len(rack) != rack_counts[p]:
                line.notes.append(f"rack has {len(rack)} tiles; {rack_counts[p]} expected from the bag count")
            if rack is not None:
                too_many = Counter(rack) - (full_bag - on_board)
                if too_many:
                    line.problems.append(f"the rack {event.rack} holds tiles the game no longer has: "
                                         f"{tile_set.rack_text(sorted(too_many.elements()))}")

        if event.kind == PLAY:
            result = validate_move(rule_set, board, None, (event.position, event.word))
            if result.score is None:
                line.problems.append(f"illegal play: {result.reason.value}: {result.message}")
            elif result.reason is not Reason.OK and result.reason is not Reason.DUPLICATE_WORD:
                line.problems.append(f"illegal play: {result.reason.value}: {result.message}")
            if result.score is not None and rack is not None:
                missing = _missing_from_rack(rack, result.tiles_used)
                if missing:
                    line.problems.append(f"illegal play: {Reason.TILE_NOT_IN_RACK.value}: "
                                         f"{tile_set.rack_text(missing)} not on the rack {event.rack}")
            if result.score is not None:
                expected = result.score
                line.words = result.words
                board.apply(result)
                on_board.update(result.tiles_used)
                used = len(result.placements)
                drawn = min(used, bag)
                bag -= drawn
                rack_counts[p] += drawn - used
                last_play[p] = (line, result, drawn)
                if judge is not None:
                    refused = [w for w, k in zip(result.words, result.word_keys) if not judge.is_admissible(k)]
                    if refused:
                        line.notes.append(f"not admissible: {', '.join(refused)}")
                if rule_set.words.same_word_twice != "allowed" and result.reason is Reason.DUPLICATE_WORD:
                    line.notes.append(f"word twice on the board: {', '.join(result.invalid_words)}")
            else:
                last_play.pop(p, None)
        elif event.kind == WITHDRAWN:
            previous = last_play.pop(p, None)
            if previous is None or previous[1] is None:
                line.problems.append("withdrawal without a play of this player to withdraw")
            else:
                prev_line, prev_result, drawn = previous
                _take_back(board, prev_result)
                on_board.subtract(prev_result.tiles_used)
                bag += drawn
                rack_counts[p] += len(prev_result.placements) - drawn
                expected = -(prev_line.expected_score or 0)
                line.words = prev_result.words
                # Tiles went back: the phony was not admissible (or was withdrawn anyway).
        elif event.kind == EXCHANGE:
            count = _exchange_count(tile_set, event.exchanged, line)
            expected = 0
            if not rule_set.exchange.allowed:
                line.problems.append(f"exchanges are not allowed in {rule_set.id}")
            elif bag < rule_set.exchange.min_tiles_in_bag:
                line.problems.append(f"illegal exchange: {bag} tiles in the bag, {rule_set.id} needs at least "
                                     f"{rule_set.exchange.min_tiles_in_bag}")
            elif count is not None and count > bag:
                line.problems.append(f"illegal exchange: {count} tiles exchanged, only {bag} in the bag")
            if count is not None and rack is not None and event.exchanged and not event.exchanged.isdecimal():
                try:
                    left = list(rack)
                    for tile in tile_set.spell_rack(event.exchanged):
                        left.remove(tile)
                except UnknownLetterError as exc:
                    line.problems.append(f"exchanged tiles: {exc}")
                except ValueError:
                    line.problems.append(f"exchanged {event.exchanged} is not on the rack {event.rack}")
            last_play.pop(p, None)
        elif event.kind == PASS:
            expected = 0
            last_play.pop(p, None)
        elif event.kind in (CHALLENGE_BONUS, TIME_PENALTY):
            expected = event.score  # set by the director/clock: accepted as recorded
            if event.kind == TIME_PENALTY and event.score > 0:
                line.problems.append("a time penalty cannot add points")
            if event.kind == CHALLENGE_BONUS:
                rule = rule_set.challenge
                if rule.rule != "penalty":
                    line.notes.append(f"{rule_set.id} challenge rule is {rule.rule}: no bonus expected")
                elif event.score != rule.penalty_points:
                    line.notes.append(f"{rule_set.id} challenge bonus is {rule.penalty_points}")
        elif event.kind == END_RACK:
            try:
                value = sum(tile_set.blank_points if x == BLANK else tile_set.tile(x).points
                            for x in tile_set.spell_rack(event.end_rack))
            except UnknownLetterError as exc:
                line.problems.append(f"end rack: {exc}")
                value = None
            if value is not None:
                if not event.own_end_rack:
                    # Points for the others' racks, to the player who went out.
                    if bonus_rule == "twice-others-racks":
                        expected = 2 * value
                    elif bonus_rule == "others-racks":
                        expected = value
                    else:
                        expected = 0
                        if value:
                            line.problems.append(f"{rule_set.id} gives no points for the others' racks")
                else:
                    expected = -value if rule_set.end.subtract_own_rack else 0

        if event.kind in (PLAY, PASS, EXCHANGE, WITHDRAWN):
            if game_over and event.kind != WITHDRAWN:
                line.notes.append(f"after the end of the game ({game_over})")
            if event.kind == PLAY:
                scoreless_before_play[p] = (scoreless_turns, passes_in_a_row)
                scoreless_turns = 0 if (expected or 0) > 0 else scoreless_turns + 1
                passes_in_a_row = 0
                if bag == 0 and rack_counts[p] == 0 and expected is not None and not game_over:
                    game_over = f"{event.player} went out on line {event.line}"
            elif event.kind == WITHDRAWN:
                before = scoreless_before_play.pop(p, (scoreless_turns, passes_in_a_row))
                scoreless_turns = before[0] + 1  # the phony's turn scored nothing
                passes_in_a_row = 0
                if game_over and game_over.startswith(f"{event.player} went out"):
                    game_over = None  # the out-play was withdrawn
            else:
                scoreless_turns += 1
                passes_in_a_row = passes_in_a_row + 1 if event.kind == PASS else 0
            end = rule_set.end
            if not game_over and end.scoreless_turns and scoreless_turns >= end.scoreless_turns:
                game_over = f"{scoreless_turns} consecutive scoreless turns, line {event.line}"
            if not game_over and end.passing_rounds and passes_in_a_row >= end.passing_rounds * n_players:
                game_over = f"every player passed {end.passing_rounds} round(s) in a row, line {event.line}"

        line.expected_score = expected
        previous_total = recorded_totals[p]
        if expected is not None and expected != event.score:
            line.problems.append(f"score {event.score:+d} recorded, {expected:+d} computed")
        if previous_total + event.score != event.cumulative:
            line.problems.append(f"total {event.cumulative} recorded, but {previous_total} {event.score:+d} = "
                                 f"{previous_total + event.score}")
        line.expected_total = previous_total + (expected if expected is not None else event.score)
        recorded_totals[p] = event.cumulative
        expected_totals[p] += expected if expected is not None else 0
        lines.append(line)
        if on_line is not None:
            on_line(line, board)

    if game_over:
        report_notes.append(f"game over: {game_over}")
    return ReplayReport(rule_set, game, lines, board, recorded_totals, expected_totals, report_notes, bag, rack_counts)


def _missing_from_rack(rack, used) -> list[str]:
    left = list(rack)
    missing = []
    for tile in used:
        if tile in left:
            left.remove(tile)
        else:
            missing.append(tile)
    return missing


def _take_back(board: Board, result: MoveResult) -> None:
    """Lift the tiles of a withdrawn play off the board."""
    cols = board.columns
    for row, col, _, _ in result.placements:
        i = row * cols + col
        board.letters[i] = None
        board.blanks[i] = False
        board.tile_count -= 1
    board._runs = None
    board._counts = None


def _exchange_count(tile_set, exchanged: str | None, line: ReplayLine) -> int | None:
    if not exchanged:
        line.problems.append("exchange of no tiles")
        return None
    if exchanged.isdecimal():
        return int(exchanged)
    try:
        return len(tile_set.spell_rack(exchanged))
    except UnknownLetterError as exc:
        line.problems.append(f"exchanged tiles: {exc}")
        return None


@dataclass
class TableRow:
    """One row of the replay table (from a local report or a ReplayGame answer)."""

    line: int
    player: str
    move: str
    recorded: int
    computed: int | None
    total: int
    bag: int | None
    problems: list[str]
    notes: list[str]


def format_table(players: list[str], rows: list[TableRow], notes: list[str], totals: list[int],
                 computed_totals: list[int]) -> str:
    """The move table `replay` and `client replay` print: recorded and recomputed score, total, bag,
    what disagrees; then notes, final totals and the verdict."""
    width = max([len(n) for n in players] + [6])
    out = [f"{'line':>4}  {'player':<{width}}  {'move':<22} {'rec':>5} {'calc':>5} {'total':>6}  "
           f"{'bag':>3}  check"]
    for row in rows:
        calc = "" if row.computed is None else f"{row.computed:+d}"
        status = "ok" if not row.problems else "; ".join(row.problems)
        if row.notes:
            status += " (" + "; ".join(row.notes) + ")"
        bag = "" if row.bag is None else str(row.bag)
        out.append(f"{row.line:>4}  {row.player:<{width}}  {row.move:<22} {row.recorded:>+5d} {calc:>5} "
                   f"{row.total:>6}  {bag:>3}  {status}")
    for note in notes:
        out.append(f"note: {note}")
    finals = ", ".join(f"{n} {t} (recomputed {x})" for n, t, x in zip(players, totals, computed_totals))
    out.append(f"final: {finals}")
    bad = sum(1 for row in rows if row.problems)
    out.append("all lines agree" if not bad else f"{bad} line(s) disagree")
    return "\n".join(out)


def format_report(report: ReplayReport) -> str:
    """A move table: one row per event, with the recomputed score and what disagrees."""
    rows = [TableRow(line.event.line, line.event.player, line.event.move_text(), line.event.score,
                     line.expected_score, line.event.cumulative, line.bag_before, line.problems, line.notes)
            for line in report.lines]
    return format_table([p.nick for p in report.game.players], rows, report.notes, report.totals,
                        report.expected_totals)
