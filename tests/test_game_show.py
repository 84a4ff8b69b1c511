"""`client game show` prints what the directors' live page shows: whose turn, the clocks, the bag, the
last move, the scores labelled final only once the game has ended, and no internal version number."""

from __future__ import annotations

from lexicon_service.commands.game_client import clock_text, format_game
from lexicon_service.grpc_gen import session_pb2


def _game(**fields) -> session_pb2.GetGameResponse:
    game = session_pb2.GetGameResponse(
        game_id="g", version=7, board_text="  A  B", bag_count=86, turn=1, you=-1, status=1,
        last_move="8H KOT", now_ms=1_000_000, move_deadline_ms=1_000_000 + 59_500)
    game.players.add(name="Ann", score=12, rack_count=7, time_used_ms=61_000, time_remaining_ms=539_000)
    game.players.add(name="Bob", score=0, rack_count=7, time_used_ms=1_200, time_remaining_ms=598_800)
    for name, value in fields.items():
        setattr(game, name, value)
    return game


def test_show_a_game_in_play():
    shown = format_game(_game())
    assert "on turn: Bob" in shown and "> Bob" in shown and "  Ann" in shown
    assert "clock 8:59 left" in shown and "clock 9:59 left" in shown  # m:ss, as the page shows them
    assert "bag: 86 tiles" in shown and "last move: 8H KOT" in shown and "move timer: 1:00 left" in shown
    assert "scores so far" in shown and "final" not in shown
    assert "version" not in shown and "7;" not in shown


def test_show_an_ended_game():
    shown = format_game(_game(status=3, end_reason="director: e2e"))
    assert "final scores" in shown and "game over (director: e2e)" in shown
    assert "on turn" not in shown and "> " not in shown and "move timer" not in shown


def test_show_overtime_and_the_final_pass():
    game = _game(status=2)
    game.players[1].time_remaining_ms = -12_000
    shown = format_game(game)
    assert "overtime 0:12" in shown and "on turn: Bob  (awaiting the final pass)" in shown


def test_clock_text():
    assert [clock_text(ms) for ms in (0, 1, 59_001, 600_000, -5)] == ["0:00", "0:01", "1:00", "10:00", "0:00"]
