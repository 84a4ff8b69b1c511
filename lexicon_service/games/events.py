"""Typed game events: a game is its event log, and its state is the fold of these events.

Every event carries what happened, fully decided (tiles drawn, bag order after a shuffle, scores,
time spent), so applying it needs no randomness, clock or lexicon: replaying a stored log on any
server process gives the same state. Events are stored as JSON (`dumps` / `loads`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class GameCreated:
    lexicon: str
    rule_set_text: str  # the rule set as it was when the game began (a later lexicon reload keeps it)
    players: tuple[str, ...]
    token_hashes: tuple[str, ...]  # sha256 of each player's token (tokens themselves are never stored)
    director_hash: str
    options: dict  # GameOptions fields
    racks: tuple[tuple[str, ...], ...]  # first racks ("?" = blank)
    bag: tuple[str, ...]  # the bag after drawing them; tiles are drawn from the end
    seed: int | None
    at: float


@dataclass(frozen=True)
class Played:
    player: int
    play: str  # as submitted, whitespace normalised ("8D WORD")
    placements: tuple[tuple[int, int, str, bool], ...]  # (row, col, letter, is_blank) of new tiles
    score: int
    words: tuple[str, ...]  # display text
    keys: tuple[str, ...]  # tile keys of the words (what a challenge judges)
    drawn: tuple[str, ...]
    at: float
    spent: float  # seconds this move took
    correction: bool = False  # a Kris Kros correction (judged when made, not challengeable)


@dataclass(frozen=True)
class Exchanged:
    player: int
    tiles: tuple[str, ...]
    drawn: tuple[str, ...]
    bag: tuple[str, ...]  # the bag after the returned tiles were shuffled in
    at: float
    spent: float


@dataclass(frozen=True)
class Passed:
    player: int
    reason: str  # pass | timeout | correction-timeout | correction-given-up
    at: float
    spent: float


@dataclass(frozen=True)
class Challenged:
    challenger: int
    target: int  # version of the challenged Played event
    invalid_words: tuple[str, ...]
    outcome: str  # withdrawn | correction | stands | challenger-loses-turn | penalty
    penalty: int  # points the challenger lost (penalty rule)
    bag: tuple[str, ...]  # after a withdrawal: the bag with the drawn tiles shuffled back; else ()
    at: float


@dataclass(frozen=True)
class CorrectionRefused:
    player: int
    play: str
    invalid_words: tuple[str, ...]
    at: float
    spent: float


@dataclass(frozen=True)
class Redrawn:
    """Kris Kros start: nobody could make a first word, so every rack went back and was drawn again."""

    racks: tuple[tuple[str, ...], ...]
    bag: tuple[str, ...]
    at: float


@dataclass(frozen=True)
class GameEnded:
    reason: str  # out | passes | scoreless-turns | blocked | director: <why>
    went_out: int | None
    adjustments: tuple[int, ...]  # end-of-game rack adjustment per player
    time_penalties: tuple[int, ...]  # overtime penalty per player (<= 0)
    at: float


@dataclass(frozen=True)
class ScoreAdjusted:
    player: int
    delta: int
    reason: str
    at: float


@dataclass(frozen=True)
class MoveUndone:
    target: int  # version of the move undone; it and every event after it up to this one are void
    reason: str
    at: float


EVENT_TYPES = {
    "created": GameCreated,
    "play": Played,
    "exchange": Exchanged,
    "pass": Passed,
    "challenge": Challenged,
    "correction-refused": CorrectionRefused,
    "redraw": Redrawn,
    "end": GameEnded,
    "adjust": ScoreAdjusted,
    "undo": MoveUndone,
}
KIND_OF = {cls: kind for kind, cls in EVENT_TYPES.items()}


def kind_of(event) -> str:
    return KIND_OF[type(event)]


def dumps(event) -> str:
    # Events hold only JSON-ready values (numbers, text, tuples, the options dict): a shallow dict will do
    # (dataclasses.asdict deep-copies every tuple, which cost more than the rest of a move).
    return json.dumps(event.__dict__, ensure_ascii=False, separators=(",", ":"))


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def loads(kind: str, text: str):
    cls = EVENT_TYPES[kind]
    data = json.loads(text)
    names = {f.name for f in fields(cls)}
    return cls(**{k: (v if k == "options" else _tuples(v)) for k, v in data.items() if k in names})
