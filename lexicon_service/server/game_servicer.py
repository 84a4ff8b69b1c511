"""GameService: ValidateMove, ScoreMove, ReplayGame, ListRuleSets, ExportGcg, GenerateMoves, AnalyseGame.

A move is judged under the rule set of the lexicon named in the request; a `rule_set` given as well
must be that same rule set (INVALID_ARGUMENT otherwise), so a Polish lexicon is never used with Czech
tiles. A missing field or client input around the play that cannot be read (board rows, rack, GCG
text) is INVALID_ARGUMENT naming the field; whatever the play itself says, an unreadable coordinate
included, is a normal answer (valid: false) with the rules engine's reason code (rules/reasons.py).
The typed enums of the answers (MoveReason, ReplayEventType, the rule-set enums) are filled from the
tables below, built from the rules engine's own names, so a code without an enum value fails at import.
"""

from __future__ import annotations

import re

from lexicon_service.core import plays
from lexicon_service.core.messages import generated_move, move_response, replay_response, rule_set_info, turn_analysis
from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
from lexicon_service.rules import list_rule_sets, load_rule_set
from lexicon_service.rules import gcg
from lexicon_service.rules.gcg import GcgEvent, GcgGame, GcgPlayer, format_gcg
from lexicon_service.rules.replay import replay
from lexicon_service.tiles import UnknownLetterError
from lexicon_service.errors import FieldError, LimitError, field, require
from lexicon_service.server.errors import grpc_method
from lexicon_service.core.limits import Limits, check_deadline
from lexicon_service.wording import counted


class GameServicer(game_pb2_grpc.GameServiceServicer):
    def __init__(self, registry, limits: Limits | None = None) -> None:
        self.registry = registry
        self.limits = limits or Limits()

    # --- request parsing (each failure names its field) -----------------------------------------
    @staticmethod
    def _context(snapshot, request, *, need_lexicon: bool):
        """(rule_set, lexicon or None) of a request; checks that they agree."""
        return plays.game_context(snapshot, request.lexicon, request.rule_set, need_lexicon=need_lexicon)

    # --- answers ---------------------------------------------------------------------------------
    def _move(self, request, deadline, response_type, *, judge_words: bool):
        check_deadline(deadline)
        with self.registry.acquire() as snapshot:
            move = plays.judge_move(snapshot, self.limits, request.lexicon, request.rule_set, request.board,
                                    request.rack, request.play.position, request.play.word, judge_words=judge_words)
        return move_response(response_type, move, request.lexicon)

    def validate_move(self, request, deadline: float | None = None, context=None):
        return self._move(request, deadline, game_pb2.ValidateMoveResponse, judge_words=True)

    def score_move(self, request, deadline: float | None = None, context=None):
        return self._move(request, deadline, game_pb2.ScoreMoveResponse, judge_words=False)

    def generate_moves(self, request, deadline: float | None = None, context=None):
        filters = plays.MoveFilters(
            limit=request.limit, sort=request.sort, min_length=request.min_length, must_use=request.must_use,
            must_contain=request.must_contain, bag_count=request.bag_count if request.HasField("bag_count") else None,
            plays_only=request.plays_only)
        check_deadline(deadline)
        call_deadline = deadline
        with self.registry.acquire() as snapshot:
            generated = plays.generate(snapshot, self.limits, request.lexicon, request.rule_set, request.board,
                                       [(play.position, play.word) for play in request.setup], request.rack,
                                       filters, call_deadline)
        return game_pb2.GenerateMovesResponse(
            moves=[generated_move(m) for m in generated.moves], truncated=generated.truncated,
            rule_set=generated.rule_set.id, lexicon=request.lexicon)

    def replay_game(self, request, deadline: float | None = None, context=None):
        check_deadline(deadline)
        with self.registry.acquire() as snapshot:
            replayed = plays.replay_record(snapshot, self.limits, request.lexicon, request.rule_set, request.gcg,
                                           end_2x=request.end_2x)
        return replay_response(replayed, request.lexicon)

    def analyse_game(self, request, deadline: float | None = None, context=None):
        from lexicon_service.movegen.analysis import annotate

        check_deadline(deadline)
        call_deadline = deadline
        with self.registry.acquire() as snapshot:
            replayed, turns = plays.analyse_record(snapshot, self.limits, request.lexicon, request.rule_set,
                                                   request.gcg, call_deadline)
        return game_pb2.AnalyseGameResponse(
            turns=[turn_analysis(t) for t in turns], annotated_gcg=format_gcg(annotate(replayed.game, turns)),
            rule_set=replayed.rule_set.id, lexicon=request.lexicon)

    def list_rule_sets(self, request, deadline: float | None = None, context=None):
        with self.registry.acquire() as snapshot:
            by_rule_set: dict[str, list[str]] = {}
            for name in snapshot.names():
                by_rule_set.setdefault(snapshot.lexicons[name].rule_set.id, []).append(name)
            rule_sets = dict(snapshot.rule_sets)
        for rid in list_rule_sets():
            if rid not in rule_sets:
                rule_sets[rid] = load_rule_set(rid)
        infos = [rule_set_info(rule_sets[rid], by_rule_set.get(rid, []), request.include_source)
                 for rid in sorted(rule_sets)]
        return game_pb2.ListRuleSetsResponse(rule_sets=infos)

    def export_gcg(self, request, deadline: float | None = None, context=None):
        n_players = len(request.players)
        require(n_players > 0, "players", "at least one player is required")
        if len(request.moves) > self.limits.max_gcg_lines:
            raise LimitError("moves", f"{len(request.moves)} moves; at most {self.limits.max_gcg_lines}")
        check_deadline(deadline)
        with self.registry.acquire() as snapshot:
            rule_set, lexicon = self._context(snapshot, request, need_lexicon=False)
            lo, hi = rule_set.game.players
            if not lo <= n_players <= hi:
                raise FieldError("players", f"{counted(n_players, 'player')}; {rule_set.id} is for {lo}-{hi}")
            game = GcgGame(players=_export_players(request.players), pragmas=[("rules", rule_set.id)])
            if request.lexicon:
                game.pragmas.append(("lexicon", request.lexicon))
            if request.description:
                require("\n" not in request.description and "\r" not in request.description,
                        "description", "one line of text")
                game.pragmas.append(("description", request.description))
            game.events = [_export_event(rule_set, game, i, move) for i, move in enumerate(request.moves)]
            # Scores come from the replay itself (one engine): a first pass computes them, the second
            # checks the finished record, whose every disagreement is a move that cannot be played.
            first = replay(rule_set, game, judge=lexicon)
            totals = [0] * n_players
            for i, (event, line) in enumerate(zip(game.events, first.lines)):
                if line.expected_score is None:
                    raise FieldError(_move_field(request.moves[i], i), "; ".join(line.problems) or "cannot be played")
                event.score = line.expected_score
                totals[line.player_index] += event.score
                event.cumulative = totals[line.player_index]
            report = replay(rule_set, game, judge=lexicon)
        for i, line in enumerate(report.lines):
            if line.problems:
                raise FieldError(_move_field(request.moves[i], i), "; ".join(line.problems))
        finals = [game_pb2.PlayerScore(player=p.nick, recorded=total, computed=total)
                  for p, total in zip(game.players, totals)]
        return game_pb2.ExportGcgResponse(gcg=format_gcg(game), scores=[e.score for e in game.events],
                                          final_scores=finals)

    # the gRPC methods: the plain methods above, with the call's deadline
    ValidateMove = grpc_method(validate_move)
    ScoreMove = grpc_method(score_move)
    GenerateMoves = grpc_method(generate_moves)
    ReplayGame = grpc_method(replay_game)
    AnalyseGame = grpc_method(analyse_game)
    ListRuleSets = grpc_method(list_rule_sets)
    ExportGcg = grpc_method(export_gcg)


