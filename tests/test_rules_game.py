"""The game flow (rules/game.py): one rule per test, and the same game through replay() and GameState."""

from __future__ import annotations

import pytest

from lexicon_service.games.sessions import GameSessions
from lexicon_service.games.store import SqliteStore
from lexicon_service.rules.admissible_words import WordSet
from lexicon_service.rules import Board, BoardError, load_rule_set, parse_gcg, replay, validate_move
from lexicon_service.rules.game import (
    BAG_BELOW_MINIMUM,
    END_PASSES,
    END_SCORELESS,
    EXCHANGES_NOT_ALLOWED,
    MORE_THAN_BAG,
    UNKNOWN,
    GameFlow,
    end_of_game_adjustments,
    exchange_refusal,
)
from tests.game_helpers import FakeClock, find_play

PL = load_rule_set("pl-scrabble")  # 6 scoreless turns or 2 rounds of passes end the game; exchange with >= 7 in the bag


def _flow(racks=("BEJPRUÓ", "AKOTWZŻ"), bag="ABCDEFGHIJ") -> GameFlow:
    ts = PL.tile_set
    return GameFlow(PL, [list(ts.spell_rack(r)) for r in racks], list(ts.spell_rack(bag)))


def _play(flow: GameFlow, player: int, text: str):
    result = validate_move(PL, flow.board, flow.racks[player], text)
    assert result.score is not None, result.message
    flow.play(player, result.placements, result.score, move=result)
    return result


def test_a_play_draws_from_the_end_of_the_bag_and_resets_the_scoreless_count():
    flow = _flow()
    flow.exchange(0)
    assert flow.scoreless_turns == 1
    result = _play(flow, 1, "8G KOT")
    assert flow.racks[1] == ["A", "W", "Z", "Ż", "H", "I", "J"] and flow.bag == list("ABCDEFG")
    assert flow.scores == [0, result.score] and flow.scoreless_turns == 0 and flow.passes_in_a_row == 0


def test_six_scoreless_turns_end_the_game():
    flow = _flow()
    _play(flow, 0, "8H PRÓBUJE")
    for turn in range(6):
        assert flow.due_end() is None, turn
        flow.exchange(turn % 2)  # scoreless, but no pass
    assert flow.due_end() == END_SCORELESS and flow.passes_in_a_row == 0


def test_two_rounds_of_passes_end_the_game_and_an_exchange_breaks_the_run():
    flow = _flow()
    for player in (0, 1, 0):
        flow.pass_turn(player)
        assert flow.due_end() is None
    flow.pass_turn(1)
    assert flow.passing_rounds_over() and flow.due_end() == END_PASSES and flow.scoreless_turns == 4
    broken = _flow()
    for player in (0, 1, 0):
        broken.pass_turn(player)
    broken.exchange(1)
    broken.pass_turn(0)
    assert broken.passes_in_a_row == 1 and not broken.passing_rounds_over() and broken.due_end() is None


def test_when_both_end_the_game_at_once_the_scoreless_turns_say_why():
    flow = _flow()
    flow.exchange(0)
    flow.exchange(1)
    for player in (0, 1, 0, 1):
        flow.pass_turn(player)
    assert flow.passing_rounds_over() and flow.scoreless_turns_over() and flow.due_end() == END_SCORELESS


def test_a_withdrawal_takes_the_play_back_and_counts_a_scoreless_turn():
    flow = _flow()
    first = _play(flow, 0, "8H PRÓBUJE")
    board, racks, bag = flow.board.copy(), [r[:] for r in flow.racks], flow.bag[:]
    flow.exchange(1)
    flow.exchange(0)  # two scoreless turns before the phony
    racks, bag = [r[:] for r in flow.racks], flow.bag[:]
    phony = _play(flow, 1, "I7 K.T")
    assert flow.scoreless_turns == 0
    withdrawn = flow.withdraw(1)
    assert withdrawn.move is phony and withdrawn.score == phony.score
    assert flow.board == board and flow.racks == racks and flow.bag[:len(bag)] == bag
    assert sorted(flow.bag) == sorted(bag)  # the tiles drawn went back
    assert flow.scores == [first.score, 0] and flow.scoreless_turns == 3 and flow.passes_in_a_row == 0
    assert flow.withdraw(1) is None  # nothing left to withdraw; the turn still counts
    assert flow.scoreless_turns == 4


