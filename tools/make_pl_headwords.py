"""Regenerate the shipped Polish headword lists (one-off data-preparation tool; the build itself
only reads the lists).

    python -m tools.make_pl_headwords --dic data/pl/pl_PL.dic -o data/pl/headwords.txt
    python -m tools.make_pl_headwords \
        --word-list ../shared/data/polish/pl_sjp_growy_lexica_subset_2020.txt \
        --known data/pl/headwords.txt -o data/pl/headwords-sjp-growy.txt \
        --guessed-output data/pl/headwords-sjp-growy-guessed.txt

The list is the set of SGJP lemmas attested in the sjp.pl spelling dictionary:

1. every stem of pl_PL.dic that starts with a lowercase letter (capitalised stems are proper
   names) and that Morfeusz 2 knows as a lemma;
2. every word form of pl_PL.dic (its lowercase stems expanded with pl_PL.aff's affixes) is
   analysed by Morfeusz 2, and the lemmas of its first segment are added when they are common
   words (no proper-name class, not an abbreviation, lowercase, not unknown) and attested: the
   lemma's citation form is itself a word form of pl_PL.dic (a homograph such as aktorzy,
   plural of aktor, names SGJP's rare verb aktorzyć too, which sjp.pl does not have). This catches the
   words SGJP lemmatises differently from sjp.pl: adverbs (wrogo from wrogi), stems that are
   inflected forms (bajerach -> bajera), gerunds' verbs, and so on. Lemmas nie + X with X
   known are skipped: the expander derives nie- forms of adjectives and adverbs itself.

Stems Morfeusz does not know at all are left out (the build would only reject them as
unknown-lemma); the counts are printed.

With --word-list (the sjp.pl word-game list, GPL-2 / CC BY 4.0), the second list holds the SGJP
lemmas of that list's words (first segment, common words only, attested: the lemma itself is on
the list, or longer than any word of the list, as in step 2) that the first list lacks: sjp.pl's game list is newer than the Hunspell dictionary, and its words name lemmas
(achać, abba, aplauzować, ...) that pl_PL.dic does not have. A list that is partial (its share
of SGJP's forms, ``list_density``, below ``COMPLETE_LIST``: half of the game list, a list of
new words) also attests a lemma by its forms: words that only this lemma explains, and enough
of its paradigm on the list (``attested_lemmas_of_words``; there a lemma longer than the
list's words is decided the same way); on the complete game list a missing citation form is
evidence against the lemma, and nothing is attested that way.
Because that list is also what the benchmark measures recall on, bench/bench_lexicon.py reports
a held-out recall as well: a build from the lemmas of one half of the list only, recall
measured on the other half.

With --guessed-output, a third list holds lemmas by analogy for the list's words that SGJP does
not know at all (``guessed_lemmas_of_words``: the inverse of polish/guess.py, preferring a lemma that
explains several words of the list); only lemmas are written, the build guesses their paradigms.
A lemma by analogy need not be a word of the list: each unknown word also proposes the lemmas
the list's SGJP words of the same ending have (``citation_candidates``: blankuje, blankuj ->
blankować, which is longer than the list's words; on a partial list also poćpane -> poćpany).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from build_tools.tags import COMMON_NAME_CLASSES


def _lemmas_of_each(forms: list[str]) -> list[tuple[str, frozenset[str]]]:
    """(form, the common lemmas of its first segment) for each of FORMS: not abbreviations,
    agglutinates, punctuation or proper names."""
    from build_tools.polish import sgjp

    ana = sgjp.analyser()
    out = []
    for form in forms:
        heads = set()
        for start, _end, (_f, lemma, tag, names, _q) in ana.analyse(form):
            if start != 0 or tag == "ign" or tag.startswith(("brev", "aglt", "interp")):
                continue
            head = lemma.split(":", 1)[0]
            if not head[:1].islower() or not head.isalpha():
                continue
            if any(n not in COMMON_NAME_CLASSES for n in names):
                continue
            heads.add(head)
        out.append((form, frozenset(heads)))
    return out


def lemmas_of_words(words: list[str], workers: int = 2) -> set[str]:
    """The common SGJP lemmas of WORDS' first segments (lemmas_of_each_word), on WORKERS processes."""
    return set().union(*lemmas_of_each_word(words, workers).values())


