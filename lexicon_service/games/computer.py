"""Computer players: which move a computer seat makes, from what a player may see.

`choose_move` gets the board, the seat's own rack and the number of tiles in the bag (what a player's
GetGame shows), never another rack or the bag's order. A level is the band of ranks it picks from
among the plays ordered by score (best first); the pick within the band is the game's random
generator (seeded games: the same move every time). With no play it exchanges its whole rack where
the rules and the bag allow, else it passes. Before it moves it challenges a phony played just before
its turn (`GameService._computer_challenges`: the played words against the lexicon, never a rack).
"""

from __future__ import annotations

from lexicon_service.movegen import GeneratedMove, generate_moves
from lexicon_service.rules.game import exchange_refusal

# level -> (first rank, ranks after the last) among the plays by score; a band past the plays there are
# takes the lowest-ranked play.
LEVELS = {
    "best": (0, 1),  # the top play by score
    "club": (1, 8),  # a good play, rarely the best
    "beginner": (5, 40),  # a modest play: a beginner can win
}
DEFAULT_LEVEL = "best"


def level_refusal(level: str) -> str | None:
    """Why `level` is not a computer player's level, or None."""
    if level in LEVELS:
        return None
    return f"unknown level {level[:40]!r}; one of {', '.join(LEVELS)}"


def choose_move(rule_set, board, rack: str, bag_count: int, lexicon, level: str, rng,
                deadline: float | None = None, may_exchange: bool = True) -> GeneratedMove:
    """The move a computer player of `level` makes with `rack` on `board` (`rng`: a random.Random).
    Without a play it exchanges its rack where allowed and `may_exchange`, else passes (the caller says
    no after a scoreless round, so that players who cannot move end the game by passing)."""
    first, end = LEVELS[level]
    moves = generate_moves(rule_set, board, rack, lexicon, limit=end, bag_count=bag_count, deadline=deadline)
    plays = [m for m in moves if m.kind == "play"]
    if plays:
        return rng.choice(plays[first:end] or plays[-1:])
    tiles = rule_set.tile_set.spell_rack(rack)
    if may_exchange and tiles and exchange_refusal(rule_set, bag_count, len(tiles)) is None:
        return GeneratedMove("exchange", "-" + rack, 0, (), "", len(tiles))
    return GeneratedMove("pass", "-", 0, (), rack, 0)
