"""Computer players: which move a computer seat makes, from what a player may see.

`choose_move` gets the board, the seat's own rack and the number of tiles in the bag (what a player's
GetGame shows), never another rack or the bag's order. A level is the band of ranks it picks from
among the plays ordered by score (best first); the pick within the band is the game's random
generator (seeded games: the same move every time). With no play it exchanges its whole rack where
the rules and the bag allow (as many tiles as the bag holds when it holds fewer, the ones worth most
points), else it passes. Before it moves it challenges a phony played just before
its turn (`ComputerTurns._challenges` in games/computer_turns.py: the played words against the lexicon, never a rack).

The level "equity" plays the move of the highest equity: its score plus the value of the tiles it
keeps, from the lexicon's leave table (`movegen/leaves.py`); an exchange the rules and the bag allow
is worth the value of the tiles it keeps. With the bag empty equity is the score: nothing is drawn
any more, so what a leave is worth for the next draws does not apply (and what the tiles left cost
at the end is the endgame's question, which no leave table answers).

The level "simulating" looks ahead (`movegen/simulate.py`): it simulates the best moves by equity two
turns on, the opponent's rack and the draws taken from the tiles its seat cannot see (the set less the
board and its own rack: never the opponent's rack), and plays the one of the highest win chance; once
the bag is empty it solves the endgame (`movegen/endgame.py`: the opponent's rack is then exactly the
unseen tiles). It stops at the computer's deadline with what it has found (a shorter simulation, or the
best sequence of the last whole depth). It needs the leave table as "equity" does; without the lexicon's
win-probability table it ranks by mean spread. In a game of more than two players it plays as "equity".
"""

from __future__ import annotations

import dataclasses
import random
import time

from lexicon_service.movegen import (
    MAX_LISTED, GeneratedMove, MoveGenerationTimeout, best_play_by_leave, exchanges, generate_moves, tiles_left,
)
from lexicon_service.movegen.endgame import EndgameTimeout, solve_endgame
from lexicon_service.movegen.leaves import LeaveTableMissing
from lexicon_service.movegen.simulate import SimSettings, seat_view, simulate
from lexicon_service.rules.game import exchange_refusal, tiles_value

# level -> (first rank, ranks after the last) among the plays by score; a band past the plays there are
# takes the lowest-ranked play.
LEVELS = {
    "best": (0, 1),  # the top play by score
    "club": (1, 8),  # a good play, rarely the best
    "beginner": (5, 40),  # a modest play: a beginner can win
}
EQUITY = "equity"  # the best score plus leave value (needs the lexicon's leave table)
SIMULATING = "simulating"  # simulation and endgames (needs the leave table too)
ALL_LEVELS = (*LEVELS, EQUITY, SIMULATING)
NEEDS_LEAVES = (EQUITY, SIMULATING)
# its play-outs' turns each play the best equity play of all plays (rollout_limit 0), as MAGPIE's do
COMPUTER_SIMULATION = SimSettings(candidates=8, plies=2, iterations=300, rollout_limit=0)
_SEARCH_SHARE = 0.85  # of the time to the deadline the simulation or endgame may take: the rest makes the move
DEFAULT_LEVEL = "best"
_FIRST_LIMIT = 64  # plays the equity level looks at first; more while one further down could still win


def level_refusal(level: str) -> str | None:
    """Why `level` is not a computer player's level, or None."""
    if level in ALL_LEVELS:
        return None
    return f"unknown level {level[:40]!r}; one of {', '.join(ALL_LEVELS)}"


def leave_table_refusal(level: str, lexicon) -> str | None:
    """Why a computer player of `level` cannot play with `lexicon`'s files, or None."""
    if level in NEEDS_LEAVES and getattr(lexicon, "leaves", None) is None:
        return (f"the level {level!r} needs the leave table of the lexicon {getattr(lexicon, 'name', '?')!r}; "
                f"add one with `lexicon-build --leaves LEXICONS/{getattr(lexicon, 'name', 'NAME')}.lex`")
    return None