def lemmas_of_each_word(words: list[str], workers: int = 2) -> dict[str, frozenset[str]]:
    """word -> the common SGJP lemmas of its first segment (see _lemmas_of_each), on WORKERS processes."""
    import multiprocessing as mp

    ordered = sorted(set(words))
    chunks = [ordered[i:i + 5000] for i in range(0, len(ordered), 5000)]
    out: dict[str, frozenset[str]] = {}
    with mp.get_context("fork").Pool(workers) as pool:
        for pairs in pool.imap(_lemmas_of_each, chunks):
            out.update(pairs)
    return out


# A list is partial when the share of SGJP's forms on it (list_density, over the lemmas it
# cites) is below this: the sjp.pl game list holds 96% (every game word of its lengths), half
# of it 55%. On a complete list a lemma whose citation form is missing is mostly not sjp.pl's
# (bliżyć, ciapeć: on the 2020 list, attesting such lemmas by their forms would add 17 lemmas
# making 65 forms off the list and 11 on it); on a partial one its absence says nothing.
COMPLETE_LIST = 0.9
# on a partial list, a lemma whose citation form is missing is attested by its forms: at least
# SOLE_WITNESSES words of the list that no other lemma explains, and at least FORM_SHARE x
# density of its forms (of the list's lengths) on the list, as for a lemma the list cites
SOLE_WITNESSES = 1
FORM_SHARE = 0.4


def attested_lemmas_of_words(words: list[str], workers: int = 2, *, density: float | None = None,
                             stats: dict | None = None) -> set[str]:
    """The lemmas of WORDS (lemmas_of_words) that the words attest: the citation form is one
    of them (see headwords_from_dic), or longer than the longest of them, as the list cannot
    attest it (the sjp.pl game list subset stops at 8 letters: aplauzować). On a partial list
    (DENSITY, ``list_density`` of the cited lemmas, below ``COMPLETE_LIST``: a half of the game
    list, a federation's list of new words) a lemma is also attested by its forms (see
    ``SOLE_WITNESSES``, ``FORM_SHARE``); aktorzy, a form of aktor, witnesses no verb aktorzyć.
    There a lemma longer than the list's words is decided by its forms as well: a partial list
    says no more of a long citation form than of a short one it lacks."""
    from collections import Counter

    listed = set(words)
    longest = max((len(w) for w in listed), default=0)
    each = lemmas_of_each_word(words, workers)
    named = set().union(*each.values()) if each else set()
    cited = {h for h in named if h in listed or len(h) > longest}
    if density is None:
        density = list_density(words, cited)
    by_forms: set[str] = set()
    if density < COMPLETE_LIST:
        from build_tools.polish.paradigms import expand_lemma

        cited = {h for h in cited if h in listed}
        sole = Counter(next(iter(heads)) for heads in each.values() if len(heads) == 1)
        lengths = range(min(map(len, listed)), longest + 1)
        for h in sorted(named - cited):
            if sole[h] < SOLE_WITNESSES:
                continue
            forms, reason = expand_lemma(h)
            made = {f for f, *_ in forms if len(f) in lengths} if not reason else set()
            if made and len(made & listed) >= FORM_SHARE * density * len(made):
                by_forms.add(h)
    if stats is not None:
        stats.update({"cited-lemmas": len(cited), "list-density": round(density, 4),
                      "lemmas-attested-by-forms": len(by_forms)})
    return cited | by_forms


def read_word_list(path: Path) -> list[str]:
    """The lowercase, letters-only words of a word list (one per line, UTF-8)."""
    words = [w.strip() for w in path.read_text(encoding="utf-8").splitlines()]
    return [w for w in words if w and w.isalpha() and w.islower()]


