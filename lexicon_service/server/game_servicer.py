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
import time

from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
from lexicon_service.rules import (Board, Reason, SetupError, apply_setup, list_rule_sets, load_rule_set,
                                   square_name, validate_move)
from lexicon_service.rules import gcg
from lexicon_service.rules.gcg import GcgEvent, GcgGame, GcgPlayer, format_gcg, parse_gcg
from lexicon_service.rules.moves import premium_name
from lexicon_service.rules.replay import replay
from lexicon_service.tiles import BLANK, UnknownLetterError
from lexicon_service.server.errors import DeadlineError, FieldError, LimitError, field, require, rpc
from lexicon_service.server.limits import Limits, deadline_of
from lexicon_service.server.registry import resolve_rule_set

# Reason (rules/reasons.py) -> MoveReason: every code has the enum value of its name.
MOVE_REASONS = {reason: game_pb2.MoveReason.Value(f"MOVE_REASON_{reason.name}") for reason in Reason}
# GCG event kind (rules/gcg.py) -> ReplayEventType; END_RACK splits by GcgEvent.own_end_rack.
EVENT_TYPES = {
    gcg.PLAY: game_pb2.REPLAY_EVENT_TYPE_TILE_PLACEMENT_MOVE,
    gcg.WITHDRAWN: game_pb2.REPLAY_EVENT_TYPE_PHONY_TILES_RETURNED,
    gcg.EXCHANGE: game_pb2.REPLAY_EVENT_TYPE_EXCHANGE,
    gcg.PASS: game_pb2.REPLAY_EVENT_TYPE_PASS,
    gcg.CHALLENGE_BONUS: game_pb2.REPLAY_EVENT_TYPE_CHALLENGE_BONUS,
    gcg.TIME_PENALTY: game_pb2.REPLAY_EVENT_TYPE_TIME_PENALTY,
    gcg.END_RACK: game_pb2.REPLAY_EVENT_TYPE_END_RACK_POINTS,
}


def event_type(event: GcgEvent) -> int:
    if event.kind == gcg.END_RACK and event.own_end_rack:
        return game_pb2.REPLAY_EVENT_TYPE_END_RACK_PENALTY
    return EVENT_TYPES[event.kind]


def _enum_value(enum, prefix: str, choice: str) -> int:
    """A rule-set choice ("others-racks") as its enum value (OUT_BONUS_OTHERS_RACKS)."""
    return enum.Value(f"{prefix}_{choice.upper().replace('-', '_')}")


# AnalyseGame: the whole analysis may take this many times ServerLimits.max_generate_seconds (5 s by default;
# the 50 turns of a real Polish game take 0.12 s).
ANALYSIS_GENERATIONS = 5

# GeneratedMove.kind (lexicon_service/movegen) -> GeneratedMoveKind.
MOVE_KINDS = {kind: game_pb2.GeneratedMoveKind.Value(f"GENERATED_MOVE_KIND_{kind.upper()}")
              for kind in ("play", "exchange", "pass")}


