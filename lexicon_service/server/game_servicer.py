"""GameService: ValidateMove, ScoreMove, ReplayGame, ListRuleSets, ExportGcg, GenerateMoves, AnalyseGame.

A move is judged under the rule set of the lexicon named in the request; a `rule_set` given as well
must be that same rule set (INVALID_ARGUMENT otherwise), so a Polish lexicon is never used with Czech
tiles. A missing field or client input around the play that cannot be read (board rows, rack, GCG
text) is INVALID_ARGUMENT naming the field; whatever the play itself says, an unreadable coordinate
included, is a normal answer (valid: false) with the rules engine's reason code (rules/reasons.py).
The answers are built in core/messages.py (its typed enums from the rules engine's own names, so a code
without an enum value fails at import); ExportGcg is core/export.py.
"""

from __future__ import annotations

from lexicon_service.core import plays
from lexicon_service.core.export import export_record
from lexicon_service.core.messages import (
    generate_moves_response, move_response, replay_response, rule_set_info, turn_analysis,
)
from lexicon_service.games.lookahead import SimulationAsk, simulate_moves
from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
from lexicon_service.rules import list_rule_sets, load_rule_set
from lexicon_service.rules.gcg import format_gcg
from lexicon_service.errors import LimitError, require
from lexicon_service.server.errors import grpc_method
from lexicon_service.core.limits import Limits, check_deadline
from lexicon_service.games.lookahead import LookaheadOptions, analyse_ahead
from lexicon_service.movegen.analysis import annotate


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
        setup = [(play.position, play.word) for play in request.setup]
        with self.registry.acquire() as snapshot:
            if request.simulate:
                ask = SimulationAsk(
                    spread=request.spread, candidates=request.sim_candidates, iterations=request.sim_iterations,
                    plies=request.sim_plies if request.HasField("sim_plies") else None, seed=request.sim_seed)
                generated, found = simulate_moves(snapshot, self.limits, request.lexicon, request.rule_set,
                                                  request.board, setup, request.rack, filters, ask, call_deadline)
                return generate_moves_response(generated, request.lexicon, found)
            generated = plays.generate(snapshot, self.limits, request.lexicon, request.rule_set, request.board,
                                       setup, request.rack, filters, call_deadline)
        return generate_moves_response(generated, request.lexicon)

    def replay_game(self, request, deadline: float | None = None, context=None):
        check_deadline(deadline)
        with self.registry.acquire() as snapshot:
            replayed = plays.replay_record(snapshot, self.limits, request.lexicon, request.rule_set, request.gcg,
                                           end_2x=request.end_2x)
        return replay_response(replayed, request.lexicon)

    def analyse_game(self, request, deadline: float | None = None, context=None):
        check_deadline(deadline)
        call_deadline = deadline
        with self.registry.acquire() as snapshot:
            replayed, turns = plays.analyse_record(snapshot, self.limits, request.lexicon, request.rule_set,
                                                   request.gcg, call_deadline)
            if request.simulate:
                analyse_ahead(replayed, turns, LookaheadOptions(seconds=1.0),
                              plays.analysis_deadline(self.limits, call_deadline), share_time=True)
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
            return export_record(rule_set, lexicon, request)

    # the gRPC methods: the plain methods above, with the call's deadline
    ValidateMove = grpc_method(validate_move)
    ScoreMove = grpc_method(score_move)
    GenerateMoves = grpc_method(generate_moves)
    ReplayGame = grpc_method(replay_game)
    AnalyseGame = grpc_method(analyse_game)
    ListRuleSets = grpc_method(list_rule_sets)
    ExportGcg = grpc_method(export_gcg)


