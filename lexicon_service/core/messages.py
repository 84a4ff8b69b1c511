"""The API's answers as protobuf messages, built from the core's plain results: one module that writes
each answer's shape, which the gRPC servicers, the HTTP routes and the local commands' `--json` all use
(protobuf messages are data; nothing here knows a transport).
"""

from __future__ import annotations

import json
from itertools import repeat

from google.protobuf import struct_pb2

from lexicon_service.core import plays
from lexicon_service.grpc_gen import game_pb2, lexicon_pb2
from lexicon_service.rules import Reason, square_name
from lexicon_service.rules import gcg
from lexicon_service.rules.gcg import GcgEvent, GcgGame
from lexicon_service.rules.moves import premium_name
from lexicon_service.rules.notes import note_code
from lexicon_service.tiles import BLANK


# --- LexiconService ------------------------------------------------------------------------------
VALID = lexicon_pb2.WORD_STATUS_VALID


INVALID = lexicon_pb2.WORD_STATUS_INVALID


def _to_struct(mapping) -> struct_pb2.Struct:
    out = struct_pb2.Struct()
    if mapping:
        out.update(json.loads(json.dumps(mapping, default=_jsonable)))
    return out


def _jsonable(value):
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(map(str, value))
    return str(value)


def check_words_response(checks, lexicon_name: str, *, verdict_only: bool = False,
                         compact: bool = False) -> lexicon_pb2.CheckWordsResponse:
    """A checked batch (core.words.WordChecks) as CheckWords answers it (the local `check` too)."""
    response = lexicon_pb2.CheckWordsResponse(lexicon=lexicon_name, acceptable=checks.acceptable)
    if verdict_only:  # a word judge reveals only acceptable / not acceptable
        return response
    response.invalid_count = checks.invalid_count
    if compact:
        response.statuses.extend(checks.statuses)
    elif checks.tiles is not None:
        messages = checks.messages
        response.results.extend(
            lexicon_pb2.WordResult(word=word, valid=status == VALID, status=status, message=messages.get(i, ""),
                                   tiles=tiles)
            for i, (word, status, tiles) in enumerate(zip(checks.words, checks.statuses, checks.tiles)))
    else:
        add = response.results.add
        messages = checks.messages
        for i, (word, status) in enumerate(zip(checks.words, checks.statuses)):
            if status == VALID:
                add(word=word, valid=True, status=VALID)
            elif status == INVALID:
                add(word=word, status=INVALID)  # valid=False is the default: not set, ~20% cheaper
            else:
                add(word=word, valid=False, status=status, message=messages[i])
    return response


_STATUS_NAMES = {v.number: v.name for v in lexicon_pb2.WordStatus.DESCRIPTOR.values}


def check_words_json(checks, lexicon_name: str, *, verdict_only: bool = False, compact: bool = False) -> dict:
    """check_words_response's answer as its proto3 JSON dict (what MessageToDict with every field gives;
    tests/test_http.py compares them), written directly: for a large batch that costs a fraction of
    building the messages and reading them back. HTTP's CheckWords answers with it."""
    answer = {"lexicon": lexicon_name, "acceptable": checks.acceptable, "results": [],
              "invalidCount": 0 if verdict_only else checks.invalid_count, "statuses": []}
    names = _STATUS_NAMES
    if verdict_only:
        return answer
    if compact:
        answer["statuses"] = [names[s] for s in checks.statuses]
        return answer
    messages = checks.messages
    valid, invalid = names[VALID], names[INVALID]
    tiles = checks.tiles or repeat(())
    answer["results"] = [
        {"word": w, "valid": True, "status": valid, "tiles": list(t), "message": ""} if s == VALID else
        {"word": w, "valid": False, "status": invalid, "tiles": list(t), "message": messages.get(i, "")}
        if s == INVALID else
        {"word": w, "valid": False, "status": names[s], "tiles": list(t), "message": messages[i]}
        for i, (w, s, t) in enumerate(zip(checks.words, checks.statuses, tiles))]
    return answer


def explain_response(found, lexicon_name: str) -> lexicon_pb2.ExplainWordResponse:
    """A word explained (core.words.Explanation) as ExplainWord answers it (the local `explain` too)."""
    readings = [lexicon_pb2.Reading(form=r.form, headword=r.headword, tag=r.tag, rule=r.rule, model=r.model,
                                    origin=r.origin) for r in found.readings]
    result = lexicon_pb2.WordResult(word=found.word, valid=found.status == VALID, status=found.status,
                                    message=found.message, tiles=found.tiles)
    refusals = [lexicon_pb2.Refusal(rule=rule, headword=head, detail=detail) for rule, head, detail in found.refusals]
    code, values = note_code(found.message)
    return lexicon_pb2.ExplainWordResponse(lexicon=lexicon_name, result=result, readings=readings,
                                           refusals=refusals, message_code=code, message_values=values)


# --- GameService ------------------------------------------------------------------------------
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


# GeneratedMove.kind (lexicon_service/movegen) -> GeneratedMoveKind.
MOVE_KINDS = {kind: game_pb2.GeneratedMoveKind.Value(f"GENERATED_MOVE_KIND_{kind.upper()}")
              for kind in ("play", "exchange", "pass")}


