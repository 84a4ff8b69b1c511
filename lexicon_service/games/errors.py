"""Errors of the game service; the servicer maps each class to one gRPC status, in one place."""

from __future__ import annotations


class GameError(Exception):
    """Base: a request the game refuses. Nothing was changed."""


def shown(value: str, limit: int = 40) -> str:
    """repr() of a client's value, cut to `limit` characters (a message quoting it stays short)."""
    value = str(value)
    return repr(value) if len(value) <= limit else f"{value[:limit]!r}... ({len(value):,} characters)"


class GameNotFound(GameError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {shown(game_id)}")


class Unauthenticated(GameError):
    """No token where one is needed, or a token that is not one of this game's."""


class PermissionDenied(GameError):
    """A valid token without the right to do this (an observer moving, a player acting as director)."""


class InvalidInput(GameError):
    """Malformed input in one request field."""

    def __init__(self, field: str, message: str, reason: str = "") -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {message}")


class Refused(GameError):
    """A well-formed request the game state refuses; `reason` is a stable code."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(f"{reason}: {message}")


class StaleVersion(GameError):
    def __init__(self, expected: int, actual: int) -> None:
        self.expected = expected
        self.actual = actual
        super().__init__(f"expected_version {expected} is stale: the game is at version {actual}")


class LexiconUnavailable(GameError):
    def __init__(self, name: str) -> None:
        super().__init__(f"the game's lexicon {name!r} is not loaded on this server")


class TooManyGames(GameError):
    """The server holds its limit of games in progress (`serve --max-games`); ended games do not count."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"this server already holds {limit:,} games in progress, its limit (serve --max-games); "
                         "finish or end a game, or retry later")


class Conflict(Exception):
    """Another writer appended to the game first (optimistic versioning): reload and decide again."""


class DuplicateRequest(Exception):
    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__(f"request already applied at version {version}")


class StoreUnavailable(Exception):
    """The games database cannot take this write now (disk full, a read-only file, an I/O error, a damaged
    file): nothing was stored; the same request may be retried once the database can write again."""


class GameDamaged(Exception):
    """A game whose stored history cannot be read back whole (the database file is damaged): it is not
    served and takes no move, so it is never answered differently from what was acknowledged."""

    def __init__(self, game_id: str, detail: str) -> None:
        self.game_id = game_id
        super().__init__(f"game {shown(game_id)} cannot be read whole from the games database ({detail}); "
                         "it is not served until the database is recovered")


class DatabaseDamaged(Exception):
    """The games database file fails its integrity check: the server refuses to use it."""
