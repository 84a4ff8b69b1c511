"""A division as plain data: its players and its games (a bye is a game with no second player).

Players are numbered from 0 in the order they were entered (TSH numbers them from 1: tsh.py converts).
A game's scores are None until it has a result; `first` is 0 when the first-listed player starts, 1 when
the second does, None when unknown (imported without it, or a bye).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass, field

from lexicon_service.errors import FieldError

MAX_NAME = 40
MAX_PLAYERS = 1000
MAX_ROUNDS = 100
MAX_SCORE = 10_000  # a Scrabble score is far below; bounds what a file or a director may enter


class TournamentInputError(FieldError, ValueError):
    """A value a caller gave is wrong: `field` names it (an RPC field, a file line); answered as any
    FieldError (INVALID_ARGUMENT), and a ValueError to the tournament's own readers."""


def check_name(name, field_name: str) -> str:
    """A person's name as people write it: 1-40 characters, spaces and diacritics allowed, no control
    characters, no leading or trailing space, no ';' or newline (the .t and CSV files hold names)."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        raise TournamentInputError(field_name, f"a name is 1-{MAX_NAME} characters")
    if name != name.strip() or "  " in name:
        raise TournamentInputError(field_name, "no leading, trailing or doubled spaces")
    for ch in name:
        if ch != " " and (unicodedata.category(ch)[0] in "CZ"):
            raise TournamentInputError(field_name, f"no control or separator characters (U+{ord(ch):04X})")
    if ";" in name or '"' in name:
        raise TournamentInputError(field_name, "no ';' or '\"' in a name")
    if name[-1].isdigit():
        raise TournamentInputError(field_name, "a name may not end in a digit (a .t line's rating follows it)")
    return name


@dataclass
class Player:
    name: str
    rating: int = 0
    federation_id: str = ""
    tsh_extra: tuple[tuple[str, str], ...] = ()  # a .t line's other fields (key, text), written back as read
    tsh_pad: str = " "  # the spaces between the name and the rating in the .t line it came from


@dataclass
class Game:
    round: int  # from 1
    table: int  # from 1; byes after the tables
    p1: int
    p2: int | None  # None: a bye for p1
    s1: int | None = None
    s2: int | None = None
    first: int | None = None  # 0: p1 starts, 1: p2 starts (a bye: the code a .t file kept for it, if any)
    game_id: str = ""  # the server-held game, when one was started
    note: str = ""  # why a director entered or corrected the result

    @property
    def played(self) -> bool:
        return self.s1 is not None and (self.p2 is None or self.s2 is not None)

    def side(self, player: int) -> int | None:
        if self.p1 == player:
            return 0
        if self.p2 == player:
            return 1
        return None


@dataclass
class Division:
    name: str
    players: list[Player] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)

    def rounds_paired(self) -> int:
        return max((g.round for g in self.games), default=0)

    def round_games(self, rnd: int) -> list[Game]:
        return sorted((g for g in self.games if g.round == rnd), key=lambda g: g.table)

    def round_complete(self, rnd: int) -> bool:
        games = self.round_games(rnd)
        return bool(games) and all(g.played for g in games)

    def copy(self) -> "Division":
        """A copy whose lists are its own; the players and games in them are shared, so a change to one
        replaces it (`replace_game`) rather than changing it in place."""
        return Division(self.name, list(self.players), list(self.games))

    def replace_game(self, rnd: int, table: int, **changes) -> None:
        for i, g in enumerate(self.games):
            if g.round == rnd and g.table == table:
                self.games[i] = dataclasses.replace(g, **changes)
                return
        raise KeyError((rnd, table))


def game_result(game: Game, player: int) -> tuple[float, int, int] | None:
    """(win 1 / tie 0.5 / loss 0, own score, spread) of `player` in `game`, None when unplayed. A bye's
    score is its spread (TSH's convention: +50 a bye, -50 a forfeit), a win when above 0."""
    side = game.side(player)
    if side is None or not game.played:
        return None
    if game.p2 is None:
        spread = game.s1
        return (1.0 if spread > 0 else 0.5 if spread == 0 else 0.0), max(spread, 0), spread
    own, other = (game.s1, game.s2) if side == 0 else (game.s2, game.s1)
    spread = own - other
    return (1.0 if spread > 0 else 0.5 if spread == 0 else 0.0), own, spread
