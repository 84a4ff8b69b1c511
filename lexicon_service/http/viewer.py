"""The game viewer's call (`POST /v1/games:view`): ReplayGame, plus what a picture of the game needs.

Every check and score comes from the servicers (ReplayGame for the lines, ScoreMove for each play's
per-word, per-tile breakdown on the board before it, AnalyseGame for each turn's best move when the
lexicon has a move graph); the boards come from the rules engine's own replay (`replay(...,
on_line=...)`), so no rule is restated here.
"""

from __future__ import annotations

from google.protobuf import json_format

from lexicon_service.grpc_gen import game_pb2
from lexicon_service.rules.gcg import parse_gcg
from lexicon_service.rules.board import Board
from lexicon_service.rules.moves import premium_name, validate_move
from lexicon_service.rules.replay import replay
from lexicon_service.server.registry import resolve_rule_set
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


def _has_move_graph(snapshot, name: str) -> bool:
    lexicon = snapshot.lexicons.get(name) if name else None
    return getattr(lexicon, "move_graph", None) is not None


def best_step(rule_set, rows_before, turn) -> dict:
    """A turn's analysis for the viewer: the TurnAnalysis fields, and for a best play the board after it
    ("bestBoard", cells) and the squares it fills ("bestSquares", [row, column])."""
    out = _dict(turn)
    if turn.best and not turn.best.startswith("-"):
        board = Board.from_rows(rule_set, rows_before) if rows_before else Board.empty(rule_set)
        result = validate_move(rule_set, board, None, turn.best)
        if result.score is not None:   # always: the generator's own play, on the board it was made for
            board.apply(result)
            out["bestBoard"] = board.cells()
            out["bestSquares"] = [[row, col] for row, col, _letter, _blank in result.placements]
    return out


def view_game(game_servicer, request: game_pb2.ReplayGameRequest, context) -> dict:
    """{"replay": ReplayGameResponse, "layout": ..., "steps": [{"board": cells, "move": ScoreMoveResponse|null,
    "recordNotes": the event's #note lines, "best": the turn's analysis|null}]}, one step per replay line;
    "best" is there for plays, exchanges and passes when the request names a lexicon with a move graph
    (see best_step). Errors are the servicers' (raised through `context.abort`)."""
    report = game_servicer.ReplayGame(request, context)
    with game_servicer.registry.acquire() as snapshot:
        rule_set = resolve_rule_set(snapshot, report.rule_set)
        analysable = _has_move_graph(snapshot, request.lexicon)
    turns = {}
    if analysable:
        analysis = game_servicer.AnalyseGame(game_pb2.AnalyseGameRequest(
            lexicon=request.lexicon, rule_set=request.rule_set, gcg=request.gcg), context)
        turns = {turn.line: turn for turn in analysis.turns}
    game = parse_gcg(request.gcg, "<request>")  # ReplayGame parsed it already: it cannot fail here
    boards: list[tuple[list[str], list[list[str]]]] = []
    replay(rule_set, game, on_line=lambda line, board: boards.append((board.to_rows(), board.cells())))
    events_at = {event.line: event for event in game.events}
    steps = []
    before = None  # board rows before the line (None: empty board)
    for line, (rows, cells) in zip(report.lines, boards):
        move = None
        if line.kind == "play" and line.has_score:
            scored = game_servicer.ScoreMove(game_pb2.ScoreMoveRequest(
                rule_set=rule_set.id, board=before or (), play=game_pb2.Play(position=line.position, word=line.word)),
                context)
            move = _dict(scored)
        turn = turns.get(line.line)
        event = events_at.get(line.line)
        steps.append({"board": cells, "move": move, "recordNotes": event.notes if event else [],
                      "directorAdjustment": bool(event and event.director_adjustment),
                      "best": best_step(rule_set, before, turn) if turn is not None else None})
        before = rows
    return {"replay": _dict(report), "layout": layout(rule_set), "steps": steps}