def headwords_from_word_list(path: Path, known: set[str], workers: int = 2) -> tuple[list[str], dict[str, int]]:
    """The lemmas of the words in PATH (one per line, UTF-8) that KNOWN does not hold."""
    words = read_word_list(path)
    stats: dict = {}
    found = attested_lemmas_of_words(words, workers, stats=stats)
    new = found - known
    return sorted(new), {"words": len(words), "lemmas": len(found), "new-lemmas": len(new), **stats}


# --- lemmas by analogy: the list's words SGJP does not know ---------------------------------
# a lemma is kept when the share of its guessed paradigm's forms (of the list's lengths) that
# are words of the list is at least this part of the same share for the SGJP lemmas on the list
# (list_density: 96% on the whole game list, 55% on half of it). The list holds every game word
# of its lengths, so a paradigm whose forms it lacks is not this word's: abachity is not a lemma
# of the lity paradigm. Between 50% and 70% of the whole list's, the kept lemmas made about as
# many forms off the list as on it.
GUESS_SHARE = 0.73


def list_density(words: list[str], lemmas, sample: int = 100) -> float:
    """The share of SGJP's forms (of the WORDS' lengths, as the build expands them) that are
    among WORDS, over the LEMMAS whose citation form is one of the words, taking those whose
    CRC-32 is 0 modulo SAMPLE."""
    import zlib

    from build_tools.polish.paradigms import expand_lemma

    listed = set(words)
    lengths = range(min(map(len, listed), default=0), max(map(len, listed), default=0) + 1)
    on = total = 0
    for lemma in sorted(l for l in lemmas if l in listed and zlib.crc32(l.encode("utf-8")) % sample == 0):
        forms, reason = expand_lemma(lemma)
        made = {f for f, *_ in forms if len(f) in lengths} if not reason else set()
        on += len(made & listed)
        total += len(made)
    return on / total if total else 1.0


def unknown_words(words: list[str]) -> list[str]:
    """The words whose first segment Morfeusz 2 (SGJP) analyses only as ``ign``."""
    from build_tools.polish import sgjp

    ana = sgjp.analyser()
    out = []
    for w in words:
        first = [r for r in ana.analyse(w) if r[0] == 0]
        if all(r[2][2] == "ign" for r in first):
            out.append(w)
    return out


def hunspell_words(dic: Path) -> frozenset[str]:
    """The flagged entries of a Hunspell dictionary and their affix forms: words whose
    paradigm the --hunspell pass admits or refuses (guessed and corroborated by the affix forms)."""
    from build_tools.hunspell import expand_word, read_aff, read_dic
    from build_tools.sources import aff_path_for

    aff = read_aff(aff_path_for(dic))
    out: set[str] = set()
    for _line, stem, flags, problem in read_dic(dic, aff):
        if problem or not flags:
            continue
        out.add(stem)
        out.update(expand_word(stem, aff.split_flags(flags), aff))
    return frozenset(out)


# citation_candidates: endings of this many letters at most are looked up, and at most this
# many lemma endings are taken at the longest ending found
CANDIDATE_ENDING = 6
CANDIDATES = 3
# on a partial list, a candidate that explains at least DERIVED_WORDS unknown words (a lemma that
# is no word of the list must) is kept when DERIVED_SHARE x density of its forms are on the list
# (GUESS_SHARE is for a word of the list that explains only itself, as most do)
DERIVED_WORDS = 2
DERIVED_SHARE = 0.4