def test_a_withdrawal_takes_back_going_out():
    flow = _flow(racks=("KOT", "ABC"), bag="")
    _play(flow, 0, "8G KOT")
    assert flow.went_out == 0 and flow.racks[0] == []
    flow.withdraw(0, bag=[])
    assert flow.went_out is None and flow.racks[0] == ["K", "O", "T"] and flow.board.is_empty()


def test_exchange_limits():
    kk = load_rule_set("cs-kriskros")
    assert exchange_refusal(PL, 7, 7) is None
    assert exchange_refusal(PL, 6, 1) == BAG_BELOW_MINIMUM
    assert exchange_refusal(PL, 8, 9) == MORE_THAN_BAG
    assert exchange_refusal(PL, 8, None) is None  # a record may give only "-7"... or nothing
    no_exchanges = type("R", (), {"exchange": type("E", (), {"allowed": False, "min_tiles_in_bag": 0})()})()
    assert exchange_refusal(no_exchanges, 50, 1) == EXCHANGES_NOT_ALLOWED
    assert kk.exchange.allowed and exchange_refusal(kk, 1, 1) is None  # any number, any time


def test_an_exchange_swaps_the_tiles_and_takes_the_bag_as_given():
    flow = _flow()
    flow.exchange(0, ["B", "E"], ["I", "J"], list("ABJCDEFGHB"[:8]) + ["E"])
    assert sorted(flow.racks[0]) == sorted(["J", "P", "R", "U", "Ó", "I", "J"])
    assert len(flow.bag) == 9 and flow.withdraw(0) is None


def test_end_adjustments_settle_the_racks_left():
    flow = _flow(racks=("KOT", "ŹA"), bag="")
    _play(flow, 0, "8G KOT")
    assert flow.went_out == 0
    assert flow.end_adjustments(0) == end_of_game_adjustments(PL, [[], ["Ź", "A"]], 0) == [10, -10]
    assert flow.end_adjustments(0, out_bonus="twice-others-racks") == [20, 0]
    assert flow.end_adjustments(None) == [0, -10]


def test_a_counted_game_deals_full_racks_of_unknown_tiles():
    flow = GameFlow.counted(PL, 3)
    assert flow.racks == [[UNKNOWN] * 7] * 3 and len(flow.bag) == PL.tile_set.total_tiles - 21
    result = validate_move(PL, flow.board, None, "8G KOT")
    flow.play(0, result.placements, result.score)
    assert flow.rack_size(0) == 7 and len(flow.bag) == PL.tile_set.total_tiles - 24


def test_a_record_playing_more_tiles_than_the_rack_holds_counts_them_off():
    flow = GameFlow(PL, [[UNKNOWN] * 2, []], [])
    result = validate_move(PL, flow.board, None, "8G KOT")
    flow.play(0, result.placements, result.score)
    assert flow.rack_size(0) == -1 and flow.went_out is None
    flow.withdraw(0)
    assert flow.rack_size(0) == 2


def test_board_lift_is_all_or_nothing():
    board = Board.empty(PL)
    result = validate_move(PL, board, None, "8G KOT")
    board.apply(result)
    with pytest.raises(BoardError):
        board.lift(result.placements + ((0, 0, "A", False),))
    assert board.tile_count == 3
    board.lift(result.placements)
    assert board == Board.empty(PL) and board.tile_counts() == {"": 0} and board.word_runs() == {}


def test_one_rendering_of_the_board():
    board = Board.empty(PL)
    board.apply(validate_move(PL, board, None, "8G KoT"))
    assert board.cells()[7][6:9] == ["K", "o", "T"] and board.cells()[0][0] == ""
    assert "  K  o  T" in board.render_text()


