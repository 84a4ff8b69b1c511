"""The game viewer's call (`POST /v1/games:view`): ReplayGame, plus what a picture of the game needs.

The record is parsed and replayed once (core.plays.view_record): the lines are ReplayGame's answer, each
play's per-word, per-tile breakdown is ScoreMove's answer made from the play's result in that replay, the
boards are the replay's own, and each turn's best move (AnalyseGame's analysis, when the lexicon has a
move graph) is found on those boards; so no rule is restated here.
"""

from __future__ import annotations

from google.protobuf import json_format

from lexicon_service.grpc_gen import game_pb2
from lexicon_service.core.plays import view_record
from lexicon_service.rules.board import Board
from lexicon_service.rules.moves import premium_name, validate_move
from lexicon_service.core.messages import replay_response, score_response, turn_analysis
from lexicon_service.core.limits import check_deadline
from lexicon_service.tiles import BLANK


def _dict(message) -> dict:
    return json_format.MessageToDict(message, always_print_fields_with_no_presence=True)


def layout(rule_set) -> dict:
    """The board's geometry, premium squares and tile values, for drawing."""
    premiums = [[premium_name(*rule_set.premium(r, c)) or "" for c in range(rule_set.columns)]
                for r in range(rule_set.rows)]
    tile_set = rule_set.tile_set
    centre = rule_set.first_play.must_cover
    return {
        "ruleSet": rule_set.id,
        "language": rule_set.language,
        "rows": rule_set.rows,
        "columns": rule_set.columns,
        "premiums": premiums,
        "start": list(centre) if centre else None,
        "points": {t.letter: t.points for t in tile_set.tiles},
        "blankPoints": tile_set.blank_points,
        "blank": BLANK,
    }


def best_step(rule_set, board_before, turn) -> dict:
    """A turn's analysis for the viewer: the TurnAnalysis fields, and for a best play the board after it
    ("bestBoard", cells) and the squares it fills ("bestSquares", [row, column])."""
    out = _dict(turn)
    if turn.best and not turn.best.startswith("-"):
        board = board_before.copy() if board_before is not None else Board.empty(rule_set)
        result = validate_move(rule_set, board, None, turn.best)
        if result.score is not None:   # always: the generator's own play, on the board it was made for
            board.apply(result)
            out["bestBoard"] = board.cells()
            out["bestSquares"] = [[row, col] for row, col, _letter, _blank in result.placements]
    return out


def view_game(registry, limits, request: game_pb2.ReplayGameRequest, deadline: float | None) -> dict:
    """{"replay": ReplayGameResponse, "layout": ..., "steps": [{"board": cells, "move": ScoreMoveResponse|null,
    "recordNotes": the event's #note lines, "best": the turn's analysis|null}]}, one step per replay line;
    "best" is there for plays, exchanges and passes when the request names a lexicon with a move graph
    (see best_step). Errors are the app layer's domain errors."""
    check_deadline(deadline)
    with registry.acquire() as snapshot:
        view = view_record(snapshot, limits, request.lexicon, request.rule_set, request.gcg, deadline,
                           end_2x=request.end_2x)
    replayed = view.replayed
    rule_set = replayed.rule_set
    events_at = {event.line: event for event in replayed.game.events}
    steps = []
    before = None  # the board before the line (None: empty board)
    for line, board, result in zip(replayed.report.lines, replayed.boards, view.moves):
        move = _dict(score_response(result, rule_set, board)) if result is not None else None
        turn = view.turns.get(line.event.line)
        turn = turn_analysis(turn) if turn is not None else None
        event = events_at.get(line.event.line)
        steps.append({"board": board.cells(), "move": move, "recordNotes": event.notes if event else [],
                      "directorAdjustment": bool(event and event.director_adjustment),
                      "best": best_step(rule_set, before, turn) if turn is not None else None})
        before = board
    return {"replay": _dict(replay_response(replayed, request.lexicon)), "layout": layout(rule_set), "steps": steps}