def citation_candidates(words: list[str], known_words: list[str]) -> dict[str, set[str]]:
    """word -> the citation forms it would have if it inflected like the KNOWN_WORDS (SGJP
    words: their lemmas are Morfeusz's) with the longest shared ending: each known word is
    (stem + ending, its lemma stem + lemma ending); a word with the same last letters, at least
    one more than that ending, swaps the ending (poćpane like zaspane -> poćpany). At the
    longest shared ending, the CANDIDATES most frequent swaps."""
    from collections import Counter

    swaps: dict[str, Counter] = {}
    for word, heads in _lemmas_of_each(known_words):
        for head in heads:
            p = 0
            while p < min(len(word), len(head)) and word[p] == head[p]:
                p += 1
            if p < 2:          # no shared stem (nie-, naj- forms, suppletion: ludzie -> człowiek)
                continue
            end = word[p:]
            for k in range(len(end) + 1, min(len(word), CANDIDATE_ENDING) + 1):
                swaps.setdefault(word[-k:], Counter())[(end, head[p:])] += 1
    out: dict[str, set[str]] = {}
    for w in words:
        got: set[str] = set()
        for k in range(min(len(w) - 1, CANDIDATE_ENDING), 1, -1):
            found = swaps.get(w[-k:])
            if found:
                for (end, lemma_end), _n in sorted(found.items(), key=lambda x: (-x[1], x[0]))[:CANDIDATES]:
                    if w.endswith(end) and len(w) > len(end):
                        got.add(w[:len(w) - len(end)] + lemma_end)
                break
        got.discard(w)
        out[w] = got
    return out


def guessed_lemmas_of_words(words: list[str], model_lemmas, exclude=frozenset(),
                            share: float = GUESS_SHARE, density: float = 1.0
                            ) -> tuple[list[str], dict[str, int]]:
    """Lemmas by analogy for the WORDS SGJP does not know (``unknown_words``; those in EXCLUDE,
    the Hunspell entries' words, are left to the --hunspell pass): the inverse of polish/guess.py.
    Each such word W is a candidate lemma; the build would guess its paradigm from MODEL_LEMMAS
    (polish.guess.guess, headword only, as for a headword-list entry), and the candidate explains
    the unknown words that paradigm makes. Candidates are taken greedily, the one explaining
    most unknown words first (of those, the one with the larger share of its forms on the
    list), while they explain a word not yet explained, and kept when at least SHARE x DENSITY
    of their forms of the list's lengths are on the list (``GUESS_SHARE``; DENSITY:
    ``list_density``, the same share for the SGJP lemmas on the list; on a partial list,
    ``DERIVED_SHARE`` for a candidate explaining several words). A
    word explained by nothing else is its own lemma (the build's guess decides how it
    inflects: an uncertain guess admits the headword alone). The lemmas ``citation_candidates``
    proposes are candidates too, after a word of the list that explains as many."""
    from build_tools.polish import guess as guess_pl
    from build_tools.polish.paradigms import expand_lemma

    listed = set(words)
    lengths = range(min(map(len, listed), default=0), max(map(len, listed), default=0) + 1)
    unknown = sorted(w for w in unknown_words(sorted(listed)) if w not in exclude)
    models_set = set(model_lemmas)
    models = guess_pl.Models(models_set)

    def guessed_forms(word: str) -> set[str]:
        """The forms of the list's lengths of WORD's guessed paradigm (none without a model)."""
        model, results = guess_pl.guess(word, models)
        if model is None:
            return set()
        made, reason = expand_lemma(word, None, None, results=results)
        return set() if reason else {f for f, *_ in made if len(f) in lengths}

    forms_of: dict[str, set[str]] = {w: guessed_forms(w) for w in unknown}
    todo = set(unknown)
    # lemmas that are no word of the list: a list may lack the citation form of a word it has
    # (a partial list; a lemma longer than its longest word), so each unknown word also
    # proposes the lemmas the list's SGJP words of the same ending have (citation_candidates)
    derived = sorted(set().union(*citation_candidates(unknown, sorted(listed - todo)).values())
                     - listed - set(exclude)) if unknown else []
    # on a complete list a lemma of its lengths that is not on it is no game word (as for SGJP's
    # lemmas, attested_lemmas_of_words)
    longest = max(map(len, listed), default=0)
    derived = [c for c in derived if c not in models_set and (density < COMPLETE_LIST or len(c) > longest)]
    derived = sorted(set(derived) & set(unknown_words(derived)))
    forms_of.update((c, guessed_forms(c)) for c in derived)
    explains = {w: forms_of[w] & todo for w in forms_of}
    own = set(unknown)
    covered: set[str] = set()
    chosen: list[str] = []
    stats = {"words": len(listed), "unknown-words": len(unknown), "no-paradigm": 0,
             "paradigm-off-list": 0}
    # most words explained first; of those, the paradigm with most of its forms on the list (of
    # two readings of gibsona, gibson's paradigm, not a feminine gibsona's); then a word of the
    # list before a lemma that is none
    def on_list(w: str) -> float:
        return len(forms_of[w] & listed) / len(forms_of[w]) if forms_of[w] else 0.0

    for cand in sorted(forms_of, key=lambda w: (-len(explains[w]), -on_list(w), w not in own, w)):
        if not explains[cand] - covered:
            continue
        forms = forms_of[cand]
        if not forms:
            stats["no-paradigm"] += 1
            continue
        several = len(explains[cand]) >= DERIVED_WORDS
        if cand not in own and not several:
            continue
        # a word of the list that explains several words is as well witnessed as a lemma that
        # is none: the same bar (SHARE is for a word that explains only itself)
        need = DERIVED_SHARE if several and density < COMPLETE_LIST else share
        if len(forms & listed) < need * density * len(forms):
            stats["paradigm-off-list"] += 1
            continue
        chosen.append(cand)
        covered |= explains[cand]
    stats["lemmas"] = len(chosen)
    stats["lemmas-not-on-the-list"] = sum(1 for c in chosen if c not in own)
    stats["words-explained"] = len(covered)
    stats["lemmas-explaining-several"] = sum(1 for c in chosen if len(explains[c]) > 1)
    return sorted(chosen), stats


