"""Candidate deny rules for the Polish profile, ranked by off-list forms removed per on-list form lost.

    .venv/bin/python bench/rank_pl_features.py --shared ../shared LEX            # rank
    .venv/bin/python bench/rank_pl_features.py --shared ../shared LEX --query "UNATTESTED ADJ !LY"

MEASURING ONLY: it reads the 2020 game list of ../shared, which no build step may read. Over the
lexicon's forms of the list's lengths (2-8 letters), each reading is described by its tag, its
rule (``rule:noun``) and features a build could compute from its own inputs:

- ``DF``/``NODF``: the form is / is not a word of data/pl/pl_PL.dic (``polish.witness.hunspell_words``);
- ``DL``/``NODL``: the same for the reading's headword;
- ``OWN``: the form is made by the headword's own .dic entry; ``OTHER``: only by another entry;
- ``FLAGS:<flags>``: the headword's .dic flags.

A predicate (terms as in a profile: ``FEAT``, ``!FEAT``, ``A|B``) removes a form when every
reading of the form matches. The forms only neuter 1st/2nd person fused readings admit (PFS
admits them; the 2020 list lacks them) are left out. --rank lists predicates of up to three
terms (the rule and tag features) with at least --min off-list forms, best ratio first.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def readings(lex_path: Path, shared: Path):
    """{form: (on the list, [(headword, features)])} for the forms of the list's lengths."""
    from build_tools.polish.witness import hunspell_words
    from build_tools.hunspell import expand_word, read_aff, read_dic
    from lexicon_service.lexicon import load_lexicon

    listed = {w.strip() for w in (shared / "data/polish/pl_sjp_growy_lexica_subset_2020.txt")
              .read_text(encoding="utf-8").splitlines() if w.strip()}
    lengths = {len(w) for w in listed}
    dic = ROOT / "data/pl/pl_PL.dic"
    words = hunspell_words([dic])
    aff = read_aff(ROOT / "data/pl/pl_PL.aff")
    own: dict[str, set] = {}
    flags: dict[str, str] = {}
    for _n, stem, fl, problem in read_dic(dic, aff):
        if not problem:
            own.setdefault(stem, set()).update(expand_word(stem, aff.split_flags(fl or ""), aff), (stem,))
            flags.setdefault(stem, fl or "-")
    out = {}
    with load_lexicon(lex_path) as lex:
        for k in lex.keys():
            if len(k) not in lengths:
                continue
            rs = []
            for r in lex.explain(k):
                f = set(r.tag.split(";")) | {"rule:" + r.rule}
                f.add("DF" if k in words else "NODF")
                f.add("DL" if r.headword in words else "NODL")
                if k in own.get(r.headword, ()):
                    f.add("OWN")
                elif k in words:
                    f.add("OTHER")
                if r.headword in flags:
                    f.add("FLAGS:" + flags[r.headword])
                rs.append((r.headword, frozenset(f)))
            out[k] = (k in listed, rs)
    return out


def _neuter_fused(rs) -> bool:
    # a guessed verb's fused forms (biegłom) are the same forms as an SGJP verb's (zrobiłom)
    return all(("rule:fused-form" in f or "rule:guessed" in f and "FUSED" in f) and "NEUT" in f
               and ("1" in f or "2" in f) for _h, f in rs)


def _matches(terms, feats) -> bool:
    for t in terms:
        neg = t.startswith("!")
        hit = any(x in feats for x in t.lstrip("!").split("|"))
        if hit == neg:
            return False
    return True


def query(data, predicate: str) -> tuple[int, int, list, list]:
    terms = predicate.split()
    off, on = [], []
    for form, (listed, rs) in data.items():
        if not _neuter_fused(rs) and all(_matches(terms, f) for _h, f in rs):
            (on if listed else off).append(form)
    return len(off), len(on), off, on


def rank(data, minimum: int, top: int):
    counts: dict[tuple, list] = defaultdict(lambda: [0, 0])
    for _form, (listed, rs) in data.items():
        if _neuter_fused(rs):
            continue
        common = None
        for _h, f in rs:
            rule = next(x for x in f if x.startswith("rule:"))
            feats = sorted(x for x in f if not x.startswith(("rule:", "FLAGS:")))
            preds = {(rule,)} | {(rule, *c) for n in (1, 2) for c in itertools.combinations(feats, n)}
            common = preds if common is None else common & preds
        for p in common or ():
            counts[p][listed] += 1
    rows = [(off, on, p) for p, (off, on) in counts.items() if off >= minimum]
    rows.sort(key=lambda r: (-r[0] / (r[1] + 1), -r[0]))
    return rows[:top]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("lexicon", type=Path)
    p.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    p.add_argument("--query", action="append", default=[], help="a predicate to measure (repeatable)")
    p.add_argument("--min", type=int, default=30, help="--rank: least off-list forms removed")
    p.add_argument("--top", type=int, default=60)
    args = p.parse_args(argv)
    data = readings(args.lexicon, args.shared)
    if args.query:
        for q in args.query:
            off, on, ex_off, ex_on = query(data, q)
            print(f"{off:6d} off-list removed {on:6d} on-list lost  ratio {off / max(on, 0.5):6.1f}  {q}"
                  f"\n        off e.g. {' '.join(ex_off[:12])}\n        on e.g. {' '.join(ex_on[:12])}")
        return 0
    for off, on, pred in rank(data, args.min, args.top):
        print(f"{off:6d} {on:6d} {off / max(on, 0.5):7.1f}  {' '.join(pred)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
