"""Run the expander over many headwords, in worker processes when asked."""

from __future__ import annotations

import gc
import os
from collections import Counter
from typing import Iterable, Iterator

from ..model import ExpandedForm, HeadwordEntry, Reading, Rejection
from ..parallel import chunked, intern_tagset, ordered_map, reset_tagsets
from ..tags import ALTERNATIVE_CATEGORIES, CATEGORIES
from .dictionary import CzechDictionary
from .expand import _tag, expand_entry
from .guess import GUESSED, guess_flags, guessed_comparative, pos_fits
from .links import comparative_candidates
from .tables import verb_links_of
from .tagger import split_mixed, word_class

CHUNK = 4000


def _resolve(entry: HeadwordEntry, dic: CzechDictionary, headwords: bool = False
             ) -> list[tuple[str, str | None, str | None, frozenset | None]]:
    """[(line word, flags or None when unclassifiable, model word when the flags are guessed, the lemmas
    whose readings are kept or None for all)]: one per line of the lemma in `dic` (all homonymous
    lines), or flags guessed by analogy. `headwords` (a headword list, not a dictionary's own lines):
    also the lines the engine files under the lemma (links.py) and the adjective's comparative."""
    if entry.flags is not None:
        return [(entry.lemma, entry.flags, None, None)]
    lemma = entry.lemma
    if lemma != lemma.lower():
        return [(lemma, "", None, None)]
    flags = dic.flags_of(lemma)
    if flags is None:
        guessed = guess_flags(lemma, entry.pos, dic)
        if guessed is None:
            return [(lemma, None, None, None)]
        out = [(lemma, guessed[0], guessed[1], None)]
        if headwords and word_class(lemma, guessed[0]) == "adj":
            cmpr = guessed_comparative(lemma, dic)
            if cmpr is not None:
                out.append((cmpr[0], cmpr[1], cmpr[2], None))
        return out
    if entry.pos:
        parts = [p for f in flags for p in split_mixed(lemma, f)]
        fit = [f for f in parts if pos_fits(lemma, f, entry.pos)]
        flags = fit or flags
    out = [(lemma, f, None, None) for f in flags]
    if headwords:
        for word, f in dic.linked.get(lemma, ()):
            keep = frozenset((lemma,) if verb_links_of(word, dic) else (lemma, word))
            out.append((word, f, None, keep))
        if lemma.endswith(("ý", "í")) and any(word_class(lemma, f) == "adj" for f in flags):
            for cand in comparative_candidates(lemma):
                for f in dic.flags_of(cand) or ():
                    if cand != lemma and word_class(cand, f) == "adj":
                        out.append((cand, f, None, None))
    return out


# The dictionary of the expansion running in this process: set by the pool initializer (_init), which
# receives it as an argument (inherited by forked workers, pickled as its paths elsewhere).
_DIC: CzechDictionary | None = None


def _init(dic: CzechDictionary) -> None:
    global _DIC
    _DIC = dic


def _work(batch: list[tuple]) -> list[tuple]:
    gc.disable()        # millions of small tuples: generational GC would rescan them for nothing
    try:
        return _work1(batch, _DIC)
    finally:
        gc.enable()


def _expand_one(lemma: str, flags: str, model: str | None, keep: frozenset | None,
                dic: CzechDictionary) -> list[Reading | Rejection]:
    items = expand_entry(lemma, flags, dic)
    if keep is not None:
        items = [it for it in items if not isinstance(it, Reading) or it.lemma in keep]
    if model is not None:
        items = mark_guessed(items, model)
    return merge_readings(items) if MERGE_SYNCRETISM else [_public(it) for it in items]


def mark_guessed(items: list, model: str) -> list:
    """Readings of a headword inflected by analogy: GUESSED in the tag, the model word as the rule."""
    return [Reading(it.form, it.lemma, _tag(it.tag, (GUESSED,)), f"guessed:{model}")
            if isinstance(it, Reading) else it for it in items]


def _work1(batch: list[tuple], dic: CzechDictionary) -> list[tuple]:
    res = []
    for lemma, flags, model, keep, source, line in batch:
        if flags is None:
            res.append((Rejection(lemma, "unclassified",
                                  detail="not in the paradigm source and no paradigm by analogy"), source, line))
            continue
        for item in _expand_one(lemma, flags, model, keep, dic):
            res.append((item, source, line))
    return res


# Internal register markers of the engine -> the common vocabulary: colloquial variants (nesem,
# kupujou) carry the same tag as the standard form; bookish long infinitives (nésti) are ARCH.
_PUBLIC: dict = {}


def _public_tag(tag: tuple) -> tuple:
    t = _PUBLIC.get(tag)
    if t is None:
        t = _PUBLIC[tag] = tuple(sorted({"ARCH" if f == "LIT" else f for f in tag if f != "COL"}))
    return t


def _public(it):
    if not isinstance(it, Reading):
        return it
    return Reading(it.form, it.lemma, _public_tag(it.tag), it.rule)


# One record per form and non-alternative features: the readings of a syncretic form (ženy: GEN SG,
# NOM/ACC/VOC PL) go into one tag whose case/number/gender/... features are alternatives, as
# build_tools/tags.py defines (readings_of spells them out). Halves the records the compiler judges.
MERGE_SYNCRETISM = True
_ALTERNATIVE = frozenset(f for c in ALTERNATIVE_CATEGORIES for f in CATEGORIES[c])
_SPLIT: dict = {}


