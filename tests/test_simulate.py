"""Simulation, the win-probability table (`lexicon-build --win-table`, winprob.tsv), endgames and the
computer level "simulating": the table is the same bytes for a seed and a damaged one is refused at load;
the simulated opponent racks come only from the tiles the player cannot see; the endgame search gives
the value of a plain full search."""

from __future__ import annotations

import json
import random
import shutil
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from build_tools.cli import main as build_main
from lexicon_service.games import computer
from lexicon_service.games.computer import SIMULATING, choose_move, leave_table_refusal
from lexicon_service.grpc_gen import session_pb2
from lexicon_service.lexicon import LexiconCorruptError, load_lexicon
from lexicon_service.lexicon_format import file_entry
from lexicon_service.movegen import MoveGenerationError, MoveGenerationTimeout, generate_moves
from lexicon_service.movegen.endgame import EndgameTimeout, full_search, solve_endgame
from lexicon_service.movegen.selfplay import bag_of
from lexicon_service.movegen.simulate import SimSettings, seat_view, simulate, unseen_tiles
from lexicon_service.movegen.winprob import FILE_NAME, WinTable, parse_win_table
from lexicon_service.rules import Board, load_rule_set
from lexicon_service.rules.moves import validate_move
from test_service import write_lexicon
from test_table import server  # noqa: F401 - a real server on this module's lexicon_dir
from tests.game_helpers import create, small_endgames, two_tile_words

WORDS = two_tile_words("pl-scrabble") + ["kot", "kod", "kat", "dom", "tama", "kota", "koda", "data"]
# no two-tile words: few plays per rack, so that a plain full search of an endgame is quick
ENDGAME_WORDS = ["kot", "kod", "kat", "tak", "dom", "tom", "mak", "kto", "oko", "tam", "dam", "akt", "kato",
                 "kota", "koda", "data", "tama", "mata", "domek", "tok", "ok", "to", "ta", "od", "do", "ko"]


@pytest.fixture(scope="module")
def lexicon_dir(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("sim-lexicons") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS)
    write_lexicon(directory, "pl-endgame", "pl-scrabble", ENDGAME_WORDS)
    path = str(directory / "pl-scrabble.lex")
    assert build_main(["--leaves", path, "--games", "4", "--seed", "5", "--quiet"]) == 0
    assert build_main(["--win-table", path, "--games", "6", "--seed", "5", "--quiet"]) == 0
    return directory


def test_a_win_table_is_the_same_bytes_for_a_seed(lexicon_dir, tmp_path):
    made = []
    for run, seed in enumerate(["5", "5", "6"]):
        copy = tmp_path / f"copy{run}" / "pl-scrabble.lex"
        shutil.copytree(lexicon_dir / "pl-scrabble.lex", copy)
        assert build_main(["--win-table", str(copy), "--games", "6", "--seed", seed, "--quiet"]) == 0
        made.append((copy / FILE_NAME).read_bytes())
        manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["files"][FILE_NAME] == file_entry(made[-1])
        assert "leaves.tsv" in manifest["files"]  # the other added file stays listed
    assert made[0] == made[1] == (lexicon_dir / "pl-scrabble.lex" / FILE_NAME).read_bytes()
    assert made[2] != made[0]
    with load_lexicon(lexicon_dir / "pl-scrabble.lex") as lexicon:
        table = lexicon.win_table
        assert table is not None and table.to_bytes() == made[0]
        assert table.win_chance(-300, 0) <= table.win_chance(0, 0) <= table.win_chance(300, 0)


HEADER = "# czpl-lexicon winprob 1\tpl-scrabble\ttest\nspreads\t-10\t0\t10\n"


