"""Held-out measurement of headword inflection (`make quality`): UniMorph lemmas (measurement only)
given as a headword list, (a) with the full dictionary as the paradigm source, (b) with the same lemmas
removed from it, so that every one is inflected by analogy.

* admitted-slot recall: of the reference (lemma, form class, form) slots in the classes Kris Kros admits
  (quality.class_of_unimorph), the share whose form the expansion generates for the lemma in that class;
  as in quality.py, the passive slots of a verb the dictionary gives no passive are not counted (the
  report also gives the figure counting them as misses);
* leak: of the forms generated for a lemma in a class the reference lists for it, the share that the
  reference does not list for that lemma at all (under any tag: the tables shift persons and tenses,
  adoptuješ is filed as a past form; register variants such as adoptuju are not counted).

    python -m tools.czech_heldout --shared ../shared [--share 3] [--part 0] [--examples 10] [--misses FILE]

`--misses FILE` writes every missed slot of both measurements, one per line
(`full|removed<TAB>lemma/class: form<TAB>what the expansion gives the lemma in that class`), then every
leaked form (`leak-full|leak-removed<TAB>lemma/class: form`). `--part 1` and `--part 2` hold out the
other thirds: rules of the engine are chosen on those, part 0 is the figure reported.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import zlib
from collections import Counter, defaultdict
from pathlib import Path

from build_tools.model import HeadwordEntry, Reading
from build_tools.czech.dictionary import CzechDictionary
from build_tools.czech.driver import _resolve, kept, mark_guessed
from build_tools.czech.links import linked_headwords
from build_tools.czech.expand import expand_entry
from tools.czech_quality import UNIMORPH_FILES, class_of_tag, load_reference

def reference(shared: Path) -> dict[str, dict[str, set[str]]]:
    """lemma -> form class -> forms, from all the UniMorph tables (quality.load_reference); under the
    key ALL, every single-word form the tables list for the lemma, whatever its tag."""
    ref = {lemma: {c: {f for f, _slot in slots} for c, slots in classes.items()}
           for lemma, classes in load_reference(shared)["unimorph"].items()}
    for name in UNIMORPH_FILES:
        p = shared / "data" / "czech" / name
        if not p.exists():
            continue
        for line in p.read_text(encoding="utf-8").splitlines():
            parts = line.split("\t")
            if len(parts) == 3 and parts[0] in ref and " " not in parts[1]:
                ref[parts[0]].setdefault(ALL, set()).add(parts[1].lower())
    return ref


ALL = "*"


def held_out_lemmas(ref, dic: CzechDictionary, share: int, part: int = 0) -> list[str]:
    """Every `share`-th reference lemma by CRC-32 (those whose CRC-32 leaves the remainder `part`) that
    the dictionary holds as a headword."""
    return sorted(l for l in ref if l in dic and zlib.crc32(l.encode()) % share == part)


def without(dic: CzechDictionary, lemmas: set[str], directory: Path) -> CzechDictionary:
    """A copy of the dictionary without the lines of `lemmas`."""
    lines = dic.dic_path.read_text(encoding="utf-8").splitlines()[1:]
    kept = [l for l in lines if l.partition("/")[0] not in lemmas]
    out = directory / "heldout.dic"
    out.write_text(f"{len(kept)}\n" + "\n".join(kept) + "\n", encoding="utf-8")
    out.with_suffix(".aff").write_bytes(dic.aff_path.read_bytes())
    return CzechDictionary.load(out)


def measure(lemmas: list[str], ref, dic: CzechDictionary, known: dict | None = None) -> dict:
    """Recall and leak of the expansion of `lemmas` against the reference; with `known` (lemma -> forms
    the full dictionary gives it), a form is a leak only if neither the reference nor `known` has it."""
    gen: dict = defaultdict(lambda: defaultdict(set))
    variants: dict = defaultdict(lambda: defaultdict(set))     # register variants (COL, LIT)
    guessed = set()
    unclassified = []
    linked = linked_headwords(dic)
    for i, lemma in enumerate(lemmas, 1):
        # as the build expands a headword-list entry, with the engine's own tags (register markers kept)
        for head, flags, model, keep in _resolve(HeadwordEntry(lemma, "heldout", i), dic, True, linked):
            if flags is None:
                unclassified.append(head)
                continue
            items = expand_entry(head, flags, dic)
            items = kept(items, keep)
            if model is not None:
                items = mark_guessed(items, model)
                guessed.add(lemma)
            for it in items:
                if not isinstance(it, Reading):
                    continue
                tag = frozenset(it.tag)
                c = class_of_tag(tag, variants=True)
                if c:
                    # a linked line's readings (napsal/ON of napsat) count for the headword
                    owner = lemma if keep is not None and lemma in keep else it.lemma
                    (variants if tag & {"COL", "LIT"} else gen)[owner][c].add(it.form)
    slots = hits = ours = leaked = no_passive = in_other_class = 0
    by_class = defaultdict(Counter)
    misses, leaks = [], []
    miss_rows = []
    for lemma in lemmas:
        listed = ref[lemma].get(ALL, set()) | (known or {}).get(lemma, set())
        every = set().union(*gen[lemma].values(), *variants[lemma].values())
        for c, forms in ref[lemma].items():
            if c == ALL:
                continue
            have = gen[lemma].get(c, set())
            also = variants[lemma].get(c, set())
            if c == "passive" and not have and not any(set(f) & set("TC") for f in dic.flags_of(lemma) or ()) \
                    and lemma in dic:
                no_passive += len(forms)     # a verb the dictionary gives no passive (quality.py)
            for f in sorted(forms):
                slots += 1
                by_class[c]["slots"] += 1
                if f in have or f in also:
                    hits += 1
                    by_class[c]["hits"] += 1
                else:
                    if f in every:
                        in_other_class += 1      # hovězí, vedoucí: the word is admitted, under another class
                    misses.append(f"{lemma}/{c}: {f}")
                    miss_rows.append((lemma, c, f, sorted(have | also)))
            for f in sorted(have):
                ours += 1
                by_class[c]["ours"] += 1
                if f not in listed:
                    leaked += 1
                    by_class[c]["leaked"] += 1
                    leaks.append(f"{lemma}/{c}: {f}")
    return {"lemmas": len(lemmas), "guessed": len(guessed & set(lemmas)), "unclassified": len(unclassified),
            "slots": slots, "hits": hits, "ours": ours, "no_passive": no_passive, "in_other_class": in_other_class,
            "leaked": leaked, "by_class": by_class,
            "misses": misses, "miss_rows": miss_rows, "leaks": leaks, "unclassified_examples": unclassified[:20],
            "forms": {lemma: {f for fs in list(gen[lemma].values()) + list(variants[lemma].values()) for f in fs}
                      for lemma in lemmas}}


def _pct(a: int, b: int) -> str:
    return f"{a / b:.2%}" if b else "n/a"


def report(title: str, m: dict, examples: int, out=sys.stdout) -> None:
    # Slots counted as quality.py counts them (its figure is the one the issue quotes): the passive
    # slots of a verb the dictionary gives no passive are not counted; the figure with them follows.
    counted = m["slots"] - m["no_passive"]
    print(f"{title}: {m['lemmas']} lemmas, {m['guessed']} inflected by analogy, {m['unclassified']} unclassified; "
          f"admitted-slot recall {_pct(m['hits'], counted)} ({m['hits']} of {counted}), "
          f"leak {_pct(m['leaked'], m['ours'])} ({m['leaked']} of {m['ours']} forms)", file=out)
    if m["no_passive"]:
        print(f"    (as quality.py, {m['no_passive']} reference slots are not counted: passives of verbs the "
              f"dictionary gives no passive (no T/C flag: intransitive or reflexive); counting them as misses: "
              f"{_pct(m['hits'], m['slots'])} ({m['hits']} of {m['slots']}))", file=out)
    if m["in_other_class"]:
        print(f"    ({m['in_other_class']} missed slots are forms the expansion gives the lemma in another class, "
              f"e.g. nouns of adjectival declension, hovězí, vedoucí, as adjectives; a word judge admits "
              f"them: admitted-form recall {_pct(m['hits'] + m['in_other_class'], m['slots'])})", file=out)
    for c, n in sorted(m["by_class"].items()):
        print(f"    {c:14} recall {_pct(n['hits'], n['slots']):>7} of {n['slots']:5d}   "
              f"leak {_pct(n['leaked'], n['ours']):>7} of {n['ours']:5d}", file=out)
    if examples:
        print(f"    misses e.g. {'; '.join(m['misses'][:examples])}", file=out)
        print(f"    leaks e.g. {'; '.join(m['leaks'][:examples])}", file=out)
        if m["unclassified_examples"]:
            print(f"    unclassified e.g. {' '.join(m['unclassified_examples'][:examples])}", file=out)


def write_misses(path: Path, results: dict) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for name, m in results.items():
            for lemma, c, form, have in m["miss_rows"]:
                f.write(f"{name}\t{lemma}/{c}: {form}\t{' '.join(have)}\n")
        for name, m in results.items():
            for leak in m["leaks"]:
                f.write(f"leak-{name}\t{leak}\n")


def run(shared: Path, share: int = 3, examples: int = 8, dic: CzechDictionary | None = None,
        out=sys.stdout, part: int = 0) -> dict:
    t0 = time.time()
    dic = dic if dic is not None else CzechDictionary.shipped()
    ref = reference(shared)
    lemmas = held_out_lemmas(ref, dic, share, part)
    full = measure(lemmas, ref, dic)
    report(f"held-out lemmas (1/{share} of UniMorph by CRC-32, part {part}) as --headwords, full dictionary as --paradigms",
           full, examples, out)
    with tempfile.TemporaryDirectory() as tmp:
        reduced = without(dic, set(lemmas), Path(tmp))
        guessed = measure(lemmas, ref, reduced, known=full["forms"])
    report("the same lemmas removed from the dictionary (inflected by analogy; a leak is a form neither the "
           "reference nor the full dictionary gives the lemma)", guessed, examples, out)
    print(f"({time.time() - t0:.0f} s)", file=out)
    return {"full": full, "removed": guessed}


def add_split_arguments(ap: argparse.ArgumentParser) -> None:
    """--shared, --share and --part: where the reference is and which lemmas are held out."""
    ap.add_argument("--shared", default="../shared", type=Path)
    ap.add_argument("--share", default=3, type=int, help="hold out every N-th lemma (default 3)")
    ap.add_argument("--part", default=0, type=int,
                    help="which remainder of the CRC-32 to hold out (default 0, the reported split; rules are "
                         "chosen on the others)")


def split_refused(ap: argparse.ArgumentParser, a: argparse.Namespace) -> bool:
    """True (said on stderr) when the reference data are missing; a --part out of range is a usage error."""
    if not 0 <= a.part < a.share:
        ap.error(f"--part must be in 0..{a.share - 1}")
    if not (a.shared / "data" / "czech").exists():
        print(f"no reference data under {a.shared}/data/czech", file=sys.stderr)
        return True
    return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_split_arguments(ap)
    ap.add_argument("--examples", default=8, type=int)
    ap.add_argument("--misses", type=Path, help="write every missed slot to this file")
    ap.add_argument("--dic", help="dictionary X.dic (X.aff beside it); default: the shipped cs_CZ.dic")
    a = ap.parse_args(argv)
    if split_refused(ap, a):
        return 2
    results = run(a.shared, a.share, a.examples, CzechDictionary.load(a.dic) if a.dic else None, part=a.part)
    if a.misses:
        write_misses(a.misses, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
