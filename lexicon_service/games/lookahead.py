"""Looking ahead for the doors (moves --sim, analyse --sim, hints and GenerateMoves with simulation): a
simulation of the best moves (`movegen/simulate.py`), or once the bag is empty the endgame's exact best
sequence (`movegen/endgame.py`), for the player holding a rack, from what that player may see.

Values in and out are plain; a deadline is a time.monotonic() value or None. Client mistakes raise
FieldError naming the field (server/errors.py); the search stops at the call's deadline or the
options' seconds, whichever comes first, with what it has.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from lexicon_service.movegen import GeneratedMove, MoveGenerationTimeout
from lexicon_service.movegen.endgame import EndgameTimeout, solve_endgame
from lexicon_service.movegen.simulate import MAX_CANDIDATES, MAX_ITERATIONS, MAX_PLIES, SimSettings, SeatView, \
    simulate, unseen_tiles
from lexicon_service.core import plays
from lexicon_service.core.limits import Limits
from lexicon_service.errors import DeadlineError, FieldError, require
from lexicon_service.movegen.analysis import LookedAhead
from lexicon_service.rules.board import Board

MAX_SECONDS = 60.0


@dataclass(frozen=True)
class LookaheadOptions:
    candidates: int = 8
    plies: int = 2
    iterations: int = 300
    seconds: float = 2.0           # at most this long (and never past the call's deadline)
    seed: str = "0"
    spread: int = 0                # the player's score less the opponent's
    bag_count: int | None = None   # tiles in the bag (None: the unseen tiles less a full opponent rack)

    def check(self, names=None) -> None:
        """FieldError naming the option (`names`: option -> the caller's name for it) when one is out of range."""
        names = names or {}
        for name, low, high in (("candidates", 1, MAX_CANDIDATES), ("plies", 0, MAX_PLIES),
                                ("iterations", 1, MAX_ITERATIONS)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise FieldError(names.get(name, name), f"a whole number from {low} to {high:,}")
        if not 0 < self.seconds <= MAX_SECONDS:
            raise FieldError(names.get("seconds", "seconds"), f"more than 0 and at most {MAX_SECONDS:g}")
        if self.bag_count is not None and not 0 <= self.bag_count <= 1000:
            raise FieldError(names.get("bag_count", "bag_count"), "a whole number from 0 to 1,000")
        if not -100_000 <= self.spread <= 100_000:
            raise FieldError(names.get("spread", "spread"), "a whole number of points from -100,000 to 100,000")


@dataclass
class LookedMove:
    move: GeneratedMove
    win_chance: float | None     # 0-1 (None: no win table, and not an endgame)
    mean_spread: float           # simulation: the mean spread it adds; endgame: its exact (or best found) value
    iterations: int              # play-outs (endgame: 0)
    pruned: bool = False


@dataclass
class Lookahead:
    kind: str                    # "simulation" or "endgame"
    moves: list[LookedMove]      # best first
    iterations: int              # simulation: whole iterations; endgame: the depth searched
    stopped: str                 # simulation: "iterations", "time", "confidence"; endgame: "exact", "time"
    sequence: list[str]          # endgame: the best sequence (the move, the reply, ...); simulation: []


def _outcome(spread: float) -> float:
    return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0


def _endgame(rule_set, board, rack, lexicon, options: LookaheadOptions, until: float, unseen) -> Lookahead | None:
    try:
        result = solve_endgame(rule_set, board, rack, lexicon, opponent_rack=rule_set.tile_set.rack_text(unseen),
                               seconds=max(0.0, until - time.monotonic()))
    except (EndgameTimeout, MoveGenerationTimeout):
        return None
    if result.best is None:
        return None
    best = LookedMove(result.best, _outcome(options.spread + result.value), float(result.value), 0)
    return Lookahead("endgame", [best], result.depth, "exact" if result.exact else "time",
                     [m.play for m in result.moves])


def look_ahead(rule_set, board, rack: str, lexicon, options: LookaheadOptions, deadline: float | None,
               include=()) -> Lookahead:
    """The simulation of `rack` on `board` (or its endgame once the bag is empty), within
    min(deadline, now + options.seconds); `include`: moves simulated beside the best (the one played).
    DeadlineError when not even the candidates were found in time."""
    until = time.monotonic() + options.seconds
    if deadline is not None:
        until = min(until, deadline)
    unseen = unseen_tiles(rule_set, board, rack)
    bag = options.bag_count if options.bag_count is not None else max(0, len(unseen) - rule_set.rack_size)
    if bag == 0 and len(unseen) <= rule_set.rack_size:
        found = _endgame(rule_set, board, rack, lexicon, options, until, unseen)
        if found is not None:
            return found
        if time.monotonic() >= until:
            raise DeadlineError("endgame search")
    settings = SimSettings(candidates=options.candidates, plies=options.plies, iterations=options.iterations,
                           seed=options.seed)
    view = SeatView(board, rack, tuple(unseen), bag, options.spread)
    try:
        sim = simulate(rule_set, view, lexicon, settings, deadline=until, include=include)
    except MoveGenerationTimeout:
        raise DeadlineError("simulation") from None
    moves = [LookedMove(m.move, m.win_chance if sim.has_win_table and m.iterations else None, m.mean_spread,
                        m.iterations, m.pruned) for m in sim.moves]
    return Lookahead("simulation", moves, sim.iterations, sim.stopped, [])


def with_seed(options: LookaheadOptions, seed) -> LookaheadOptions:
    return dataclasses.replace(options, seed=str(seed))


def _spreads_before(report) -> list[int | None]:
    """Per line of a replayed record, the spread of its player before it (their total less the best other
    total; None for a game of more than two players, which simulation does not model)."""
    n = len(report.game.players) if getattr(report.game, "players", None) else 2
    totals = [0] * max(n, 2)
    out: list[int | None] = []
    for line in report.lines:
        p = line.player_index
        if n != 2 or not 0 <= p < len(totals):
            out.append(None)
        else:
            out.append(totals[p] - max(t for i, t in enumerate(totals) if i != p))
            totals[p] = line.expected_total
    return out


def analyse_ahead(replayed, turns: list, options: LookaheadOptions, deadline: float | None,
                  share_time: bool = False) -> None:
    """Fill `ahead` of each analysed turn of a replayed record (boards kept) by `look_ahead`, with the move
    played simulated beside the best (its bag count and spread from the record; options.seconds a turn).
    `share_time` (a server's bounded analysis): each turn at most its share of the time left to `deadline`,
    and the turns past it are left without `ahead` (else DeadlineError past `deadline`)."""
    by_line = {turn.line: turn for turn in turns}
    spreads = _spreads_before(replayed.report)
    left = sum(1 for t in turns if t.best is not None and t.rack)
    for i, line in enumerate(replayed.report.lines):
        turn = by_line.get(line.event.line)
        if turn is None or turn.best is None or not turn.rack or spreads[i] is None or line.bag_before is None:
            continue
        seconds = options.seconds
        if share_time and deadline is not None:
            seconds = min(seconds, (deadline - time.monotonic()) / max(left, 1))
            left -= 1
            if seconds <= 0.001:
                return
        board = replayed.boards[i - 1] if i else None
        if board is None:
            board = Board.empty(replayed.rule_set)
        turn_options = dataclasses.replace(options, spread=spreads[i], bag_count=line.bag_before,
                                           seed=f"{options.seed}/{turn.turn}", seconds=seconds)
        try:
            found = look_ahead(replayed.rule_set, board, turn.rack, replayed.lexicon, turn_options, deadline,
                               include=[turn.played])
        except DeadlineError:
            if deadline is not None and time.monotonic() > deadline:
                if share_time:
                    return
                raise
            continue
        best = found.moves[0]
        played = next((m for m in found.moves if _same_play(m.move.play, turn.played)), None)
        turn.ahead = LookedAhead(found.kind, best.move.play, best.win_chance, round(best.mean_spread, 2),
                                 played.win_chance if played else None,
                                 round(played.mean_spread, 2) if played else None, found.iterations,
                                 found.sequence)


def _same_play(a: str, b: str) -> bool:
    """Whether two written moves are the same, with tiles already on the board written in parentheses or
    as dots."""
    def plain(text: str) -> str:
        out, inside = [], False
        for ch in text.strip():
            if ch == "(":
                inside = True
            elif ch == ")":
                inside = False
            else:
                out.append("." if inside else ch)
        return "".join(out)

    return plain(a) == plain(b)


@dataclass(frozen=True)
class SimulationAsk:
    """What a move generation with simulation may be asked beside the filters (GenerateMoves' simulate);
    0, None and "" take the defaults of LookaheadOptions."""

    spread: int = 0
    candidates: int = 0
    iterations: int = 0
    plies: int | None = None
    seed: str = ""


# LookaheadOptions' names -> GenerateMoves' fields (a refusal names the field)
_SIMULATION_FIELDS = {"candidates": "sim_candidates", "plies": "sim_plies", "iterations": "sim_iterations",
                      "spread": "spread", "bag_count": "bag_count", "seconds": "simulate"}


def simulate_moves(snapshot, limits: Limits, lexicon_name: str, rule_set_name: str, board_rows, setup, rack: str,
                   filters, ask: SimulationAsk, call_deadline: float | None):
    """GenerateMoves' simulate: the best moves of `rack` (board rows, then the setup plays; `filters`:
    core.plays.MoveFilters, only its limit and bag count may be set) ranked by `look_ahead`, from what the
    player holding `rack` may see, within the server's time for one generation and the call's deadline:
    (core.plays.Generated, Lookahead)."""
    for name in ("min_length", "must_use", "must_contain", "plays_only"):
        if getattr(filters, name):
            raise FieldError(name, "simulate ranks the best moves of the whole rack: no filter goes with it")
    if filters.sort not in ("", "score"):
        raise FieldError("sort", "simulate ranks the moves by win chance: no other order goes with it")
    plays.check_filters(limits, filters)
    defaults = LookaheadOptions()
    options = LookaheadOptions(
        candidates=ask.candidates or defaults.candidates, plies=defaults.plies if ask.plies is None else ask.plies,
        iterations=ask.iterations or defaults.iterations, seconds=limits.max_generate_seconds,
        seed=ask.seed or defaults.seed, spread=ask.spread, bag_count=filters.bag_count)
    options.check(_SIMULATION_FIELDS)
    require(len(options.seed) <= 100, "sim_seed", "at most 100 characters")
    rule_set, lexicon = plays.game_context(snapshot, lexicon_name, rule_set_name, need_lexicon=True)
    board = plays.read_board(limits, rule_set, board_rows)
    plays.apply_setup_plays(rule_set, board, setup)
    require(bool(rack), "rack", "required (e.g. 'KOTABC?')")
    rack = plays.read_rack(rule_set, rack)
    found = look_ahead(rule_set, board, rack, lexicon, options, call_deadline)
    limit = filters.limit or limits.max_results
    moves = [looked.move for looked in found.moves]
    return plays.Generated(rule_set, moves[:limit], len(moves) > limit), found
