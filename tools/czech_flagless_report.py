"""How the flagless lines of cs_CZ.dic (no paradigm flag, at most N) are classified, with samples per class.

    python -m tools.czech_flagless_report [--samples N] [--list CLASS]

Classes are the paradigm names expand.py gives the line's own word (closed, adv/deadjectival, other
headword ...); `unclassified` lines are rejected. For review only; nothing is written.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from build_tools.model import Reading, Rejection
from build_tools.czech.dictionary import CzechDictionary
from build_tools.czech.expand import expand_entry


def flagless_lines(dic_path):
    with open(dic_path, encoding="utf-8") as fh:
        next(fh, None)
        for line in fh:
            word, _, flags = line.rstrip("\n").partition("/")
            if word and word == word.lower() and set(flags) <= {"N"} and word.isalpha():
                yield word, flags


def classify(word: str, flags: str, aff) -> str:
    items = expand_entry(word, flags, aff)
    own = [it for it in items if isinstance(it, Reading) and it.form == word]
    if not own:
        rej = [it for it in items if isinstance(it, Rejection) and it.item == word]
        return rej[0].reason if rej else "no-output"
    pars = {it.rule for it in own}
    if any(it.lemma != word for it in own) and all(it.rule not in ("closed", "adv", "adv-guess", "adv/deadjectival",
                                                              "imperative/flagless", "reviewed", "num/collective")
                                                for it in own):
        return "form-of-other-headword" if not pars & {"table", "verb/flagless", "noun/flagless"} \
            else sorted(pars)[0]
    return sorted(pars)[0] + ":" + "/".join(sorted({";".join(it.tag) for it in own}))[:40]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dic", help="dictionary X.dic (X.aff beside it); default: the shipped cs_CZ.dic")
    ap.add_argument("--samples", type=int, default=12)
    ap.add_argument("--list", default=None, help="print every word of the classes starting with this")
    a = ap.parse_args(argv)
    aff = CzechDictionary.load(a.dic) if a.dic else CzechDictionary.shipped()
    by = defaultdict(list)
    for w, f in flagless_lines(aff.dic_path):
        by[classify(w, f, aff)].append(w)
    rnd = random.Random(0)
    total = sum(len(v) for v in by.values())
    print(f"flagless lowercase lines: {total}")
    for c, ws in sorted(by.items(), key=lambda kv: -len(kv[1])):
        if a.list and c.startswith(a.list):
            print(f"{len(ws):6d}  {c}: {' '.join(ws)}")
        else:
            s = rnd.sample(ws, min(a.samples, len(ws)))
            print(f"{len(ws):6d}  {c}: {' '.join(s)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
