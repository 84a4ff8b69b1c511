"""bench/bench_peer.py: the positions it writes for MAGPIE (CGP) and the peer figures it reads."""

from __future__ import annotations

import json

import pytest

from bench_modules import bench_module


@pytest.fixture(scope="module")
def peer():
    return bench_module("bench_peer")


def test_cgp_board_counts_empty_squares_and_keeps_blanks_and_multi_letter_tiles(peer):
    rows = ["." * 15, "...KOT" + "." * 9, "a" + "." * 13 + "Ż", "..[CH]ATA" + "." * 8]
    assert peer.cgp_board(rows) == "15/3KOT9/a13Ż/2[CH]ATA8"


def test_peer_figures_take_the_median_of_runs(peer, tmp_path):
    path = tmp_path / "magpie.json"
    path.write_text(json.dumps({"peer": "MAGPIE x", "best_move_us": [120.0, 100.0, 110.0],
                                "moves_per_s": 2_000_000, "selfplay_turns_per_s": [6000, 7000]}))
    figures = peer.read_peer_figures(path)
    assert figures["peer"] == "MAGPIE x"
    assert figures["best_move_us"] == 110.0
    assert figures["moves_per_s"] == 2_000_000
    assert figures["selfplay_turns_per_s"] == 6500


@pytest.mark.parametrize("bad", [{"best_move_us": "fast"}, {"moves_per_s": [1, -2]}, {"selfplay_turns_per_s": True},
                                 [1, 2]])
def test_bad_peer_figures_are_refused_naming_the_file(peer, tmp_path, bad):
    path = tmp_path / "magpie.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(SystemExit, match="magpie.json"):
        peer.read_peer_figures(path)


def test_ratios_say_ours_over_theirs_faster_above_one(peer, capsys):
    ours = {"best_move_us": 100.0, "best_move_python_us": 125.0, "moves_per_s": 3e6, "moves_listed_per_s": 1e6,
            "moves": 10, "selfplay_turns_per_s": 5000.0, "selfplay_objects_turns_per_s": 4000.0,
            "selfplay_python_turns_per_s": 2500.0}
    peer.report([ours], {"peer": "MAGPIE", "best_move_us": 120.0, "moves_per_s": 2e6, "selfplay_turns_per_s": 5000.0})
    out = capsys.readouterr().out
    lines = {line.split("  ")[1].strip(): line for line in out.splitlines() if line.startswith("  ")}
    assert lines["best move per position, C core (µs)"].endswith("1.20x")      # 120 / 100: ours faster
    assert lines["best move per position, generate_moves (µs)"].endswith("0.96x")
    assert lines["all plays counted, C core (moves/s)"].endswith("1.50x")
    assert lines["all plays listed and sorted, C core (moves/s)"].endswith("0.50x")
    assert lines["static best-move self-play, C games (turns/s)"].endswith("1.00x")
    assert lines["static best-move self-play, Python loop (turns/s)"].endswith("0.50x")
