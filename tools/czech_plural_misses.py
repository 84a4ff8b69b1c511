"""The noun nominative plurals the held-out measurement misses when every lemma is guessed
(tools/czech_heldout.py, the same lemmas removed from the dictionary), each filed under one cause.

    python -m tools.czech_plural_misses --shared ../shared [--share 3] [--part 0] [--examples 12]

Causes, the first that applies:
* reference: the full dictionary misses the form too (a reference defect: binece, hnilobou; or the
  reference's one choice of two plurals: advokátové beside advokáti);
* unclassified: no class guessed, so no plural (dům, ráj);
* not a noun: the guess is an adjective (hovězí, veselí: the form is generated, as an adjective) or a
  verb (kat as an -at verb);
* animacy: the guessed class and the dictionary's own class differ in animacy (pilník guessed a person,
  bobr a thing);
* -i/-ové: both animate, the reference plural ends in -ové and the guess gives -i, or the reverse
  (zeť: zeťové, jelen: jeleni);
* mobile e: the reference plural and a guessed one differ by an e (uzly, uzely);
* declension: any other difference of class (bolest guessed as hrad: bolesty).
The reference is read for measuring only; nothing here feeds the engine.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from build_tools.czech.dictionary import CzechDictionary
from build_tools.czech.guess import ANIMATE_FLAGS, guess_flags
from build_tools.czech.tagger import word_class
from tools.czech_heldout import add_split_arguments, held_out_lemmas, reference, run, split_refused, without

CAUSES = ("reference", "unclassified", "not a noun", "animacy", "-i/-ové", "mobile e", "declension")


def _animate(flag_lines) -> bool:
    return any(set(f) & ANIMATE_FLAGS for f in flag_lines)


def _differ_by_an_e(a: str, b: str) -> bool:
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return len(longer) == len(shorter) + 1 and any(
        longer[i] == "e" and longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))


def cause(lemma: str, form: str, have: list[str], full_missed: bool, guessed, full_flags) -> str:
    if full_missed:
        return "reference"
    if guessed is None:
        return "unclassified"
    if word_class(lemma, guessed[0]) != "noun":
        return "not a noun"
    if _animate([guessed[0]]) != _animate(full_flags):
        return "animacy"
    if _animate([guessed[0]]) and (form.endswith("ové") or any(h.endswith("ové") for h in have)):
        return "-i/-ové"
    if any(_differ_by_an_e(form, h) for h in have):
        return "mobile e"
    return "declension"


def classify(shared: Path, share: int = 3, part: int = 0, dic: CzechDictionary | None = None) -> dict:
    """cause -> [(lemma, reference form, guessed forms, guessed flags)] for the missed noun plurals."""
    dic = dic if dic is not None else CzechDictionary.shipped()
    results = run(shared, share, 0, dic, out=io.StringIO(), part=part)
    full_missed = {(l, f) for l, c, f, _h in results["full"]["miss_rows"] if c == "noun-nom-pl"}
    lemmas = held_out_lemmas(reference(shared), dic, share, part)
    out = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        reduced = without(dic, set(lemmas), Path(tmp))
        for lemma, c, form, have in results["removed"]["miss_rows"]:
            if c != "noun-nom-pl":
                continue
            guessed = guess_flags(lemma, None, reduced)
            why = cause(lemma, form, have, (lemma, form) in full_missed, guessed, dic.flags_of(lemma) or [])
            out[why].append((lemma, form, have, guessed[0] if guessed else None))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_split_arguments(ap)
    ap.add_argument("--examples", default=12, type=int)
    a = ap.parse_args(argv)
    if split_refused(ap, a):
        return 2
    by_cause = classify(a.shared, a.share, a.part)
    print(f"missed noun nominative plurals, all guessed: {sum(map(len, by_cause.values()))}")
    for why in CAUSES:
        rows = by_cause.get(why, [])
        shown = ", ".join(f"{l} {f} ({'/'.join(h) or '-'})" for l, f, h, _g in rows[:a.examples])
        print(f"{why:13} {len(rows):4d}  {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
