"""bench/held_out_splits.py: the splits of the game list that held-out rules are chosen on."""

import argparse
import zlib

import pytest

from bench_modules import bench_module


def test_bit0_is_the_benchs_split_and_other_splits_differ():
    splits = bench_module("held_out_splits")
    words = [f"słowo{i}" for i in range(400)]
    bench = [w for w in words if zlib.crc32(w.encode("utf-8")) & 1]
    assert [w for w in words if splits.in_half_b(w, "bit0")] == bench
    for other in ("bit1", "salt:s1", "salt:s2"):
        half = [w for w in words if splits.in_half_b(w, other)]
        assert half != bench and 120 < len(half) < 280       # about half, and another half
    assert [w for w in words if splits.in_half_b(w, "salt:s1")] != [w for w in words if splits.in_half_b(w, "salt:s2")]


@pytest.mark.parametrize("bad", ["bit32", "bit", "bitx", "s1", "salt", ""])
def test_an_unknown_split_is_refused_by_name(bad, capsys):
    splits = bench_module("held_out_splits")
    with pytest.raises(argparse.ArgumentTypeError):
        splits.split_name(bad)
    with pytest.raises(SystemExit) as exc:
        splits.main(["--split", bad])
    assert exc.value.code == 2 and "--split" in capsys.readouterr().err
