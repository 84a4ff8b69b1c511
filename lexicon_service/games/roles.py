"""Who is calling: the game's tokens (only their sha256 is stored), the server-wide director key, and the
role a token gives in a game (a player's seat, the director, or an observer without a token)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from lexicon_service.errors import PermissionDenied, Refused, Unauthenticated


def new_token() -> str:
    """A secret bearer token that never starts with '-' (a command line would read it as an option)."""
    while True:
        token = secrets.token_urlsafe(24)
        if token[0] != "-":
            return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class DirectorKey:
    """The server-wide director key an operator sets (`serve --director-key-file`): its holder directs every
    game on the server. Only its sha256 is kept, compared in constant time; an empty key is none."""

    __slots__ = ("_digest",)

    def __init__(self, key: str | None = None) -> None:
        self._digest = token_hash(key) if key else ""

    def __repr__(self) -> str:  # never the key, nor its digest
        return f"DirectorKey({'set' if self._digest else 'none'})"

    @property
    def configured(self) -> bool:
        return bool(self._digest)

    def matches(self, token: str | None) -> bool:
        return bool(self._digest and token) and hmac.compare_digest(token_hash(token), self._digest)

    def require(self, token: str | None) -> None:
        """Refuses unless `token` is the key: the feature is off without one, a missing token is
        UNAUTHENTICATED, any other token PERMISSION_DENIED."""
        if not self._digest:
            raise Refused("DIRECTOR_KEY_OFF", "this server has no director key (the operator sets one with "
                                              "serve --director-key-file); open games with their director tokens")
        if not token:
            raise Unauthenticated("the server's director key is required")
        if not self.matches(token):
            raise PermissionDenied("the token is not the server's director key")


NO_DIRECTOR_KEY = DirectorKey()


def role(state, token: str | None, key: DirectorKey = NO_DIRECTOR_KEY) -> int | str:
    """A player index, "director" (the game's director token or the server's director `key`), or
    "observer" (no token). Raises Unauthenticated."""
    if not token:
        return "observer"
    if key.matches(token):
        return "director"
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


def player(state, token: str | None, key: DirectorKey = NO_DIRECTOR_KEY) -> int:
    """The seat of the player whose token this is; the director and observers are refused."""
    found = role(state, token, key)
    if found == "observer":
        raise Unauthenticated("a player token is required: 'authorization: Bearer <player token>'")
    if found == "director":
        raise PermissionDenied("the director token cannot move or challenge; use a player token")
    return found


def acting_player(state, token: str | None, computer_seat: int | None, key: DirectorKey = NO_DIRECTOR_KEY) -> int:
    """Who makes a move or a challenge: the player of `token`, or the server's computer player in
    `computer_seat` (no token)."""
    if computer_seat is None:
        return player(state, token, key)
    if not state.options.computer(computer_seat):
        raise PermissionDenied(f"seat {computer_seat} is not a computer player's")
    return computer_seat


def require_director(state, token: str | None, key: DirectorKey = NO_DIRECTOR_KEY) -> None:
    found = role(state, token, key)
    if found == "observer":
        raise Unauthenticated("the director token is required")
    if found != "director":
        raise PermissionDenied("only the director may do this")


@dataclass(frozen=True)
class Caller:
    """Who makes a call and until when, as a transport read it (gRPC: the call's metadata, peer and
    deadline; HTTP: the request's headers, client address and `x-server-timeout`): plain values that the
    servicers' plain methods take, so both transports call the same code."""

    game_token: str | None = None  # `x-game-token` as sent (the last one), None when not sent
    authorization: str | None = None  # `authorization` as sent (the last one), None when not sent
    director_key: str = ""  # `x-director-key` (the first one), stripped
    client: str = ""  # the caller's address without its port ("ipv4:127.0.0.1"); "" when unknown
    deadline: float | None = None  # a time.monotonic() value; None: no deadline


def caller_of(headers, *, client: str = "", deadline: float | None = None) -> Caller:
    """A Caller from (lowercase name, value) pairs: gRPC's invocation metadata or HTTP's headers."""
    game_token = authorization = director_key = None
    for name, value in headers:
        if name == "x-game-token":
            game_token = value
        elif name == "authorization":
            authorization = value
        elif name == "x-director-key" and director_key is None:
            director_key = value.strip()
    return Caller(game_token, authorization, director_key or "", client, deadline)


def client_address(peer: str) -> str:
    """The caller's address without its port ("ipv4:127.0.0.1") of a peer as gRPC's peer() writes it
    ("ipv4:127.0.0.1:5555", "ipv6:[::1]:5555"); "" when unknown."""
    if peer.startswith(("ipv4:", "ipv6:")):
        return peer.rsplit(":", 1)[0]
    return peer or ""
