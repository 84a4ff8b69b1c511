"""Pairings made by the service: round robin (Berger tables), Swiss, King of the Hill; byes; who starts.

Every function is deterministic for its inputs and `seed` (a `random.Random(seed)` breaks ties only).

- Round robin: Berger tables (the circle method: the last player stays, the others turn one place per
  round), so over n-1 rounds (n even; an odd count gets a bye seat) everyone meets everyone once; more
  rounds go round again.
- Swiss: players ordered by wins, then spread (then the order entered); top-down, each takes the highest
  player below not met yet, backtracking when the rest cannot be paired without a repeat. A repeat is
  accepted only when no pairing of the round avoids every repeat (searched exhaustively up to
  SEARCH_BUDGET steps, then the fewest repeats the greedy order finds).
- King of the Hill: 1 v 2, 3 v 4, ... in standings order, repeats allowed (the last round's usual rule).
- Byes (an odd count): the lowest-ranked of the players with the fewest byes so far (the next one up
  when that one's bye would force a repeat), so nobody has a second bye before everyone has had one; a
  bye is a win of `bye_points` (the event's rule).
- Who starts: the player who has started fewer games than they went second so far (the lower balance); equal, the one who did not start their
  last game; still equal, the seeded coin.
"""

from __future__ import annotations

import random

from lexicon_service.tournaments.model import Division, Game, TournamentInputError
from lexicon_service.tournaments.standings import standings

METHODS = ("round-robin", "swiss", "king-of-the-hill")
SEARCH_BUDGET = 200_000  # backtracking steps of one Swiss round


