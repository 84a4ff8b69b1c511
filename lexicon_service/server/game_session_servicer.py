"""GameSessionService: server-held games over gRPC, a thin layer over lexicon_service.games.

Requests are read into plain values, the game sessions decide, and every error is answered with its
status from the one table (lexicon_service/errors.py), with its trailing metadata (`lexicon-reason`,
`lexicon-version`). Database errors are logged by the store's logger, one line per kind per 10 s
(lexicon_service/ratelimit.py).
"""

from __future__ import annotations

import logging
import time

from lexicon_service.core.limits import check_deadline
from lexicon_service.errors import DeadlineError, FieldError, Refused, Unauthenticated
from lexicon_service.games.commands import HINT_SECONDS
from lexicon_service.games.director import AS_PLAYED, RACKS_DEDUCTED
from lexicon_service.games.computer import DEFAULT_LEVEL, leave_table_refusal, level_refusal
from lexicon_service.games.roles import Caller, caller_of, client_address
from lexicon_service.games.sessions import GameSessions
from lexicon_service.games.state import ENDED, FINAL_PASS, GameState
from lexicon_service.games.watchers import STREAM_IDLE
from lexicon_service.grpc_gen import session_pb2, session_pb2_grpc
from lexicon_service.server.errors import status_and_trailing
from lexicon_service.core.messages import generated_move, move_outlook
from lexicon_service.tiles import write_tiles
from lexicon_service.games import events as ev

log = logging.getLogger("lexicon_service.server")


def client_of(context) -> str:
    """The caller's address without its port ("ipv4:127.0.0.1") of a gRPC call; "" when unknown."""
    return client_address(context.peer())


def caller_of_call(context) -> Caller:
    """The Caller of a gRPC call: its metadata, its client's address, its deadline."""
    remaining = context.time_remaining()
    deadline = None if remaining is None else time.monotonic() + remaining
    return caller_of(context.invocation_metadata() or (), client=client_of(context), deadline=deadline)


_STATUS = {"playing": session_pb2.GAME_STATUS_PLAYING, FINAL_PASS: session_pb2.GAME_STATUS_AWAITING_FINAL_PASS,
           ENDED: session_pb2.GAME_STATUS_ENDED}
_RULES = {"single": session_pb2.CHALLENGE_RULE_SINGLE, "double": session_pb2.CHALLENGE_RULE_DOUBLE,
          "penalty": session_pb2.CHALLENGE_RULE_PENALTY, "void": session_pb2.CHALLENGE_RULE_VOID}
_RULE_NAMES = {v: k for k, v in _RULES.items()}


def _session_rpc(plain):
    """The gRPC method of a plain method `plain(self, request, caller)`: the caller read from the call,
    every exception answered with its status and trailing metadata (`lexicon-reason`, `lexicon-version`)."""

    def method(self, request, context):
        try:
            return plain(self, request, caller_of_call(context))
        except Exception as exc:  # noqa: BLE001 - the mapping point
            code, message, trailing = status_and_trailing(exc)
        # aborted outside the except clause, as errors.rpc does (a kept exception held the call's stream)
        if trailing:
            context.set_trailing_metadata(trailing)
        context.abort(code, message)

    method.__name__ = method.__qualname__ = "".join(part.title() for part in plain.__name__.split("_"))
    method.__doc__ = plain.__doc__
    return method


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000))


