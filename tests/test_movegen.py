"""Move generation (lexicon_service/movegen): the C core against the plain-Python reference and
validate_move, each rule set's special rules, options, errors and the move graph file."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import time

import pytest

from build_tools.cli import main as build_main
from lexicon_service.lexicon import LexiconCorruptError, load_lexicon
from lexicon_service.movegen import (
    GeneratedMove, MoveGenerationError, MoveGenerationTimeout, MoveGraphMissing, count_moves, generate_moves,
    has_move,
)
from lexicon_service.movegen.reference import reference_moves
from lexicon_service.movegen.selfplay import positions
from lexicon_service.rules import Board, validate_move

# Letters of the small random lexicons: few, so that random racks make many words and cross words.
LETTERS = {"pl-scrabble": ["A", "E", "I", "O", "K", "T", "Ż", "Z"],
           "cs-scrabble": ["A", "O", "K", "T", "Ř", "E", "Q", "W"],     # Q, W: only a blank shows them
           "cs-kriskros": ["A", "O", "CH", "C", "H", "K", "T", "Á"]}
EXTRA = {"pl-scrabble": ["kot", "koty", "kota", "tok", "żak", "aż"],
         "cs-scrabble": ["kot", "koty", "wok", "qat"],
         "cs-kriskros": ["chata", "kot", "koty", "cech", "kotouchat", "takto"]}


def _random_words(rng: random.Random, letters, n: int) -> list[str]:
    out: set[str] = set()
    while len(out) < n:
        out.add("".join(rng.choice(letters) for _ in range(rng.choice((2, 2, 3, 3, 3, 4, 4, 5, 6)))).lower())
    return sorted(out)


def _build(directory, rule_set_id: str, words) -> object:
    src = directory / f"{rule_set_id}.txt"
    src.write_text("\n".join(words) + "\n", encoding="utf-8")
    out = directory / f"{rule_set_id}.lex"
    assert build_main(["--rules", rule_set_id, "--quiet", "--workers", "1", "--words", str(src), "-o", str(out)]) == 0
    return out


def random_lexicons(directory, seed: int, words: int = 150) -> dict:
    """A small lexicon of random words (plus EXTRA) for each rule set of LETTERS, loaded, by rule set id."""
    rng = random.Random(seed)
    return {rule_set_id: load_lexicon(_build(directory, rule_set_id, _random_words(rng, letters, words)
                                             + EXTRA[rule_set_id]))
            for rule_set_id, letters in LETTERS.items()}


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory):
    d = tmp_path_factory.mktemp("movegen")
    rng = random.Random(20261126)
    paths = {}
    for rule_set_id, letters in LETTERS.items():
        paths[rule_set_id] = _build(d, rule_set_id, _random_words(rng, letters, 120) + EXTRA[rule_set_id])
    return {k: load_lexicon(v) for k, v in paths.items()}


def _plays(moves):
    return [m for m in moves if m.kind == "play"]


@pytest.mark.parametrize("rule_set_id", sorted(LETTERS))
def test_native_equals_reference_and_validate_move(lexicons, rule_set_id):
    """Random self-play positions (blanks included): the C core lists exactly the plays the reference
    finds through validate_move, each once, and validate_move accepts each with the same score and words."""
    lex = lexicons[rule_set_id]
    rs = lex.rule_set
    rng = random.Random(rule_set_id)
    letters = [x for x in LETTERS[rule_set_id] if x in rs.tile_set.letters]
    n = checked = openings = 0
    for board, rack in positions(rs, lex, rng, 150, letters=letters):
        # the reference takes seconds on an empty board where the first play may go anywhere: one
        # opening with one blank per rule set is compared, the others' best 200 only with validate_move
        if board.tile_count or (openings == 0 and rack.count("?") == 1):
            openings += not board.tile_count
            native = _plays(generate_moves(rs, board, rack, lex))
            assert len({m.play for m in native}) == len(native)
            assert count_moves(rs, board, rack, lex) == len(native)
            reference = reference_moves(rs, board, rack, lex)    # its plays are validate_move's verdicts
            assert sorted(native, key=lambda m: m.play) == sorted(reference, key=lambda m: m.play), (str(board), rack)
        else:
            native = _plays(generate_moves(rs, board, rack, lex, limit=200))
            for move in native:
                result = validate_move(rs, board, rack, move.play, lexicon=lex)
                assert result.valid and result.score == move.score and result.words == move.words, (move, result)
                assert move.tiles_used == len(result.placements)
        assert has_move(rs, board, rack, lex) == bool(native)
        n += 1
        checked += len(native)
    assert n == 150 and checked > 1000 and openings == 1


def test_ch_is_one_tile(lexicons):
    lex = lexicons["cs-kriskros"]
    rs = lex.rule_set
    moves = _plays(generate_moves(rs, None, "[CH]ATAKOT", lex))
    chata = [m for m in moves if m.words == ("[CH]ATA",)]
    assert chata and all(m.tiles_used == 4 and "[CH]ATA" in m.play for m in chata)
    # a C tile and an H tile never spell the CH of chata
    assert not [m for m in _plays(generate_moves(rs, None, "CHATAKO", lex)) if m.words[0].upper() == "CHATA"]
    assert all(validate_move(rs, None, "[CH]ATAKOT", m.play, lexicon=lex).valid for m in chata)


def test_blank_shows_only_the_letters_the_rule_set_allows(lexicons):
    cs = lexicons["cs-scrabble"]
    wok = [m for m in _plays(generate_moves(cs.rule_set, None, "OK?", cs)) if m.words == ("wOK",)]
    assert wok and all(m.leave == "" for m in wok)      # Czech Scrabble: a blank may be W
    kk = lexicons["cs-kriskros"]
    for move in _plays(generate_moves(kk.rule_set, None, "AO??", kk)):
        for word in move.words:
            assert not set(word) & {"q", "w", "Q", "W"}
    assert "Q" not in kk.rule_set.tile_set.blank_letters and "W" not in kk.rule_set.tile_set.blank_letters


def test_eight_tile_bingo(lexicons):
    lex = lexicons["cs-kriskros"]
    rs = lex.rule_set
    moves = _plays(generate_moves(rs, None, "KOTOU[CH]AT", lex))
    bingos = [m for m in moves if m.tiles_used == 8]
    assert bingos and all(m.words == ("KOTOU[CH]AT",) for m in bingos)
    result = validate_move(rs, None, "KOTOU[CH]AT", bingos[0].play, lexicon=lex)
    assert result.bingo and result.score == bingos[0].score
    assert bingos[0].score >= rs.rack.bingo_bonus and bingos[0].leave == ""


def test_word_already_on_the_board_is_refused_in_kris_kros(lexicons):
    kk, cs = lexicons["cs-kriskros"], lexicons["cs-scrabble"]
    rows = ["." * 15] * 7 + ["....KOT........"] + ["." * 15] * 7
    kk_board, cs_board = Board.from_rows(kk.rule_set, rows), Board.from_rows(cs.rule_set, rows)
    kk_moves = _plays(generate_moves(kk.rule_set, kk_board, "KOTY", kk))
    cs_moves = _plays(generate_moves(cs.rule_set, cs_board, "KOTY", cs))
    assert any("KOT" in m.words for m in cs_moves)
    assert not any("KOT" in m.words for m in kk_moves)
    assert any(m.words[0] == "KOTY" for m in kk_moves)    # KOT made KOTY is not KOT twice
    refused = next(m for m in cs_moves if "KOT" in m.words)
    assert validate_move(kk.rule_set, kk_board, "KOTY", refused.play, lexicon=kk).code == "DUPLICATE_WORD"


def test_first_play_anywhere_or_on_the_centre(lexicons):
    kk, pl = lexicons["cs-kriskros"], lexicons["pl-scrabble"]
    kk_moves = _plays(generate_moves(kk.rule_set, None, "KOTY", kk))
    assert any(m.play.startswith("1A ") for m in kk_moves)               # Kris Kros: anywhere
    pl_moves = _plays(generate_moves(pl.rule_set, None, "KOTY", pl))
    assert pl_moves
    for move in pl_moves:
        result = validate_move(pl.rule_set, None, "KOTY", move.play)
        assert (7, 7) in {(r, c) for r, c, _, _ in result.placements}


def test_one_tile_is_one_play_and_leave_keeps_rack_order(lexicons):
    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    board = Board.from_rows(rs, ["." * 15] * 7 + [".......KOT....."] + ["." * 15] * 7)
    moves = _plays(generate_moves(rs, board, "YZA", lex))
    koty = [m for m in moves if m.words[0] == "KOTY"]
    assert [m.play for m in koty] == ["8H (KOT)Y"] and koty[0].leave == "ZA" and koty[0].tiles_used == 1


def test_order_and_limit(lexicons):
    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    board, rack = next(b for i, b in enumerate(positions(rs, lex, random.Random(3), 12)) if i == 11)
    full = generate_moves(rs, board, rack, lex)
    plays = _plays(full)
    assert [m.score for m in plays] == sorted((m.score for m in plays), reverse=True)
    assert [m.kind for m in full][len(plays):] == ["exchange"] * (len(full) - len(plays) - 1) + ["pass"]
    for k in (1, 5, len(plays), len(plays) + 1, len(plays) + 3, len(full) - 1, len(full)):
        assert generate_moves(rs, board, rack, lex, limit=k) == full[:k]
    assert generate_moves(rs, board, rack, lex) == full                   # deterministic


def test_a_limit_the_plays_fill_makes_no_exchange(lexicons, monkeypatch):
    """The best move of a 2,000-turn record's 1,000 racks (AnalyseGame) once built the rack's 127
    exchanges for each and threw them away: 0.6 s of CPU. Exchanges are made only as far as listed."""
    import lexicon_service.movegen as movegen

    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    made = []
    exchanges_of = movegen._exchanges

    def counted(*args):
        for move in exchanges_of(*args):
            made.append(move)
            yield move

    monkeypatch.setattr(movegen, "_exchanges", counted)
    full = generate_moves(rs, None, "KOTAEIZ", lex)
    plays = _plays(full)
    assert plays and len(made) == len(full) - len(plays) - 1 == 127      # no limit: all of them
    made.clear()
    assert generate_moves(rs, None, "KOTAEIZ", lex, limit=1) == plays[:1] and not made
    assert generate_moves(rs, None, "KOTAEIZ", lex, limit=len(plays) + 2) == full[:len(plays) + 2]
    assert len(made) == 2


@pytest.mark.parametrize("rule_set_id", sorted(LETTERS))
def test_top_k_skipping_anchors_by_bound_equals_the_head_of_the_full_list(lexicons, rule_set_id):
    """With a limit the search visits anchors best score bound first and stops where no bound can
    beat the worst kept play: the answer is still the head of the full, sorted list (blanks, bingos,
    premiums, filters; random self-play positions, openings included)."""
    lex = lexicons[rule_set_id]
    rs = lex.rule_set
    letters = [x for x in LETTERS[rule_set_id] if x in rs.tile_set.letters]
    compared = 0
    for i, (board, rack) in enumerate(positions(rs, lex, random.Random(f"top-k {rule_set_id}"), 120,
                                                letters=letters, best=True)):
        if not board.tile_count and rs.first_play.must_cover is None and i % 10:
            continue  # openings anywhere have ~10^5 plays: one in ten is enough
        full = _plays(generate_moves(rs, board, rack, lex))
        for k in (1, 2, 7, 40):
            assert _plays(generate_moves(rs, board, rack, lex, limit=k)) == full[:k], (str(board), rack, k)
        filtered = generate_moves(rs, board, rack, lex, min_length=3)
        assert generate_moves(rs, board, rack, lex, min_length=3, limit=3) == filtered[:3], (str(board), rack)
        compared += bool(full)
    assert compared > 50


def test_exchanges_follow_the_bag(lexicons):
    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    moves = generate_moves(rs, None, "AAB", lex)
    exchanges = [m for m in moves if m.kind == "exchange"]
    assert sorted(m.play for m in exchanges) == sorted(["-A", "-B", "-AA", "-AB", "-AAB"])
    assert {m.play: m.leave for m in exchanges}["-AB"] == "A"
    assert moves[-1] == GeneratedMove("pass", "-", 0, (), "AAB", 0)
    assert not [m for m in generate_moves(rs, None, "AAB", lex, bag_count=6) if m.kind == "exchange"]
    assert {m.tiles_used for m in generate_moves(rs, None, "AAB", lex, bag_count=7) if m.kind == "exchange"} == {1, 2, 3}
    kk = lexicons["cs-kriskros"]       # Kris Kros: any number, any time, but not more than the bag holds
    assert {m.tiles_used for m in generate_moves(kk.rule_set, None, "AAB", kk, bag_count=2)
            if m.kind == "exchange"} == {1, 2}
    assert [m.kind for m in generate_moves(rs, None, "AAB", lex, include_exchanges=False)] == ["pass"]
    assert generate_moves(rs, None, "AAB", lex, include_exchanges=False, include_pass=False) == []


def test_filters(lexicons):
    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    all_plays = _plays(generate_moves(rs, None, "KOTYAE?", lex))
    long_ = generate_moves(rs, None, "KOTYAE?", lex, min_length=4)
    assert long_ == [m for m in all_plays if len(validate_move(rs, None, "KOTYAE?", m.play).placements) >= 4
                     and len(m.words[0]) >= 4]
    blank = generate_moves(rs, None, "KOTYAE?", lex, must_use="?")
    assert blank and blank == [m for m in all_plays if "?" not in m.leave]
    contain = generate_moves(rs, None, "KOTYAE?", lex, must_contain="ot")
    assert contain and contain == [m for m in all_plays if "OT" in m.words[0].upper()]


def test_bad_input_names_the_field(lexicons):
    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    cases = [({"rack": "AB1"}, "rack"), ({"rack": "ABCDEFGH"}, "rack"), ({"rack": "ŹŹ"}, "rack"),
             ({"rack": "???"}, "rack"), ({"rack": None}, "rack"), ({"limit": 0}, "limit"), ({"sort": "x"}, "sort"),
             ({"bag_count": -1}, "bag_count"), ({"must_use": "1"}, "must_use"), ({"must_contain": "x1"}, "must_contain"),
             ({"min_length": -2}, "min_length"), ({"board": Board.empty(lexicons["cs-scrabble"].rule_set)}, "board")]
    for change, field in cases:
        kwargs = {"rack": "AB", "board": None, **change}
        board, rack = kwargs.pop("board"), kwargs.pop("rack")
        with pytest.raises(MoveGenerationError) as info:
            generate_moves(rs, board, rack, lex, **kwargs)
        assert info.value.field == field, change
    with pytest.raises(MoveGenerationError) as info:
        generate_moves(lexicons["cs-scrabble"].rule_set, None, "AB", lex)
    assert info.value.field == "rule_set"


def test_must_use_tiles_the_rack_lacks_names_the_field(lexicons):
    """Plays that must place a tile the rack does not hold are a client's mistake (named), not an
    empty answer; so is a must_use too long to count."""
    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    assert generate_moves(rs, None, "KOTA?", lex, must_use="K?")
    for must_use in ("KK", "??", "Ż", "A" * 300):
        with pytest.raises(MoveGenerationError) as info:
            generate_moves(rs, None, "KOTA?", lex, must_use=must_use)
        assert info.value.field == "must_use" and "rack" in str(info.value), must_use


def test_deadline(lexicons):
    lex = lexicons["cs-kriskros"]
    with pytest.raises(MoveGenerationTimeout):
        generate_moves(lex.rule_set, None, "KOTA??AO", lex, deadline=time.monotonic() - 1)


def test_deadline_passed_while_the_answer_is_made(lexicons, monkeypatch):
    """The deadline also bounds turning the core's plays into moves (100,000 of them took 1.7 s on a
    real lexicon, docs/movegen.md): a deadline that passes after the search is a timeout, not a late answer."""
    import lexicon_service.movegen as movegen

    lex = lexicons["cs-kriskros"]
    search = movegen._core_generate

    def slow(*args):
        found = search(*args)
        time.sleep(0.3)  # the search ended in time; what follows does not
        return found

    monkeypatch.setattr(movegen, "_core_generate", slow)
    assert generate_moves(lex.rule_set, None, "KOTA?", lex, limit=5)
    with pytest.raises(MoveGenerationTimeout):
        generate_moves(lex.rule_set, None, "KOTA?", lex, limit=5, deadline=time.monotonic() + 0.15)
    with pytest.raises(MoveGenerationTimeout):
        movegen.best_play_by_leave(lex.rule_set, None, "KOTA?", lex, lambda tiles: 0.0, limit=5,
                                   deadline=time.monotonic() + 0.15)


def test_move_graph_missing_then_added_with_the_same_bytes(lexicons, tmp_path):
    src = lexicons["pl-scrabble"].path
    copy = tmp_path / "copy.lex"
    shutil.copytree(src, copy)
    built = (copy / "moves.gaddag").read_bytes()
    (copy / "moves.gaddag").unlink()
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    del manifest["files"]["moves.gaddag"]
    (copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    lex = load_lexicon(copy)                      # still loads and checks words
    assert lex.is_admissible("kot") and lex.move_graph is None
    with pytest.raises(MoveGraphMissing, match="--move-graph-only"):
        generate_moves(lex.rule_set, None, "KOT", lex)
    assert build_main(["--move-graph-only", str(copy)]) == 0
    assert (copy / "moves.gaddag").read_bytes() == built
    assert sorted(p.name for p in copy.iterdir()) == sorted(p.name for p in src.iterdir())
    again = load_lexicon(copy)
    assert _plays(generate_moves(again.rule_set, None, "KOT", again)) == _plays(
        generate_moves(again.rule_set, None, "KOT", lexicons["pl-scrabble"]))


def test_a_lexicon_built_before_the_rename_loads_its_moves_kwg(lexicons, tmp_path):
    """Lexicons built before the move graph was named for its format hold it as moves.kwg: they load
    and generate as before; --move-graph-only replaces it with moves.gaddag (the same bytes)."""
    src = lexicons["pl-scrabble"].path
    copy = tmp_path / "old.lex"
    shutil.copytree(src, copy)
    built = (copy / "moves.gaddag").read_bytes()
    (copy / "moves.gaddag").rename(copy / "moves.kwg")
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"]["moves.kwg"] = manifest["files"].pop("moves.gaddag")
    (copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    old = load_lexicon(copy)
    assert old.has_move_graph and old.move_graph == lexicons["pl-scrabble"].move_graph
    assert _plays(generate_moves(old.rule_set, None, "KOTY", old)) == _plays(
        generate_moves(old.rule_set, None, "KOTY", lexicons["pl-scrabble"]))
    _rewrite(copy, "moves.kwg", b"\xff" * 64)
    with pytest.raises(LexiconCorruptError, match="moves.kwg"):
        load_lexicon(copy)
    (copy / "moves.kwg").write_bytes(built)
    _rewrite(copy, "moves.kwg", built)
    assert build_main(["--move-graph-only", str(copy)]) == 0
    assert (copy / "moves.gaddag").read_bytes() == built and not (copy / "moves.kwg").exists()
    assert "moves.kwg" not in json.loads((copy / "manifest.json").read_text(encoding="utf-8"))["files"]
    assert sorted(p.name for p in copy.iterdir()) == sorted(p.name for p in src.iterdir())


def _rewrite(path, name, data: bytes) -> None:
    (path / name).write_bytes(data)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.parametrize("damage", ["truncate", "index", "tile", "magic", "unended", "order", "middle", "cycle",
                                    "long"])
def test_damaged_move_graph_is_refused_naming_the_file(lexicons, tmp_path, damage):
    copy = tmp_path / "copy.lex"
    shutil.copytree(lexicons["pl-scrabble"].path, copy)
    data = bytearray((copy / "moves.gaddag").read_bytes())
    text_len = int.from_bytes(data[16:20], "little")
    arc = 20 + text_len + (-text_len % 4)                   # arc 0; the root node starts at arc 1
    if damage == "truncate":
        data = data[:-4]
    elif damage == "index":
        data[-4:] = (0x01FFFFFF).to_bytes(4, "little")    # end flag, index far past the end
    elif damage == "tile":
        data[-4:] = ((60 << 26) | (1 << 24) | (1 << 25)).to_bytes(4, "little")
    elif damage == "magic":
        data[:8] = b"NOTAGRPH"
    elif damage == "order":                                 # the root's first two tiles swapped
        data[arc + 4:arc + 8], data[arc + 8:arc + 12] = data[arc + 8:arc + 12], data[arc + 4:arc + 8]
    elif damage == "middle":                                # the root pointer into the root node's 2nd arc
        data[arc:arc + 4] = ((1 << 24) | 2).to_bytes(4, "little")
    elif damage == "cycle":                                 # well formed, but the last arc leads back to the root
        data[-4:] = ((int.from_bytes(data[-4:], "little") & ~0xFFFFFF) | 1).to_bytes(4, "little")
    elif damage == "long":                                  # well formed, but a word of 18 tiles on a 15x15 board
        from lexicon_service.movegen import _core
        arcs = _core.build_gaddag(bytes([1] * 18 + [0]), len(lexicons["pl-scrabble"].rule_set.tile_set.alphabet), 20)
        data = data[:8] + (len(arcs) // 4).to_bytes(4, "little") + data[12:arc] + arcs   # the header's count fits
    else:
        data[-4:] = ((1 << 26) | (1 << 25)).to_bytes(4, "little")     # the last node never ends
    _rewrite(copy, "moves.gaddag", bytes(data))
    with pytest.raises(LexiconCorruptError, match="moves.gaddag"):
        load_lexicon(copy)
    # a checksum mismatch is refused too
    shutil.copy2(lexicons["pl-scrabble"].path / "manifest.json", copy / "manifest.json")
    with pytest.raises(LexiconCorruptError, match="moves.gaddag"):
        load_lexicon(copy)


def test_search_layout_of_the_worked_example():
    """graph.py's worked example (words AB and B) in the search layout: per node its tiles' mask,
    then a child index | accepts (bit 31) per tile; word 0 the root node, word 1 the root pointer's
    flags. arcs_of_layout gives the arc array back."""
    from lexicon_service.movegen import _core
    from lexicon_service.movegen.graph import arcs_of_layout, search_layout

    arcs = _core.build_gaddag(bytes([1, 2, 0, 2, 0]), 2, 15)
    layout = search_layout(arcs)
    words = [int.from_bytes(layout[i:i + 4], "little") for i in range(0, len(layout), 4)]
    accepts = 1 << 31
    assert arcs_of_layout(layout) == arcs
    assert words == [2, 1 << 24,
                     0b110, 0, 6, accepts | 9,   # root: A -> node 6, B (accepts) -> node 9
                     0b001, 0, 12,               # after A: ^ -> node 12
                     0b010, 0, accepts,          # after B: A accepts (BA)
                     0b100, 0, accepts]          # after A^: B accepts (A^B)


def test_a_loaded_lexicon_keeps_the_search_layout_and_gives_the_file_arcs_back(lexicons):
    from lexicon_service.movegen.graph import parse_move_graph, search_layout

    for lex in lexicons.values():
        arcs = parse_move_graph((lex.path / "moves.gaddag").read_bytes(), lex.rule_set)
        assert lex.has_move_graph and lex.search_graph == search_layout(arcs) and lex.move_graph == arcs


def test_answers_are_bounded(lexicons):
    """A Kris Kros opening with two jokers has millions of plays (on a real lexicon): an answer lists
    at most MAX_LISTED (more without a limit is refused, field "limit"); the top k come from a heap."""
    lex = lexicons["cs-kriskros"]
    import lexicon_service.movegen as movegen

    assert movegen.MAX_LISTED == 1_000_000
    with pytest.raises(MoveGenerationError) as info:
        generate_moves(lex.rule_set, None, "KOTA??AO", lex, limit=movegen.MAX_LISTED + 1)
    assert info.value.field == "limit"
    best = generate_moves(lex.rule_set, None, "KOTA??AO", lex, limit=3)
    assert len(best) == 3 and best[0].score >= best[1].score >= best[2].score


def test_no_more_copies_of_a_tile_than_the_set_holds(lexicons):
    """Polish has one Ż: with one on the board, a rack with a Ż (a client's mistake) is refused naming the
    rack (TILE_COUNT_EXCEEDED), as validate_move refuses playing it; a blank may still show Ż."""
    lex = lexicons["pl-scrabble"]
    rs = lex.rule_set
    board = Board.from_rows(rs, ["." * 15] * 7 + [".......ŻAK....."] + ["." * 15] * 7)
    with pytest.raises(MoveGenerationError, match="TILE_COUNT_EXCEEDED") as refused:
        generate_moves(rs, board, "ŻA?", lex)
    assert refused.value.field == "rack"
    moves = _plays(generate_moves(rs, board, "A?", lex))
    assert any("ż" in m.play for m in moves)
    assert sorted(moves, key=lambda m: m.play) == sorted(reference_moves(rs, board, "A?", lex), key=lambda m: m.play)


def test_the_core_takes_a_rules_object_and_keyword_options(lexicons):
    """The C entry point takes the rule set as one typed object (made once per rule set) and its
    options by name, not 24 positional arguments; a field of the wrong size is refused by name."""
    from lexicon_service.movegen import _core, _static

    lex = lexicons["pl-scrabble"]
    static = _static(lex.rule_set)
    assert isinstance(static.core_rules, _core.Rules)
    rack = bytearray(64)
    for letter in "KOTY":
        rack[static.number[letter]] += 1
    board = bytes(lex.rule_set.rows * lex.rule_set.columns)
    plays = _core.generate(lex.search_graph, static.core_rules, board, bytes(rack), mode=0, limit=3)
    assert len(plays) == 3 and plays[0][0] >= plays[-1][0]
    assert _core.generate(lex.search_graph, static.core_rules, board, bytes(rack), mode=1) >= 3
    with pytest.raises(TypeError):
        _core.generate(lex.search_graph, static.core_rules, board, bytes(rack), 1)  # options by name only
    with pytest.raises(ValueError, match="letter_mult"):
        _core.Rules(n_tiles=2, rows=3, cols=3, letter_mult=b"\1" * 8, word_mult=b"\1" * 9, points=bytes(64),
                    bag=bytes(64), blank_mask=0, bingo_tiles=7, bingo_bonus=50, min_word_len=2, first_cover=-1,
                    first_min_tiles=2, must_connect=1, forbid_dup=0)


def test_random_play_draws_from_every_play_without_listing_them(lexicons):
    """random_play numbers the plays in the search's order (as count_moves counts them) and makes only
    the drawn one: over every number it gives each play of the full list exactly once."""
    from lexicon_service.movegen import _call, _moves_from_core, random_play

    lex = lexicons["cs-kriskros"]
    rs = lex.rule_set
    board = next(b for b, _ in positions(rs, lex, random.Random(7), 6) if b.tile_count)
    rack = "KOTA?"
    full = _plays(generate_moves(rs, board, rack, lex))
    total = count_moves(rs, board, rack, lex)
    assert total == len(full) > 3
    drawn = []
    for k in range(total + 1):
        found, static, b, letters = _call(rs, board, rack, lex, 3, nth=k)
        drawn += _moves_from_core(rs, b, letters, static, found)
    assert sorted(drawn, key=repr) == sorted(full, key=repr)   # the number past the count gives none
    assert random_play(rs, board, rack, lex, random.Random(1)) in full
    assert random_play(rs, board, "", lex, random.Random(1)) is None


def test_random_self_play_survives_a_position_with_more_plays_than_one_answer_lists(lexicons, monkeypatch):
    """A Kris Kros opening with two blanks has over 1,000,000 plays on the real lexicon (seed 45, rack
    DI??AŮEJ): listing them all is refused (field limit), so positions() draws the play by random_play
    instead of failing."""
    from lexicon_service.movegen import MoveGenerationError, selfplay

    lex = lexicons["cs-kriskros"]
    listed = selfplay.generate_moves

    def refuse_long_lists(*args, limit=None, **kw):
        if limit is None:
            raise MoveGenerationError("limit", "more than 1,000,000 plays: give a limit")
        return listed(*args, limit=limit, **kw)

    monkeypatch.setattr(selfplay, "generate_moves", refuse_long_lists)
    seen = list(positions(lex.rule_set, lex, random.Random(45), 12))
    assert len(seen) == 12 and any(board.tile_count for board, _ in seen)