def berger_round(n: int, rnd: int) -> list[tuple[int, int | None]]:
    """Round `rnd` (from 1) of a round robin of n players: [(a, b)], b None for the bye of an odd count.
    The pairs' order is the tables'; a is the player who starts by the table (swapped each cycle)."""
    seats = n + (n % 2)
    cycle, r = divmod(rnd - 1, seats - 1)
    rotating = list(range(seats - 1))
    rotating = rotating[r:] + rotating[:r]
    fixed = seats - 1
    pairs = [(rotating[0], fixed) if r % 2 == 0 else (fixed, rotating[0])]
    for i in range(1, seats // 2):
        pairs.append((rotating[i], rotating[-i]))
    out = []
    for a, b in pairs:
        if cycle % 2:
            a, b = b, a
        if a >= n:
            a, b = b, None
        elif b >= n:
            b = None
        out.append((a, b))
    return sorted(out, key=lambda ab: ab[1] is None)


def met_pairs(division: Division) -> set[frozenset]:
    return {frozenset((g.p1, g.p2)) for g in division.games if g.p2 is not None}


def _byes(division: Division) -> list[int]:
    counts = [0] * len(division.players)
    for g in division.games:
        if g.p2 is None:
            counts[g.p1] += 1
    return counts


def _match(order: list[int], met: set[frozenset], budget: list[int], failed: set) -> list[tuple[int, int]] | None:
    """Pair `order` top-down with no pair in `met` (None when impossible or the budget ran out)."""
    if not order:
        return []
    key = tuple(order)
    if key in failed or budget[0] <= 0:
        return None
    top, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        budget[0] -= 1
        if frozenset((top, other)) in met:
            continue
        tail = _match(rest[:i] + rest[i + 1:], met, budget, failed)
        if tail is not None:
            return [(top, other)] + tail
        if budget[0] <= 0:
            return None
    failed.add(key)
    return None


def _greedy(order: list[int], met: set[frozenset]) -> list[tuple[int, int]]:
    """Top-down, each with the highest not met, else with the next: the fallback past the budget."""
    rest = list(order)
    pairs = []
    while rest:
        top = rest.pop(0)
        pick = next((i for i, o in enumerate(rest) if frozenset((top, o)) not in met), 0)
        pairs.append((top, rest.pop(pick)))
    return pairs


def _bye_candidates(division: Division, order: list[int], active: list[int]) -> list[int]:
    byes = _byes(division)
    fewest = min(byes[p] for p in active)
    return [p for p in reversed(order) if byes[p] == fewest]


def swiss_pairs(division: Division, active: list[int] | None = None, tiebreaks=()) -> list[tuple[int, int | None]]:
    """The Swiss pairs of the next round (a bye last, as (player, None))."""
    active = list(range(len(division.players))) if active is None else list(active)
    ranked = [row.player for row in standings(division, tiebreaks)]
    order = [p for p in ranked if p in set(active)]
    met = met_pairs(division)
    candidates = _bye_candidates(division, order, active) if len(order) % 2 else [None]
    budget = [SEARCH_BUDGET]
    for bye in candidates:
        rest = [p for p in order if p != bye]
        pairs = _match(rest, met, budget, set())
        if pairs is not None:
            return pairs + ([(bye, None)] if bye is not None else [])
        if budget[0] <= 0:
            break
    bye = candidates[0]
    rest = [p for p in order if p != bye]
    return _greedy(rest, met) + ([(bye, None)] if bye is not None else [])


def king_of_the_hill_pairs(division: Division, active: list[int] | None = None, tiebreaks=()):
    active = set(range(len(division.players))) if active is None else set(active)
    order = [row.player for row in standings(division, tiebreaks) if row.player in active]
    bye = None
    if len(order) % 2:
        bye = _bye_candidates(division, order, list(active))[0]
        order.remove(bye)
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return pairs + ([(bye, None)] if bye is not None else [])


def start_balances(division: Division) -> list[tuple[int, int | None]]:
    """Per player: (games started less games gone second, whether the last game was started: 1 / 0 /
    None for none), in one pass over the games in round order."""
    balances: list[list] = [[0, None] for _ in division.players]
    for g in sorted(division.games, key=lambda g: g.round):
        if g.p2 is None or g.first is None:
            continue
        for side, player in enumerate((g.p1, g.p2)):
            went_first = int(g.first == side)
            balances[player][0] += 1 if went_first else -1
            balances[player][1] = went_first
    return [(b, last) for b, last in balances]


def who_starts(balances, a: int, b: int, rng: random.Random) -> int:
    """0 when a starts, 1 when b does (the module's rule); `balances` from start_balances."""
    (sa, la), (sb, lb) = balances[a], balances[b]
    coin = rng.random() < 0.5
    if sa != sb:
        return 0 if sa < sb else 1
    if la != lb and la is not None and lb is not None:
        return 0 if la < lb else 1
    return 0 if coin else 1


def pair_round(division: Division, method: str, seed: int, bye_points: int = 50, active=None,
               tiebreaks=()) -> list[Game]:
    """The next round's games: tables from 1 in pairing order, a bye last with its score (a win)."""
    if method not in METHODS:
        raise TournamentInputError("method", f"unknown pairing method {method!r}; known: {', '.join(METHODS)}")
    rnd = division.rounds_paired() + 1
    if division.rounds_paired() and not division.round_complete(division.rounds_paired()):
        raise TournamentInputError("round", f"round {division.rounds_paired()} is not complete")
    n = len(division.players)
    if n < 2:
        raise TournamentInputError("players", "at least 2 players to pair")
    rng = random.Random(f"{seed}:{division.name}:{rnd}")
    if method == "round-robin":
        pairs = berger_round(n, rnd)
    elif method == "swiss":
        pairs = swiss_pairs(division, active, tiebreaks)
    else:
        pairs = king_of_the_hill_pairs(division, active, tiebreaks)
    games = []
    balances = start_balances(division)
    for table, (a, b) in enumerate(pairs, start=1):
        if b is None:
            games.append(Game(rnd, table, a, None, s1=bye_points))
        elif method == "round-robin":
            games.append(Game(rnd, table, a, b, first=0))  # Berger's own starts: balanced to one
        else:
            games.append(Game(rnd, table, a, b, first=who_starts(balances, a, b, rng)))
    return games
