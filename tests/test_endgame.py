"""The endgame search in C (`csrc/endgame.c` through `movegen.endgame.solve_endgame`): the same values as
the Python search it replaced (kept as the reference) and as a plain full search, a best sequence that
replays legally, the best found when its time or nodes run out, its arguments checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import MoveGenerationError
from lexicon_service.movegen.endgame import EndgameTimeout, full_search, solve_endgame
from lexicon_service.rules.moves import validate_move
from test_service import write_lexicon
from tests.game_helpers import small_endgames

# no two-tile words: few plays per rack, so that a plain full search of an endgame is quick
ENDGAME_WORDS = ["kot", "kod", "kat", "tak", "dom", "tom", "mak", "kto", "oko", "tam", "dam", "akt", "kato",
                 "kota", "koda", "data", "tama", "mata", "domek", "tok", "ok", "to", "ta", "od", "do", "ko"]


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory):
    directory: Path = tmp_path_factory.mktemp("endgame-lexicons")
    write_lexicon(directory, "pl-endgame", "pl-scrabble", ENDGAME_WORDS)
    return load_lexicon(directory / "pl-endgame.lex")


def replay(rs, lexicon, board, racks: list[str], moves) -> int:
    """Play the sequence on a copy of the board from the two racks; the mover's points less the other's."""
    board = board.copy()
    spread, side = 0, 0
    for move in moves:
        if move.kind == "play":
            result = validate_move(rs, board, racks[side], move.play, lexicon=lexicon)
            assert result.score == move.score
            board.apply(result)
            left = list(rs.tile_set.spell_rack(racks[side]))
            for tile in result.tiles_used:
                left.remove(tile)
            racks[side] = rs.tile_set.rack_text(left)
            spread += move.score if side == 0 else -move.score
        side ^= 1
    return spread


def test_c_gives_the_python_search_and_the_full_search_values(lexicon):
    rs = lexicon.rule_set
    played = 0
    for board, mine, theirs in small_endgames(lexicon, 20, 3):
        in_c = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None)
        in_python = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None, engine="python")
        assert in_c.exact and in_python.exact
        assert in_c.value == in_python.value == full_search(rs, board, mine, lexicon, opponent_rack=theirs)
        assert in_c.moves, (mine, theirs)
        replay(rs, lexicon, board, [mine, theirs], in_c.moves)
        played += in_c.best.kind == "play"
    assert played > 5


def test_larger_racks_c_equals_python_and_the_sequence_ends_the_game(lexicon):
    rs = lexicon.rule_set
    for board, mine, theirs in small_endgames(lexicon, 6, 8, tiles=(4, 5)):
        in_c = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None)
        in_python = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None, engine="python")
        assert in_c.exact and in_c.value == in_python.value
        racks = [mine, theirs]
        replay(rs, lexicon, board, racks, in_c.moves)
        # the exact sequence is played to the end: a rack emptied or the passes that end the game
        assert not racks[0] or not racks[1] or sum(m.kind == "pass" for m in in_c.moves) >= 4


def test_out_of_nodes_gives_the_best_of_the_last_whole_depth(lexicon):
    rs = lexicon.rule_set
    board, mine, theirs = next(small_endgames(lexicon, 1, 8, tiles=(5, 5)))
    whole = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None)
    cut = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None, max_nodes=300)
    assert whole.exact and whole.nodes > 300
    assert not cut.exact and cut.best is not None and cut.depth < whole.depth
    assert cut.nodes < whole.nodes
    with pytest.raises(EndgameTimeout):
        solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=0)
    with pytest.raises(EndgameTimeout):
        solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None, cpu_seconds=1e-9, max_nodes=1)


def test_bad_arguments_name_their_field(lexicon):
    rs = lexicon.rule_set
    board, mine, theirs = next(small_endgames(lexicon, 1, 5))
    with pytest.raises(MoveGenerationError) as caught:
        solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, passes=9)
    assert caught.value.field == "passes"
    with pytest.raises(MoveGenerationError) as caught:
        solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, engine="fortran")
    assert caught.value.field == "engine"
    with pytest.raises(MoveGenerationError) as caught:
        solve_endgame(rs, board, mine, lexicon, opponent_rack="AAAAAAAAAA")
    assert caught.value.field == "opponent_rack"


def test_a_forced_pass_costs_no_depth(lexicon):
    """A player without a play can only pass: that pass costs the search no depth, so an exact answer
    comes at a depth below the length of its sequence (before, each forced pass took a ply of depth,
    and the sequence given was never longer than the depth)."""
    rs = lexicon.rule_set
    longer = 0
    for board, mine, theirs in small_endgames(lexicon, 4, 11, tiles=(3, 5)):
        in_c = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None)
        in_python = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None, engine="python")
        assert in_c.exact and in_python.exact
        assert in_c.value == in_python.value == full_search(rs, board, mine, lexicon, opponent_rack=theirs)
        racks = [mine, theirs]
        replay(rs, lexicon, board, racks, in_c.moves)
        assert not racks[0] or not racks[1] or sum(m.kind == "pass" for m in in_c.moves) >= 4
        longer += len(in_c.moves) > in_c.depth
    assert longer >= 1


def test_past_four_plies_the_search_deepens_two_at_a_time(lexicon):
    """Past 4 plies each depth adds two: the depths in between cost about as much as the next and settle
    nothing (an exact answer at depth 5 comes at depth 6 too)."""
    rs = lexicon.rule_set
    depths = []
    for board, mine, theirs in small_endgames(lexicon, 6, 8, tiles=(4, 5)):
        in_c = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None)
        assert in_c.exact
        depths.append(in_c.depth)
    assert all(d <= 4 or d % 2 == 0 for d in depths) and max(depths) > 4, depths


def test_an_odd_depth_limit_is_searched_to_its_last_ply(lexicon):
    """Deepening two plies at a time past 4 must not skip the caller's own limit: with max_depth 5 a search
    that is not exact by depth 4 ends at depth 5 (C and Python), not at 4."""
    from lexicon_service.movegen.endgame import depth_schedule

    assert depth_schedule(5) == [1, 2, 3, 4, 5] and depth_schedule(7) == [1, 2, 3, 4, 6, 7]
    assert depth_schedule(8) == [1, 2, 3, 4, 6, 8] and depth_schedule(3) == [1, 2, 3]
    rs = lexicon.rule_set
    tried = 0
    for board, mine, theirs in small_endgames(lexicon, 6, 8, tiles=(4, 5)):
        deep = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None)
        if deep.depth <= 5:
            continue  # exact by depth 5: a limit of 5 says nothing here
        tried += 1
        for engine in ("c", "python"):
            limited = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None, max_depth=5,
                                    engine=engine)
            assert limited.depth == 5 and not limited.exact, (engine, limited.depth)
    assert tried