# Every line separator str.splitlines knows ("\r\n" is one); the GCG reader splits on fewer of them.
_LINE_BREAKS = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def count_lines(text: str) -> int:
    """Lines of `text` as len(text.splitlines()) counts them (a separator ends a line: a last line with a
    newline is not followed by an empty one), without building the lines."""
    breaks = 0
    last_end = 0
    for match in _LINE_BREAKS.finditer(text):
        breaks += 1
        last_end = match.end()
    return breaks + (last_end < len(text))


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

    def _setup(self, rule_set, board, plays) -> None:
        """Put the request's setup plays on `board` (words not judged); each failure names its play."""
        if len(plays) > rule_set.rows * rule_set.columns:
            raise LimitError("setup", f"{len(plays)} plays; more than the board has squares")
        for i, play in enumerate(plays):
            require(bool(play.position), f"setup[{i}].position", "required (e.g. '8D' across, 'D8' down)")
            require(bool(play.word), f"setup[{i}].word", "required")
            if len(play.word) > 8 * max(rule_set.rows, rule_set.columns):
                raise LimitError(f"setup[{i}].word", f"{len(play.word)} characters; longer than the board")
        try:
            apply_setup(rule_set, board, [(play.position, play.word) for play in plays])
        except SetupError as exc:
            raise FieldError(f"setup[{exc.index}]", str(exc)) from None

    def _play(self, rule_set, play):
        require(bool(play.position), "play.position", "required (e.g. '8D' across, 'D8' down)")
        require(bool(play.word), "play.word", "required")
        if len(play.word) > 8 * max(rule_set.rows, rule_set.columns):
            raise LimitError("play.word", f"{len(play.word)} characters; longer than the board")
        # What the play says is judged (valid: false with its reason code), as in ReplayGame and the CLI.
        return (play.position, play.word)

    # --- answers ---------------------------------------------------------------------------------
    @staticmethod
    def _move_response(response_type, result, rule_set, lexicon_name: str, board, rack: str):
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
        response = response_type(
            valid=result.valid, reason=result.reason.value, message=result.message or "",
            invalid_words=invalid, words=words, bingo=result.bingo, bingo_bonus=bingo_bonus,
            total=result.score or 0, rule_set=rule_set.id, lexicon=lexicon_name,
            reason_code=MOVE_REASONS[result.reason],
        )
        if result.score is not None:  # placed: the board after it, and the rack it leaves
            after = board.copy()
            after.apply(result)
            response.board.extend(after.to_rows())
            if rack:
                leave = list(rule_set.tile_set.spell_rack(rack))
                try:
                    for tile in result.tiles_used:
                        leave.remove(tile)
                except ValueError:
                    pass  # TILE_NOT_IN_RACK: no leave
                else:
                    response.rack_leave = rule_set.tile_set.rack_text(leave)
        return response

    def _move(self, request, context, response_type, *, judge_words: bool):
        deadline_of(context)
        with self.registry.acquire() as snapshot:
            rule_set, lexicon = self._context(snapshot, request, need_lexicon=judge_words)
            board = self._board(rule_set, request.board)
            rack = self._rack(rule_set, request.rack)
            play = self._play(rule_set, request.play)
            judge = lexicon if judge_words else None
            result = validate_move(rule_set, board, rack or None, play, judge=judge)
            return self._move_response(response_type, result, rule_set, request.lexicon, board, rack)

    @rpc
    def ValidateMove(self, request, context):
        return self._move(request, context, game_pb2.ValidateMoveResponse, judge_words=True)

    @rpc
    def ScoreMove(self, request, context):
        return self._move(request, context, game_pb2.ScoreMoveResponse, judge_words=False)

    @rpc
    def GenerateMoves(self, request, context):
        from lexicon_service.movegen import generate_moves

        limits = self.limits
        if not 0 <= request.limit <= limits.max_results:
            raise LimitError("limit", f"{request.limit} moves; 0 (the server's maximum) to {limits.max_results}")
        limit = request.limit or limits.max_results
        for name in ("must_use", "must_contain", "sort"):
            value = getattr(request, name)
            if len(value) > limits.max_word_chars:
                raise LimitError(name, f"{len(value)} characters; at most {limits.max_word_chars}")
        # The call's deadline, and the server's own bound on one generation: a worker is never held longer.
        call_deadline = deadline_of(context)
        deadline = time.monotonic() + limits.max_generate_seconds
        if call_deadline is not None:
            deadline = min(deadline, call_deadline)
        with self.registry.acquire() as snapshot:
            rule_set, lexicon = self._context(snapshot, request, need_lexicon=True)
            board = self._board(rule_set, request.board)
            self._setup(rule_set, board, request.setup)
            require(bool(request.rack), "rack", "required (e.g. 'KOTABC?')")
            rack = self._rack(rule_set, request.rack)
            # The generator checks the rest (the blanks and letters the set has, the filters) and names the
            # field of what it refuses (MoveGenerationError, mapped in errors.py).
            try:
                moves = generate_moves(
                    rule_set, board, rack, lexicon, limit=limit + 1, sort=request.sort or "score",
                    min_length=request.min_length or None, must_use=request.must_use or None,
                    must_contain=request.must_contain or None,
                    bag_count=request.bag_count if request.HasField("bag_count") else None,
                    include_exchanges=not request.plays_only, include_pass=not request.plays_only,
                    deadline=deadline)
            except TimeoutError:  # the generator's own check of `deadline`
                if call_deadline is not None and deadline == call_deadline:
                    raise DeadlineError("move generation") from None
                raise DeadlineError(f"move generation (at most {limits.max_generate_seconds:g} s on this server)") \
                    from None
        return game_pb2.GenerateMovesResponse(
            moves=[generated_move(m) for m in moves[:limit]],
            truncated=len(moves) > limit, rule_set=rule_set.id, lexicon=request.lexicon)

    def _record(self, gcg: str) -> tuple[GcgGame, str]:
        """The request's GCG record (bounded by the server's limits) and the rule set its #rules names."""
        if len(gcg) > self.limits.max_gcg_chars:
            raise LimitError("gcg", f"{len(gcg)} characters; at most {self.limits.max_gcg_chars}")
        require(bool(gcg.strip()), "gcg", "empty record")
        n_lines = count_lines(gcg)
        if n_lines > self.limits.max_gcg_lines:
            raise LimitError("gcg", f"{n_lines} lines; at most {self.limits.max_gcg_lines}")
        with field("gcg"):
            game = parse_gcg(gcg, "<request>")
        recorded_rules = next((args.strip().split()[0] for keyword, args in game.pragmas
                               if keyword == "rules" and args.strip()), "")
        return game, recorded_rules

    @rpc
    def ReplayGame(self, request, context):
        deadline_of(context)
        game, recorded_rules = self._record(request.gcg)
        with self.registry.acquire() as snapshot:
            if request.lexicon or request.rule_set:
                rule_set, lexicon = self._context(snapshot, request, need_lexicon=False)
            elif recorded_rules:
                rule_set, lexicon = resolve_rule_set(snapshot, recorded_rules), None
            else:
                raise FieldError("lexicon", "a lexicon or a rule_set is required (the record has no #rules)")
            if recorded_rules and recorded_rules != rule_set.id:
                raise FieldError("gcg", f"the record is for rule set {recorded_rules!r}, not {rule_set.id!r}")
            report = replay(rule_set, game, judge=lexicon, out_bonus="twice-others-racks" if request.end_2x else None)
        lines = []
        for line in report.lines:
            event = line.event
            lines.append(game_pb2.ReplayLine(
                line=event.line, text=event.text, player=event.player, kind=event.kind,
                position=event.position or "", word=event.word or "", ok=line.ok,
                has_score=line.expected_score is not None, score=line.expected_score or 0,
                recorded_score=event.score, recorded_total=event.cumulative, expected_total=line.expected_total,
                words=list(line.words), problems=list(line.problems), notes=list(line.notes),
                event_type=event_type(event),
            ))
        finals = [game_pb2.PlayerScore(player=player.nick, recorded=recorded, computed=computed)
                  for player, recorded, computed in zip(game.players, report.totals, report.expected_totals)]
        return game_pb2.ReplayGameResponse(ok=report.ok, lines=lines, final_scores=finals, notes=list(report.notes),
                                           rule_set=rule_set.id, lexicon=request.lexicon,
                                           final_board=report.board.to_rows(), bag_count=report.bag,
                                           final_racks=_final_racks(game, report))

    @rpc
    def AnalyseGame(self, request, context):
        from lexicon_service.movegen.analysis import analyse_game, annotate

        call_deadline = deadline_of(context)
        game, recorded_rules = self._record(request.gcg)
        # A record may hold up to max_gcg_lines turns: the whole analysis gets a few generations' time.
        budget = ANALYSIS_GENERATIONS * self.limits.max_generate_seconds
        deadline = time.monotonic() + budget
        if call_deadline is not None:
            deadline = min(deadline, call_deadline)
        with self.registry.acquire() as snapshot:
            rule_set, lexicon = self._context(snapshot, request, need_lexicon=True)
            if recorded_rules and recorded_rules != rule_set.id:
                raise FieldError("gcg", f"the record is for rule set {recorded_rules!r}, not {rule_set.id!r}")
            try:
                turns = analyse_game(rule_set, game, lexicon, deadline=deadline,
                                     turn_seconds=self.limits.max_generate_seconds)
            except TimeoutError:  # the generator's own check of the deadlines
                if call_deadline is not None and deadline == call_deadline:
                    raise DeadlineError("game analysis") from None
                raise DeadlineError(f"game analysis (at most {budget:g} s on this server, "
                                    f"{self.limits.max_generate_seconds:g} s a turn)") from None
        return game_pb2.AnalyseGameResponse(
            turns=[game_pb2.TurnAnalysis(
                turn=t.turn, line=t.line, player=t.player, rack=t.rack or "", played=t.played,
                played_score=t.played_score, withdrawn=t.withdrawn, best=t.best or "", best_score=t.best_score,
                given_away=t.given_away, best_words=t.best_words, note=t.note) for t in turns],
            annotated_gcg=format_gcg(annotate(game, turns)), rule_set=rule_set.id, lexicon=request.lexicon)

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
        infos = [rule_set_info(rule_sets[rid], by_rule_set.get(rid, []), request.include_source)
                 for rid in sorted(rule_sets)]
        return game_pb2.ListRuleSetsResponse(rule_sets=infos)

    @rpc
    def ExportGcg(self, request, context):
        n_players = len(request.players)
        require(n_players > 0, "players", "at least one player is required")
        if len(request.moves) > self.limits.max_gcg_lines:
            raise LimitError("moves", f"{len(request.moves)} moves; at most {self.limits.max_gcg_lines}")
        deadline_of(context)
        with self.registry.acquire() as snapshot:
            rule_set, lexicon = self._context(snapshot, request, need_lexicon=False)
            lo, hi = rule_set.game.players
            if not lo <= n_players <= hi:
                raise FieldError("players", f"{n_players} players; {rule_set.id} is for {lo}-{hi}")
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