def replay_response(replayed, lexicon_name: str) -> game_pb2.ReplayGameResponse:
    """A replayed record (core.plays.Replayed) as ReplayGame answers it."""
    game, report = replayed.game, replayed.report
    lines = []
    for line in report.lines:
        event = line.event
        lines.append(game_pb2.ReplayLine(
            line=event.line, text=event.text, player=event.player, kind=event.kind,
            position=event.position or "", word=event.word or "", ok=line.ok,
            has_score=line.expected_score is not None, score=line.expected_score or 0,
            recorded_score=event.score, recorded_total=event.cumulative, expected_total=line.expected_total,
            words=list(line.words), problems=list(line.problems), notes=list(line.notes),
            event_type=event_type(event), problem_details=replay_notes(line.problems),
            note_details=replay_notes(line.notes),
        ))
    finals = [game_pb2.PlayerScore(player=player.nick, recorded=recorded, computed=computed)
              for player, recorded, computed in zip(game.players, report.totals, report.expected_totals)]
    return game_pb2.ReplayGameResponse(ok=report.ok, lines=lines, final_scores=finals, notes=list(report.notes),
                                       rule_set=replayed.rule_set.id, lexicon=lexicon_name,
                                       final_board=report.board.to_rows(), bag_count=report.bag,
                                       final_racks=_final_racks(game, report),
                                       note_details=replay_notes(report.notes))


def replay_notes(notes) -> list[game_pb2.ReplayNote]:
    """A replay's notes or problems (rules.notes.Note: English text, code, values) as ReplayNote."""
    details = []
    for note in notes:
        code, values = note_code(note)
        details.append(game_pb2.ReplayNote(code=code, values=values, text=str(note)))
    return details


def turn_analysis(t) -> game_pb2.TurnAnalysis:
    """A movegen.analysis.TurnAnalysis as AnalyseGame answers it."""
    return game_pb2.TurnAnalysis(
        turn=t.turn, line=t.line, player=t.player, rack=t.rack or "", played=t.played,
        played_score=t.played_score, withdrawn=t.withdrawn, best=t.best or "", best_score=t.best_score,
        given_away=t.given_away, best_words=t.best_words, note=t.note, ahead=_lookahead(t.ahead),
        note_details=replay_notes(t.notes))


def _lookahead(a):
    """A movegen.analysis.LookedAhead as TurnAnalysis.ahead (None: unset)."""
    if a is None:
        return None
    return game_pb2.TurnLookahead(kind=a.kind, best=a.best, best_win_chance=a.best_win, best_mean_spread=a.best_spread,
                                  played_win_chance=a.played_win, played_mean_spread=a.played_spread,
                                  iterations=a.iterations, sequence=a.sequence)


def move_response(response_type, move, lexicon_name: str):
    """A judged play (core.plays.JudgedMove) as ValidateMove or ScoreMove (`response_type`) answers it."""
    result = move.result
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
        total=result.score or 0, rule_set=move.rule_set.id, lexicon=lexicon_name,
        reason_code=MOVE_REASONS[result.reason],
    )
    if move.board_after is not None:  # placed: the board after it, and the rack it leaves
        response.board.extend(move.board_after.to_rows())
    if move.leave is not None:
        response.rack_leave = move.leave
    return response


def score_response(result, rule_set, board_after) -> game_pb2.ScoreMoveResponse:
    """A placed play's MoveResult as ScoreMove answers it (no lexicon, no rack), given the board after it."""
    return move_response(game_pb2.ScoreMoveResponse, plays.JudgedMove(rule_set, result, board_after), "")


def generated_move(move) -> game_pb2.GeneratedMove:
    """A movegen.GeneratedMove as the API gives it (GenerateMoves, GetHint)."""
    return game_pb2.GeneratedMove(play=move.play, kind=MOVE_KINDS[move.kind], score=move.score, words=move.words,
                                  leave=move.leave, tiles_used=move.tiles_used)


def move_outlook(looked) -> game_pb2.MoveOutlook:
    """A games.lookahead.LookedMove as the API gives it (GenerateMoves and GetHint with simulate)."""
    return game_pb2.MoveOutlook(win_chance=looked.win_chance, mean_spread=looked.mean_spread,
                                iterations=looked.iterations, pruned=looked.pruned)


def generate_moves_response(generated, lexicon_name: str, found=None) -> game_pb2.GenerateMovesResponse:
    """GenerateMoves' answer: the moves (plays.Generated); with `found` (a games.lookahead.Lookahead, the
    moves simulated) their outlooks and how the look ahead went."""
    answer = game_pb2.GenerateMovesResponse(
        moves=[generated_move(m) for m in generated.moves], truncated=generated.truncated,
        rule_set=generated.rule_set.id, lexicon=lexicon_name)
    if found is not None:
        answer.outlooks.extend(move_outlook(m) for m in found.moves[:len(generated.moves)])
        answer.lookahead, answer.iterations, answer.stopped = found.kind, found.iterations, found.stopped
        answer.endgame_sequence.extend(found.sequence)
    return answer


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