@pytest.mark.parametrize("text,message", [
    ("# czpl-lexicon winprob 1\tcs-scrabble\ttest\nspreads\t-10\t0\t10\nbag\t0\t0\t0.5\t1\n", "not pl-scrabble"),
    (HEADER + "bag\t0\t0.6\t0.5\t1\n", "line 3: the chance to win falls"),
    (HEADER + "bag\t0\t0\t0.5\t1.5\n", "line 3: a chance that is not"),
    (HEADER + "bag\t0\t0\tnan\t1\n", "line 3: a chance that is not"),
    (HEADER + "bag\t1\t0\t0.5\t1\n", "line 3: not 'bag<TAB>0'"),
    (HEADER + "bag\t0\t0\t0.5\n", "line 3: not 'bag<TAB>0'"),
    (HEADER + "bag\t0\t0\t0.5\t1\nbag\t٢\t0\t0.5\t1\n", "line 4: not 'bag<TAB>1'"),
    ("# czpl-lexicon winprob 1\tpl-scrabble\ttest\nspreads\t10\t0\t-10\nbag\t0\t0\t0.5\t1\n", "strictly rising"),
    ("# czpl-lexicon winprob 1\tpl-scrabble\ttest\nspreads\t-10\t²\nbag\t0\t0\t1\n", "strictly rising"),
    (HEADER, "no spreads line and bag rows"),
    (HEADER + "bag\t0\t0\t0.5\t1", "newline"),
    ("winprob\n", "the first line"),
])
def test_load_refuses_a_damaged_win_table(lexicon_dir, tmp_path, text, message):
    copy = tmp_path / "pl-scrabble.lex"
    shutil.copytree(lexicon_dir / "pl-scrabble.lex", copy)
    data = text.encode("utf-8")
    (copy / FILE_NAME).write_bytes(data)
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][FILE_NAME] = file_entry(data)
    (copy / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(LexiconCorruptError, match=FILE_NAME) as info:
        load_lexicon(copy)
    assert message in str(info.value)
    # `lexicon-build --win-table` replaces the damaged table
    assert build_main(["--win-table", str(copy), "--games", "1", "--quiet"]) == 0
    assert load_lexicon(copy).win_table is not None


def test_a_win_chance_is_interpolated_and_clamped():
    rs = load_rule_set("pl-scrabble")
    table = WinTable(rs.id, [-10, 0, 10], [[0.1, 0.5, 0.9], [0.2, 0.5, 0.8]])
    assert table.win_chance(5, 0) == pytest.approx(0.7)
    assert table.win_chance(-99, 1) == 0.2 and table.win_chance(99, 1) == 0.8
    assert table.win_chance(0, 50) == 0.5  # past the last row: the last row
    assert parse_win_table(table.to_bytes(), rs).to_bytes() == table.to_bytes()


def _position(rule_set, lexicon, seed: int):
    """A board after a few best plays, the rack on turn, the opponent's rack and the bag (a real deal)."""
    rng = random.Random(seed)
    bag = bag_of(rule_set)
    rng.shuffle(bag)
    racks = [[bag.pop() for _ in range(7)] for _ in range(2)]
    board = Board.empty(rule_set)
    for turn in range(4):
        rack = racks[turn % 2]
        moves = generate_moves(rule_set, board, rule_set.tile_set.rack_text(rack), lexicon, limit=1,
                               include_exchanges=False, include_pass=False)
        if moves:
            result = validate_move(rule_set, board, rule_set.tile_set.rack_text(rack), moves[0].play, lexicon=lexicon)
            board.apply(result)
            for tile in result.tiles_used:
                rack.remove(tile)
            while len(rack) < 7:
                rack.append(bag.pop())
    return board, rule_set.tile_set.rack_text(racks[0]), racks[1], bag


def test_simulated_opponent_racks_come_only_from_unseen_tiles(lexicon_dir, monkeypatch):
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = lexicon.rule_set
    board, rack, opponent, bag = _position(rs, lexicon, 3)
    truly_unseen = Counter(opponent) + Counter(bag)
    assert Counter(unseen_tiles(rs, board, rack)) == truly_unseen
    draws = []
    real_simulate = computer.simulate

    def recording(*args, **kwargs):
        return real_simulate(*args, **kwargs, on_draw=lambda opp, rest: draws.append((opp, rest)))

    monkeypatch.setattr(computer, "simulate", recording)
    move = choose_move(rs, board, rack, len(bag), lexicon, SIMULATING, random.Random(1),
                       time.monotonic() + 5, spread=-12)
    assert move.kind in ("play", "exchange", "pass") and draws
    for opp, rest in draws:
        assert len(opp) == len(opponent) and len(rest) == len(bag)
        assert Counter(opp) + Counter(rest) == truly_unseen  # never a tile the seat holds or sees on the board
    assert len({tuple(sorted(opp)) for opp, _ in draws}) > 1  # drawn anew, not the opponent's real rack


def test_simulation_is_repeatable_prunes_and_stops(lexicon_dir):
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = lexicon.rule_set
    board, rack, _opponent, bag = _position(rs, lexicon, 4)
    view = seat_view(rs, board, rack, len(bag), spread=20)
    settings = SimSettings(candidates=6, iterations=120, min_iterations=8, check_every=4, seed="7")
    one, two = simulate(rs, view, lexicon, settings), simulate(rs, view, lexicon, settings)
    assert [(m.move.play, m.iterations, m.mean_spread, m.win_chance) for m in one.moves] == \
        [(m.move.play, m.iterations, m.mean_spread, m.win_chance) for m in two.moves]
    assert one.has_win_table and one.stopped in ("iterations", "confidence") and 0 < one.iterations <= 120
    pruned = [m for m in one.moves if m.pruned]
    assert all(m.iterations <= one.iterations for m in pruned)  # pruned at a check, the last one included
    leader = one.moves[0]
    assert not leader.pruned and leader.iterations == one.iterations
    assert all(leader.mean_key >= m.mean_key for m in one.moves if not m.pruned)
    # the deadline stops it with what it has; one passed before the candidates were found is a timeout
    many = SimSettings(candidates=6, iterations=100_000, min_iterations=100_000, seed="7")
    started = time.monotonic()
    late = simulate(rs, view, lexicon, many, deadline=started + 0.3)
    assert late.stopped == "time" and 0 < late.iterations < 100_000 and time.monotonic() - started < 1.0
    with pytest.raises(MoveGenerationTimeout):
        simulate(rs, view, lexicon, settings, deadline=time.monotonic() - 1)
    with pytest.raises(MoveGenerationError) as info:
        simulate(rs, view, lexicon, SimSettings(plies=99))
    assert info.value.field == "plies"


def test_the_endgame_search_gives_the_full_search_value(lexicon_dir):
    lexicon = load_lexicon(lexicon_dir / "pl-endgame.lex")
    rs = lexicon.rule_set
    checked = moved = 0
    for board, mine, theirs in small_endgames(lexicon, 25, 11):
        solved = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None)
        assert solved.exact
        assert solved.value == full_search(rs, board, mine, lexicon, opponent_rack=theirs)
        best = solved.best
        assert best is not None
        if best.kind == "play":
            moved += 1
            assert validate_move(rs, board, mine, best.play, lexicon=lexicon).score == best.score
        checked += 1
    assert checked == 25 and moved > 5


