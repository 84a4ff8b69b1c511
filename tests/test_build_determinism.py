"""Same sources and rule set -> byte-identical lexicon, whatever the worker count and whichever process
builds it.

Each build runs in its own process with its own PYTHONHASHSEED: the expanders iterate sets, so the
order in which tag sets are met differs between processes (and between worker layouts); the compiler
numbers tags, rules and tag sets canonically at the end (build_tools/compile.Compiler.finish), so that
order must not show in the artifact. An in-process comparison would share one hash seed and miss it.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# (workers, hash seed): two worker counts, each process with its own hash seed
RUNS = [("1", "1"), ("2", "2")]


def build(out: Path, workers: str, seed: str, *args: str) -> dict[str, bytes]:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    proc = subprocess.run([sys.executable, "-m", "build_tools.cli", "--quiet", "--workers", workers,
                           "-o", str(out), *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def assert_all_identical(builds: list[dict[str, bytes]]) -> None:
    first = builds[0]
    assert set(first) == {"manifest.json", "forms.marisa", "headwords.marisa", "tables.json", "readings.bin",
                          "moves.gaddag", "refused.tsv"}
    for other in builds[1:]:
        assert sorted(other) == sorted(first)
        for name in first:
            assert other[name] == first[name], f"{name} differs"


def czech_sample(tmp_path: Path) -> Path:
    """Every 40th line of cs_CZ.dic (nouns, verbs, adjectives, flagless words: ~200 tag sets),
    in 2 chunks of the expander, with the real affix file beside it."""
    src = ROOT / "build_tools" / "czech" / "hunspell"
    lines = (src / "cs_CZ.dic").read_text(encoding="utf-8").splitlines()[1::40]
    dic = tmp_path / "cs.dic"
    dic.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "cs.aff").write_bytes((src / "cs_CZ.aff").read_bytes())
    return dic


def test_czech_build_is_byte_identical_across_workers_and_processes(tmp_path):
    dic = czech_sample(tmp_path)
    builds = [build(tmp_path / f"w{w}-s{s}" / "cs.lex", w, s, "--rules", "cs-scrabble", "--hunspell", str(dic))
              for w, s in RUNS]
    assert_all_identical(builds)
    # the numbering is a function of the final tables alone: tags sorted by text, tag sets by their
    # (tag id, rule id) pairs
    tables = json.loads(builds[0]["tables.json"])
    assert tables["tags"] == sorted(tables["tags"])
    assert sum(";IMP;" in t for t in tables["tags"]) > 2     # the verb tags whose ids used to move
    sets = [tuple(map(tuple, ts)) for ts in tables["tagsets"]]
    assert sets == sorted(sets) and all(list(ts) == sorted(ts) for ts in sets)
    assert len(set(sets)) == len(sets)


POLISH_HEADWORDS = "kot\npies\nzrobić\nbiały\nczytać\nokno\ndobrze\nmój\ntrzy\nmyśleć\nkobieta\nszybki\n"
POLISH_AFF = "SET UTF-8\n\nSFX A Y 2\nSFX A   0   a     .\nSFX A   0   ami   .\n"
POLISH_DIC = "4\nkot/A\nżółw/A\ndom\nnp\n"
POLISH_WORDS = "abc\nkot\nżaba\n"


def test_polish_build_is_byte_identical_across_workers_and_processes(tmp_path):
    pytest.importorskip("morfeusz2")
    (tmp_path / "h.txt").write_text(POLISH_HEADWORDS, encoding="utf-8")
    (tmp_path / "p.aff").write_text(POLISH_AFF, encoding="utf-8")
    (tmp_path / "p.dic").write_text(POLISH_DIC, encoding="utf-8")
    (tmp_path / "w.txt").write_text(POLISH_WORDS, encoding="utf-8")
    args = ["--rules", "pl-scrabble", "--words", str(tmp_path / "w.txt"), "--headwords",
            str(tmp_path / "h.txt"), "--hunspell", str(tmp_path / "p.dic")]
    builds = [build(tmp_path / f"w{w}-s{s}" / "pl.lex", w, s, *args) for w, s in RUNS]
    assert_all_identical(builds)