def choose_move(rule_set, board, rack: str, bag_count: int, lexicon, level: str, rng,
                deadline: float | None = None, may_exchange: bool = True, *, spread: int = 0,
                players: int = 2, simulation: SimSettings = COMPUTER_SIMULATION) -> GeneratedMove:
    """The move a computer player of `level` makes with `rack` on `board` (`rng`: a random.Random).
    Without a play it exchanges its rack (or as much of it as the bag allows) where allowed and
    `may_exchange`, else passes (the caller says no after a scoreless round, so that players who
    cannot move end the game by passing). `spread` (its score less the opponent's), `players` and
    `simulation` (the settings but the seed, which comes from `rng`) are for the level "simulating".
    Raises LeaveTableMissing for the levels "equity" and "simulating" with a lexicon without a leave table."""
    refusal = leave_table_refusal(level, lexicon)
    if refusal:
        raise LeaveTableMissing(refusal)
    if level == SIMULATING:
        if players == 2:
            return looking_ahead(rule_set, board, rack, bag_count, lexicon, rng, deadline, may_exchange, spread,
                                 simulation)
        level = EQUITY
    if level == EQUITY:
        if bag_count > 0:
            return best_by_equity(rule_set, board, rack, bag_count, lexicon, deadline, may_exchange)
        level = "best"
    first, end = LEVELS[level]
    moves = generate_moves(rule_set, board, rack, lexicon, limit=end, bag_count=bag_count, deadline=deadline)
    plays = [m for m in moves if m.kind == "play"]
    if plays:
        return rng.choice(plays[first:end] or plays[-1:])
    exchange = _exchange_without_a_play(rule_set, rack, bag_count) if may_exchange else None
    return exchange or GeneratedMove("pass", "-", 0, (), rack, 0)


def looking_ahead(rule_set, board, rack: str, bag_count: int, lexicon, rng, deadline: float | None,
                  may_exchange: bool, spread: int, simulation: SimSettings = COMPUTER_SIMULATION) -> GeneratedMove:
    """The level "simulating": the endgame's best move once the bag is empty, else the simulation's; the
    equity move when the search found nothing in time. The equity move is found first (a few ms), so a
    search that ends at or past the deadline still leaves a move to make, not a pass."""
    # a throwaway rng: the equity level takes no randomness, and the game's rng seeds the simulation below
    fallback = choose_move(rule_set, board, rack, bag_count, lexicon, EQUITY, random.Random(0), deadline,
                           may_exchange)
    share = None if deadline is None else time.monotonic() + _SEARCH_SHARE * max(0.0, deadline - time.monotonic())
    try:
        view = seat_view(rule_set, board, rack, bag_count, spread, may_exchange=may_exchange)
        if bag_count == 0 and len(view.unseen) <= rule_set.rack_size:  # the opponent's rack is the unseen tiles
            seconds = None if share is None else max(0.0, share - time.monotonic())
            found = solve_endgame(rule_set, board, rack, lexicon, seconds=seconds).best
        else:
            settings = dataclasses.replace(simulation, seed=str(rng.random()))
            found = simulate(rule_set, view, lexicon, settings, deadline=share).best
    except (EndgameTimeout, MoveGenerationTimeout):
        found = None
    return found if found is not None else fallback


def _exchange_without_a_play(rule_set, rack: str, bag_count: int) -> GeneratedMove | None:
    """The exchange of a player who has no play: the whole rack, or as many tiles as the bag holds
    when it holds fewer (Kris Kros exchanges any number at any time), those worth most points first
    (a blank last); None when the rules or the bag allow none."""
    ts = rule_set.tile_set
    tiles = list(ts.spell_rack(rack))
    count = min(len(tiles), bag_count)
    if not count or exchange_refusal(rule_set, bag_count, count) is not None:
        return None
    most_points = sorted(range(len(tiles)), key=lambda i: -tiles_value(rule_set, [tiles[i]]))[:count]
    given = [tiles[i] for i in sorted(most_points)]  # in rack order, as the whole rack was given
    kept = tiles_left(tiles, given)
    return GeneratedMove("exchange", "-" + ts.rack_text(given), 0, (), ts.rack_text(kept), count)


def best_by_equity(rule_set, board, rack: str, bag_count: int, lexicon, deadline: float | None = None,
                   may_exchange: bool = True) -> GeneratedMove:
    """The play or allowed exchange of the highest score plus leave value (ties: the generator's order,
    plays first); a pass when there is neither. Plays are generated best score first, `_FIRST_LIMIT`
    of them, more only while the last one listed plus the largest value a leave of this rack may have
    could still beat the best equity found, so the answer is that of the full list."""
    leaves = lexicon.leaves
    most_a_leave_gives = leaves.best_value_within(rule_set.tile_set.spell_rack(rack))
    limit = _FIRST_LIMIT
    while True:
        best, best_equity, listed, lowest = best_play_by_leave(rule_set, board, rack, lexicon,
                                                               leaves.value_of_tiles, limit=limit,
                                                               deadline=deadline)
        if listed < limit or limit == MAX_LISTED or lowest + most_a_leave_gives <= best_equity:
            break
        limit = min(limit * 8, MAX_LISTED)
    if may_exchange and bag_count > 0:
        for move in exchanges(rule_set, list(rule_set.tile_set.spell_rack(rack)), bag_count):
            equity = leaves.value(move.leave)
            if best_equity is None or equity > best_equity:
                best, best_equity = move, equity
    if best is not None:
        return best
    return GeneratedMove("pass", "-", 0, (), rack, 0)
