"""Leave tables (`lexicon-build --leaves`, leaves.tsv) and the computer level "equity": the table is the
same bytes for a seed, a damaged one is refused at load, equity keeps the better leave, and an equity
seat plays a whole game through a real server."""

from __future__ import annotations

import json
import random
import shutil
import time
from pathlib import Path

import grpc
import httpx
import pytest

from build_tools.cli import main as build_main
from lexicon_service.games.computer import ALL_LEVELS, EQUITY, choose_move, level_refusal
from lexicon_service.grpc_gen import session_pb2
from lexicon_service.lexicon import LexiconCorruptError, load_lexicon
from lexicon_service.lexicon_format import file_entry
from lexicon_service.movegen import generate_moves
from lexicon_service.movegen.leaves import FILE_NAME, LeaveTable, LeaveTableMissing, parse_leave_table
from lexicon_service.rules import Board, load_rule_set, parse_gcg, replay
from test_service import write_lexicon
from test_table import server  # noqa: F401 - a real server on this module's lexicon_dir
from tests.game_helpers import create, two_tile_words

WORDS = two_tile_words("pl-scrabble") + ["kot", "kod", "kat", "dom", "tama", "kota", "koda", "data"]
GAMES = "4"


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("equity-lexicons") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS)
    write_lexicon(directory, "pl-no-leaves", "pl-scrabble", WORDS)
    assert build_main(["--leaves", str(directory / "pl-scrabble.lex"), "--games", GAMES, "--seed", "5",
                       "--quiet"]) == 0
    return directory


def test_a_leave_table_is_the_same_bytes_for_a_seed(lexicon_dir, tmp_path):
    made = []
    for run, seed in enumerate(["5", "5", "6"]):
        copy = tmp_path / f"copy{run}" / "pl-scrabble.lex"
        shutil.copytree(lexicon_dir / "pl-no-leaves.lex", copy)
        assert build_main(["--leaves", str(copy), "--games", GAMES, "--seed", seed, "--quiet"]) == 0
        made.append((copy / FILE_NAME).read_bytes())
        manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["files"][FILE_NAME] == file_entry(made[-1])
    assert made[0] == made[1] == (lexicon_dir / "pl-scrabble.lex" / FILE_NAME).read_bytes()
    assert made[2] != made[0]  # another seed, other games
    with load_lexicon(lexicon_dir / "pl-scrabble.lex") as lexicon:
        table = lexicon.leaves
        assert table is not None and table.tiles and table.sizes
        assert table.to_bytes() == made[0]  # what is read is what was written


def _with_leaves(lexicon: Path, text: str | bytes | None, fix_manifest: bool) -> None:
    """leaves.tsv of `lexicon` replaced by `text` (None: the made one with one digit changed); the manifest
    listing the new bytes when `fix_manifest`."""
    if text is None:
        made = (lexicon / FILE_NAME).read_bytes()
        data = made[:-2] + (b"1" if made[-2:-1] != b"1" else b"2") + b"\n"
    else:
        data = text.encode("utf-8") if isinstance(text, str) else text
    (lexicon / FILE_NAME).write_bytes(data)
    if fix_manifest:
        path = lexicon / "manifest.json"
        manifest = json.loads(path.read_text(encoding="utf-8"))
        manifest["files"][FILE_NAME] = file_entry(data)
        path.write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")


HEADER = "# czpl-lexicon leaves 1\tpl-scrabble\t7\ttest\n"


@pytest.mark.parametrize("text,fix_manifest,message", [
    (None, False, "checksum mismatch"),
    ("# czpl-lexicon leaves 1\tcs-scrabble\t7\ttest\ntile\tA\t1.00\n", True, "not pl-scrabble"),
    (HEADER + "tile\tA\tnan\n", True, "line 2: the value"),
    (HEADER + "tile\tA\t1e9\n", True, "line 2: the value"),
    (HEADER + "tile\tAB\t1.00\n", True, "line 2: 'AB' is not a tile"),
    (HEADER + "leave\tAAAAAAA\t1.00\n", True, "line 2: 'AAAAAAA' is not a leave"),
    (HEADER + "leave\tŹŹ\t1.00\n", True, "line 2: 'ŹŹ' is not a leave"),  # one Ź in the set
    (HEADER + "pair\tA1\t1.00\n", True, "line 2:"),
    (HEADER + "size\t7\t1.00\n", True, "line 2: size '7'"),
    (HEADER + "size\t²\t1.00\n", True, "line 2: size '²'"),          # a digit to str.isdigit, not to int()
    (HEADER + "size\t" + "9" * 5000 + "\t1.00\n", True, "line 2: size '999"),  # over int()'s 4,300 digits
    (HEADER + "size\t١\t1.00\n", True, "line 2: size '١'"),          # Arabic-Indic one: not the file's 1
    (HEADER + "tile\tA\t1.00\ntile\tA\t2.00\n", True, "line 3: tile 'A' given twice"),
    (HEADER + "tile A 1.00\n", True, "line 2: not 'kind"),
    (HEADER + "tile\tA\t1.00", True, "newline"),
    (HEADER.encode("utf-8") + b"tile\t\xff\t1.00\n", True, "not UTF-8"),
])
def test_load_refuses_a_damaged_leave_table(lexicon_dir, tmp_path, text, fix_manifest, message):
    copy = tmp_path / "pl-scrabble.lex"
    shutil.copytree(lexicon_dir / "pl-scrabble.lex", copy)
    load_lexicon(copy).close()  # the table made by lexicon-build loads
    _with_leaves(copy, text, fix_manifest)
    with pytest.raises(LexiconCorruptError, match=FILE_NAME) as info:
        load_lexicon(copy)
    assert message in str(info.value)
    # the table is what `lexicon-build --leaves` replaces: it makes a good one over the damaged one
    assert build_main(["--leaves", str(copy), "--games", "1", "--quiet"]) == 0
    assert load_lexicon(copy).leaves is not None


