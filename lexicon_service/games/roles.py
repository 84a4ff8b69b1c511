"""Who is calling: the game's tokens (only their sha256 is stored) and the role a token gives in a game
(a player's seat, the director, or an observer without a token)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from lexicon_service.errors import PermissionDenied, Unauthenticated


def new_token() -> str:
    """A secret bearer token that never starts with '-' (a command line would read it as an option)."""
    while True:
        token = secrets.token_urlsafe(24)
        if token[0] != "-":
            return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def role(state, token: str | None) -> int | str:
    """A player index, "director", or "observer" (no token). Raises Unauthenticated."""
    if not token:
        return "observer"
    digest = token_hash(token)
    found = None
    for i, expected in enumerate(state.created.token_hashes):
        if hmac.compare_digest(digest, expected):
            found = i
    if hmac.compare_digest(digest, state.created.director_hash):
        found = "director"
    if found is None:
        raise Unauthenticated(f"the token is not one of game {state.game_id}'s")
    return found


def player(state, token: str | None) -> int:
    """The seat of the player whose token this is; the director and observers are refused."""
    found = role(state, token)
    if found == "observer":
        raise Unauthenticated("a player token is required: 'authorization: Bearer <player token>'")
    if found == "director":
        raise PermissionDenied("the director token cannot move or challenge; use a player token")
    return found


def acting_player(state, token: str | None, computer_seat: int | None) -> int:
    """Who makes a move or a challenge: the player of `token`, or the server's computer player in
    `computer_seat` (no token)."""
    if computer_seat is None:
        return player(state, token)
    if not state.options.computer(computer_seat):
        raise PermissionDenied(f"seat {computer_seat} is not a computer player's")
    return computer_seat


def require_director(state, token: str | None) -> None:
    found = role(state, token)
    if found == "observer":
        raise Unauthenticated("the director token is required")
    if found != "director":
        raise PermissionDenied("only the director may do this")
