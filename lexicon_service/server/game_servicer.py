"""GameService: ValidateMove, ScoreMove, ReplayGame, ListRuleSets.

A move is judged under the rule set of the lexicon named in the request; a `rule_set` given as well
must be that same rule set (INVALID_ARGUMENT otherwise), so a Polish lexicon is never used with Czech
tiles. Parsing client input (board rows, rack, play position and word, GCG text) that fails is
INVALID_ARGUMENT naming the field; a well-formed play that breaks a rule is a normal answer
(valid: false) with the rules engine's reason code.
"""

from __future__ import annotations

import re

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
from lexicon_service.rules import Board, list_rule_sets, load_rule_set, parse_coordinate, parse_play, validate_move
from lexicon_service.rules.gcg import parse_gcg
from lexicon_service.rules.replay import replay
from lexicon_service.server.errors import FieldError, LimitError, field, require, rpc
from lexicon_service.server.limits import Limits, deadline_of
from lexicon_service.server.registry import resolve_rule_set


# Every line separator str.splitlines knows ("\r\n" is one); the GCG reader splits on fewer of them.
_LINE_BREAKS = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def count_lines(text: str) -> int:
    """Lines of `text` split on every line separator, without building the lines."""
    return sum(1 for _ in _LINE_BREAKS.finditer(text)) + 1


