"""Run the expander over many headwords, in worker processes when asked."""

from __future__ import annotations

import gc
import os
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

from ..model import ExpandedForm, HeadwordEntry, Rejection
from ..parallel import chunked, intern_tagset, ordered_map, reset_tagsets
from ..tags import ALTERNATIVE_CATEGORIES, CATEGORIES
from .expand import DEFAULT_AFF, DEFAULT_DIC, _tag, affixes, aff_path_for, expand_entry

CHUNK = 4000


@lru_cache(maxsize=2)
def dictionary_entries(dic_path: str = str(DEFAULT_DIC)) -> dict[str, list[str]]:
    """lemma -> flag strings of its cs_CZ.dic entries (a word may have several, e.g. stát noun and verb)."""
    out: dict[str, list[str]] = {}
    with open(dic_path, encoding="utf-8") as fh:
        next(fh, None)
        for line in fh:
            line = line.rstrip("\n")
            if not line:
                continue
            word, _, flags = line.partition("/")
            out.setdefault(word, []).append(flags)
    return out


def dictionary_flags(lemma: str) -> list[str] | None:
    return dictionary_entries().get(lemma)


POS_FLAGS_FALLBACK = {}


def _resolve(entry: HeadwordEntry) -> list[tuple[str, str | None, str]]:
    """[(lemma, flags or None when unclassifiable, aff path)] -- one per dictionary entry of the lemma."""
    if entry.flags is not None:
        return [(entry.lemma, entry.flags, str(aff_path_for(entry.source)))]
    if entry.lemma != entry.lemma.lower():
        return [(entry.lemma, "", str(DEFAULT_AFF))]
    flags = dictionary_flags(entry.lemma)
    if flags is None:
        guessed = guess_flags(entry.lemma, entry.pos)
        return [(entry.lemma, guessed, str(DEFAULT_AFF))]
    if entry.pos:
        from .tagger import split_mixed
        parts = [p for f in flags for p in split_mixed(entry.lemma, f)]
        fit = [f for f in parts if _pos_fits(entry.lemma, f, entry.pos)]
        flags = fit or flags
    return [(entry.lemma, f, str(DEFAULT_AFF)) for f in flags]


POS_CLASSES = {"noun": "noun", "n": "noun", "subst": "noun", "adj": "adj", "a": "adj", "verb": "verb", "v": "verb",
               "adv": "plain", "prep": "plain", "conj": "plain", "part": "plain", "intj": "plain", "num": "plain",
               "pron": "plain", "pro": "plain"}


def _pos_fits(lemma: str, flags: str, pos: str) -> bool:
    from .tagger import word_class
    want = POS_CLASSES.get(pos.lower().strip("."))
    return want is None or word_class(lemma, flags) == want


def guess_flags(lemma: str, pos: str | None) -> str | None:
    """Flags for a headword missing from cs_CZ.dic, by analogy: the flags most dictionary words with the
    longest shared ending (at least 3 letters) carry, if they agree (>= 90 %) and fit the part of speech.
    None (unclassified) when the evidence is weak: conservative by design."""
    idx = _ending_index()
    for k in range(min(6, len(lemma) - 1), 2, -1):
        counts = idx.get(lemma[-k:])
        if not counts:
            continue
        core = Counter()
        for flags, n in counts.items():
            core[_core(flags)] += n
        total = sum(core.values())
        flags, n = max(core.items(), key=lambda kv: kv[1])
        if flags and total >= 5 and n / total >= 0.9 and (not pos or _pos_fits(lemma, flags, pos)):
            return flags
        return None
    return None


# derivation and lexical extras left out of a guessed paradigm (negation, adverbs, -ost nouns,
# passives, transgressives, comparatives): a guess gives the inflection only
_EXTRAS = frozenset("NRKEWCTXyO")


def _core(flags: str) -> str:
    return "".join(f for f in flags if f not in _EXTRAS)


@lru_cache(maxsize=1)
def _ending_index() -> dict[str, Counter]:
    idx: dict[str, Counter] = {}
    for word, fl in dictionary_entries().items():
        if word != word.lower() or len(fl) != 1 or not fl[0]:
            continue
        for k in range(3, min(6, len(word) - 1) + 1):
            idx.setdefault(word[-k:], Counter())[fl[0]] += 1
    return idx


def _work(batch: list[tuple[str, str, str, str, int]]) -> list[tuple]:
    gc.disable()        # millions of small tuples: generational GC would rescan them for nothing
    try:
        return _work1(batch)
    finally:
        gc.enable()


