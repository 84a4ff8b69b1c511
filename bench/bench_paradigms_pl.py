"""Polish `lexicon-build --paradigms`: what the dictionary's flags add to headwords SGJP does not know.

Takes N random flagged stems of pl_PL.dic that SGJP (Morfeusz 2) does not know, builds them as
--headwords with --models data/pl/headwords.txt twice, without and with --paradigms pl_PL.dic, and
counts each lexicon's forms on the sjp.pl game list (measurement only: no build reads it).

    python bench/bench_paradigms_pl.py --shared ../shared [--n 3000] [--seed 13]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def flagged_stems_sgjp_lacks(dic: Path) -> list[str]:
    import morfeusz2

    m = morfeusz2.Morfeusz()
    stems = set()
    for line in dic.read_text(encoding="iso-8859-2").splitlines()[1:]:
        stem, sep, _flags = line.partition("/")
        if sep and stem.isalpha() and stem.islower():
            stems.add(stem)
    return sorted(s for s in stems if all(a[2][2] == "ign" for a in m.analyse(s)))


def forms(lex: Path) -> set[str]:
    out = subprocess.run([sys.executable, "-m", "lexicon_service", "dump", "-l", str(lex)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=Path("../shared"))
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=13)
    a = ap.parse_args(argv)
    dic = ROOT / "data" / "pl" / "pl_PL.dic"
    game_list = {w.strip() for w in (a.shared / "data/polish/pl_sjp_growy_lexica_subset_2020.txt")
                 .read_text(encoding="utf-8").splitlines() if w.strip()}
    unknown = flagged_stems_sgjp_lacks(dic)
    pick = sorted(random.Random(a.seed).sample(unknown, min(a.n, len(unknown))))
    with tempfile.TemporaryDirectory() as tmp:
        heads = Path(tmp) / "h.txt"
        heads.write_text("\n".join(pick) + "\n", encoding="utf-8")
        got = {}
        for name, extra in (("without", []), ("with --paradigms", ["--paradigms", str(dic)])):
            out = Path(tmp) / f"{len(got)}.lex"
            subprocess.run([sys.executable, "-m", "build_tools.cli", "--quiet", "--rules", "pl-scrabble",
                            "--headwords", str(heads), "--models", str(ROOT / "data/pl/headwords.txt"), *extra,
                            "-o", str(out)], cwd=ROOT, check=True, capture_output=True)
            got[name] = forms(out)
    print(f"{len(pick)} of {len(unknown)} flagged pl_PL.dic stems SGJP does not know, as --headwords "
          f"(--models data/pl/headwords.txt):")
    for name, fs in got.items():
        on = len(fs & game_list)
        print(f"  {name:17} {len(fs):7,} forms, {on:6,} on the game list ({on / max(len(fs), 1):.2%})")
    a_, b_ = got["without"], got["with --paradigms"]
    print(f"  only with --paradigms: {len(b_ - a_):,} forms, {len((b_ - a_) & game_list):,} on the list; "
          f"only without: {len(a_ - b_):,} forms, {len((a_ - b_) & game_list):,} on the list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
