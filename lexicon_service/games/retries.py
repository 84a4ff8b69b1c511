"""A request sent again after its answer was lost: found by its request id, its expected version, or
(without either) as the same player's identical move still the last one made, and answered again as
that player sees the game now, never carried out twice."""

from __future__ import annotations

from lexicon_service.errors import InvalidInput
from lexicon_service.games.events import (
    Challenged,
    CorrectionRefused,
    Exchanged,
    GameEnded,
    Passed,
    Played,
    Redrawn,
    loads,
)
from lexicon_service.tiles import UnknownLetterError

MAX_REQUEST_ID = 128


class MoveOutcome:
    __slots__ = ("version", "score", "words", "rack", "replayed", "state", "player", "invalid_words", "outcome")

    def __init__(self, version, state, player, score=0, words=(), replayed=False, invalid_words=(), outcome=""):
        self.version = version
        self.state = state
        self.player = player
        self.score = score
        self.words = tuple(words)
        self.rack = state.rack_text(player) if player is not None and player >= 0 else ""
        self.replayed = replayed
        self.invalid_words = tuple(invalid_words)
        self.outcome = outcome


class AnsweredBefore(Exception):
    """The request was already carried out (its answer was lost): answer it again, to `player` alone."""

    def __init__(self, version: int, player: int, challenge: bool = False, same=None) -> None:
        self.version = version
        self.player = player
        self.challenge = challenge
        self.same = same  # for a move: whether a stored event is the move this request gives (same_move)


def _spelled(work, rack_text: str) -> list[str] | None:
    try:
        return list(work.rule_set.tile_set.spell_rack(rack_text))
    except UnknownLetterError:
        return None


def same_move(work, event, p: int, play_text: str, exchange: str, pass_: bool) -> bool:
    """Whether a stored event is player p's move as this request gives it. The final pass (accepting the
    last play) is stored as the end of the game it caused, with the passer still on turn."""
    if isinstance(event, GameEnded):
        return pass_ and event.reason == "out" and event.went_out not in (None, p) and work.turn == p
    if getattr(event, "player", None) != p:
        return False
    return (isinstance(event, Played) and bool(play_text) and event.play == play_text) or \
        (isinstance(event, Passed) and pass_ and event.reason == "pass") or \
        (isinstance(event, Exchanged) and bool(exchange) and list(event.tiles) == _spelled(work, exchange))


def _own_move(event, p: int) -> bool:
    """Whether a stored event is a move player p made (a play, an exchange, a pass of their own)."""
    return isinstance(event, (Played, Exchanged)) and event.player == p or \
        isinstance(event, Passed) and event.player == p and event.reason == "pass"


def own_challenge(event, c: int) -> bool:
    return isinstance(event, Challenged) and event.challenger == c


def _answered_version(rows) -> int:
    """The version a command's first answer gave, from its rows on: a play's answer names the play; any
    other command's, the version after the end or redraw it caused (they follow it at once)."""
    version, kind, data = rows[0]
    if kind == "play":
        return version
    for version_after, kind, data in rows[1:]:
        if kind == "redraw" or (kind == "end" and not loads(kind, data).reason.startswith("director")):
            version = version_after
        else:
            break
    return version


def valid_request_id(request_id: str) -> None:
    if len(request_id) > MAX_REQUEST_ID:
        raise InvalidInput("request_id", f"at most {MAX_REQUEST_ID} characters")


def check_request_id(store, work, request_id: str, player: int, challenge: bool = False, same=None) -> None:
    """A request id this player already used in this game: its request was carried out; answer again."""
    if request_id:
        done = store.request_version(work.game_id, request_id, player)
        if done is not None:
            raise AnsweredBefore(done, player, challenge, same)


def check_retry(store, work, expected_version, p, same, challenge: bool = False) -> None:
    """A request repeated after it succeeded (the answer was lost): answer it again. `same(event)`:
    whether the event after `expected_version` is what this request asks for."""
    rows = store.load(work.game_id, expected_version)
    if rows and same(loads(rows[0][1], rows[0][2])):
        raise AnsweredBefore(_answered_version(rows), p, challenge)


def check_repeat(store, work, p, same) -> None:
    """A move sent again without request_id or expected_version, out of turn, while the same player's
    identical move is still the last one made (followed at most by what it caused at once: the end
    of the game, a redraw): the retry of a move whose answer was lost. Answer it again rather than
    refuse it as out of turn, which would tell the client its move failed. (A final pass sent again
    so is GAME_OVER: it cannot be told from a pass after the end; with an id or version it is a retry.)"""
    rows = store.load(work.game_id, max(0, work.version - 3))
    while rows:
        version, kind, data = rows.pop()
        event = loads(kind, data)
        if not isinstance(event, (GameEnded, Redrawn)):
            break
    else:
        return
    caused = store.load(work.game_id, version)
    if any(loads(k, d).at != event.at for _, k, d in caused):
        return  # the end or redraw came later (a timeout), not from this move
    if same(event):
        # the version the first answer gave: a play's own, a pass's or exchange's after what it caused
        raise AnsweredBefore(version if isinstance(event, Played) or not caused else caused[-1][0], p)


def answer_again(store, game_id, state, replay: AnsweredBefore) -> MoveOutcome:
    """The answer again, to the player who made the request, as that player sees the game now. The
    request's events end at `replay.version` (a request id is stored on the last event a command
    appended: the move, or the end of the game or redraw it caused)."""
    version, player = replay.version, replay.player
    rows = [row for row in store.load(game_id, max(0, version - 4)) if row[0] <= version]
    event = None
    event_version = version
    while rows:
        event_version, kind, data = rows.pop()
        event = loads(kind, data)
        if not isinstance(event, (GameEnded, Redrawn)):
            break
    challenged = own_challenge(event, player)
    if challenged != replay.challenge:
        what = "challenge" if challenged else "move"
        raise InvalidInput("request_id", f"already used by your {what} at version {version}; "
                                         "a new request needs a new id")
    if replay.same is not None and _own_move(event, player) and not replay.same(event):
        raise InvalidInput("request_id", f"already used by your other move at version {version}; "
                                         "a new request needs a new id")
    if challenged:
        return MoveOutcome(version, state, player, replayed=True, invalid_words=event.invalid_words,
                           outcome=event.outcome)
    if isinstance(event, Played) and event.player == player:  # the play's own version, as first answered
        return MoveOutcome(event_version, state, player, event.score, event.words, replayed=True)
    if isinstance(event, CorrectionRefused) and event.player == player:
        return MoveOutcome(version, state, player, replayed=True, invalid_words=event.invalid_words,
                           outcome="correction-refused")
    return MoveOutcome(version, state, player, replayed=True)
