"""Self-play in C (movegen.fastplay, csrc/selfplay.c): every move of its games is the move the Python side
judges legal with the same score (validate_move on a board replayed move by move), the racks follow the
bag, "best" plays the generator's top play, "equity" the highest score plus leave value, and the games are
the same from the same seed."""

from __future__ import annotations


import pytest

from lexicon_service.movegen import generate_moves
from lexicon_service.movegen.fastplay import move_text, play_games
from lexicon_service.movegen.leaves import LeaveTable
from lexicon_service.rules import Board, validate_move
from tests.test_movegen import LETTERS, random_lexicons


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory):
    return random_lexicons(tmp_path_factory.mktemp("fastplay"), 20261129)


def _table(rule_set):
    """A leave table that likes vowels and blanks and dislikes high-point tiles."""
    ts = rule_set.tile_set
    tiles = {letter: (2.0 if letter in "AEIOU" else -0.5 * ts.points(letter)) for letter in ts.alphabet}
    tiles["?"] = 8.0
    return LeaveTable(rule_set, {n: -0.3 * n for n in range(9)}, tiles, {}, {("A", "E"): 5.0})


def _replay(lexicon, game, table=None):
    """Each move through validate_move on the board so far: legal, the same score; the level's choice."""
    rs = lexicon.rule_set
    board = Board.empty(rs)
    totals = [0] * len(game.scores)
    for turn in game.turns:
        rack = rs.tile_set.rack_text(list(turn.rack))
        if turn.kind == "play":
            result = validate_move(rs, board, rack, move_text(rs, board, turn), lexicon=lexicon)
            assert result.valid and result.score == turn.score
            if table is None:   # "best": the generator's top play
                assert generate_moves(rs, board, rack, lexicon, limit=1)[0].play == move_text(rs, board, turn)
            board.apply(result)
            totals[turn.player] += turn.score
        else:
            assert not turn.given or set(turn.given) <= set(turn.rack)
    return totals


@pytest.mark.parametrize("rule_set_id", sorted(LETTERS))
def test_every_move_of_a_c_game_is_legal_with_its_score(lexicons, rule_set_id):
    lex = lexicons[rule_set_id]
    games = play_games(lex, 6, seed=5)
    assert games == play_games(lex, 6, seed=5)            # the same seed, the same games
    assert games != play_games(lex, 6, seed=6)
    for game in games:
        totals = _replay(lex, game)
        assert sum(t.kind == "play" for t in game.turns) > 0
        if game.went_out is not None:   # the end-of-game adjustments: the player who went out gains
            assert game.scores[game.went_out] >= totals[game.went_out]


def test_equity_plays_the_highest_score_plus_leave(lexicons):
    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    table = _table(rs)
    (game,) = play_games(lex, 1, seed=3, levels=("equity", "best"), leaves=table)
    board = Board.empty(rs)
    checked = scoreless = 0
    for turn in game.turns:
        rack = rs.tile_set.rack_text(list(turn.rack))
        if turn.player == 0 and turn.bag_before > 0:   # exchanges only before a scoreless round has passed
            moves = generate_moves(rs, board, rack, lex, bag_count=turn.bag_before,
                                   include_exchanges=scoreless < 2, include_pass=False)
            if moves:
                best = max(m.score + table.value(m.leave) for m in moves)
                assert turn.score + table.value_of_tiles(turn.leave) == pytest.approx(best)
                checked += 1
        if turn.kind == "play":
            board.apply(validate_move(rs, board, rack, move_text(rs, board, turn), lexicon=lex))
        scoreless = 0 if turn.score else scoreless + 1
    assert checked >= 3


def test_bad_requests_are_refused(lexicons):
    lex = lexicons["cs-kriskros"]
    with pytest.raises(ValueError, match="leave table"):
        play_games(lex, 1, seed=1, levels=("equity", "best"))
    with pytest.raises(ValueError, match="levels"):
        play_games(lex, 1, seed=1, levels=("clever", "best"))
    with pytest.raises(ValueError):
        play_games(lex, 1, seed=1, levels=("best",))
    with pytest.raises(ValueError, match="games"):
        play_games(lex, -1, seed=1)