def _work1(batch: list[tuple[str, str, str, str, int]]) -> list[tuple]:
    res = []
    for lemma, flags, aff_path, source, line in batch:
        if flags is None:
            res.append(("R", lemma, "unclassified", "not in cs_CZ.dic and no paradigm flags", source, line))
            continue
        items = expand_entry(lemma, flags, affixes(aff_path))
        items = merge_readings(items) if MERGE_SYNCRETISM else [_public(it) for it in items]
        for item in items:
            res.append(item + (source, line))
    return res


# Internal register markers of the engine -> the common vocabulary: colloquial variants (nesem,
# kupujou) carry the same tag as the standard form; bookish long infinitives (nésti) are ARCH.
_PUBLIC: dict = {}


def _public(it: tuple) -> tuple:
    if it[0] != "F":
        return it
    tag = it[3]
    t = _PUBLIC.get(tag)
    if t is None:
        t = _PUBLIC[tag] = tuple(sorted({"ARCH" if f == "LIT" else f for f in tag if f != "COL"}))
    return it[:3] + (t,) + it[4:]


# One record per form and non-alternative features: the readings of a syncretic form (ženy: GEN SG,
# NOM/ACC/VOC PL) go into one tag whose case/number/gender/... features are alternatives, as
# build_tools/tags.py defines (readings_of spells them out). Halves the records the compiler judges.
MERGE_SYNCRETISM = True
_ALTERNATIVE = frozenset(f for c in ALTERNATIVE_CATEGORIES for f in CATEGORIES[c])
_SPLIT: dict = {}


def merge_readings(items: list[tuple]) -> list[tuple]:
    """Merge the readings (public tags, see _public) of each form into one record per form, lemma,
    non-alternative features and paradigm."""
    groups: dict = {}
    out = []
    public = _PUBLIC
    for it in items:
        if it[0] != "F":
            out.append(it)
            continue
        tag = public.get(it[3])
        if tag is None:
            tag = _public(it)[3]
        fixed = _SPLIT.get(tag)
        if fixed is None:
            fixed = _SPLIT[tag] = tuple(f for f in tag if f not in _ALTERNATIVE)
        key = (it[1], it[2], fixed, it[4])
        g = groups.get(key)
        if g is None:
            groups[key] = [tag]
        else:
            g.append(tag)
    for (form, lemma, _fixed, par), tags in groups.items():
        if len(tags) == 1:
            out.append(("F", form, lemma, tags[0], par))
            continue
        out.append(("F", form, lemma, _tag(*tags), par))  # the cached sorted union of the tags
    return out


_FROZEN: dict = {}


def _to_records(items: list[tuple]) -> Iterator[ExpandedForm | Rejection]:
    frozen = _FROZEN
    for it in items:
        if it[0] == "F":
            tag = frozen.get(it[3])
            if tag is None:
                tag = frozen[it[3]] = frozenset(it[3])
            yield ExpandedForm(it[1], it[2], tag, it[4])
        else:
            yield Rejection(it[1], it[2], it[4], it[5], it[3])


def _batches(entries: Iterable[HeadwordEntry]):
    for chunk in chunked(entries, CHUNK):
        out = []
        for e in chunk:
            for lemma, flags, aff in _resolve(e):
                out.append((lemma, flags, aff, e.source, e.line))
        yield out


def warm_caches() -> None:
    """Load the affix table, the paradigm tables and the dictionary indexes once in the parent, so that
    forked worker processes share them instead of each building its own copy."""
    from . import tables as irregular
    from .finite import comparative_adverbs, nul_participles, present_index
    from .tagger import tables
    from .unflagged import noun_index
    affixes(str(DEFAULT_AFF))
    dictionary_entries()        # tables.verb_links_of asks whether a po- infinitive exists
    tables()
    irregular.paradigm_for("být")
    irregular.readings_of("být")
    for index in (noun_index, present_index, nul_participles, comparative_adverbs):
        index(str(DEFAULT_DIC))


def expand_headwords(entries: Iterable[HeadwordEntry], *, workers: int = 1) -> Iterator[ExpandedForm | Rejection]:
    """Expand Czech headwords into tagged forms; yields Rejection for what is excluded (with the reason)."""
    for items in ordered_map(_work, _batches(entries), workers=workers, before_fork=warm_caches):
        yield from _to_records(items)