def test_a_leave_is_valued_by_its_line_else_by_its_parts():
    rs = load_rule_set("pl-scrabble")
    table = LeaveTable(rs, {0: 1.0, 2: -1.0}, {"A": 2.0, "?": 20.0}, {("A", "?"): 3.0}, {("A", "A"): -7.0})
    assert table.value("A?") == table.value("?A") == -1.0 + 2.0 + 20.0 + 3.0
    assert table.value("AA") == -7.0  # its own line
    assert table.value("") == 1.0
    assert table.value("K") == 0.0  # nothing known of K or leaves of one tile
    assert parse_leave_table(table.to_bytes(), rs).to_bytes() == table.to_bytes()
    assert table.best_value_within(rs.tile_set.spell_rack("AAK?")) == max(
        table.value(x) for x in ("A?", "AA", "", "K", "?", "AK?", "AAK", "AA?", "A", "AK", "K?"))


def test_equity_keeps_the_better_leave_when_scores_tie(lexicon_dir):
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = lexicon.rule_set
    board = Board.empty(rs)
    rack = "ÓŚŻAAA"  # Ó, Ś and Ż score 5 each: two of them make the top plays, each keeping the third
    plays = [m for m in generate_moves(rs, board, rack, lexicon) if m.kind == "play"]
    best = choose_move(rs, board, rack, 50, lexicon, "best", random.Random(1))
    assert best.play == plays[0].play
    other = next(m for m in plays if m.score == best.score and sorted(m.leave) != sorted(best.leave))
    # the table values the score player's leave low and another of the tied plays' high: equity keeps that one
    table = LeaveTable(rs, {}, {}, {}, {})
    lexicon.leaves = LeaveTable(rs, {}, {}, {}, {table.key(best.leave): -5.0, table.key(other.leave): 5.0})
    equity = choose_move(rs, board, rack, 50, lexicon, EQUITY, random.Random(1))
    assert equity.score == best.score and sorted(equity.leave) == sorted(other.leave) != sorted(best.leave)
    # with no leave better than another, it plays what the score player plays
    lexicon.leaves = table
    assert choose_move(rs, board, rack, 50, lexicon, EQUITY, random.Random(1)).play == best.play


def test_equity_weighs_a_leave_against_points_and_exchanges(lexicon_dir):
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = lexicon.rule_set
    board = Board.empty(rs)
    rack = "KOTAŃĆ"
    plays = [m for m in generate_moves(rs, board, rack, lexicon) if m.kind == "play"]
    assert "Ć" in plays[0].play  # the top score plays Ć
    # a leave worth more than the points: a play keeping Ć, though it scores less
    lexicon.leaves = LeaveTable(rs, {}, {"Ć": 30.0}, {}, {})
    move = choose_move(rs, board, rack, 50, lexicon, EQUITY, random.Random(1))
    assert move.kind == "play" and "Ć" in move.leave and move.score < plays[0].score
    # keeping no tile but Ć is worth most: an exchange of the rest, when the bag allows it
    lexicon.leaves = LeaveTable(rs, {}, {"Ć": 100.0, "K": -50.0, "O": -50.0, "T": -50.0, "A": -50.0,
                                         "Ń": -50.0}, {}, {})
    move = choose_move(rs, board, rack, 50, lexicon, EQUITY, random.Random(1))
    assert move.kind == "exchange" and move.leave == "Ć"
    assert choose_move(rs, board, rack, 50, lexicon, EQUITY, random.Random(1), may_exchange=False).kind == "play"
    assert choose_move(rs, board, rack, 3, lexicon, EQUITY, random.Random(1)).kind == "play"  # below the minimum
    # with the bag empty nothing is drawn: the top score, whatever the table says
    assert choose_move(rs, board, rack, 0, lexicon, EQUITY, random.Random(1)).play == plays[0].play


