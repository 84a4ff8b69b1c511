"""Czech benchmark: full builds of cs-scrabble and cs-kriskros from the shipped cs_CZ.dic through the
lexicon-build CLI (target <= 60 s each), the expansion alone, the form counts, and the quality report.

    python bench/bench_czech.py --shared ../shared --lexicons lexicons

Baseline measured in the same run: reading cs_CZ.dic and applying its affix rules without tagging
(build_tools.hunspell.expand_chains), to which the tagged expansion is compared.
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

DIC = ROOT / "build_tools" / "czech" / "hunspell" / "cs_CZ.dic"
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
    from build_tools.hunspell import expand_chains, read_affix_table
    t = time.perf_counter()
    aff = read_affix_table(DIC.with_suffix(".aff"))
    n = 0
    for e in entries:
        n += len(expand_chains(aff, e.lemma, e.flags or ""))
    return time.perf_counter() - t, n


def bench_expansion(entries, workers: int) -> tuple[float, int, int]:
    from build_tools.czech import CzechDictionary, expand_headwords
    from build_tools.model import ExpandedForm
    t = time.perf_counter()
    forms = rej = 0
    for r in expand_headwords(entries, CzechDictionary.load(DIC), workers=workers):
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


# Word classes of the Czech-CAC treebank (UD features) that every Czech profile admits, in the form
# the profile admits: nominatives of nouns and adjectives (positive degree), infinitives, finite
# indicative verbs, imperatives, l-participles, passive participles, comparatives and superlatives
# (adjective nominatives, adverbs), and the uninflected classes.
CAC_CLASSES = (
    ("noun nominative", lambda upos, feats: upos == "NOUN" and "Case=Nom" in feats),
    ("adjective nominative", lambda upos, feats: upos == "ADJ" and "Case=Nom" in feats and "Degree=Pos" in feats),
    ("infinitive", lambda upos, feats: upos == "VERB" and "VerbForm=Inf" in feats),
    ("finite indicative", lambda upos, feats: upos in ("VERB", "AUX") and "VerbForm=Fin" in feats
     and "Mood=Ind" in feats),
    ("imperative", lambda upos, feats: upos == "VERB" and "Mood=Imp" in feats),
    ("l-participle", lambda upos, feats: upos in ("VERB", "AUX") and "VerbForm=Part" in feats
     and "Tense=Past" in feats and "Voice=Act" in feats),
    # the treebank tags the short passive participle (inspirováni) ADJ with Variant=Short
    ("passive participle", lambda upos, feats: upos in ("VERB", "ADJ") and "Voice=Pass" in feats
     and "Variant=Short" in feats),
    ("comparative, superlative", lambda upos, feats: ("Degree=Cmp" in feats or "Degree=Sup" in feats)
     and (upos == "ADV" or (upos == "ADJ" and "Case=Nom" in feats))),
    ("adverb", lambda upos, feats: upos == "ADV"),
    ("preposition", lambda upos, feats: upos == "ADP"),
    ("conjunction", lambda upos, feats: upos in ("CCONJ", "SCONJ")),
    ("particle", lambda upos, feats: upos == "PART"),
)


def treebank_admission(lexicon_path: Path, shared: Path) -> list[tuple[str, int, int, list[str]]]:
    """[(class, tokens, admitted tokens, most frequent misses)] of the CAC treebank's lowercase
    2-15-letter forms in a built lexicon: how much real text the lexicon accepts, per word class."""
    from collections import Counter

    from lexicon_service.lexicon import load_lexicon

    lex = load_lexicon(lexicon_path)
    key = lex.rule_set.tile_set.key_of_text
    tsv = shared / "data" / "czech" / "cs_cac_devtest_form_lemma_upos_xpos_feats.tsv"
    tot, ok, miss = Counter(), Counter(), {name: Counter() for name, _ in CAC_CLASSES}
    for line in tsv.read_text(encoding="utf-8").splitlines():
        f = line.split("\t")
        if line.startswith("#") or len(f) < 6:
            continue
        form, _lemma, upos, _xpos, feats, count = f[:6]
        if not (form.islower() and form.isalpha() and 2 <= len(form) <= 15):
            continue
        for name, test in CAC_CLASSES:
            if test(upos, feats):
                tot[name] += int(count)
                if lex.is_admissible(key(form)):
                    ok[name] += int(count)
                else:
                    miss[name][form] += int(count)
                break
    lex.close()
    return [(name, tot[name], ok[name], [w for w, _ in miss[name].most_common(6)]) for name, _ in CAC_CLASSES]


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
            lex_path = Path(tmp) / f"{rules}.lex"
            if lex_path.exists() and (a.shared / "data" / "czech").exists():
                print(f"  Czech-CAC treebank tokens admitted by {rules} (lowercase, 2-15 letters):")
                for name, tokens, admitted, misses in treebank_admission(lex_path, a.shared):
                    share = f"{admitted / tokens:7.2%}" if tokens else "    n/a"
                    print(f"    {name:22} {share} of {tokens:5d}   missed e.g. {' '.join(misses) or '-'}")
    if (a.shared / "data" / "czech").exists():
        from tools.czech_quality import run
        print()
        run(a.shared, examples=2)
    else:
        print(f"no reference data under {a.shared}; quality report skipped")
    print(f"\nverdict: {'all Czech builds within ' + str(int(LIMIT_S)) + ' s' if ok else 'a Czech build exceeded the limit (see above)'}")
    return 0   # a verdict, not a failure: make bench runs every script


if __name__ == "__main__":
    sys.exit(main())
