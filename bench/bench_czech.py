"""Czech benchmark: full builds of cs-scrabble and cs-kriskros from data/cs/cs_CZ.dic through the
lexicon-build CLI (target <= 60 s each), the expansion alone, the form counts, and the quality report.

    python bench/bench_czech.py --shared ../shared --lexicons lexicons

Baseline measured in the same run: reading cs_CZ.dic and applying its affix rules without tagging
(build_tools.czech.affix), to which the tagged expansion is compared.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DIC = ROOT / "data" / "cs" / "cs_CZ.dic"
LIMIT_S = 60.0


def read_entries():
    from build_tools.model import HeadwordEntry
    out = []
    with open(DIC, encoding="utf-8") as fh:
        next(fh)
        for i, line in enumerate(fh, 2):
            w, _, f = line.rstrip("\n").partition("/")
            out.append(HeadwordEntry(w, str(DIC), i, None, f))
    return out


def bench_baseline(entries) -> tuple[float, int]:
    from build_tools.czech.affix import AffixTable
    t = time.perf_counter()
    aff = AffixTable.read(DIC.with_suffix(".aff"))
    n = 0
    for e in entries:
        n += len(aff.expand(e.lemma, e.flags or ""))
    return time.perf_counter() - t, n


def bench_expansion(entries, workers: int) -> tuple[float, int, int]:
    from build_tools.czech import expand_headwords
    from build_tools.model import ExpandedForm
    t = time.perf_counter()
    forms = rej = 0
    for r in expand_headwords(entries, workers=workers):
        if isinstance(r, ExpandedForm):
            forms += 1
        else:
            rej += 1
    return time.perf_counter() - t, forms, rej


def bench_build(rules: str, out_dir: Path, workers: int) -> tuple[float, str]:
    exe = ROOT / ".venv" / "bin" / "lexicon-build"
    cmd = [str(exe) if exe.exists() else "lexicon-build", "--rules", rules, "--hunspell", str(DIC),
           "-o", str(out_dir / f"{rules}.lex"), "--quiet", "--workers", str(workers)]
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t
    first = (p.stdout.strip().splitlines() or [""])[0]
    if p.returncode != 0:
        first = f"FAILED ({p.returncode}): {p.stderr.strip()[-400:]}"
    return dt, first


def bench_build_judged(rules: str, out_dir: Path, workers: int) -> tuple[float, str]:
    """The same build with the expansion and the per-form judging in the workers
    (build_tools.czech.expand_judged), as build_tools/cli.py does for Polish; run in a child process."""
    code = f"""
import sys
import build_tools.cli as cli
from build_tools.model import Rejection
orig = cli._expand
def fast(language, entries, compiler, workers):
    if language != "cs":
        return orig(language, entries, compiler, workers)
    from build_tools.czech import expand_judged
    cli._merge_judged(compiler, expand_judged(entries, compiler.judge, workers=workers,
                                              log=compiler.log is not None))
if not hasattr(cli, "_expand") or not hasattr(cli, "_merge_judged"):
    sys.exit("build_tools.cli has no _expand/_merge_judged")
cli._expand = fast
sys.exit(cli.main(["--rules", "{rules}", "--hunspell", r"{DIC}", "-o", r"{out_dir / (rules + '-judged.lex')}",
                   "--quiet", "--workers", "{workers}"]))
"""
    py = ROOT / ".venv" / "bin" / "python"
    t = time.perf_counter()
    p = subprocess.run([str(py) if py.exists() else sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=ROOT)
    dt = time.perf_counter() - t
    first = (p.stdout.strip().splitlines() or [""])[0]
    if p.returncode != 0:
        first = f"FAILED ({p.returncode}): {p.stderr.strip()[-400:]}"
    return dt, first


def _load() -> str:
    """1/5/15-minute load averages: the machine is shared, timings depend on them."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default="../shared", type=Path)
    ap.add_argument("--lexicons", default="lexicons", type=Path, help="(the default lexicons are not rebuilt; "
                    "the timed builds go to a temporary directory)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args(argv)
    entries = read_entries()
    print(f"cs_CZ.dic: {len(entries)} entries; workers {a.workers}; load {_load()}")
    base_s, base_n = bench_baseline(entries)
    print(f"baseline  affix expansion without tags: {base_s:6.1f} s, {base_n} forms")
    exp_s, forms, rej = bench_expansion(entries, a.workers)
    print(f"expansion tagged (build_tools.czech):   {exp_s:6.1f} s, {forms} records, {rej} rejections; "
          f"ratio to baseline {exp_s / base_s:.2f}")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for rules in ("cs-scrabble", "cs-kriskros"):
            dt, line = bench_build(rules, Path(tmp), a.workers)
            verdict = "ok" if dt <= LIMIT_S and not line.startswith("FAILED") else "TOO SLOW" if dt > LIMIT_S else "FAILED"
            ok &= verdict == "ok"
            print(f"build {rules:12} {dt:6.1f} s (limit {LIMIT_S:.0f} s) {verdict}; ratio to baseline "
                  f"{dt / base_s:.2f}; load {_load()}\n    {line}")
            dt2, line2 = bench_build_judged(rules, Path(tmp), a.workers)
            print(f"  same build, judging in the workers (czech.expand_judged): {dt2:6.1f} s; load {_load()}"
                  f"\n    {line2}")
    if (a.shared / "data" / "czech").exists():
        from build_tools.czech.quality import run
        print()
        run(a.shared, examples=2)
    else:
        print(f"no reference data under {a.shared}; quality report skipped")
    print(f"\nverdict: {'all Czech builds within ' + str(int(LIMIT_S)) + ' s' if ok else 'a Czech build exceeded the limit (see above)'}")
    return 0   # a verdict, not a failure: make bench runs every script


if __name__ == "__main__":
    sys.exit(main())
