"""Regenerate the shipped Polish headword list data/pl/headwords.txt from the sjp.pl Hunspell
dictionary (a one-off data-preparation tool; the build itself only reads the list).

    python -m build_tools.make_pl_headwords --dic data/pl/pl_PL.dic -o data/pl/headwords.txt

The list is the set of SGJP lemmas attested in the sjp.pl spelling dictionary:

1. every stem of pl_PL.dic that starts with a lowercase letter (capitalised stems are proper
   names) and that Morfeusz 2 knows as a lemma;
2. every word form of pl_PL.dic (its lowercase stems expanded with pl_PL.aff's affixes) is
   analysed by Morfeusz 2, and the lemmas of its first segment are added when they are common
   words (no proper-name class, not an abbreviation, lowercase, not unknown). This catches the
   words SGJP lemmatises differently from sjp.pl: adverbs (wrogo from wrogi), stems that are
   inflected forms (bajerach -> bajera), gerunds' verbs, and so on. Lemmas nie + X with X
   known are skipped: the expander derives nie- forms of adjectives and adverbs itself.

Stems Morfeusz does not know at all are left out (the build would only reject them as
unknown-lemma); the counts are printed. The game word list used to measure recall is *not* an
input of this list.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from build_tools.tags import COMMON_NAME_CLASSES


_ANA = None


def _lemmas_of(forms: list[str]) -> set[str]:
    global _ANA
    if _ANA is None:
        import morfeusz2

        _ANA = morfeusz2.Morfeusz(expand_tags=False)
    out: set[str] = set()
    for form in forms:
        for start, _end, (_f, lemma, tag, names, _q) in _ANA.analyse(form):
            if start != 0 or tag == "ign" or tag.startswith(("brev", "aglt", "interp")):
                continue
            head = lemma.split(":", 1)[0]
            if not head[:1].islower() or not head.isalpha():
                continue
            if any(n not in COMMON_NAME_CLASSES for n in names):
                continue
            out.add(head)
    return out


def headwords_from_dic(dic: Path, workers: int = 2) -> tuple[list[str], dict[str, int]]:
    import multiprocessing as mp

    import morfeusz2

    from build_tools.hunspell import expand_word, read_aff, read_dic
    from build_tools.sources import aff_path_for

    gen = morfeusz2.Morfeusz(generate=True, expand_tags=False)
    aff = read_aff(aff_path_for(dic))
    out: set[str] = set()
    forms: set[str] = set()
    stats = {"stems": 0, "capitalised": 0, "stem-is-lemma": 0, "forms": 0, "lemmas-from-forms": 0}
    for _line, stem, flags, problem in read_dic(dic, aff):
        if problem:
            continue
        stats["stems"] += 1
        if not stem[:1].islower() or not stem.isalpha():
            stats["capitalised"] += 1
            continue
        res = gen.generate(stem)
        if res and any(r[2] != "ign" for r in res):
            out.add(stem)
            stats["stem-is-lemma"] += 1
        for f in expand_word(stem, aff.split_flags(flags), aff):
            if f.isalpha() and f.islower():
                forms.add(f)
    stats["forms"] = len(forms)
    ordered = sorted(forms)
    chunks = [ordered[i:i + 5000] for i in range(0, len(ordered), 5000)]
    found: set[str] = set()
    with mp.get_context("fork").Pool(workers) as pool:
        for lemmas in pool.imap_unordered(_lemmas_of, chunks):
            found.update(lemmas)
    found -= out
    # nie- + a known lemma: the expander derives those forms itself (tagged NEG)
    known = out | found
    nie = {h for h in found if h.startswith("nie") and h[3:] in known}
    stats["nie-lemmas-skipped"] = len(nie)
    found -= nie
    stats["lemmas-from-forms"] = len(found)
    out |= found
    return sorted(out), stats


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dic", default="data/pl/pl_PL.dic",
                   help="pl_PL.dic, pl_PL.aff beside it (default: %(default)s)")
    p.add_argument("-o", "--output", default="data/pl/headwords.txt", help="(default: %(default)s)")
    args = p.parse_args(argv)
    words, stats = headwords_from_dic(Path(args.dic))
    Path(args.output).write_text("".join(w + "\n" for w in words), encoding="utf-8")
    print(f"{len(words)} headwords written to {args.output}; {stats}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