def test_the_endgame_and_the_simulation_fall_back_within_their_time(lexicon_dir, monkeypatch):
    small = load_lexicon(lexicon_dir / "pl-endgame.lex")
    board, mine, theirs = next(small_endgames(small, 1, 12))
    with pytest.raises(EndgameTimeout):
        solve_endgame(small.rule_set, board, mine, small, opponent_rack=theirs, seconds=0)
    # a computer whose search found nothing in time plays the equity move
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = lexicon.rule_set
    board, rack, _opponent, bag = _position(rs, lexicon, 5)

    def too_slow(*args, **kwargs):
        raise MoveGenerationTimeout("too slow")

    monkeypatch.setattr(computer, "simulate", too_slow)
    move = choose_move(rs, board, rack, len(bag), lexicon, SIMULATING, random.Random(1), time.monotonic() + 5)
    assert move == choose_move(rs, board, rack, len(bag), lexicon, "equity", random.Random(1))


def test_the_level_simulating_needs_a_leave_table(lexicon_dir):
    with load_lexicon(lexicon_dir / "pl-endgame.lex") as lexicon:
        assert "lexicon-build --leaves" in leave_table_refusal(SIMULATING, lexicon)


def _cli(capsys, *argv):
    from lexicon_service.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_sim_ranks_by_win_chance_and_names_bad_options(lexicon_dir, capsys):
    base = ["moves", "--lexicons", str(lexicon_dir), "-l", "pl-scrabble", "--rack", "KOTADAM", "--setup", "8G KOT"]
    code, out, err = _cli(capsys, *base, "--sim", "--iterations", "40", "--seed", "3", "--json", "-n", "4")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 4 and all(r["kind"] == "simulation" for r in rows)
    kept = [r for r in rows if not r["pruned"]]
    assert kept[0] == rows[0] and all(0 <= r["win_chance"] <= 100 for r in rows)
    assert "simulation:" in err
    code, out2, _ = _cli(capsys, *base, "--sim", "--iterations", "40", "--seed", "3", "--json", "-n", "4")
    assert out2 == out  # the same seed, the same answer
    code, out, err = _cli(capsys, *base, "--sim", "--seconds", "0")
    assert code == 2 and "--seconds" in err
    code, out, err = _cli(capsys, *base, "--sim", "--plies", "9")
    assert code == 2 and "--plies" in err
    code, out, err = _cli(capsys, *base, "--sim", "--must-use", "K")
    assert code == 2 and "--sim" in err