@pytest.fixture
def service(tmp_path):
    store = SqliteStore(tmp_path / "games.db", synchronous="OFF")
    yield GameSessions(store, clock=FakeClock())
    store.close()


_REPLAY_END = {"passes": "every player passed", "scoreless-turns": "consecutive scoreless turns", "out": "went out"}


@pytest.mark.parametrize("seed, last_play", [(3, 200), (11, 20)])  # the first goes out, the second passes
def test_replay_and_game_state_run_the_same_game_to_the_same_end(service, seed, last_play):
    rs = PL
    phonies = WordSet([])  # every challenge succeeds
    game_id, tokens, _, _ = service.create_game("pl-scrabble", rs, ["A", "B"], seed=seed)
    for turn in range(200):
        state, _, _ = service.get_game(game_id, None)
        if state.status == "ended":
            break
        p = state.turn
        if state.status == "final-pass":
            service.submit_move(game_id, tokens[p], pass_=True)
            continue
        if turn in (4, 9) and len(state.bag) >= 7:
            service.submit_move(game_id, tokens[p], exchange=state.rack_text(p)[:1].strip("["))
            continue
        play = find_play(rs, state.board_rows(), state.racks[p], max_tiles=4)
        if play is None or turn > last_play:
            service.submit_move(game_id, tokens[p], pass_=True)
            continue
        service.submit_move(game_id, tokens[p], play=play)
        if turn % 6 == 5:
            service.challenge(game_id, tokens[1 - p], lexicon_of=lambda name: phonies)
    state = service.fold_rows(game_id, service.store.load(game_id, 0), record=True)
    assert state.status == "ended"
    report = replay(rs, parse_gcg(state.gcg_text()))
    assert report.ok, [(line.event.text, line.problems) for line in report.disagreements]
    assert report.bag == len(state.bag)
    assert report.rack_counts == [len(rack) for rack in state.racks]
    assert report.board == state.board
    assert report.expected_totals == report.totals == state.scores
    assert _REPLAY_END[state.end_reason] in report.notes[-1]


def test_a_live_game_ends_for_scoreless_turns_when_passes_end_it_at_the_same_time(service):
    """Replay said "scoreless turns", the server "passes": now both ask the one game flow."""
    rs = PL
    game_id, tokens, _, _ = service.create_game("pl-scrabble", rs, ["A", "B"], seed=4)
    for p in (0, 1):
        state, _, _ = service.get_game(game_id, None)
        service.submit_move(game_id, tokens[p], exchange=state.rack_text(p)[:1].strip("["))
    for p in (0, 1, 0, 1):
        service.submit_move(game_id, tokens[p], pass_=True)
    state, _, _ = service.get_game(game_id, None)
    assert state.status == "ended" and state.end_reason == "scoreless-turns"
    report = replay(rs, parse_gcg(service.fold_rows(game_id, service.store.load(game_id, 0), record=True).gcg_text()))
    assert report.notes[-1].startswith("game over: 6 consecutive scoreless turns")


def test_no_import_circle_in_the_rules_package():
    """Function-level imports count: a module of lexicon_service.rules never reaches itself."""
    import ast
    from pathlib import Path

    import lexicon_service.rules as package

    folder = Path(package.__file__).parent
    imports = {}
    for path in folder.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lexicon_service.rules."):
                names.add(node.module.rsplit(".", 1)[1])
            elif isinstance(node, ast.Import):
                names.update(a.name.rsplit(".", 1)[1] for a in node.names if a.name.startswith("lexicon_service.rules."))
        imports[path.stem] = names

    def reaches(start, target, seen):
        for name in imports.get(start, ()):
            if name == target or (name not in seen and reaches(name, target, seen | {name})):
                return True
        return False

    assert imports["board"] and imports["game"]
    assert [m for m in imports if m != "__init__" and reaches(m, m, {m})] == []
