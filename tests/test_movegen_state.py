"""The generator state kept across calls (csrc/movegen.c, MgState): moved on by plays, it recomputes only the
squares a play can change, so after every play of random self-play games (all three rule sets, Kris Kros's
list of the words on the board included) its tables must equal those made afresh for the board, its answers
mg_generate's (every play, the top 5, the count), and taking the play back must give the state before."""

from __future__ import annotations


import pytest

from lexicon_service.movegen import _core, _graph, _static
from lexicon_service.movegen.fastplay import raw_games
from tests.test_movegen import LETTERS, random_lexicons


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory):
    return random_lexicons(tmp_path_factory.mktemp("movegen_state"), 20261130)


def _plays_and_racks(games):
    """Each game's plays (down, row, col, tiles) and, after each, the rack the next turn held."""
    for _scores, _racks, _went_out, turns in games:
        plays, racks = [], []
        for i, (_player, kind, _score, _bag, _rack, _leave, _given, play) in enumerate(turns):
            if kind != 0:
                continue
            _, down, row, col, tiles, _ = play
            following = turns[i + 1][4] if i + 1 < len(turns) else turns[i][4]
            counts = bytearray(64)
            for tile in following:
                counts[tile] += 1
            plays.append((down, row, col, tiles))
            racks.append(bytes(counts))
        yield plays, racks


def _check(lexicon, plays, racks):
    rs = lexicon.rule_set
    return _core.check_state(_graph(rs, lexicon), _static(rs).core_rules, plays, racks)


@pytest.mark.parametrize("rule_set_id", sorted(LETTERS))
def test_a_state_moved_on_by_plays_equals_one_made_afresh(lexicons, rule_set_id):
    lexicon = lexicons[rule_set_id]
    checked = 0
    for plays, racks in _plays_and_racks(raw_games(lexicon, 8, seed=11)):
        assert _check(lexicon, plays, racks) is None
        checked += len(plays)
    assert checked > 40


def test_kris_kros_games_hold_repeated_runs_the_state_must_track(lexicons):
    """The duplicate-word rule reads the words on the board from the state: the games checked above have
    boards with several words, so the list the state keeps is exercised, not empty."""
    lexicon = lexicons["cs-kriskros"]
    plays, racks = next(_plays_and_racks(raw_games(lexicon, 1, seed=11)))
    assert len(plays) >= 5
    assert _check(lexicon, plays, racks) is None


def test_a_play_that_does_not_fit_is_reported_not_made(lexicons):
    lexicon = lexicons["pl-scrabble"]
    plays, racks = next(_plays_and_racks(raw_games(lexicon, 1, seed=11)))
    again = plays[:2] + [plays[1]]          # the second play's new tiles again, on its own tiles
    assert _check(lexicon, again, racks[:3]) == (2, "the play does not fit the board")
    with pytest.raises(ValueError, match="off the board"):
        _check(lexicon, [(0, 99, 0, b"\x81")], [bytes(64)])
    with pytest.raises(ValueError, match="one rack per play"):
        _check(lexicon, plays[:1], [])