def test_equity_without_a_leave_table_names_the_fix(lexicon_dir):
    lexicon = load_lexicon(lexicon_dir / "pl-no-leaves.lex")
    assert lexicon.leaves is None
    with pytest.raises(LeaveTableMissing, match="lexicon-build --leaves"):
        choose_move(lexicon.rule_set, Board.empty(lexicon.rule_set), "KOT", 50, lexicon, EQUITY, random.Random(1))
    assert level_refusal(EQUITY) is None and EQUITY in ALL_LEVELS
    assert "equity" in level_refusal("equity ")


def test_equity_seats_refused_with_the_fix_named(server):
    _, port = server
    for lexicon, level, code, text in [
        ("pl-no-leaves", "equity", grpc.StatusCode.FAILED_PRECONDITION, "lexicon-build --leaves"),
        ("pl-scrabble", "Equity", grpc.StatusCode.INVALID_ARGUMENT, "computer_players[0].level:"),
    ]:
        with pytest.raises(grpc.RpcError) as info:
            create(port, lexicon, computer_players=[session_pb2.ComputerPlayer(seat=1, level=level)])
        assert info.value.code() == code and text in info.value.details(), info.value.details()
    # the other levels need no leave table
    create(port, "pl-no-leaves", computer_players=[session_pb2.ComputerPlayer(seat=1, level="best")])


def test_an_equity_seat_plays_a_whole_game_through_the_server(server, lexicon_dir):
    _, port = server
    created, (_, _), director = create(port, "pl-scrabble", names=("Eq", "Best"), seed=11, computer_players=[
        session_pb2.ComputerPlayer(seat=0, level="equity"), session_pb2.ComputerPlayer(seat=1, level="best")])
    assert list(created.player_tokens) == ["", ""]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        game = director.get()
        if game.status == session_pb2.GAME_STATUS_ENDED:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the game did not end: {director.record()}")
    assert game.players[0].computer_level == "equity" and game.end_reason
    record = director.record()
    equity_moves = [line for line in record.splitlines() if line.startswith(">Eq:")]
    assert len(equity_moves) >= 3, record
    report = replay(load_rule_set("pl-scrabble"), parse_gcg(record),
                    lexicon=load_lexicon(lexicon_dir / "pl-scrabble.lex"))
    assert report.ok, [(line.event.text, line.problems) for line in report.disagreements]


def test_leaves_option_errors_are_one_line(lexicon_dir, tmp_path, capsys):
    from movegen_helpers import without_move_graph

    copy = tmp_path / "pl-scrabble.lex"
    shutil.copytree(lexicon_dir / "pl-no-leaves.lex", copy)
    without_move_graph(copy)
    assert build_main(["--leaves", str(copy), "--games", "1", "--quiet"]) == 2
    assert "has no move graph" in capsys.readouterr().err and not (copy / FILE_NAME).exists()
    with pytest.raises(SystemExit):
        build_main(["--games", "3", "-o", str(tmp_path / "x.lex")])  # --games without --leaves
    assert "--games goes with --leaves" in capsys.readouterr().err