def generated_move(move) -> game_pb2.GeneratedMove:
    """A movegen.GeneratedMove as the API gives it (GenerateMoves, GetHint)."""
    return game_pb2.GeneratedMove(play=move.play, kind=MOVE_KINDS[move.kind], score=move.score, words=move.words,
                                  leave=move.leave, tiles_used=move.tiles_used)


def rule_set_info(rs, lexicons, include_source: bool):
    """Every rule of a rule set as RuleSetInfo fields."""
    ts = rs.tile_set
    tiles = [game_pb2.TileInfo(letter=t.letter, points=t.points, count=t.count) for t in ts.tiles]
    if ts.blank_count:
        tiles.append(game_pb2.TileInfo(letter=BLANK, points=ts.blank_points, count=ts.blank_count))
    premiums = []
    for row in range(rs.rows):
        for col in range(rs.columns):
            letter_mult, word_mult = rs.premium(row, col)
            name = premium_name(letter_mult, word_mult)
            if name:
                premiums.append(game_pb2.PremiumSquare(
                    row=row, column=col, square=square_name(row, col), premium=name,
                    letter_multiplier=letter_mult, word_multiplier=word_mult))
    cover = rs.first_play.must_cover
    return game_pb2.RuleSetInfo(
        id=rs.id, language=rs.language, rack_size=rs.rack_size, board_size=max(rs.rows, rs.columns),
        bingo_bonus=rs.bingo_bonus, tiles=tiles, blank_letters=list(ts.blank_letters), lexicons=lexicons,
        source_text=rs.source_text if include_source else "",
        name=rs.name, rows=rs.rows, columns=rs.columns, premium_squares=premiums, bingo_tiles=rs.bingo_tiles,
        total_tiles=ts.total_tiles, min_players=rs.game.players[0], max_players=rs.game.players[1],
        first_play=game_pb2.FirstPlayRules(must_cover=square_name(*cover) if cover else "",
                                           min_tiles=rs.first_play.min_tiles,
                                           redraw_if_blocked=rs.first_play.redraw_if_blocked),
        later_plays=game_pb2.LaterPlayRules(must_connect=rs.later_plays.must_connect),
        words=game_pb2.WordRules(min_length=rs.words.min_length,
                                 same_word_twice_allowed=rs.same_word_twice_allowed),
        exchange=game_pb2.ExchangeRules(allowed=rs.exchange.allowed,
                                        min_tiles_in_bag=rs.exchange.min_tiles_in_bag),
        end=game_pb2.EndRules(scoreless_turns=rs.end.scoreless_turns, passing_rounds=rs.end.passing_rounds,
                              subtract_own_rack=rs.end.subtract_own_rack,
                              out_bonus=_enum_value(game_pb2.EndRules.OutBonus, "OUT_BONUS", rs.end.out_bonus)),
        challenge=game_pb2.ChallengeRules(
            rule=_enum_value(game_pb2.ChallengeRules.Rule, "RULE", rs.challenge.rule),
            penalty_points=rs.challenge.penalty_points, corrections=rs.challenge.corrections,
            correction_seconds=rs.challenge.correction_seconds),
        timer=game_pb2.TimerRules(move_seconds=rs.timer.move_seconds,
                                  timeout=_enum_value(game_pb2.TimerRules.Timeout, "TIMEOUT", rs.timer.timeout)),
    )


def _final_racks(game: GcgGame, report) -> list:
    """Each player's rack at the end: its tile count, and its tiles when the record shows them."""
    known: dict[int, str] = {}
    for i, player in enumerate(game.players):
        if player.nick in game.final_racks:
            known[i] = game.final_racks[player.nick]
    for event in game.events:
        if event.kind == gcg.END_RACK:
            p = game.player_index(event.player)
            if event.own_end_rack:
                known[p] = event.end_rack
            elif len(game.players) == 2:  # the others' racks are the one other player's
                known[1 - p] = event.end_rack
    racks = []
    for i, player in enumerate(game.players):
        count = report.rack_counts[i] if i < len(report.rack_counts) else 0
        rack = known.get(i, "" if count == 0 else None)
        racks.append(game_pb2.PlayerRack(player=player.nick, tile_count=count, rack_known=rack is not None,
                                         rack=rack or ""))
    return racks


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
