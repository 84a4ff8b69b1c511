"""Ratings after the event, for information: Elo's method (A. E. Elo, *The Rating of Chessplayers, Past
and Present*, 1978, ch. 1.6 and 8.4), as Scrabble associations adapted it (NASPA's system since 2006 is an
Elo variant; its multipliers and acceleration rules are not reproduced here).

Each player's expected score against an opponent is 1 / (1 + 10 ** ((R_opp - R_own) / 400)), added up over
the event's games against rated opponents; the new rating is R_own + K * (wins - expected), wins counting a
tie as half, computed from the ratings before the event (one batch, so the order of the rounds does not
matter). K is 32 below 2000, 24 to 2400, 16 above (the FIDE brackets Elo proposed). A player entered
without a rating (0) gets a performance rating instead: the opponents' average plus 400 * (wins - losses) /
games, clamped to 0-3000. Byes are not rated.
"""

from __future__ import annotations

from lexicon_service.tournaments.model import Division, game_result


def expected(own: float, other: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((other - own) / 400.0))


def k_factor(rating: float) -> int:
    return 32 if rating < 2000 else 24 if rating < 2400 else 16


def ratings_after(division: Division) -> list[int]:
    """The new rating of each player (in player order)."""
    old = [p.rating for p in division.players]
    results: list[list[tuple[int, float]]] = [[] for _ in old]  # (opponent, win)
    for game in division.games:
        if game.p2 is None or not game.played:
            continue
        win, _, _ = game_result(game, game.p1)
        results[game.p1].append((game.p2, win))
        results[game.p2].append((game.p1, 1.0 - win))
    new = []
    for player, rating in enumerate(old):
        games = [(o, w) for o, w in results[player] if old[o] > 0]
        if not games:
            new.append(rating)
            continue
        wins = sum(w for _, w in games)
        if rating <= 0:
            average = sum(old[o] for o, _ in games) / len(games)
            performance = average + 400.0 * (2 * wins - len(games)) / len(games)
            new.append(int(round(min(3000.0, max(0.0, performance)))))
            continue
        exp = sum(expected(rating, old[o]) for o, _ in games)
        new.append(int(round(rating + k_factor(rating) * (wins - exp))))
    return new
