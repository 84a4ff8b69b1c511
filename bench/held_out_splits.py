"""Held-out recall on other splits of the game list than the bench's (MEASURING ONLY).

    .venv/bin/python bench/held_out_splits.py --shared ../shared --split salt:s1 --split salt:s2

bench/bench_lexicon.py measures held-out recall on one split of the 2020 game list (CRC-32 of
the word, bit 0). A rule of tools/make_pl_headwords.py chosen by that figure is chosen on
the test itself, so rules are chosen here, on other splits, and then confirmed on the bench's.
Each split is measured as the bench does it: half A's headword lists (attested_lemmas_of_words,
guessed_lemmas_of_words, headwords.txt's lemmas left out), a build from data/pl/headwords.txt,
those lists and pl_PL.dic, recall on half B, and the share of the build's 2-8-letter forms on
the whole list (off-list forms counted too).

Splits: ``bitN`` (bit N of the word's CRC-32; bit0 is the bench's), ``salt:S`` (bit 0 of the
CRC-32 of S + the word). --keep DIR keeps each split's lists and lexicon in DIR/SPLIT/.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def in_half_b(word: str, split: str) -> bool:
    data = word.encode("utf-8")
    if split.startswith("salt:"):
        return bool(zlib.crc32(split[5:].encode("utf-8") + data) & 1)
    if split.startswith("bit") and split[3:].isdigit() and int(split[3:]) < 32:
        return bool(zlib.crc32(data) >> int(split[3:]) & 1)
    raise argparse.ArgumentTypeError(f"--split: {split!r} is neither bitN (N < 32) nor salt:S")


def split_name(split: str) -> str:
    in_half_b("", split)
    return split


def measure(words: list[str], split: str, out: Path, workers: int | None) -> dict:
    from bench_lexicon import HEADWORD_LISTS, build
    from tools.make_pl_headwords import (attested_lemmas_of_words, guessed_lemmas_of_words,
                                               hunspell_words, list_density)
    from lexicon_service.lexicon import load_lexicon

    half_a = [w for w in words if not in_half_b(w, split) and w.isalpha() and w.islower()]
    half_b = [w for w in words if in_half_b(w, split)]
    known = {w.strip().split("\t")[0] for w in (ROOT / HEADWORD_LISTS[0]).read_text(encoding="utf-8").splitlines()}
    sgjp = attested_lemmas_of_words(half_a) - known
    guessed, _stats = guessed_lemmas_of_words(half_a, known | sgjp, hunspell_words(ROOT / "data/pl/pl_PL.dic"),
                                              density=list_density(half_a, known | sgjp))
    out.mkdir(parents=True, exist_ok=True)
    lists = []
    for name, heads in (("sgjp", sorted(sgjp)), ("guessed", guessed)):
        f = out / f"half-a-{name}.txt"
        f.write_text("".join(h + "\n" for h in heads), encoding="utf-8")
        lists += ["--headwords", str(f)]
    lex_path = out / "held.lex"
    build(lex_path, workers, ("--headwords", HEADWORD_LISTS[0], *lists, "--hunspell", "data/pl/pl_PL.dic"))
    listed = set(words)
    with load_lexicon(lex_path) as lex:
        ok = sum(1 for w in half_b if lex.is_admissible(w))
        short = [k for k in lex.keys() if 2 <= len(k) <= 8]
    on = sum(1 for k in short if k in listed)
    return {"sgjp": len(sgjp), "guessed": len(guessed), "b": len(half_b), "ok": ok, "short": len(short), "on": on}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shared", default=str(ROOT.parent / "shared"), help="the shared data directory")
    p.add_argument("--split", action="append", type=split_name, required=True, metavar="bitN|salt:S")
    p.add_argument("--keep", metavar="DIR", help="keep each split's lists and lexicon in DIR/SPLIT/")
    p.add_argument("--workers", type=int, default=None, help="lexicon-build --workers")
    args = p.parse_args(argv)
    words = [w.strip() for w in (Path(args.shared) / "data/polish/pl_sjp_growy_lexica_subset_2020.txt")
             .read_text(encoding="utf-8").splitlines() if w.strip()]
    with tempfile.TemporaryDirectory(prefix="held-splits-") as tmp:
        for split in args.split:
            where = Path(args.keep or tmp) / split.replace(":", "-")
            r = measure(words, split, where, args.workers)
            print(f"[held out] split {split}: {r['sgjp']} SGJP lemmas and {r['guessed']} by analogy from half A; "
                  f"recall on half B {r['ok']}/{r['b']} = {r['ok'] / max(r['b'], 1):.4%}; of the build's "
                  f"{r['short']} forms of 2-8 letters {r['on']} = {r['on'] / max(r['short'], 1):.4%} on the list, "
                  f"{r['short'] - r['on']} off it", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
