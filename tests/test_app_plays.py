"""The application layer's plays (lexicon_service/core/plays.py), called as plain functions, and the game
viewer over it: one parse and one replay of the record per view."""

from __future__ import annotations

import sys

import httpx
import pytest

from lexicon_service.core import plays
from lexicon_service.http import HttpServer, create_app
import lexicon_service.rules.replay  # noqa: F401 - the module (lexicon_service.rules exports the function)
from lexicon_service.rules.board import Board
from lexicon_service.server import Limits
from lexicon_service.errors import FieldError, LimitError, UnknownRuleSetError
from lexicon_service.core.registry import LexiconRegistry
from test_analysis import RECORD, WORDS_PL
from test_service import write_lexicon


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    directory = tmp_path_factory.mktemp("app-plays") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS_PL)
    registry = LexiconRegistry(directory)
    registry.reload()
    yield registry
    registry.close()


def test_a_record_replays_as_plain_values(registry):
    text = RECORD.read_text(encoding="utf-8")
    with registry.acquire() as snapshot:
        replayed = plays.replay_record(snapshot, Limits(), "pl-scrabble", "", text, keep_boards=True)
        analysed, turns = plays.analyse_record(snapshot, Limits(), "pl-scrabble", "", text, None)
    assert replayed.rule_set.id == "pl-scrabble" and replayed.lexicon is not None
    assert len(replayed.report.lines) == len(replayed.game.events) == len(replayed.boards)
    assert replayed.boards[-1].to_rows() == replayed.report.board.to_rows()
    played = [line for line in replayed.report.lines if line.event.kind == "play" and line.expected_score is not None]
    assert played and all(line.move.score == line.expected_score for line in played)
    assert [t.played_score for t in turns if t.played.startswith("8B")] == [96]
    assert len(analysed.report.lines) == len(replayed.report.lines)


@pytest.mark.parametrize("lexicon, rule_set, gcg, field, error", [
    ("pl-scrabble", "", "", "gcg", FieldError),
    ("pl-scrabble", "", "#player1 a A\n" * 3000, "gcg", LimitError),
    ("", "", "#player1 a A\n#player2 b B\n>a: ABC 8H ABC +6 6\n", "lexicon", FieldError),
    ("pl-scrabble", "cs-scrabble", "#player1 a A\n", "rule_set", FieldError),
    ("", "cs-scrabble", "#rules pl-scrabble\n#player1 a A\n", "gcg", FieldError),
])
def test_a_client_mistake_names_its_field(registry, lexicon, rule_set, gcg, field, error):
    with registry.acquire() as snapshot, pytest.raises(error) as caught:
        plays.replay_record(snapshot, Limits(max_gcg_lines=2000), lexicon, rule_set, gcg)
    assert type(caught.value) is error and caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_an_unknown_rule_set_is_not_found(registry):
    with registry.acquire() as snapshot, pytest.raises(UnknownRuleSetError):
        plays.replay_record(snapshot, Limits(), "", "xx-none", "#player1 a A\n")


def test_the_viewer_replays_the_record_once(registry, monkeypatch):
    """One replay (with the analysis on its boards), and no board written out as rows and read back."""
    replays, boards_read = [], []
    replay_module = sys.modules["lexicon_service.rules.replay"]
    checker_init = replay_module._Checker.__init__
    from_rows = Board.from_rows.__func__

    def counting_init(self, *args, **kwargs):
        replays.append(1)
        checker_init(self, *args, **kwargs)

    monkeypatch.setattr(replay_module._Checker, "__init__", counting_init)
    monkeypatch.setattr(Board, "from_rows", classmethod(lambda cls, *a, **k: boards_read.append(1) or
                                                         from_rows(cls, *a, **k)))
    web = HttpServer(create_app(registry), "localhost:0").start()
    try:
        text = RECORD.read_text(encoding="utf-8")
        for body in ({"gcg": text}, {"gcg": text, "lexicon": "pl-scrabble"}):
            replays.clear()
            boards_read.clear()
            r = httpx.post(web.url + "/v1/games:view", json=body, timeout=30)
            assert r.status_code == 200, r.text
            steps = r.json()["steps"]
            assert any(step["move"] for step in steps)
            assert any(step["best"] for step in steps) == ("lexicon" in body)
            assert (len(replays), len(boards_read)) == (1, 0)
    finally:
        web.stop()


def test_a_play_is_judged_and_moves_generated_as_plain_values(registry):
    with registry.acquire() as snapshot:
        move = plays.judge_move(snapshot, Limits(), "pl-scrabble", "", [], "KOTABCD", "8H", "KOT", judge_words=True)
        scored = plays.judge_move(snapshot, Limits(), "", "pl-scrabble", [], "", "8H", "KXT", judge_words=False)
        generated = plays.generate(snapshot, Limits(), "pl-scrabble", "", [], [("8H", "KOT")], "ABCDEF?",
                                   plays.MoveFilters(limit=3), None)
    assert move.result.valid and move.result.score == 10 and move.leave == "ABCD"
    assert move.board_after.to_rows() != plays.Board.empty(move.rule_set).to_rows()
    assert not scored.result.valid and scored.board_after is None and scored.leave is None
    assert len(generated.moves) == 3 and generated.truncated
    assert [m.score for m in generated.moves] == sorted((m.score for m in generated.moves), reverse=True)


@pytest.mark.parametrize("call, field", [
    (lambda s: plays.judge_move(s, Limits(), "", "", [], "", "8H", "KOT", judge_words=True), "lexicon"),
    (lambda s: plays.judge_move(s, Limits(), "pl-scrabble", "", [], "", "", "KOT", judge_words=True),
     "play.position"),
    (lambda s: plays.judge_move(s, Limits(max_board_rows=20), "pl-scrabble", "", ["x" * 200], "", "8H", "KOT",
                                judge_words=True), "board[0]"),
    (lambda s: plays.judge_move(s, Limits(), "pl-scrabble", "", ["x" * 15], "", "8H", "KOT", judge_words=True),
     "board"),
    (lambda s: plays.judge_move(s, Limits(), "pl-scrabble", "", [], "KOT#", "8H", "KOT", judge_words=False), "rack"),
    (lambda s: plays.generate(s, Limits(), "pl-scrabble", "", [], [("8H", "")], "KOT", plays.MoveFilters(), None),
     "setup[0].word"),
    (lambda s: plays.generate(s, Limits(), "pl-scrabble", "", [], [], "", plays.MoveFilters(), None), "rack"),
    (lambda s: plays.generate(s, Limits(), "pl-scrabble", "", [], [], "KOT", plays.MoveFilters(limit=-1), None),
     "limit"),
])
def test_a_bad_play_or_position_names_its_field(registry, call, field):
    with registry.acquire() as snapshot, pytest.raises(FieldError) as caught:
        call(snapshot)
    assert caught.value.field == field
