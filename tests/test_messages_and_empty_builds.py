"""Small refusals and the wording of counts: an empty word list builds no lexicon; "1 player", "has no Y"."""

from __future__ import annotations

import logging

from build_tools.cli import main as build_main
from lexicon_service.rules import Board, load_rule_set, replay, validate_move
from lexicon_service.rules.gcg import parse_gcg
from lexicon_service.core.registry import LexiconRegistry
from lexicon_service.wording import counted
from test_service import WORDS, write_lexicon


def test_an_empty_word_list_is_refused_and_writes_nothing(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    code = build_main(["--rules", "pl-scrabble", "--words", str(empty), "--quiet", "-o", str(tmp_path / "e.lex")])
    assert code == 2
    assert "no form was admitted" in capsys.readouterr().err
    assert not (tmp_path / "e.lex").exists()


def test_counts_take_the_number_of_their_noun(tmp_path, caplog):
    assert (counted(1, "player"), counted(2, "player"), counted(0, "lexicon")) == ("1 player", "2 players",
                                                                                   "0 lexicons")
    rs = load_rule_set("pl-scrabble")
    refused = validate_move(rs, Board.empty(rs), "ABCDEFG", "8H KOT")
    assert "has no K for this play" in refused.message, refused.message
    report = replay(rs, parse_gcg("#character-encoding UTF-8\n>Ala: KOTABCD 8H KOT +10 10\n"))
    assert any(note.startswith("1 player;") for note in report.notes), report.notes
    write_lexicon(tmp_path, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    with caplog.at_level(logging.INFO, logger="lexicon_service.server"):
        LexiconRegistry(tmp_path).reload()
    assert "loaded 1 lexicon (" in caplog.text, caplog.text