def test_looking_ahead_solves_the_endgame_once_the_bag_is_empty(lexicon_dir, monkeypatch):
    import lexicon_service.games.lookahead as lookahead_module
    from lexicon_service.games.lookahead import LookaheadOptions, look_ahead

    lexicon = load_lexicon(lexicon_dir / "pl-endgame.lex")
    rs = lexicon.rule_set
    board, mine, theirs = next(small_endgames(lexicon, 1, 21))
    solved = solve_endgame(rs, board, mine, lexicon, opponent_rack=theirs, seconds=None)
    # a small endgame: the tiles the player cannot see are the opponent's rack alone
    monkeypatch.setattr(lookahead_module, "unseen_tiles", lambda *a: list(rs.tile_set.spell_rack(theirs)))
    found = look_ahead(rs, board, mine, lexicon, LookaheadOptions(), None)
    assert found.kind == "endgame" and found.stopped == "exact"
    assert found.moves[0].mean_spread == solved.value and found.sequence == [m.play for m in solved.moves]


def test_analyse_sim_gives_win_chances_of_the_move_played_and_the_best(lexicon_dir, tmp_path, capsys):
    record = tmp_path / "game.gcg"
    record.write_text("#character-encoding UTF-8\n#rules pl-scrabble\n#player1 a A\n#player2 b B\n"
                      ">a: KOTADAM 8G KOT +10 10\n>b: AMDTAKO 9G TAK +9 9\n", encoding="utf-8")
    code, out, err = _cli(capsys, "analyse", str(record), "--lexicons", str(lexicon_dir), "-l", "pl-scrabble",
                          "--sim", "--iterations", "30", "--json")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 2
    for row in rows:
        ahead = row["ahead"]
        assert ahead["kind"] == "simulation" and ahead["best"]
        assert 0 <= ahead["best_win"] <= 1
        if ahead["played_win"] is not None:
            assert ahead["played_win"] <= ahead["best_win"] + 1e-9 or ahead["best_spread"] >= ahead["played_spread"]
    code, out, err = _cli(capsys, "analyse", str(record), "--lexicons", str(lexicon_dir), "-l", "pl-scrabble",
                          "--json")
    assert code == 0 and all("ahead" not in json.loads(line) for line in out.splitlines())


