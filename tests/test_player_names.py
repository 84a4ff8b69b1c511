"""Player names as people write them (spaces, diacritics; 1-40 characters, no control characters) in a
server-held game and its GCG record: the `#player` line keeps the full name after a one-token nickname, so
the record stays readable by GCG readers that split event lines at the first ':' and spaces."""

from __future__ import annotations

import pytest

from lexicon_service.errors import InvalidInput
from lexicon_service.games.sessions import GameSessions
from lexicon_service.rules import load_rule_set, parse_gcg, replay
from lexicon_service.rules.gcg import gcg_nicknames
from tests.game_helpers import FakeClock


@pytest.fixture
def service(make_store):
    return GameSessions(make_store(), clock=FakeClock())


def test_names_with_spaces_and_diacritics_play_and_are_recorded(service):
    rs = load_rule_set("pl-scrabble")
    names = ["Jan Novák", "Zażółć Gęślą: jaźń", "x" * 40]
    game_id, tokens, director, _ = service.create_game("pl-scrabble", rs, names, seed=3)
    state, _, _ = service.get_game(game_id, None)
    assert list(state.players) == names
    for token in tokens:
        service.submit_move(game_id, token, pass_=True)
    record, _ = service.record(game_id, director)
    assert "#player1 Jan_Novák Jan Novák" in record
    assert "#player2 Zażółć_Gęślą_jaźń Zażółć Gęślą: jaźń" in record
    assert f"#player3 {'x' * 40}\n" in record  # a name that is one token needs no full name
    assert ">Jan_Novák: " in record
    game = parse_gcg(record)
    assert [(p.nick, p.name) for p in game.players][:2] == [("Jan_Novák", "Jan Novák"),
                                                            ("Zażółć_Gęślą_jaźń", "Zażółć Gęślą: jaźń")]
    assert replay(rs, game).ok


@pytest.mark.parametrize("name", ["", "x" * 41, "Jan\nNovák", "Jan\tNovák", " Jan", "Jan ", "a\x00b"])
def test_a_name_out_of_bounds_or_with_control_characters_is_refused_naming_the_field(service, name):
    rs = load_rule_set("pl-scrabble")
    with pytest.raises(InvalidInput) as refused:
        service.create_game("pl-scrabble", rs, ["Ann", name], seed=3)
    assert "player_names[1]" in str(refused.value.field if hasattr(refused.value, "field") else refused.value)


def test_nicknames_are_one_token_each_and_distinct():
    assert gcg_nicknames(["Jan Novák", "Jan_Novák", "Jan  Novák", "(x)"]) == \
        ["Jan_Novák", "Jan_Novák_2", "Jan_Novák_3", "_x_"]
