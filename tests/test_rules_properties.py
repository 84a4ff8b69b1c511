"""Property tests of scoring invariants on random boards and plays (hypothesis)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_service.rules import Board, load_rule_set, validate_move
from lexicon_service.rules.board import Play
from lexicon_service.rules.reasons import Reason
from lexicon_service.tiles import PlayTile

RULE_SETS = [load_rule_set(n) for n in ("pl-scrabble", "cs-scrabble", "cs-kriskros")]


@st.composite
def line_play(draw, rule_set, board):
    """A play along a random line; squares already filled become "." (so it goes through them)."""
    across = draw(st.booleans())
    row = draw(st.integers(0, rule_set.rows - 1))
    col = draw(st.integers(0, rule_set.columns - 1))
    dr, dc = (0, 1) if across else (1, 0)
    while row - dr >= 0 and col - dc >= 0 and board.get(row - dr, col - dc) is not None:
        row, col = row - dr, col - dc  # a play starts where its word starts
    limit = (rule_set.columns - col) if across else (rule_set.rows - row)
    length = draw(st.integers(1, min(limit, 10)))
    letters = rule_set.tile_set.letters
    tiles = []
    new = 0
    for i in range(length):
        r, c = (row, col + i) if across else (row + i, col)
        if board.get(r, c) is not None:
            tiles.append(PlayTile(None))
        elif new < rule_set.rack_size:
            is_blank = draw(st.integers(0, 5)) == 0  # about one tile in six is a blank
            tiles.append(PlayTile(draw(st.sampled_from(letters)), is_blank))
            new += 1
        else:
            break
    end_r, end_c = row + dr * len(tiles), col + dc * len(tiles)
    while board.get(end_r, end_c) is not None:  # ... and spells it to its end
        tiles.append(PlayTile(None))
        end_r, end_c = end_r + dr, end_c + dc
    return Play(row, col, across, tuple(tiles))


@st.composite
def position(draw):
    """A rule set, a mid-game board built from random placeable plays, and a final play on it."""
    rule_set = draw(st.sampled_from(RULE_SETS))
    board = Board.empty(rule_set)
    for _ in range(draw(st.integers(0, 8))):
        result = validate_move(rule_set, board, None, draw(line_play(rule_set, board)))
        if result.score is not None:
            board.apply(result)
    return rule_set, board, draw(line_play(rule_set, board))


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(position())
def test_score_is_sum_of_word_subtotals_plus_bingo(pos):
    rule_set, board, play = pos
    result = validate_move(rule_set, board, None, play)
    if result.score is None:
        return
    assert result.score >= 0
    breakdown = result.breakdown
    for word in breakdown.words:
        assert word.letter_sum == sum(t.points * t.letter_multiplier for t in word.tiles)
        assert word.subtotal == word.word_multiplier * word.letter_sum
        assert all(t.points == 0 for t in word.tiles if t.is_blank)
        assert all(t.premium is None for t in word.tiles if not t.is_new)
    assert result.bingo == (len(result.placements) == rule_set.bingo_tiles)
    assert breakdown.bingo_bonus == (rule_set.bingo_bonus if result.bingo else 0)
    assert result.score == sum(w.subtotal for w in breakdown.words) + breakdown.bingo_bonus


@SETTINGS
@given(position(), st.data())
def test_blank_for_letter_never_raises_the_score(pos, data):
    rule_set, board, play = pos
    result = validate_move(rule_set, board, None, play)
    real = [i for i, t in enumerate(play.tiles) if t.letter is not None and not t.is_blank]
    if result.score is None or not real:
        return
    i = data.draw(st.sampled_from(real))
    tiles = list(play.tiles)
    tiles[i] = PlayTile(tiles[i].letter, True)
    with_blank = validate_move(rule_set, board, None, Play(play.row, play.col, play.across, tuple(tiles)))
    if with_blank.reason is Reason.TOO_MANY_BLANKS:  # the set has no blank left for it
        return
    assert with_blank.score is not None and with_blank.score <= result.score
    assert [w.upper() for w in with_blank.words] == [w.upper() for w in result.words]


@SETTINGS
@given(position())
def test_transposing_board_and_play_keeps_the_score(pos):
    rule_set, board, play = pos
    result = validate_move(rule_set, board, None, play)
    flipped = validate_move(rule_set, board.transposed(), None, Play(play.col, play.row, not play.across, play.tiles))
    assert flipped.reason == result.reason
    assert flipped.score == result.score
    assert sorted(flipped.words) == sorted(result.words)


@SETTINGS
@given(position())
def test_applying_a_play_puts_exactly_its_tiles_on_the_board(pos):
    rule_set, board, play = pos
    result = validate_move(rule_set, board, None, play)
    if result.score is None:
        return
    after = board.copy()
    after.apply(result)
    assert after.tile_count == board.tile_count + len(result.placements)
    assert Board.from_rows(rule_set, after.to_rows()) == after