def test_a_simulated_hint_and_a_simulating_seat_through_the_server(server, lexicon_dir):
    from lexicon_service.http import HttpServer, create_app

    srv, port = server
    created, (ann, _robot), director = create(port, "pl-scrabble", names=("Ann", "Robot"), seed=5,
                                              allow_hints=True,
                                              computer_players=[session_pb2.ComputerPlayer(seat=1, level=SIMULATING)])
    hint = ann.stub.GetHint(session_pb2.GetHintRequest(game_id=created.game_id, limit=3, simulate=True),
                            metadata=ann.md, timeout=10)
    assert hint.lookahead == "simulation" and 1 <= len(hint.moves) <= 3 and len(hint.outlooks) == len(hint.moves)
    assert all(o.HasField("win_chance") and 0 <= o.win_chance <= 1 for o in hint.outlooks)
    played = ann.play(hint.moves[0].play)
    assert played.version
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and ">Robot:" not in director.record():
        time.sleep(0.05)
    assert ">Robot:" in director.record()  # the simulating seat moved within its time
    web = HttpServer(create_app(srv.registry, servicers={"session": srv.game_sessions}), "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=10) as http:
            r = http.get(f"/v1/games/{created.game_id}/hint", params={"simulate": "true", "limit": "2"},
                         headers={"authorization": f"Bearer {ann.token}"})
            assert r.status_code == 200, r.text
            answer = r.json()
            assert answer["lookahead"] == "simulation" and len(answer["outlooks"]) == len(answer["moves"]) <= 2
    finally:
        web.stop()


def test_analyse_game_with_simulate_over_grpc_and_http(server, tmp_path):
    import grpc

    from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
    from lexicon_service.http import HttpServer, create_app

    srv, port = server
    gcg = ("#character-encoding UTF-8\n#rules pl-scrabble\n#player1 a A\n#player2 b B\n"
           ">a: KOTADAM 8G KOT +10 10\n>b: AMDTAKO 9G TAK +9 9\n")
    with grpc.insecure_channel(f"localhost:{port}") as channel:
        stub = game_pb2_grpc.GameServiceStub(channel)
        plain = stub.AnalyseGame(game_pb2.AnalyseGameRequest(lexicon="pl-scrabble", gcg=gcg), timeout=30)
        assert not any(t.HasField("ahead") for t in plain.turns)
        answer = stub.AnalyseGame(game_pb2.AnalyseGameRequest(lexicon="pl-scrabble", gcg=gcg, simulate=True),
                                  timeout=30)
    looked = [t.ahead for t in answer.turns if t.HasField("ahead")]
    assert looked and all(a.kind == "simulation" and a.best and a.HasField("best_win_chance") for a in looked)
    web = HttpServer(create_app(srv.registry), "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=30) as http:
            r = http.post("/v1/games:analyse", json={"gcg": gcg, "lexicon": "pl-scrabble", "simulate": True})
            assert r.status_code == 200, r.text
            assert any(t.get("ahead", {}).get("kind") == "simulation" for t in r.json()["turns"]), r.text
    finally:
        web.stop()


def _late_position(rule_set, lexicon, seed: int, turns: int):
    """A position after `turns` best plays of a real deal, the bag nearly empty when `turns` is large."""
    rng = random.Random(seed)
    bag = bag_of(rule_set)
    rng.shuffle(bag)
    racks = [[bag.pop() for _ in range(7)] for _ in range(2)]
    board = Board.empty(rule_set)
    for turn in range(turns):
        rack = racks[turn % 2]
        text = rule_set.tile_set.rack_text(rack)
        moves = generate_moves(rule_set, board, text, lexicon, limit=1, include_exchanges=False, include_pass=False)
        if moves:
            result = validate_move(rule_set, board, text, moves[0].play, lexicon=lexicon)
            board.apply(result)
            for tile in result.tiles_used:
                rack.remove(tile)
        while len(rack) < 7 and bag:
            rack.append(bag.pop())
    return board, rule_set.tile_set.rack_text(racks[turns % 2]), len(bag)


@pytest.fixture(scope="module")
def dense_lexicon(tmp_path_factory):
    """A Polish lexicon of every two-letter word over common letters, and every one of consonant, vowel,
    consonant (vowel) or vowel, consonant, vowel: many plays, so that play-outs score."""
    vowels, consonants = "aeiouy", "bcdghjklmnprstwz"
    words = [a + b for a in vowels + consonants for b in vowels + consonants]
    words += [a + b + c for a in consonants for b in vowels for c in consonants]
    words += [a + b + c for a in vowels for b in consonants for c in vowels]
    words += [a + b + c + d for a in consonants for b in vowels for c in consonants for d in vowels]
    directory = tmp_path_factory.mktemp("sim-dense") / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", words)
    path = str(directory / "pl-scrabble.lex")
    assert build_main(["--leaves", path, "--games", "4", "--seed", "5", "--quiet"]) == 0
    assert build_main(["--win-table", path, "--games", "6", "--seed", "5", "--quiet"]) == 0
    return load_lexicon(path)


@pytest.mark.parametrize("seed, turns, plies, tiles_left", [
    (2, 10, 2, None), (3, 16, 3, None), (14, 24, 2, None), (12, 6, 4, None), (2, 6, 3, 6), (3, 6, 4, 5), (14, 16, 2, 8),
    (11, 14, 2, "exchanges"), (3, 4, 3, "exchanges")])
def test_the_c_play_outs_give_the_plain_python_simulation(dense_lexicon, lexicon_dir, seed, turns, plies, tiles_left):
    """The play-outs in C (csrc/simulate.c) against the plain Python loop of tests/sim_reference.py with the
    same seed: the same iterations, the same moves pruned, the same sums, so the results match in
    distribution and exactly. `tiles_left`: a late position of a short rack and that many unseen tiles (one
    in the bag), where play-outs go out and end the game; "exchanges": the small lexicon of the module, where
    exchanges are the best moves (their tiles shuffled back into the bag; the C core searches the
    opponent's first reply after a draw's exchanges once and makes it again for the others)."""
    import sim_reference
    from lexicon_service.movegen.simulate import SeatView

    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex") if tiles_left == "exchanges" else dense_lexicon
    rs = lexicon.rule_set
    board, rack, bag = _late_position(rs, lexicon, seed, turns)
    view = seat_view(rs, board, rack, bag, spread=seed * 7 - 40, may_exchange=seed % 2 == 1)
    if isinstance(tiles_left, int):
        view = SeatView(board, rs.tile_set.rack_text(list(rs.tile_set.spell_rack(rack))[:3]),
                        view.unseen[:tiles_left], 1, spread=seed - 5)
    settings = SimSettings(candidates=8, plies=plies, iterations=48, min_iterations=8, check_every=4, seed=str(seed))
    ours = {m.move.play: m for m in simulate(rs, view, lexicon, settings).moves}
    theirs, iterations = sim_reference.simulate(rs, view, lexicon, settings)
    assert len(theirs) == len(ours) > 1 and iterations > 0
    assert any(m.move.kind == ("exchange" if tiles_left == "exchanges" else "play") for m in theirs)
    if tiles_left == "exchanges":  # two or more: the opponent's first reply after them is searched once a draw
        assert sum(m.move.kind == "exchange" for m in theirs) >= 2
    for ref in theirs:
        got = ours[ref.move.play]
        assert (got.iterations, got.pruned) == (ref.iterations, ref.pruned), ref.move.play
        assert got._sums == pytest.approx(ref._sums, rel=1e-9, abs=1e-9), ref.move.play


def test_a_play_out_turn_plays_the_best_equity_play_of_all_plays(dense_lexicon):
    """A play-out turn plays the play of the highest score plus leave value among all plays (MAGPIE's
    policy), not among the best few by score: with a leave table that values keeping six tiles at 200
    points, the opponent's reply in each play-out is its best one-tile play, which scores below the top
    16 plays by score (the old policy's choice) in these draws."""
    from lexicon_service.movegen.leaves import LeaveTable

    assert SimSettings().rollout_limit == 0 and SimSettings(rollout_limit=-1).refusal()[0] == "rollout_limit"
    lexicon = load_lexicon(dense_lexicon.path)
    rs = lexicon.rule_set
    lexicon.leaves = LeaveTable(rs, {6: 200.0}, {}, {}, {})
    board, rack, bag = _late_position(rs, lexicon, 2, 10)
    view = seat_view(rs, board, rack, bag, may_exchange=False)
    draws = []
    settings = SimSettings(candidates=3, plies=1, iterations=12, min_iterations=12, seed="policy")
    sim = simulate(rs, view, lexicon, settings, on_draw=lambda opp, rest: draws.append(opp))
    assert sim.iterations == len(draws) == 12
    below_top_16 = 0
    for move in sim.moves:
        after = board.copy()
        after.apply(validate_move(rs, board, rack, move.move.play, lexicon=lexicon))
        spread = 0.0
        for opp in draws:
            plays = generate_moves(rs, after, rs.tile_set.rack_text(opp), lexicon, include_exchanges=False,
                                   include_pass=False)
            reply = max(plays, key=lambda m: m.score + (200 if m.tiles_used == 1 else 0))
            below_top_16 += sum(m.score > reply.score for m in plays) >= 16
            spread += move.static_equity - reply.score  # the move, its leave, less the reply
        assert move.mean_spread == pytest.approx(spread / len(draws)), move.move.play
    assert below_top_16 >= len(sim.moves) * len(draws) // 2


def test_the_simulation_core_refuses_what_does_not_fit(lexicon_dir):
    from lexicon_service.movegen import _core, _graph, _static
    from lexicon_service.movegen.simulate import _NO_LEAVES

    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs = lexicon.rule_set
    graph, rules, board = _graph(rs, lexicon), _static(rs).core_rules, bytes(rs.rows * rs.columns)
    good = (10, b"\x70\x00", b"\x01", b"\x02\x03", b"", 0.5)
    settings = dict(rack_size=7, plies=2, iterations=3, min_iterations=1, check_every=1, z=2.0, rollout_limit=4,
                    spread=0, opponent_rack=2, seed=1, deadline=0.0, leaves=_NO_LEAVES, blank_points=0,
                    subtract_own=1, out_bonus=1)
    iterations, stopped, results, draws = _core.simulate(graph, rules, board, [good, good], b"\x01\x02\x03\x04",
                                                         **settings)
    assert iterations == 3 and stopped == 0 and len(results) == 2 and draws is None
    for candidates, unseen, changes in [
        ([good, (10, b"\xff\xff", b"\x01", b"", b"", 0.0)], b"\x01", {}),   # a square off the board
        ([good, (10, b"\x70\x00", b"\xc1", b"", b"", 0.0)], b"\x01", {}),   # a tile marked new
        ([good, (10, b"\x70", b"\x01", b"", b"", 0.0)], b"\x01", {}),       # squares and tiles differ in count
        ([good, good], bytes([99]), {}),                                   # no tile of the set
        ([good, good], bytes(300), {}),                                    # more unseen than a bag holds
        ([good, good], b"\x01\x02", {"opponent_rack": 9}),
        ([good, good], b"\x01\x02", {"win": (b"\x00\x00\x00\x00", b"")}),
        ([good, good], b"\x01\x02", {"leaves": (b"", b"", b"", b"", b"")}),
        ([], b"\x01", {}),
        ([good] * 200, b"\x01", {}),
        ([good, good], b"\x01", {"rollout_limit": -1}),
        ([good, good], b"\x01", {"check_every": 0}),
    ]:
        with pytest.raises((ValueError, TypeError)):
            _core.simulate(graph, rules, board, candidates, unseen, **{**settings, **changes})
    with pytest.raises(ValueError):
        _core.simulate(graph, rules, board[:-1], [good, good], b"\x01", **settings)


def test_generate_moves_with_simulation_over_grpc_and_http(server, lexicon_dir):
    """GenerateMoves' simulate: the best moves by win chance with their outlooks, the same answer for the
    same seed, within the server's time for one generation; its fields refused by name; the same over HTTP."""
    import grpc

    from lexicon_service.grpc_gen import game_pb2, game_pb2_grpc
    from lexicon_service.http import HttpServer, create_app

    srv, port = server
    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    board, rack, _opponent, bag = _position(lexicon.rule_set, lexicon, 4)
    ask = dict(lexicon="pl-scrabble", board=board.to_rows(), rack=rack, bag_count=len(bag), simulate=True,
               spread=-12, sim_iterations=40, sim_candidates=5, sim_seed="3", limit=3)
    with grpc.insecure_channel(f"localhost:{port}") as channel:
        stub = game_pb2_grpc.GameServiceStub(channel)
        one = stub.GenerateMoves(game_pb2.GenerateMovesRequest(**ask), timeout=30)
        two = stub.GenerateMoves(game_pb2.GenerateMovesRequest(**ask), timeout=30)
        assert one.lookahead == "simulation" and 1 <= len(one.moves) <= 3 and len(one.outlooks) == len(one.moves)
        assert one.truncated and one.stopped in ("iterations", "confidence") and 0 < one.iterations <= 40
        assert all(o.HasField("win_chance") and 0 <= o.win_chance <= 1 for o in one.outlooks)
        keys = [o.win_chance + o.mean_spread / 10_000 for o in one.outlooks if not o.pruned]
        assert keys == sorted(keys, reverse=True)
        assert one == two
        plain = stub.GenerateMoves(game_pb2.GenerateMovesRequest(lexicon="pl-scrabble", rack=rack,
                                                                 board=board.to_rows(), limit=3), timeout=30)
        assert not plain.outlooks and not plain.lookahead
        started = time.monotonic()
        long = stub.GenerateMoves(game_pb2.GenerateMovesRequest(**{**ask, "sim_iterations": 100_000}), timeout=30)
        assert long.stopped in ("time", "confidence") and time.monotonic() - started < 5  # the server's 1 s bound
        for change, name in [({"must_use": "K"}, "must_use"), ({"plays_only": True}, "plays_only"),
                             ({"sort": "length"}, "sort"), ({"sim_iterations": 100_001}, "sim_iterations"),
                             ({"sim_plies": 7}, "sim_plies"), ({"sim_candidates": -1}, "sim_candidates"),
                             ({"spread": 200_000}, "spread"), ({"sim_seed": "x" * 101}, "sim_seed"),
                             ({"rack": "KOT%"}, "rack")]:
            with pytest.raises(grpc.RpcError) as info:
                stub.GenerateMoves(game_pb2.GenerateMovesRequest(**{**ask, **change}), timeout=30)
            assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT and name in info.value.details(), change
    web = HttpServer(create_app(srv.registry), "localhost:0").start()
    try:
        with httpx.Client(base_url=web.url, timeout=30) as http:
            r = http.post("/v1/moves:generate", json={**ask, "bag_count": len(bag)})
            assert r.status_code == 200, r.text
            answer = r.json()
            assert answer["lookahead"] == "simulation" and len(answer["outlooks"]) == len(answer["moves"])
            assert [m["play"] for m in answer["moves"]] == [m.play for m in one.moves]
            r = http.post("/v1/moves:generate", json={**ask, "simIterations": 0.5})
            assert r.status_code == 400, r.text
    finally:
        web.stop()


def test_a_simulating_seat_of_a_server_game_sees_only_its_own_view(server, monkeypatch):
    """The server's simulating computer seat: its simulation gets its own rack and the unseen tiles (the
    bag and the human's rack together, in one multiset), never the human's rack apart; each draw of the
    human's rack is a split of those tiles, and the draws vary."""
    views, draws = [], []
    real_simulate = computer.simulate

    def recording(rule_set, view, *args, **kwargs):
        views.append(view)
        return real_simulate(rule_set, view, *args, **kwargs, on_draw=lambda opp, rest: draws.append(opp))

    monkeypatch.setattr(computer, "simulate", recording)
    _created, (ann, _robot), director = create(server[1], "pl-scrabble", names=("Ann", "Robot"), seed=8,
                                               computer_players=[session_pb2.ComputerPlayer(seat=1, level=SIMULATING)])
    ann.pass_()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and ">Robot:" not in director.record():
        time.sleep(0.05)
    assert views and draws
    seen = ann.get()
    human = Counter(seen.rack)
    for view in views:
        unseen = Counter(view.unseen)
        assert not human - unseen  # the human's tiles are among the unseen, not known apart
        assert len(view.unseen) == view.bag_count + len(seen.rack)
    assert all(len(opp) == len(seen.rack) for opp in draws)
    assert len({tuple(sorted(opp)) for opp in draws}) > 1


def test_a_simulating_computer_whose_search_runs_out_of_time_still_makes_the_equity_move(lexicon_dir, monkeypatch):
    # the search took its share and more (a loaded machine): the equity move must not be searched for after
    # the deadline, which raised MoveGenerationTimeout and made the server's computer pass

    lexicon = load_lexicon(lexicon_dir / "pl-scrabble.lex")
    rs, board = lexicon.rule_set, Board.empty(lexicon.rule_set)
    deadline = time.monotonic() + 0.5

    def slow_simulation(*args, deadline=None, **kwargs):
        time.sleep(max(0.0, deadline - time.monotonic()) + 0.6)  # past the move's own deadline too
        raise MoveGenerationTimeout("simulation passed its deadline")

    monkeypatch.setattr(computer, "simulate", slow_simulation)
    move = computer.choose_move(rs, board, "KOTADAM", 80, lexicon, SIMULATING, random.Random(1), deadline)
    expected = computer.choose_move(rs, board, "KOTADAM", 80, lexicon, "equity", random.Random(1), None)
    assert move.kind == "play" and move == expected
