"""The C core's best play by equity (score plus leave value: anchors ordered by an equity bound, the search
stopped once none can reach the best; the level "equity" and the simulation's play-outs rely on it) is the
best of the full list by score plus the same leave values, on every turn of self-play games of each rule
set (bench/check_movegen_boards.py --equity-games runs the same check on the real lexicons)."""

from __future__ import annotations

import pytest
from bench_modules import bench_module

from lexicon_service.movegen.fastplay import play_games
from lexicon_service.movegen.leaves import LeaveTable
from tests.test_movegen import LETTERS, random_lexicons


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory):
    return random_lexicons(tmp_path_factory.mktemp("equity"), 20261130)


def _table(rule_set):
    """Leave values as large as the scores, so that the best by equity is often not the top play by score:
    a blank kept is worth much, high-point tiles kept cost, a pair and a whole leave have their own values."""
    ts = rule_set.tile_set
    tiles = {letter: (6.0 if letter in "AEIOUÁ" else -2.0 * ts.points(letter)) for letter in ts.alphabet}
    tiles["?"] = 25.0
    letters = LETTERS[rule_set.id]
    return LeaveTable(rule_set, {n: 1.5 * n for n in range(9)}, tiles, {(letters[0], letters[1]): 9.0},
                      {(letters[0], letters[2], letters[3]): 30.0})


@pytest.mark.parametrize("rule_set_id", sorted(LETTERS))
def test_best_play_by_equity_is_the_best_of_the_full_list(lexicons, rule_set_id):
    check = bench_module("check_movegen_boards")
    lexicon = lexicons[rule_set_id]
    table = _table(lexicon.rule_set)
    checked = not_top = 0
    for game in play_games(lexicon, 8, seed=11, levels=("equity", "equity"), leaves=table):
        n, below_top, wrong = check.equity_differences(lexicon, table, game)
        assert wrong == []
        checked += n
        not_top += below_top
    assert checked >= 40 and not_top >= 5   # the leave decides often: a bound without it would show
