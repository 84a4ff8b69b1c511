"""Standings: wins (a tie counts half), then spread, then the tiebreaks the event chooses.

Tiebreaks (in the order given): `points` (total points scored; a bye scores none), `opp-wins` (the
opponents' wins added up, Buchholz's idea), `rating` (the rating entered, higher first). Players equal
on every key share a rank and are listed in the order they were entered.
"""

from __future__ import annotations

from dataclasses import dataclass

from lexicon_service.tournaments.model import Division, TournamentInputError, game_result

TIEBREAKS = ("points", "opp-wins", "rating")


@dataclass
class Standing:
    player: int
    name: str
    rank: int = 0
    wins: float = 0.0
    losses: float = 0.0
    spread: int = 0
    points: int = 0
    games: int = 0
    byes: int = 0
    opp_wins: float = 0.0


def check_tiebreaks(tiebreaks) -> tuple[str, ...]:
    for i, name in enumerate(tiebreaks):
        if name not in TIEBREAKS:
            raise TournamentInputError(f"tiebreaks[{i}]", f"unknown tiebreak {name!r}; known: {', '.join(TIEBREAKS)}")
    return tuple(tiebreaks)


def tally(division: Division, through_round: int | None = None) -> list[Standing]:
    """Each player's totals (in player order) from the games with results, up to a round if given."""
    rows = [Standing(i, p.name) for i, p in enumerate(division.players)]
    opponents: list[list[int]] = [[] for _ in rows]
    for game in division.games:
        if through_round is not None and game.round > through_round:
            continue
        for player in (game.p1, game.p2):
            if player is None:
                continue
            result = game_result(game, player)
            if result is None:
                continue
            win, own, spread = result
            row = rows[player]
            row.wins += win
            row.losses += 1.0 - win
            row.spread += spread
            row.games += 1
            if game.p2 is None:
                row.byes += 1
            else:
                row.points += own
                opponents[player].append(game.p2 if player == game.p1 else game.p1)
    for row in rows:
        row.opp_wins = sum(rows[o].wins for o in opponents[row.player])
    return rows


def standings(division: Division, tiebreaks=(), through_round: int | None = None) -> list[Standing]:
    """The players ranked (see the module's docstring); `rank` from 1, shared by equals."""
    rows = tally(division, through_round)
    ratings = [p.rating for p in division.players]

    def key(row: Standing):
        extra = []
        for name in tiebreaks:
            extra.append(-row.points if name == "points" else -row.opp_wins if name == "opp-wins"
                         else -ratings[row.player])
        return (-row.wins, -row.spread, *extra)

    ordered = sorted(rows, key=lambda r: (key(r), r.player))
    previous = None
    for i, row in enumerate(ordered):
        k = key(row)
        row.rank = ordered[i - 1].rank if k == previous else i + 1
        previous = k
    return ordered


def standings_json(rows: list[Standing]) -> dict:
    """`{"standings": [{"rank", "name", "wins", "losses", "spread"}, ...]}`: a whole number of wins as an
    integer, half a win as 0.5."""
    def number(x: float):
        return int(x) if x == int(x) else x

    return {"standings": [{"rank": r.rank, "name": r.name, "wins": number(r.wins), "losses": number(r.losses),
                           "spread": r.spread} for r in rows]}