def headwords_from_dic(dic: Path, workers: int = 2) -> tuple[list[str], dict[str, int]]:
    from build_tools.hunspell import expand_word, read_aff, read_dic
    from build_tools.polish import sgjp
    from build_tools.sources import aff_path_for

    gen = sgjp.generator()
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
    found = lemmas_of_words(list(forms), workers) - out
    # a lemma is attested when its own citation form is a word of the dictionary: a homograph
    # names lemmas sjp.pl does not have (aktorzy, plural of aktor, is also a form of SGJP's
    # rare verb aktorzyć; anieli -> anielić), and those would bring their whole paradigms
    unattested = {h for h in found if h not in forms}
    stats["unattested-lemmas-skipped"] = len(unattested)
    found -= unattested
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
    p.add_argument("--word-list", metavar="FILE",
                   help="instead of --dic: take the lemmas of this word list's words (the sjp.pl game list)")
    p.add_argument("--known", action="append", default=[], metavar="FILE",
                   help="with --word-list: headword lists whose lemmas are left out (repeatable)")
    p.add_argument("-o", "--output", default="data/pl/headwords.txt", help="(default: %(default)s)")
    p.add_argument("--guessed-output", metavar="FILE",
                   help="with --word-list: also write the lemmas by analogy of the list's words SGJP "
                        "does not know (guessed_lemmas_of_words; --dic's entries are left out) to FILE")
    p.add_argument("--workers", type=int, default=2, help="processes (default: %(default)s)")
    args = p.parse_args(argv)
    if args.word_list:
        known = {line.split("\t", 1)[0].strip() for f in args.known
                 for line in Path(f).read_text(encoding="utf-8").splitlines()}
        words, stats = headwords_from_word_list(Path(args.word_list), known, args.workers)
        if args.guessed_output:
            listed = read_word_list(Path(args.word_list))
            density = list_density(listed, known | set(words))
            guessed, gstats = guessed_lemmas_of_words(listed, known | set(words), hunspell_words(Path(args.dic)),
                                                      density=density)
            gstats["list-density"] = round(density, 4)
            Path(args.guessed_output).write_text("".join(w + "\n" for w in guessed), encoding="utf-8")
            print(f"{len(guessed)} headwords written to {args.guessed_output}; {gstats}", file=sys.stderr)
    else:
        words, stats = headwords_from_dic(Path(args.dic), args.workers)
    Path(args.output).write_text("".join(w + "\n" for w in words), encoding="utf-8")
    print(f"{len(words)} headwords written to {args.output}; {stats}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