def test_equity_over_http(server):
    from lexicon_service.http import HttpServer, create_app

    srv, _ = server
    web = HttpServer(create_app(srv.registry, servicers={"session": srv.game_sessions}), "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=10) as http:
            def create_with(lexicon, level):
                return http.post("/v1/games", json={"lexicon": lexicon, "playerNames": ["Ann", "Robot"], "seed": 3,
                                                    "computerPlayers": [{"seat": 1, "level": level}]})
            r = create_with("pl-scrabble", "equity")
            assert r.status_code == 200, r.text
            r = create_with("pl-no-leaves", "equity")
            assert r.status_code == 400 and "lexicon-build --leaves" in r.text, r.text
            r = create_with("pl-scrabble", "equity!")
            assert r.status_code == 400 and "computer_players[0].level" in r.text, r.text
            # the listing says which lexicon the level is for (the game page offers it by this)
            listed = {l["name"]: l["hasLeaveTable"] for l in http.get("/v1/lexicons").json()["lexicons"]}
            assert listed == {"pl-scrabble": True, "pl-no-leaves": False}
    finally:
        web.stop()


def test_a_racks_leave_bound_is_the_best_leave_it_can_keep():
    rs = load_rule_set("pl-scrabble")
    table = LeaveTable(rs, {1: -2.0, 2: 1.0}, {"A": 2.0, "?": 20.0, "K": -3.0}, {("A", "?"): 3.0},
                       {("A", "A"): 9.0})
    from itertools import combinations

    for rack in ("AAK?", "KKK", "A", "?AKKAA?"):
        tiles = rs.tile_set.spell_rack(rack)
        leaves = {table.key(c) for n in range(len(tiles)) for c in combinations(tiles, n)}
        assert table.best_value_within(tiles) == max(table.value_of_tiles(k) for k in leaves)


def test_equity_picks_what_the_whole_move_list_would(lexicon_dir, monkeypatch):
    """The equity player stops listing plays early (by the rack's best possible leave) and judges the
    others without making moves of them: its choice is the one of the full list, position after position."""
    from lexicon_service.games import computer
    from lexicon_service.games.computer import best_by_equity

    monkeypatch.setattr(computer, "_FIRST_LIMIT", 1)  # the early stop at work on a small lexicon: 1, 8, 64 plays
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = lexicon.rule_set
    table = LeaveTable(rs, {}, {t: random.Random(t).uniform(-6, 6) for t in "AKOTDM?"}, {}, {})
    lexicon.leaves = table
    rnd = random.Random(7)
    board = Board.empty(rs)
    tiles = list("KOTADMAAKOTD??")
    checked = 0
    for _ in range(20):
        rack = "".join(rnd.sample(tiles, 7))
        plays = [m for m in generate_moves(rs, board, rack, lexicon, bag_count=0) if m.kind == "play"]
        chosen = best_by_equity(rs, board, rack, 0, lexicon)
        if not plays:
            assert chosen.kind == "pass"
            continue
        best = max(plays, key=lambda m: m.score + table.value(m.leave))  # max keeps the first of ties
        assert (chosen.play, chosen.score, chosen.leave) == (best.play, best.score, best.leave)
        checked += 1
    assert checked >= 6


def test_a_build_makes_its_leave_table_when_asked(tmp_path):
    """--leave-games N: the build writes leaves.tsv from N self-play games (the same bytes as --leaves on
    the lexicon built without it, on any number of threads); 0, or a build without --defaults or the
    option, writes none."""
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    base = ["--rules", "pl-scrabble", "--words", str(words), "--quiet", "--workers", "1", "-o"]
    assert build_main([*base, str(tmp_path / "with.lex"), "--leave-games", "250"]) == 0   # 3 batches, 1 thread
    assert build_main([*base, str(tmp_path / "none.lex"), "--leave-games", "0"]) == 0
    assert build_main([*base, str(tmp_path / "plain.lex")]) == 0
    assert not (tmp_path / "none.lex" / FILE_NAME).exists() and not (tmp_path / "plain.lex" / FILE_NAME).exists()
    with load_lexicon(tmp_path / "with.lex") as lexicon:
        assert lexicon.leaves is not None and lexicon.leaves.tiles
    assert build_main(["--leaves", str(tmp_path / "plain.lex"), "--games", "250", "--seed", "1", "--quiet",
                       "--workers", "3"]) == 0   # the batches on 3 threads: the same table
    assert (tmp_path / "plain.lex" / FILE_NAME).read_bytes() == (tmp_path / "with.lex" / FILE_NAME).read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["none.lex", "plain.lex", "with.lex", "words.txt"]


def test_the_fit_in_c_gives_the_plain_loops_numbers():
    """build_tools.leave_fitting' Gauss-Seidel sweeps run in C: the same weights and predictions, to the bit, as
    the plain Python loop they replace."""
    from build_tools.leave_fitting import PENALTY, SWEEPS, _gauss_seidel

    rng = random.Random(4)
    n = 40
    counts = [rng.randint(1, 50) for _ in range(n)]
    targets = [rng.uniform(-10, 10) for _ in range(n)]
    features = [("size", k) for k in range(4)] + [("tile", t) for t in "ABCDE"] + [("pair", ("A", "B"))]
    columns = {f: {i: rng.randint(1, 2) for i in rng.sample(range(n), 12)} for f in features}
    weights, predicted = dict.fromkeys(features, 0.0), [0.0] * n
    for _ in range(SWEEPS):
        for f in features:
            gradient = curvature = 0.0
            for i, x in columns[f].items():
                gradient += counts[i] * x * (targets[i] - predicted[i])
                curvature += counts[i] * x * x
            step = (gradient - PENALTY[f[0]] * weights[f]) / (curvature + PENALTY[f[0]])
            if step:
                weights[f] += step
                for i, x in columns[f].items():
                    predicted[i] += step * x
    assert _gauss_seidel(features, columns, counts, targets) == (weights, predicted)