def merge_readings(items: list) -> list:
    """Merge the readings (public tags, see _public) of each form into one record per form, lemma,
    non-alternative features and paradigm."""
    groups: dict = {}
    out = []
    public = _PUBLIC
    for it in items:
        if not isinstance(it, Reading):
            out.append(it)
            continue
        tag = public.get(it.tag)
        if tag is None:
            tag = _public_tag(it.tag)
        fixed = _SPLIT.get(tag)
        if fixed is None:
            fixed = _SPLIT[tag] = tuple(f for f in tag if f not in _ALTERNATIVE)
        key = (it.form, it.lemma, fixed, it.rule)
        g = groups.get(key)
        if g is None:
            groups[key] = [tag]
        else:
            g.append(tag)
    for (form, lemma, _fixed, par), tags in groups.items():
        if len(tags) == 1:
            out.append(Reading(form, lemma, tags[0], par))
            continue
        out.append(Reading(form, lemma, _tag(*tags), par))  # the cached sorted union of the tags
    return out


_FROZEN: dict = {}


def _to_records(items: list[tuple]) -> Iterator[ExpandedForm | Rejection]:
    frozen = _FROZEN
    for it, source, line in items:
        if isinstance(it, Reading):
            tag = frozen.get(it.tag)
            if tag is None:
                tag = frozen[it.tag] = frozenset(it.tag)
            yield ExpandedForm(it.form, it.lemma, tag, it.rule)
        else:
            yield Rejection(it.item, it.reason, source, line, it.detail)


def _batches(entries: Iterable[HeadwordEntry], dic: CzechDictionary, headwords: bool,
             stats: Counter | None = None):
    """Batches of (line word, flags, model, kept lemmas, source, line); `stats` counts the headwords
    inflected by analogy."""
    for chunk in chunked(entries, CHUNK):
        out = []
        for e in chunk:
            resolved = _resolve(e, dic, headwords)
            if stats is not None and resolved[0][2] is not None:
                stats["guessed"] += 1
            for lemma, flags, model, keep in resolved:
                out.append((lemma, flags, model, keep, e.source, e.line))
        yield out


def _warm(dic: CzechDictionary, headwords: bool):
    """Load the paradigm tables and the dictionary's indexes once in the parent, so that forked worker
    processes share them instead of each building its own copy."""
    def warm() -> None:
        from . import tables as irregular
        from .tagger import tables
        dic.warm(headwords)
        tables()
        irregular.paradigm_for("být")
        irregular.readings_of("být")
    return warm


def expand_headwords(entries: Iterable[HeadwordEntry], dic: CzechDictionary, *, workers: int = 1,
                     headwords: bool = False) -> Iterator[ExpandedForm | Rejection]:
    """Expand Czech headwords into tagged forms; yields Rejection for what is excluded (with the reason).
    `dic`: the dictionary that says how to inflect a headword without flags (its lines' flags, or by
    analogy with its words), and whose flagless lines give context to the flagless ones. `headwords`:
    the entries are a headword list (see _resolve), not the lines of `dic` itself."""
    for items in ordered_map(_work, _batches(entries, dic, headwords), workers=workers, initializer=_init,
                             initargs=(dic,), before_fork=_warm(dic, headwords)):
        yield from _to_records(items)


def expand_lemma(lemma: str, dic: CzechDictionary, flags: str | None = None) -> list[ExpandedForm | Rejection]:
    """Convenience for tests and tools: forms of one headword (flags looked up in `dic` if omitted)."""
    e = HeadwordEntry(lemma=lemma, source="dictionary" if flags is not None else "headwords", line=0, flags=flags)
    return list(expand_headwords([e], dic, headwords=flags is None))


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


def _init_judge(judge, log: bool, dic: CzechDictionary) -> None:
    global _JUDGE, _LOG, _DIC
    _JUDGE, _LOG, _DIC = judge, log, dic
    reset_tagsets()


def _judge_batch(batch: list[tuple]):
    gc.disable()
    try:
        return _judge_batch1(batch, _DIC)
    finally:
        gc.enable()


def _judge_batch1(batch, dic: CzechDictionary):
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

    for lemma, flags, model, keep, source, line in batch:
        where = f"{source}:{line}"
        if flags is None:
            out.append(("R", lemma, "unclassified", source, line))
            continue
        items = _expand_one(lemma, flags, model, keep, dic)
        if len(items) == 1 and isinstance(items[0], Rejection) and items[0].item == lemma:
            out.append(("R", lemma, items[0].reason, source, line))
            continue
        groups: dict[str, dict[str, set]] = {}
        for it in items:
            if not isinstance(it, Reading):
                rej(it.item, it.reason, where, it.detail)
                continue
            form, head, tagt, _par = it.form, it.lemma, it.tag, it.rule
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
            pair = (v[2], rule if model is None else _par)
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


def expand_judged(entries: Iterable[HeadwordEntry], judge, dic: CzechDictionary, *, workers: int | None = None,
                  log: bool = False, stats: Counter | None = None, headwords: bool = False):
    """Expansion and per-form judging in worker processes (the compiler's fast path, same protocol as
    build_tools.expand_pl.expand_judged). Yields one result tuple per batch of headwords, in order.
    `dic` as for expand_headwords; `stats["guessed"]` counts the headwords inflected by analogy."""
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    yield from ordered_map(_judge_batch, _batches(entries, dic, headwords, stats), workers=workers,
                           initializer=_init_judge, initargs=(judge, log, dic), before_fork=_warm(dic, headwords))
