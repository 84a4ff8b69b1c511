"""`lexicon-service export-kwg`: the KWG file read back (our own reader, kwg_strings) holds exactly the
lexicon's words in its DAWG and their GADDAG strings; the CSV is MAGPIE's layout; a graph over the
layout's limit is refused with a message naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_service.cli import main
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import _core
from lexicon_service.movegen import kwg as kwg_module
from lexicon_service.movegen.kwg import KWG22, KWG24, KwgTooLarge, kwg_of_move_graph, kwg_strings, read_kwg
from movegen_helpers import without_move_graph
from test_service import WORDS, write_lexicon

KRISKROS_EXTRA = ["chrt", "a", "cech", "ch", "ochechule"]   # one-tile words and CH at every place


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("kwg-lexicons") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    write_lexicon(directory, "cs-kriskros", "cs-kriskros", WORDS["cs-kriskros"] + KRISKROS_EXTRA)
    return directory


def export(capsys, lexicon_dir, name, out, *extra) -> int:
    return main(["export-kwg", "--lexicons", str(lexicon_dir), "-l", name, "-o", str(out), *extra])


def tile_words(lexicon) -> set[tuple[int, ...]]:
    tile_set = lexicon.rule_set.tile_set
    number = {letter: i + 1 for i, letter in enumerate(tile_set.alphabet)}
    return {tuple(number[t] for t in tile_set.letters_of_key(key)) for key in lexicon.keys()}


def gaddag_strings(words) -> set[tuple[int, ...]]:
    out = set()
    for word in words:
        out.add(word[::-1])
        for i in range(1, len(word)):
            out.add(word[:i][::-1] + (0,) + word[i:])
    return out


@pytest.mark.parametrize("name", ["pl-scrabble", "cs-kriskros"])
@pytest.mark.parametrize("variant", [KWG22, KWG24])
def test_the_kwg_holds_exactly_the_lexicons_words(capsys, tmp_path, lexicon_dir, name, variant):
    assert export(capsys, lexicon_dir, name, tmp_path, *(["--kwg24"] if variant == KWG24 else [])) == 0
    arcs = read_kwg((tmp_path / f"{name}.kwg").read_bytes(), variant)
    lexicon = load_lexicon(lexicon_dir / f"{name}.lex")
    words = tile_words(lexicon)
    assert arcs[0][:3] == (0, 1, 0) and arcs[1][:3] == (0, 1, 0)    # the two pointers: tile 0, end
    dawg = kwg_strings(arcs, arcs[0][3])
    assert dawg == sorted(words)                                     # sorted, each once
    assert set(kwg_strings(arcs, arcs[1][3])) == gaddag_strings(words)
    assert 0 not in {tile for word in dawg for tile in word}


def test_a_lexicon_without_a_move_graph_exports_the_same_bytes(capsys, tmp_path, lexicon_dir):
    assert export(capsys, lexicon_dir, "cs-kriskros", tmp_path / "with") == 0
    copy = tmp_path / "lex"
    copy.mkdir()
    without_move_graph(write_lexicon(copy, "cs-kriskros", "cs-kriskros", WORDS["cs-kriskros"] + KRISKROS_EXTRA))
    assert export(capsys, copy, "cs-kriskros", tmp_path / "without") == 0
    assert (tmp_path / "with" / "cs-kriskros.kwg").read_bytes() == \
        (tmp_path / "without" / "cs-kriskros.kwg").read_bytes()


def test_the_csv_is_magpies_layout_in_tile_order(capsys, tmp_path, lexicon_dir):
    assert export(capsys, lexicon_dir, "cs-kriskros", tmp_path) == 0
    rows = [line.split(",") for line in (tmp_path / "cs-kriskros.csv").read_text(encoding="utf-8").splitlines()]
    tile_set = load_lexicon(lexicon_dir / "cs-kriskros.lex").rule_set.tile_set
    assert rows[0] == ["?", "?", str(tile_set.blank_count), str(tile_set.blank_points), "0"]
    assert [row[0] for row in rows[1:]] == list(tile_set.alphabet)
    assert ["CH", "ch"] in [row[:2] for row in rows]        # as MAGPIE's own "L·L,l·l": no brackets
    assert all(len(row) == 5 and row[4] in ("0", "1") for row in rows)
    assert sum(int(row[2]) for row in rows) == tile_set.total_tiles
    assert {row[0] for row in rows if row[4] == "1"} >= {"A", "E", "I", "O", "U", "Y"}


def test_the_docstrings_worked_example():
    # alphabet A B, words AB and B (tile keys as tile numbers, each ended by 0)
    data = kwg_of_move_graph(_core.build_gaddag(bytes([1, 2, 0, 2, 0]), 2, 15))
    assert read_kwg(data) == [(0, 1, 0, 7), (0, 1, 0, 2), (1, 0, 0, 4), (2, 1, 1, 5), (0, 1, 0, 6),
                              (1, 1, 1, 0), (2, 1, 1, 0), (1, 0, 0, 6), (2, 1, 1, 0)]
    assert data[:4] == (0x400007).to_bytes(4, "little")      # 22-bit layout, little-endian


def test_a_graph_over_the_limit_is_refused_naming_it(capsys, tmp_path, lexicon_dir, monkeypatch):
    monkeypatch.setitem(kwg_module.MAX_ARCS, KWG22, 8)
    assert export(capsys, lexicon_dir, "pl-scrabble", tmp_path) == 2
    err = capsys.readouterr().err
    assert "2^22" in err and "--kwg24" in err and "arcs" in err
    assert not (tmp_path / "pl-scrabble.kwg").exists()
    with pytest.raises(KwgTooLarge, match="2\\^24"):
        monkeypatch.setitem(kwg_module.MAX_ARCS, KWG24, 8)
        kwg_of_move_graph(load_lexicon(lexicon_dir / "pl-scrabble.lex").move_graph, KWG24)
    assert export(capsys, lexicon_dir, "pl-scrabble", tmp_path, "--kwg24") == 2


def test_bad_input_is_a_message_not_a_traceback(capsys, tmp_path, lexicon_dir):
    assert export(capsys, lexicon_dir, "no-such", tmp_path) == 2
    assert "no lexicon 'no-such'" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert export(capsys, lexicon_dir, "pl-scrabble", blocker) == 2
    assert "--output" in capsys.readouterr().err
    assert main(["export-kwg", "--lexicons", str(lexicon_dir), "-l", "pl-scrabble", "-o", str(tmp_path),
                 "--name", "../x"]) == 2
    assert "--name" in capsys.readouterr().err