def expand_lemma(lemma: str, flags: str | None = None) -> list[ExpandedForm | Rejection]:
    """Convenience for tests and tools: forms of one headword (flags looked up in cs_CZ.dic if omitted)."""
    e = HeadwordEntry(lemma=lemma, source="cs_CZ.dic" if flags is not None else "headwords", line=0, flags=flags)
    return list(expand_headwords([e]))


# ------------------------------------------------------------------ judged fast path
# The compiler's fast path (as build_tools/expand_pl.expand_judged): expansion AND per-form judging
# (profile rules, spelling, tile key) in the worker processes, so that the main process only merges
# admitted keys. Same result protocol as expand_pl.expand_judged (merged by build_tools/cli._merge_judged):
#   (lemma results, rejection counts, examples, rejected forms, log lines, readings in, admitted,
#    (worker pid, new tag-set definitions))
# where a lemma result is ("R", lemma, reason, source, line) or ("L", [(headword, [(key, tag-set id)])]).
EXAMPLES = 8
_JUDGE = None
_LOG = False


def _init_judge(judge, log: bool) -> None:
    global _JUDGE, _LOG
    _JUDGE, _LOG = judge, log
    reset_tagsets()


def _judge_batch(batch: list[tuple[str, str, str, str, int]]):
    gc.disable()
    try:
        return _judge_batch1(batch)
    finally:
        gc.enable()


def _judge_batch1(batch):
    judge = _JUDGE
    profile = judge.profile
    tag_text = judge.tag_text
    fast_letters = getattr(judge, "identity_letters", None)
    min_len, max_len = profile.min_length, profile.max_length
    out, counts, examples, rejected, log_lines = [], {}, {}, set(), []
    defs: list = []
    n_in = n_ok = 0
    verdicts: dict = {}

    def rej(form, reason, where, detail):
        counts[reason] = counts.get(reason, 0) + 1
        rejected.add(form)
        ex = examples.setdefault(reason, [])
        if len(ex) < EXAMPLES:
            ex.append(f"{form} ({where}{': ' + detail if detail else ''})")
        if _LOG:
            log_lines.append(f"{form}\t{reason}\t{where}\t{detail}\n")

    for lemma, flags, aff_path, source, line in batch:
        where = f"{source}:{line}"
        if flags is None:
            out.append(("R", lemma, "unclassified", source, line))
            continue
        items = expand_entry(lemma, flags, affixes(aff_path))
        items = merge_readings(items) if MERGE_SYNCRETISM else [_public(it) for it in items]
        if len(items) == 1 and items[0][0] == "R" and items[0][1] == lemma:
            out.append(("R", lemma, items[0][2], source, line))
            continue
        groups: dict[str, dict[str, set]] = {}
        for it in items:
            if it[0] == "R":
                rej(it[1], it[2], where, it[3])
                continue
            _, form, head, tagt, _par = it
            n_in += 1
            v = verdicts.get(tagt)
            if v is None:
                tag = _frozen(tagt)
                ok, rule = profile.judge_tag(tag)
                v = verdicts[tagt] = (ok, rule, tag_text(tag), tag)
            if not v[0]:
                rej(form, v[1], where, f"headword {head}" if head != form else "")
                continue
            if fast_letters is not None and fast_letters.issuperset(form) and min_len <= len(form) <= max_len:
                key, rule = form, v[1]
            else:
                key, rule = judge.judge(form, v[3])
            if key is None:
                rej(form, rule, where, f"headword {head}" if head != form else "")
                continue
            n_ok += 1
            local = groups.setdefault(head, {})
            s = local.get(key)
            pair = (v[2], rule)
            if s is None:
                local[key] = {pair}
            else:
                s.add(pair)
        if groups:
            out.append(("L", [(h, [(k, intern_tagset(ps, defs)) for k, ps in local.items()])
                              for h, local in groups.items()]))
    return out, counts, examples, rejected, log_lines, n_in, n_ok, (os.getpid(), defs)


def _frozen(tag: tuple) -> frozenset:
    t = _FROZEN.get(tag)
    if t is None:
        t = _FROZEN[tag] = frozenset(tag)
    return t


def expand_judged(entries: Iterable[HeadwordEntry], judge, *, workers: int | None = None, log: bool = False):
    """Expansion and per-form judging in worker processes (the compiler's fast path, same protocol as
    build_tools.expand_pl.expand_judged). Yields one result tuple per batch of headwords, in order."""
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    yield from ordered_map(_judge_batch, _batches(entries), workers=workers,
                           initializer=_init_judge, initargs=(judge, log), before_fork=warm_caches)
