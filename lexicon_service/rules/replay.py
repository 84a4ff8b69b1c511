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
from lexicon_service.rules.game import (
    BAG_BELOW_MINIMUM,
    END_PASSES,
    END_SCORELESS,
    EXCHANGES_NOT_ALLOWED,
    MORE_THAN_BAG,
    NOTE_BLOCKED,
    NOTE_REDRAWN,
    GameFlow,
    exchange_refusal,
    out_play_bonus,
    own_rack_penalty,
    tiles_value,
)
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
from lexicon_service.rules.notes import Note, nested
from lexicon_service.rules.reasons import Reason
from lexicon_service.rules.ruleset import RuleSet
from lexicon_service.tiles import UnknownLetterError
from lexicon_service.wording import counted


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
    move: MoveResult | None = None  # a play's result as the rules scored it (None: not placed)

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


def replay(rule_set: RuleSet, game: GcgGame, lexicon=None, out_bonus: str | None = None,
           on_line=None) -> ReplayReport:
    """Replay `game`; lexicon (optional, AdmissibleWords) marks the words it refuses; out_bonus overrides the rule
    set's end-of-game bonus ("others-racks" or "twice-others-racks", the 2x two-player convention).
    on_line (optional) is called as on_line(line, board) after each line (the game viewer draws it)."""
    n_players = max(1, len(game.players))
    lo, hi = rule_set.game.players
    report_notes = []
    if not lo <= n_players <= hi:
        report_notes.append(Note("player-count", f"{counted(n_players, 'player')}; {rule_set.id} is for {lo}-{hi}",
                                 players=n_players, rule_set=rule_set.id, low=lo, high=hi))
    if not game.has_racks:
        report_notes.append(Note("no-racks", "the record gives no racks: rack checks skipped (bag tracked by tile counts)"))
    checker = _Checker(rule_set, GameFlow.counted(rule_set, n_players), lexicon, out_bonus or rule_set.end.out_bonus)
    recorded_totals = [0] * n_players
    lines: list[ReplayLine] = []
    for event in game.events:
        line = checker.check(event, game.player_index(event.player))
        previous_total = recorded_totals[line.player_index]
        if line.expected_score is not None and line.expected_score != event.score:
            line.problems.append(Note("score-mismatch", f"score {event.score:+d} recorded, {line.expected_score:+d} computed",
                                      recorded=f"{event.score:+d}", computed=f"{line.expected_score:+d}"))
        if previous_total + event.score != event.cumulative:
            line.problems.append(Note("total-mismatch", f"total {event.cumulative} recorded, but {previous_total} "
                                      f"{event.score:+d} = {previous_total + event.score}",
                                      recorded=event.cumulative, previous=previous_total,
                                      score=f"{event.score:+d}", expected=previous_total + event.score))
        line.expected_total = previous_total + (line.expected_score if line.expected_score is not None
                                                else event.score)
        recorded_totals[line.player_index] = event.cumulative
        lines.append(line)
        if on_line is not None:
            on_line(line, checker.flow.board)
    flow = checker.flow
    if checker.game_over:
        report_notes.append(nested("game-over", f"game over: {checker.game_over}", checker.game_over))
    return ReplayReport(rule_set, game, lines, flow.board, recorded_totals, flow.scores[:], report_notes,
                        len(flow.bag), [flow.rack_size(p) for p in range(flow.n_players)])