_NICKNAME = re.compile(r"[\w.-]+")
_POSITION = re.compile(r"\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2}")


def _export_players(players) -> list[GcgPlayer]:
    out, seen = [], set()
    for i, player in enumerate(players):
        if not _NICKNAME.fullmatch(player.nickname):
            raise FieldError(f"players[{i}].nickname", f"{player.nickname!r}: letters, digits, '_', '-', '.' only")
        if player.nickname in seen:
            raise FieldError(f"players[{i}].nickname", f"{player.nickname!r} used twice")
        if "\n" in player.name or "\r" in player.name:
            raise FieldError(f"players[{i}].name", "one line of text")
        seen.add(player.nickname)
        out.append(GcgPlayer(player.nickname, " ".join(player.name.split())))
    return out


def _move_field(move, i: int) -> str:
    return f"moves[{i}].{move.WhichOneof('move')}"


def _export_event(rule_set, game: GcgGame, i: int, move) -> GcgEvent:
    """One move as a GCG event (scores filled in later); what cannot be written is an error."""
    where = f"moves[{i}]"
    if not 0 <= move.player < len(game.players):
        raise FieldError(f"{where}.player", f"{move.player}: no such player (0-{len(game.players) - 1})")
    which = move.WhichOneof("move")
    if which is None:
        raise FieldError(where, "one of play, exchange, pass, withdraw is required")
    tile_set = rule_set.tile_set
    rack = None
    if move.rack:
        with field(f"{where}.rack"):
            tiles = tile_set.spell_rack(move.rack)
        if len(tiles) > rule_set.rack_size:
            raise FieldError(f"{where}.rack", f"{len(tiles)} tiles; a {rule_set.id} rack holds {rule_set.rack_size}")
        rack = tile_set.rack_text(tiles)
    event = GcgEvent(line=0, player=game.players[move.player].nick, kind=gcg.PASS, score=0, cumulative=0, rack=rack)
    if which == "play":
        position, word = move.play.position.strip(), move.play.word.strip()
        if not _POSITION.fullmatch(position):
            raise FieldError(f"{where}.play.position", f"{position!r}: a coordinate like 8D (across) or D8 (down)")
        if not word or len(word.split()) != 1 or len(word) > 8 * max(rule_set.rows, rule_set.columns):
            raise FieldError(f"{where}.play.word", f"{word!r}: one word of tiles")
        event.kind, event.position, event.word = gcg.PLAY, position, word
    elif which == "exchange":
        exchanged = move.exchange.strip()
        if not exchanged.isdecimal():
            try:
                exchanged = tile_set.rack_text(tile_set.spell_rack(exchanged)) if exchanged else ""
            except UnknownLetterError as exc:
                raise FieldError(f"{where}.exchange", str(exc)) from exc
        if not exchanged or (exchanged.isdecimal() and not 0 < int(exchanged) <= rule_set.rack_size):
            raise FieldError(f"{where}.exchange", f"tiles ('ABC') or a count of 1-{rule_set.rack_size}")
        event.kind, event.exchanged = gcg.EXCHANGE, exchanged
    elif which == "withdraw":
        event.kind = gcg.WITHDRAWN
    return event
