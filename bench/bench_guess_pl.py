"""Held-out measure of Polish inflection by analogy (build_tools/polish/guess.py; run by `make bench`).

    .venv/bin/python bench/bench_guess_pl.py [--sample 100] [--workers 2]

SGJP lemmas of data/pl/headwords.txt are held out (every lemma whose CRC-32 is 0 modulo
--sample): the models are the other lemmas, so a held-out lemma is guessed as if SGJP did not
know it, and its guessed forms are compared with SGJP's real ones. Forms are compared as the
build admits them (the fused-form joiner, nie- and the pl profile applied to both sides).

Two settings, as in the build:
- Hunspell-corroborated: held-out lemmas that are stems of data/pl/pl_PL.dic with flags; the
  models carrying the same flags are tried first, and only the paradigm parts that the entry's
  affix forms or the dictionary's entries attest are admitted (what `--hunspell` does for a
  stem SGJP lacks);
- headword list only: no Hunspell entry; the paradigm most frequent among the nearest models.

--own-models K: the models are only K of the other lemmas (the K smallest CRC-32s), as in a build
from a short list whose own SGJP lemmas are the only models (no `--models`); the default, all
the other lemmas, is a build with `--models data/pl/headwords.txt`.

Printed: lemmas guessed / held out, and recall and precision over all their forms (micro
averages; target >= 95% / >= 95%), beside the baseline of what the build did before guessing
(an unknown headword was rejected: recall 0); then the same per class of the held-out lemma
(nouns by gender), the class losing most recall first. --dump writes every lemma's result.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = 0.95
_STATE: dict = {}


def _init(models, flags_of, aff, stems) -> None:
    from build_tools.compile import FormAdmission
    from build_tools.profiles import load_profile
    from lexicon_service.rules import load_rule_set

    _STATE.update(models=models, flags_of=flags_of, aff=aff, stems=stems,
                  admission=FormAdmission(load_profile("pl"), load_rule_set("pl-scrabble").tile_set))


def _admitted(forms) -> set[str]:
    admission = _STATE["admission"]
    out = set()
    for form, _h, tag, _p in forms:
        key, _rule = admission.admit(form, tag)
        if key is not None:
            out.add(key)
    return out


def _measure(lemmas: list[str]):
    from build_tools.polish.paradigms import expand_lemma
    from build_tools.polish.sgjp import generate as _generate
    from build_tools.polish.guess import guess
    from build_tools.hunspell import expand_word

    models, flags_of, aff = _STATE["models"], _STATE["flags_of"], _STATE["aff"]
    rows = []
    for lemma in lemmas:
        try:
            sgjp = _generate(lemma)
        except Exception:
            continue
        if not sgjp or all(r[2] == "ign" for r in sgjp):
            continue
        # SGJP's paradigm through the same expansion as a guess (no derived adverb lemmas)
        real_forms, reason = expand_lemma(lemma, results=sgjp)
        if reason:
            continue
        real = _admitted(real_forms)
        if not real:
            continue
        cls = class_label(lemma, sgjp)
        flags = flags_of.get(lemma)
        for setting in ("hunspell", "list"):
            if setting == "hunspell":
                if not flags:
                    continue
                hforms = {f for f in expand_word(lemma, aff.split_flags(flags), aff)
                          if f.isalpha() and f.islower()}
                model, results = guess(lemma, models, flags=flags, hforms=hforms,
                                       listed=_STATE["stems"])
            else:
                model, results = guess(lemma, models)
            got: set[str] = set()
            if model is not None:
                forms, why = expand_lemma(lemma, results=results)
                got = _admitted(forms) if not why else set()
            rows.append((setting, lemma, model, len(real), len(got), len(real & got), cls,
                         tuple(sorted(real - got)[:6]), tuple(sorted(got - real)[:6])))
    return rows


def class_label(lemma: str, sgjp: list) -> str:
    """The held-out lemma's word class, nouns by gender (N:m1, N:f, ...), from its first
    SGJP reading."""
    from build_tools.polish.sgjp import class_of_tag

    tags = [r[2] for r in sgjp if r[1].split(":", 1)[0] == lemma and r[2] != "ign"] or [sgjp[0][2]]
    cls = class_of_tag(tags[0])
    if cls == "N":
        fields = tags[0].split(":")
        gender = fields[3].split(".")[0] if len(fields) > 3 else "?"
        return f"N:{gender}"
    return cls


def breakdown(rows: list) -> list[tuple]:
    """(class, lemmas, real, got, hit) per class, largest loss of recall first."""
    by: dict[str, list] = {}
    for r in rows:
        acc = by.setdefault(r[6], [0, 0, 0, 0])
        acc[0] += 1
        acc[1] += r[3]
        acc[2] += r[4]
        acc[3] += r[5]
    return sorted(((c, *v) for c, v in by.items()), key=lambda t: (t[3] - t[2] - t[4], t[0]))


def measure(sample: int = 100, workers: int | None = None, own_models: int | None = None) -> tuple[list, dict]:
    """(rows, summary per setting: lemmas, guessed, exact, real, got, hit)."""
    from build_tools.polish.guess import Models
    from build_tools.hunspell import read_aff, read_dic
    from build_tools.parallel import chunked, ordered_map

    t0 = time.perf_counter()
    lemmas = [l.split("\t", 1)[0].strip() for l in
              (ROOT / "data/pl/headwords.txt").read_text(encoding="utf-8").splitlines() if l.strip()]
    held = [l for l in lemmas if zlib.crc32(l.encode("utf-8")) % sample == 0]
    held_set = set(held)
    aff = read_aff(ROOT / "data/pl/pl_PL.aff")
    entries = [(stem, flags) for _n, stem, flags, problem in read_dic(ROOT / "data/pl/pl_PL.dic", aff)
               if not problem]
    flags_of = {stem: flags for stem, flags in entries if flags}
    stems = frozenset(stem for stem, _f in entries)
    others = [l for l in lemmas if l not in held_set]
    if own_models is not None:      # a short list's own SGJP lemmas
        others = sorted(others, key=lambda l: (zlib.crc32(l.encode("utf-8")), l))[:own_models]
    models = Models(others, flags_of)
    rows = []
    for part in ordered_map(_measure, chunked(held, 50), workers=max(1, workers or os.cpu_count() or 1),
                            initializer=_init, initargs=(models, flags_of, aff, stems)):
        rows += part
    summary = {"held": len(held), "lemmas": len(lemmas), "models": len(models),
               "seconds": time.perf_counter() - t0}
    for setting in ("hunspell", "list"):
        rs = [r for r in rows if r[0] == setting]
        summary[setting] = {"lemmas": len(rs), "guessed": sum(1 for r in rs if r[2] is not None),
                            "real": sum(r[3] for r in rs), "got": sum(r[4] for r in rs),
                            "hit": sum(r[5] for r in rs),
                            "exact": sum(1 for r in rs if r[3] == r[4] == r[5])}
    return rows, summary


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sample", type=int, default=100, help="hold out lemmas with CRC-32 %% N == 0")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--shared", help="(unused)")
    p.add_argument("--lexicons", help="(unused)")
    p.add_argument("--own-models", type=int, metavar="K",
                   help="models: only K of the other lemmas (a short list's own; default: all, as --models "
                   "data/pl/headwords.txt)")
    p.add_argument("--examples", type=int, default=8, help="worst guesses to list")
    p.add_argument("--dump", help="write each held-out lemma's result to DUMP.<setting>.tsv "
                   "(class, lemma, model, real, guessed, right, some missed, some wrong forms)")
    args = p.parse_args(argv)
    rows, sm = measure(args.sample, args.workers, args.own_models)
    print(f"[guess] command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"[guess] held out {sm['held']} of {sm['lemmas']} SGJP lemmas of data/pl/headwords.txt "
          f"(CRC-32 % {args.sample} == 0); models: "
          + (f"{sm['models']} of the others (--own-models)" if args.own_models is not None
             else f"the other {sm['models']}") + f"; {sm['seconds']:.1f} s")
    for setting, label in (("hunspell", "Hunspell-corroborated (stem + flags in pl_PL.dic)"),
                           ("list", "headword list only (no Hunspell entry)")):
        rs = [r for r in rows if r[0] == setting]
        if not rs:
            continue
        m = sm[setting]
        guessed, real, got, hit, exact = m["guessed"], m["real"], m["got"], m["hit"], m["exact"]
        rec, prec = hit / max(real, 1), hit / max(got, 1)
        print(f"[guess] {label}: {len(rs)} lemmas, a model found for {guessed}, whole paradigm "
              f"exactly right for {exact} ({exact / len(rs):.1%})")
        print(f"[guess]   recall {hit}/{real} = {rec:.4f} (target >= {TARGET}), precision "
              f"{hit}/{got} = {prec:.4f} (target >= {TARGET}); baseline before guessing: recall 0 "
              f"(an unknown headword was rejected)")
        for cls, n, real_c, got_c, hit_c in breakdown(rs):
            print(f"[guess]   {cls:6} {n:5} lemmas: missed {real_c - hit_c:5} of {real_c:6} "
                  f"(recall {hit_c / max(real_c, 1):.4f}), wrong {got_c - hit_c:5} of {got_c:6} "
                  f"(precision {hit_c / max(got_c, 1):.4f})")
        if args.dump:
            with open(args.dump + "." + setting + ".tsv", "w", encoding="utf-8") as out:
                for r in sorted(rs, key=lambda r: (r[6], r[5] - r[3], r[1])):
                    out.write("\t".join([r[6], r[1], str(r[2]), str(r[3]), str(r[4]), str(r[5]),
                                         " ".join(r[7]), " ".join(r[8])]) + "\n")
        worst = sorted(rs, key=lambda r: (r[5] - max(r[3], r[4]), r[1]))[:args.examples]
        print("[guess]   worst: " + ", ".join(f"{r[1]} (model {r[2]}: {r[5]} of {r[3]} real, "
                                              f"{r[4]} guessed)" for r in worst))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