class _Checker:
    """Runs each recorded event through the game flow and says what in the record disagrees with it."""

    def __init__(self, rule_set: RuleSet, flow: GameFlow, lexicon, bonus_rule: str) -> None:
        self.rule_set = rule_set
        self.flow = flow
        self.lexicon = lexicon
        self.bonus_rule = bonus_rule
        self.full_bag = Counter(rule_set.tile_set.bag())
        self.game_over: str | None = None  # why the game ended (RULES.md section 6), once it has

    def check(self, event: GcgEvent, p: int) -> ReplayLine:
        line = ReplayLine(event, p, None, 0, bag_before=len(self.flow.bag))
        rack = None
        if event.rack and event.kind not in (END_RACK, WITHDRAWN):  # a withdrawal repeats the phony's rack
            rack = self._rack(line)
        if event.kind == PLAY:
            line.expected_score = self._play(line, rack)
        elif event.kind == WITHDRAWN:
            line.expected_score = self._withdrawal(line)
        elif event.kind == EXCHANGE:
            line.expected_score = self._exchange(line, rack)
        elif event.kind == PASS:
            line.expected_score = 0
            self.flow.pass_turn(p)
        elif event.kind in (CHALLENGE_BONUS, TIME_PENALTY):
            line.expected_score = self._bonus(line)
        elif event.kind == END_RACK:
            line.expected_score = self._end_rack(line)
        if event.kind in (PLAY, PASS, EXCHANGE, WITHDRAWN):
            self._game_end(line)
        return line

    def _rack(self, line: ReplayLine) -> list[str] | None:
        """The recorded rack, checked against the tiles the game still has."""
        event, tile_set = line.event, self.rule_set.tile_set
        try:
            rack = list(tile_set.spell_rack(event.rack))
        except UnknownLetterError as exc:
            line.problems.append(Note("rack-unknown-letter", f"rack {event.rack!r}: {exc}", rack=event.rack))
            return None
        expected_count = self.flow.rack_size(line.player_index)
        if len(rack) != expected_count:
            line.notes.append(Note("rack-count", f"rack has {len(rack)} tiles; {expected_count} expected from the bag count",
                                   tiles=len(rack), expected=expected_count))
        too_many = Counter(rack) - (self.full_bag - Counter(self.flow.board.tile_counts()))
        if too_many:
            extra = tile_set.rack_text(sorted(too_many.elements()))
            line.problems.append(Note("rack-tiles-gone", f"the rack {event.rack} holds tiles the game no longer has: "
                                      f"{extra}", rack=event.rack, tiles=extra))
        return rack

    def _play(self, line: ReplayLine, rack) -> int | None:
        event, p = line.event, line.player_index
        result = validate_move(self.rule_set, self.flow.board, None, (event.position, event.word))
        if result.score is None or result.reason not in (Reason.OK, Reason.DUPLICATE_WORD):
            line.problems.append(Note("illegal-play", f"illegal play: {result.reason.value}: {result.message}",
                                      reason=result.reason.value))
        if result.score is None:
            self.flow.unplaceable_play(p)
            return None
        if rack is not None:
            missing = _missing_from_rack(rack, result.tiles_used)
            if missing:
                tiles = self.rule_set.tile_set.rack_text(missing)
                line.problems.append(Note("illegal-play", f"illegal play: {Reason.TILE_NOT_IN_RACK.value}: "
                                          f"{tiles} not on the rack {event.rack}",
                                          reason=Reason.TILE_NOT_IN_RACK.value, tiles=tiles, rack=event.rack))
        line.words = result.words
        line.move = result
        self.flow.play(p, result.placements, result.score, move=result)
        if self.lexicon is not None:
            refused = [w for w, k in zip(result.words, result.word_keys) if not self.lexicon.is_admissible(k)]
            if refused:
                line.notes.append(Note("not-admissible", f"not admissible: {', '.join(refused)}", words=", ".join(refused)))
        if self.rule_set.words.same_word_twice != "allowed" and result.reason is Reason.DUPLICATE_WORD:
            line.notes.append(Note("word-twice", f"word twice on the board: {', '.join(result.invalid_words)}",
                                   words=", ".join(result.invalid_words)))
        return result.score

    def _withdrawal(self, line: ReplayLine) -> int | None:
        withdrawn = self.flow.withdraw(line.player_index)
        if withdrawn is None:
            line.problems.append(Note("withdrawal-without-play", "withdrawal without a play of this player to withdraw"))
            return None
        line.words = withdrawn.move.words
        return -withdrawn.score

    def _exchange(self, line: ReplayLine, rack) -> int:
        event, rule_set = line.event, self.rule_set
        count = _exchange_count(rule_set.tile_set, event.exchanged, line)
        bag = len(self.flow.bag)
        refusal = exchange_refusal(rule_set, bag, count)
        if refusal == EXCHANGES_NOT_ALLOWED:
            line.problems.append(Note("exchange-not-allowed", f"exchanges are not allowed in {rule_set.id}",
                                      rule_set=rule_set.id))
        elif refusal == BAG_BELOW_MINIMUM:
            line.problems.append(Note("exchange-bag-below-minimum", f"illegal exchange: {bag} tiles in the bag, "
                                      f"{rule_set.id} needs at least {rule_set.exchange.min_tiles_in_bag}",
                                      bag=bag, rule_set=rule_set.id, minimum=rule_set.exchange.min_tiles_in_bag))
        elif refusal == MORE_THAN_BAG:
            line.problems.append(Note("exchange-more-than-bag", f"illegal exchange: {count} tiles exchanged, only {bag} in the bag",
                                      tiles=count, bag=bag))
        if count is not None and rack is not None and event.exchanged and not event.exchanged.isdecimal():
            try:
                left = list(rack)
                for tile in rule_set.tile_set.spell_rack(event.exchanged):
                    left.remove(tile)
            except UnknownLetterError as exc:
                line.problems.append(Note("exchange-unknown-letter", f"exchanged tiles: {exc}", tiles=event.exchanged))
            except ValueError:
                line.problems.append(Note("exchange-not-on-rack", f"exchanged {event.exchanged} is not on the rack {event.rack}",
                                          tiles=event.exchanged, rack=event.rack))
        self.flow.exchange(line.player_index)  # the tiles are counted, not known: no count changes
        return 0

    def _bonus(self, line: ReplayLine) -> int:
        """A challenge bonus, a director's adjustment or a time penalty: set by the director or the clock,
        accepted as recorded."""
        event, rule = line.event, self.rule_set.challenge
        if event.kind == TIME_PENALTY and event.score > 0:
            line.problems.append(Note("time-penalty-positive", "a time penalty cannot add points"))
        if event.director_adjustment:
            line.notes.append(Note("director-adjustment", "director adjustment, accepted as recorded"))
        elif event.kind == CHALLENGE_BONUS:
            if rule.rule != "penalty":
                line.notes.append(Note("no-challenge-bonus", f"{self.rule_set.id} challenge rule is {rule.rule}: no bonus expected",
                                       rule_set=self.rule_set.id, rule=rule.rule))
            elif event.score != rule.penalty_points:
                line.notes.append(Note("challenge-bonus", f"{self.rule_set.id} challenge bonus is {rule.penalty_points}",
                                       rule_set=self.rule_set.id, points=rule.penalty_points))
        self.flow.adjust(line.player_index, event.score)
        return event.score

    def _end_rack(self, line: ReplayLine) -> int | None:
        """The racks left at the end: points for the others' racks to the player who went out, or a
        player's own rack taken off."""
        event = line.event
        try:
            value = tiles_value(self.rule_set, self.rule_set.tile_set.spell_rack(event.end_rack))
        except UnknownLetterError as exc:
            line.problems.append(Note("end-rack-unknown-letter", f"end rack: {exc}", rack=event.end_rack))
            return None
        if event.own_end_rack:
            expected = own_rack_penalty(self.rule_set, value)
        else:
            expected = out_play_bonus(self.bonus_rule, value)
            if expected is None:
                expected = 0
                if value:
                    line.problems.append(Note("no-out-bonus", f"{self.rule_set.id} gives no points for the others' racks",
                                              rule_set=self.rule_set.id))
        self.flow.adjust(line.player_index, expected)
        return expected

    def _game_end(self, line: ReplayLine) -> None:
        """Whether this turn ended the game (or undid its end, by withdrawing the play that went out)."""
        event, flow = line.event, self.flow
        if self.game_over and event.kind != WITHDRAWN:
            line.notes.append(nested("after-end", f"after the end of the game ({self.game_over})", self.game_over))
        if event.kind == PLAY:
            if flow.went_out == line.player_index and line.expected_score is not None and not self.game_over:
                self.game_over = Note("went-out", f"{event.player} went out on line {event.line}",
                                      player=event.player, line=event.line)
        elif event.kind == WITHDRAWN:
            if self.game_over and self.game_over.startswith(f"{event.player} went out"):
                self.game_over = None  # the out-play was withdrawn
        if NOTE_REDRAWN in event.notes:  # the server redrew every rack: the counts restart
            flow.redraw(flow.racks, flow.bag)
        if NOTE_BLOCKED in event.notes and not self.game_over:  # decided by the server from the racks
            self.game_over = Note("blocked", f"nobody could make a play, line {event.line}", line=event.line)
        due = None if self.game_over else flow.due_end()
        if due == END_SCORELESS:
            self.game_over = Note("scoreless-turns", f"{flow.scoreless_turns} consecutive scoreless turns, line {event.line}",
                                  turns=flow.scoreless_turns, line=event.line)
        elif due == END_PASSES:
            self.game_over = Note("passes", f"every player passed {self.rule_set.end.passing_rounds} round(s) in a row, "
                                  f"line {event.line}", rounds=self.rule_set.end.passing_rounds, line=event.line)


def _missing_from_rack(rack, used) -> list[str]:
    left = list(rack)
    missing = []
    for tile in used:
        if tile in left:
            left.remove(tile)
        else:
            missing.append(tile)
    return missing


def _exchange_count(tile_set, exchanged: str | None, line: ReplayLine) -> int | None:
    if not exchanged:
        line.problems.append(Note("exchange-no-tiles", "exchange of no tiles"))
        return None
    if exchanged.isdecimal():
        return int(exchanged)
    try:
        return len(tile_set.spell_rack(exchanged))
    except UnknownLetterError as exc:
        line.problems.append(Note("exchange-unknown-letter", f"exchanged tiles: {exc}", tiles=exchanged))
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
