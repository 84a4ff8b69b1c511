"""The director's commands as plain functions: adjust a score, undo the last move, end the game. Each
needs the game's director token (or the server-wide director key) and a reason, which goes into the audit
trail every watcher sees. With the server's director key, `list_games` gives the console every game."""

from __future__ import annotations

from lexicon_service.errors import GameDamaged, GameNotFound, InvalidInput, Refused
from lexicon_service.games.events import GameEnded, MoveUndone, ScoreAdjusted
from lexicon_service.games.roles import require_director
from lexicon_service.games.state import ENDED
from lexicon_service.games.turn_effects import emit, end_event

MAX_REASON = 500
AS_PLAYED, RACKS_DEDUCTED = "as-played", "racks-deducted"  # how a director's end scores the game
# the end reasons they record; WatchGame's detail and the page read them
END_REASON = {AS_PLAYED: "director: {}", RACKS_DEDUCTED: "director, racks deducted: {}"}
MAX_ADJUSTMENT = 10_000
MAX_LISTED = 200  # games in one ListGames answer: each is read (and its clock settled) on every call


def _reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise InvalidInput("reason", "required (it goes into the audit trail)")
    if len(reason) > MAX_REASON:
        raise InvalidInput("reason", f"at most {MAX_REASON} characters")
    if not reason.isprintable():  # it is shown to every watcher: no NUL, no terminal escape sequences
        raise InvalidInput("reason", "printable characters only")
    return reason


def adjust_score(sessions, game_id: str, token: str | None, player: int, delta: int, reason: str):
    reason = _reason(reason)
    if not -MAX_ADJUSTMENT <= delta <= MAX_ADJUSTMENT or delta == 0:
        raise InvalidInput("delta", f"a non-zero number of points within ±{MAX_ADJUSTMENT}", "ADJUSTMENT_RANGE",
                           {"limit": MAX_ADJUSTMENT})

    def decide(work, base, now, events, lexicons=None):
        require_director(work, token, sessions.director_key)
        if not 0 <= player < work.n_players:
            raise InvalidInput("player", f"no player {player}; players are 0-{work.n_players - 1}")
        emit(work, events, ScoreAdjusted(player, delta, reason, now))
        return lambda w: w

    return sessions.execute(game_id, decide)


def undo_last_move(sessions, game_id: str, token: str | None, reason: str):
    reason = _reason(reason)

    def decide(work, base, now, events, lexicons=None):
        require_director(work, token, sessions.director_key)
        if not work.last_move_version:
            raise Refused("NOTHING_TO_UNDO", "no move has been made")
        emit(work, events, MoveUndone(work.last_move_version, reason, now))
        return lambda w: w

    return sessions.execute(game_id, decide)


def end_game(sessions, game_id: str, token: str | None, reason: str, scoring: str = AS_PLAYED):
    """Ends the game now. `scoring`: AS_PLAYED keeps the scores as they stand (an early end does not cost
    anyone the tiles they were dealt); RACKS_DEDUCTED deducts each rack as a normal end without an out."""
    reason = _reason(reason)
    if scoring not in END_REASON:
        raise InvalidInput("scoring", f"{scoring!r}; one of {', '.join(END_REASON)}")

    def decide(work, base, now, events, lexicons=None):
        require_director(work, token, sessions.director_key)
        if work.status == ENDED:
            raise Refused("GAME_OVER", f"the game has already ended ({work.end_reason})")
        why = END_REASON[scoring].format(reason)
        if scoring == AS_PLAYED:
            event = GameEnded(why, None, (0,) * work.n_players, work.time_penalties(now), now)
        else:
            event = end_event(work, why, now)
        emit(work, events, event)
        return lambda w: w

    return sessions.execute(game_id, decide)


def list_games(sessions, token: str | None, tournament_games=None, limit: int = MAX_LISTED):
    """-> ([(state, now)], truncated): the games in progress on the server, or `tournament_games()` (the
    ids of one tournament's games, asked only once the key is checked), each as its director sees it.
    Only the server's director key may ask (roles.DirectorKey.require)."""
    sessions.director_key.require(token)
    ids = sessions.store.live_game_ids(limit + 1) if tournament_games is None else sorted(set(tournament_games()))
    listed = []
    for game_id in ids[:limit]:
        try:
            state, _role, now = sessions.get_game(game_id, token)
        except (GameNotFound, GameDamaged):  # gone, or unreadable: its own GetGame says so
            continue
        listed.append((state, now))
    return listed, len(ids) > limit