class GameServicer(game_pb2_grpc.GameServiceServicer):
    def __init__(self, registry, limits: Limits | None = None) -> None:
        self.registry = registry
        self.limits = limits or Limits()

    # --- request parsing (each failure names its field) -----------------------------------------
    def _context(self, snapshot, request, *, need_lexicon: bool):
        """(rule_set, lexicon or None) of a request; checks that they agree."""
        lexicon = None
        if request.lexicon:
            lexicon = snapshot.lexicon(request.lexicon)
        elif need_lexicon:
            raise FieldError("lexicon", "required")
        if lexicon is not None:
            rule_set = lexicon.rule_set
            if request.rule_set and request.rule_set != rule_set.id:
                raise FieldError("rule_set", f"lexicon {request.lexicon!r} is for rule set {rule_set.id!r}, "
                                             f"not {request.rule_set!r}")
            return rule_set, lexicon
        if not request.rule_set:
            raise FieldError("lexicon", "a lexicon or a rule_set is required")
        return resolve_rule_set(snapshot, request.rule_set), None

    def _board(self, rule_set, rows):
        if not rows:
            return Board.empty(rule_set)
        if len(rows) > self.limits.max_board_rows:
            raise LimitError("board", f"{len(rows)} rows; a board has at most {self.limits.max_board_rows}")
        for i, row in enumerate(rows):
            if len(row) > 8 * self.limits.max_board_rows:
                raise LimitError(f"board[{i}]", f"{len(row)} characters; too long for a board row")
        with field("board"):
            return Board.from_rows(rule_set, list(rows))

    def _rack(self, rule_set, rack: str) -> str:
        if len(rack) > 4 * max(rule_set.rack_size, 8):
            raise LimitError("rack", f"{len(rack)} characters; too long for a rack")
        if rack:
            with field("rack"):
                tiles = rule_set.tile_set.spell_rack(rack)
            if len(tiles) > rule_set.rack_size:
                raise FieldError("rack", f"{len(tiles)} tiles; a {rule_set.id} rack holds {rule_set.rack_size}")
        return rack

    def _play(self, rule_set, play):
        require(bool(play.position), "play.position", "required (e.g. '8D' across, 'D8' down)")
        require(bool(play.word), "play.word", "required")
        if len(play.word) > 8 * max(rule_set.rows, rule_set.columns):
            raise LimitError("play.word", f"{len(play.word)} characters; longer than the board")
        with field("play.position"):
            parse_coordinate(play.position, rule_set)
        with field("play.word"):
            parsed, expected = parse_play(rule_set, play.position, play.word)
        # "S(PRÓBUJE)MY" notation: the engine re-parses to check the letters in parentheses
        return parsed if expected is None else (play.position, play.word)

    # --- answers ---------------------------------------------------------------------------------
    @staticmethod
    def _move_response(result, rule_set, lexicon_name: str):
        invalid = list(result.invalid_words or ())
        invalid_set = set(invalid)
        words = []
        breakdown = result.breakdown
        bingo_bonus = 0
        if breakdown is not None:
            bingo_bonus = breakdown.bingo_bonus
            for i, w in enumerate(breakdown.words):
                tiles = [game_pb2.TileScore(letter=t.letter, points=t.points, premium=t.premium or "",
                                            blank=t.is_blank, new=t.is_new) for t in w.tiles]
                words.append(game_pb2.WordScore(
                    word=w.text, main=i == 0, valid=w.text not in invalid_set, tiles=tiles,
                    letter_sum=w.letter_sum, multiplier=w.word_multiplier, subtotal=w.subtotal,
                ))
        return game_pb2.MoveResponse(
            valid=result.valid, reason=result.reason.value, message=result.message or "",
            invalid_words=invalid, words=words, bingo=result.bingo, bingo_bonus=bingo_bonus,
            total=result.score or 0, rule_set=rule_set.id, lexicon=lexicon_name,
        )

    def _move(self, request, context, *, judge_words: bool):
        deadline_of(context)
        with self.registry.acquire() as snapshot:
            rule_set, lexicon = self._context(snapshot, request, need_lexicon=judge_words)
            board = self._board(rule_set, request.board)
            rack = self._rack(rule_set, request.rack)
            play = self._play(rule_set, request.play)
            judge = lexicon if judge_words else None
            result = validate_move(rule_set, board, rack or None, play, judge=judge)
            return self._move_response(result, rule_set, request.lexicon)

    @rpc
    def ValidateMove(self, request, context):
        return self._move(request, context, judge_words=True)

    @rpc
    def ScoreMove(self, request, context):
        return self._move(request, context, judge_words=False)

    @rpc
    def ReplayGame(self, request, context):
        gcg = request.gcg
        if len(gcg) > self.limits.max_gcg_chars:
            raise LimitError("gcg", f"{len(gcg)} characters; at most {self.limits.max_gcg_chars}")
        require(bool(gcg.strip()), "gcg", "empty record")
        n_lines = count_lines(gcg)
        if n_lines > self.limits.max_gcg_lines:
            raise LimitError("gcg", f"{n_lines} lines; at most {self.limits.max_gcg_lines}")
        deadline_of(context)
        with field("gcg"):
            game = parse_gcg(request.gcg, "<request>")
        recorded_rules = next((args.strip().split()[0] for keyword, args in game.pragmas
                               if keyword == "rules" and args.strip()), "")
        with self.registry.acquire() as snapshot:
            if request.lexicon or request.rule_set:
                rule_set, lexicon = self._context(snapshot, request, need_lexicon=False)
            elif recorded_rules:
                rule_set, lexicon = resolve_rule_set(snapshot, recorded_rules), None
            else:
                raise FieldError("lexicon", "a lexicon or a rule_set is required (the record has no #rules)")
            if recorded_rules and recorded_rules != rule_set.id:
                raise FieldError("gcg", f"the record is for rule set {recorded_rules!r}, not {rule_set.id!r}")
            report = replay(rule_set, game, judge=lexicon)
        lines = []
        for line in report.lines:
            event = line.event
            lines.append(game_pb2.ReplayLine(
                line=event.line, text=event.text, player=event.player, kind=event.kind,
                position=event.position or "", word=event.word or "", ok=line.ok,
                has_score=line.expected_score is not None, score=line.expected_score or 0,
                recorded_score=event.score, recorded_total=event.cumulative, expected_total=line.expected_total,
                words=list(line.words), problems=list(line.problems), notes=list(line.notes),
            ))
        finals = [game_pb2.PlayerScore(player=player.nick, recorded=recorded, computed=computed)
                  for player, recorded, computed in zip(game.players, report.totals, report.expected_totals)]
        return game_pb2.ReplayGameResponse(ok=report.ok, lines=lines, final_scores=finals, notes=list(report.notes),
                                           rule_set=rule_set.id, lexicon=request.lexicon)

    @rpc
    def ListRuleSets(self, request, context):
        with self.registry.acquire() as snapshot:
            by_rule_set: dict[str, list[str]] = {}
            for name in snapshot.names():
                by_rule_set.setdefault(snapshot.lexicons[name].rule_set.id, []).append(name)
            rule_sets = dict(snapshot.rule_sets)
        for rid in list_rule_sets():
            if rid not in rule_sets:
                rule_sets[rid] = load_rule_set(rid)
        infos = []
        for rid in sorted(rule_sets):
            rs = rule_sets[rid]
            ts = rs.tile_set
            tiles = [game_pb2.TileInfo(letter=t.letter, points=t.points, count=t.count) for t in ts.tiles]
            if ts.blank_count:
                tiles.append(game_pb2.TileInfo(letter="?", points=ts.blank_points, count=ts.blank_count))
            infos.append(game_pb2.RuleSetInfo(
                id=rid, language=rs.language, rack_size=rs.rack_size, board_size=max(rs.rows, rs.columns),
                bingo_bonus=rs.bingo_bonus, tiles=tiles, blank_letters=list(ts.blank_letters),
                lexicons=by_rule_set.get(rid, []),
                source_text=rs.source_text if request.include_source else "",
            ))
        return game_pb2.ListRuleSetsResponse(rule_sets=infos)
