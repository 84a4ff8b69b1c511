"""A director's end chooses how it scores: as played (the default; an early end costs nobody the tiles they
were dealt) or with every rack deducted as at a normal end; either way the record's #note says which, and
WatchGame's end event names it."""

from __future__ import annotations

import pytest

from lexicon_service.errors import InvalidInput
from lexicon_service.games.sessions import GameSessions
from lexicon_service.rules import load_rule_set, parse_gcg, replay
from tests.game_helpers import FakeClock


@pytest.fixture
def sessions(make_store):
    return GameSessions(make_store(), clock=FakeClock())


def _untouched_game(sessions):
    rs = load_rule_set("pl-scrabble")
    game_id, _tokens, director, _ = sessions.create_game("pl-scrabble", rs, ["Ann", "Bob", "Cy"], seed=7)
    return rs, game_id, director


def test_an_early_end_as_played_deducts_no_rack(sessions):
    rs, game_id, director = _untouched_game(sessions)
    state = sessions.end_game(game_id, director, "the hall closes")
    state = state[0] if isinstance(state, tuple) else state
    assert list(state.scores) == [0, 0, 0]  # was -18/-22/-22 style: every rack deducted
    assert state.end_reason == "director: the hall closes"
    record, _ = sessions.record(game_id, director)
    assert "#note director ended the game, as played: the hall closes" in record
    assert replay(rs, parse_gcg(record)).ok


def test_an_end_with_racks_deducted_says_so(sessions):
    rs, game_id, director = _untouched_game(sessions)
    state = sessions.end_game(game_id, director, "no show", "racks-deducted")
    state = state[0] if isinstance(state, tuple) else state
    assert all(score < 0 for score in state.scores)
    assert state.end_reason == "director, racks deducted: no show"
    record, _ = sessions.record(game_id, director)
    assert "#note director ended the game, racks deducted: no show" in record
    report = replay(rs, parse_gcg(record))
    assert report.ok and report.totals == list(state.scores)


def test_an_unknown_scoring_is_refused_naming_the_field(sessions):
    _rs, game_id, director = _untouched_game(sessions)
    with pytest.raises(InvalidInput) as refused:
        sessions.end_game(game_id, director, "x", "half")
    assert "scoring" in str(refused.value) or refused.value.field == "scoring"