class GameSessionServicer(session_pb2_grpc.GameSessionServiceServicer):
    def __init__(self, games: GameSessions, registry, *, server_tokens: bool = False, poll: float = 0.25,
                 stream_idle: float | None = STREAM_IDLE, tournament_games=None) -> None:
        self.games = games
        self.registry = registry
        self.tournament_games = tournament_games  # tournament id -> its games' ids (None: no tournaments)
        # With server-wide bearer tokens, `authorization` carries the server's token: games use x-game-token.
        self.server_tokens = server_tokens
        self.poll = poll
        self.stream_idle = stream_idle  # WatchGame ends with WatchIdle after this many seconds without an event

    # --- request parts ---------------------------------------------------------------------------------
    def _token(self, caller: Caller) -> str | None:
        """The caller's game token: `x-game-token`, else (without server-wide tokens) the bearer token."""
        if caller.game_token:
            return caller.game_token.strip()
        bearer = caller.authorization
        if bearer and not self.server_tokens:
            scheme, _, token = bearer.strip().partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise Unauthenticated("authorization must be 'Bearer <token>'")
            return token.strip()
        return None

    @staticmethod
    def _game_id(request) -> str:
        if not request.game_id:
            raise FieldError("game_id", "required")
        return request.game_id

    def view(self, state: GameState, role, now: float) -> session_pb2.GetGameResponse:
        you = role if isinstance(role, int) else -1
        deadline = state.deadline()
        limit = state.options.game_seconds
        players = []
        for p, name in enumerate(state.players):
            used = state.time_used_now(p, now)
            players.append(session_pb2.PlayerState(
                name=name, score=state.scores[p], rack_count=len(state.racks[p]), time_used_ms=_ms(used),
                time_remaining_ms=_ms(limit - used) if limit else 0, computer_level=state.options.computer(p)))
        return session_pb2.GetGameResponse(
            game_id=state.game_id, lexicon=state.created.lexicon, rule_set=state.rule_set.id, version=state.version,
            status=_STATUS[state.status], players=players, turn=state.turn, you=you,
            rack=state.rack_text(you) if you >= 0 else "", board=state.board_rows(),
            board_text=state.board_text(), bag_count=len(state.bag),
            move_deadline_ms=_ms(deadline) if deadline is not None else 0,
            challengeable=state.last_play is not None and state.options.challenge_rule != "void"
            and state.status != ENDED,
            correcting=state.correcting is not None, last_move=state.last_move_text, end_reason=state.end_reason,
            challenge_rule=_RULES[state.options.challenge_rule], now_ms=_ms(now), hints_allowed=state.options.hints)

    # --- RPCs --------------------------------------------------------------------------------------------
    def create_game(self, request, caller: Caller):
        if not request.lexicon:
            raise FieldError("lexicon", "required")
        rule = ""
        if request.challenge_rule:
            rule = _RULE_NAMES.get(request.challenge_rule)
            if rule is None:
                raise FieldError("challenge_rule", f"unknown value {request.challenge_rule}")
        with self.registry.acquire() as snapshot:
            lexicon = snapshot.lexicon(request.lexicon)
            rule_set = lexicon.rule_set
            has_move_graph = lexicon.has_move_graph
            levels = self._computer_levels(request)
            no_leaves = next(filter(None, (leave_table_refusal(level, lexicon) for level in levels)), None)
        if any(levels) and not has_move_graph:
            raise Refused("NO_MOVE_GRAPH", f"computer_players: the lexicon {request.lexicon!r} has no move graph; "
                                           "add one with `lexicon-build --move-graph-only`")
        if no_leaves:
            raise Refused("NO_LEAVE_TABLE", f"computer_players: {no_leaves}")
        game_id, tokens, director, version = self.games.create_game(
            request.lexicon, rule_set, list(request.player_names),
            seed=request.seed if request.HasField("seed") else None, challenge_rule=rule,
            game_seconds=request.game_seconds,
            overtime_penalty=request.overtime_penalty if request.HasField("overtime_penalty") else None,
            allow_hints=request.allow_hints, computer_levels=levels, client=caller.client,
            director_game=request.director_game)
        return session_pb2.CreateGameResponse(game_id=game_id, player_tokens=tokens, director_token=director,
                                              rule_set=rule_set.id, version=version)

    @staticmethod
    def _computer_levels(request) -> list[str]:
        """The level per seat ("" a person) of CreateGameRequest.computer_players."""
        n = len(request.player_names)
        levels = [""] * n
        for i, computer in enumerate(request.computer_players):
            if computer.seat >= n:
                raise FieldError(f"computer_players[{i}].seat", f"no seat {computer.seat}; seats are 0-{n - 1}")
            if levels[computer.seat]:
                raise FieldError(f"computer_players[{i}].seat", f"seat {computer.seat} given twice")
            if computer.level and level_refusal(computer.level):
                raise FieldError(f"computer_players[{i}].level", level_refusal(computer.level))
            levels[computer.seat] = computer.level or DEFAULT_LEVEL
        return levels

    def get_game(self, request, caller: Caller):
        state, role, now = self.games.get_game(self._game_id(request), self._token(caller))
        return self.view(state, role, now)

    def submit_move(self, request, caller: Caller):
        game_id = self._game_id(request)
        token = self._token(caller)
        expected = request.expected_version if request.HasField("expected_version") else None
        with self.registry.acquire() as snapshot:
            outcome = self.games.submit_move(
                game_id, token, play=request.play, exchange=request.exchange, pass_=getattr(request, "pass"),
                expected_version=expected, request_id=request.request_id, lexicon_of=snapshot.lexicons.get)
        state = outcome.state
        role = outcome.player  # the caller: a replay answers only the player who made the request
        return session_pb2.SubmitMoveResponse(
            version=outcome.version, score=outcome.score, words=outcome.words, rack=outcome.rack,
            replayed=outcome.replayed, game=self.view(state, role, self.games.clock()))

    def challenge(self, request, caller: Caller):
        game_id = self._game_id(request)
        expected = request.expected_version if request.HasField("expected_version") else None
        with self.registry.acquire() as snapshot:
            outcome = self.games.challenge(game_id, self._token(caller), expected, lexicon_of=snapshot.lexicons.get,
                                           request_id=request.request_id)
        return session_pb2.ChallengeResponse(
            version=outcome.version, play_stood=not outcome.invalid_words, invalid_words=outcome.invalid_words,
            outcome=outcome.outcome, game=self.view(outcome.state, outcome.player, self.games.clock()),
            replayed=outcome.replayed)

    def get_hint(self, request, caller: Caller):
        game_id = self._game_id(request)
        deadline = caller.deadline
        check_deadline(deadline)
        if request.simulate:
            return self._hint_ahead(request, caller, game_id, deadline)
        with self.registry.acquire() as snapshot:
            try:
                state, player, moves = self.games.hint(game_id, self._token(caller), request.limit or 5,
                                                       lexicons=snapshot.lexicons.get, deadline=deadline)
            except TimeoutError:
                raise DeadlineError(f"hint (at most {HINT_SECONDS:g} s)") from None
        return session_pb2.GetHintResponse(moves=[generated_move(m) for m in moves], version=state.version,
                                           rack=state.rack_text(player))

    def _hint_ahead(self, request, caller: Caller, game_id: str, deadline):
        with self.registry.acquire() as snapshot:
            try:
                state, player, found = self.games.hint_ahead(game_id, self._token(caller), request.limit or 5,
                                                             lexicons=snapshot.lexicons.get, deadline=deadline)
            except TimeoutError:
                raise DeadlineError(f"hint (at most {HINT_SECONDS:g} s)") from None
        outlooks = [move_outlook(m) for m in found.moves]
        return session_pb2.GetHintResponse(moves=[generated_move(m.move) for m in found.moves],
                                           version=state.version, rack=state.rack_text(player), outlooks=outlooks,
                                           lookahead=found.kind, endgame_sequence=found.sequence)

    def get_game_record(self, request, caller: Caller):
        text, version = self.games.record(self._game_id(request), self._token(caller))
        return session_pb2.GetGameRecordResponse(gcg=text, version=version)

    def _director_answer(self, answer_type, state):
        return answer_type(version=state.version,
                           game=self.view(state, "director", self.games.clock()))

    def adjust_score(self, request, caller: Caller):
        state = self.games.adjust_score(self._game_id(request), self._token(caller), request.player, request.delta,
                                        request.reason)
        return self._director_answer(session_pb2.AdjustScoreResponse, state)

    def undo_last_move(self, request, caller: Caller):
        state = self.games.undo_last_move(self._game_id(request), self._token(caller), request.reason)
        return self._director_answer(session_pb2.UndoLastMoveResponse, state)

    def end_game(self, request, caller: Caller):
        scoring = RACKS_DEDUCTED if request.scoring == session_pb2.END_SCORING_RACKS_DEDUCTED else AS_PLAYED
        state = self.games.end_game(self._game_id(request), self._token(caller), request.reason, scoring)
        return self._director_answer(session_pb2.EndGameResponse, state)

    def list_games(self, request, caller: Caller):
        tournament_id = request.tournament_id
        if tournament_id and self.tournament_games is None:
            raise FieldError("tournament_id", "this server holds no tournaments")
        games_of = (lambda: self.tournament_games(tournament_id)) if tournament_id else None
        listed, truncated = self.games.list_games(self._token(caller), games_of)
        return session_pb2.ListGamesResponse(games=[self.view(state, "director", now) for state, now in listed],
                                             truncated=truncated)

    def watch_game(self, request, caller: Caller, is_active):
        """The game's events after request.after_version, then each new one, while `is_active()`."""
        game_id = self._game_id(request)
        role = self.games.authorise(game_id, self._token(caller))
        for state, version, event in self.games.watch(game_id, request.after_version, is_active, self.poll,
                                                      self.stream_idle):
            yield self._event(state, version, event, role)

    # the gRPC methods: the plain methods above, with the call's caller
    CreateGame = _session_rpc(create_game)
    GetGame = _session_rpc(get_game)
    SubmitMove = _session_rpc(submit_move)
    Challenge = _session_rpc(challenge)
    GetHint = _session_rpc(get_hint)
    GetGameRecord = _session_rpc(get_game_record)
    AdjustScore = _session_rpc(adjust_score)
    UndoLastMove = _session_rpc(undo_last_move)
    EndGame = _session_rpc(end_game)
    ListGames = _session_rpc(list_games)

    def WatchGame(self, request, context):
        try:
            yield from self.watch_game(request, caller_of_call(context), context.is_active)
        except Exception as exc:  # noqa: BLE001 - the mapping point for the stream
            code, message, trailing = status_and_trailing(exc)
        else:
            return
        if trailing:
            context.set_trailing_metadata(trailing)
        context.abort(code, message)

    @staticmethod
    def _event(state: GameState, version: int, event, role) -> session_pb2.WatchGameResponse:
        kind = ev.kind_of(event)
        player = getattr(event, "player", getattr(event, "challenger", -1))
        out = session_pb2.WatchGameResponse(
            version=version, kind=kind, player=player if player is not None else -1,
            player_name=state.players[player] if isinstance(player, int) and player >= 0 else "",
            scores=state.scores, turn=state.turn, status=_STATUS[state.status], at_ms=_ms(event.at),
            time_spent_ms=_ms(getattr(event, "spent", 0.0)))
        if isinstance(event, ev.Played):
            out.move, out.score = event.play, event.score
            out.words.extend(event.words)
            out.detail = "correction" if event.correction else ""
        elif isinstance(event, ev.Exchanged):
            own = role == event.player
            out.move = "-" + (write_tiles(((t, False) for t in event.tiles), state.rule_set.tile_set) if own
                              else str(len(event.tiles)))
        elif isinstance(event, ev.Passed):
            out.move, out.detail = "-", event.reason
        elif isinstance(event, ev.Challenged):
            out.detail = event.outcome
            out.words.extend(event.invalid_words)
            out.score = -event.penalty
        elif isinstance(event, ev.CorrectionRefused):
            out.move, out.detail = event.play, "correction refused: " + ", ".join(event.invalid_words)
        elif isinstance(event, ev.GameEnded):
            out.detail = event.reason
        elif isinstance(event, ev.ScoreAdjusted):
            out.score, out.detail = event.delta, event.reason
        elif isinstance(event, ev.MoveUndone):
            out.detail = f"undid version {event.target}: {event.reason}"
        elif isinstance(event, ev.GameCreated):
            out.detail = f"lexicon {event.lexicon}, rule set {state.rule_set.id}"
        if isinstance(role, int) and role == player:
            out.rack = state.rack_text(role)
        return out
