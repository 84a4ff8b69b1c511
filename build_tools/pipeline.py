"""Expand and admit: the build's one loop from entries to admitted tile keys.

A language provides only an expand function, ``expand(item) -> Expansion`` (its readings, or the
reason the whole entry is rejected), plus a worker initialiser for its own state (the Czech
dictionary, Morfeusz, the Hunspell .aff and the guessing models). This module runs it over
chunks of items in worker processes (``parallel.ordered_map``), admits or refuses every reading there
by the profile's ``FormAdmission`` (profile tag rules, spelling, tile key; the common case inlined
once, here), interns the admitted tag sets and sends back one ``ChunkResult`` per chunk, which
``merge`` adds to the ``Compiler`` in the parent, in input order (builds stay deterministic).
"""

from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, NamedTuple

from build_tools.model import HeadwordEntry, Reading, Rejection
from build_tools.parallel import chunked, intern_tagset, ordered_map, reset_tagsets

EXAMPLES = 8


# An item, one unit of work, is a plain tuple (items and results cross process boundaries by the
# hundred thousand, and plain tuples pickle fastest): (lemma, source, line, the language's own data:
# Polish the part of speech or the Hunspell flags, Czech the flags, model word and kept lemmas),
# and whatever more the language's expand function takes (Polish: a Hunspell entry's affix forms).
Item = tuple


@dataclass(slots=True)
class Expansion:
    """What a language's expand function returns for one item."""

    # Reading (or the plain tuple of its four fields, cheaper by the million), or Rejection
    # for a form the expander excluded
    readings: Iterable = ()
    reason: str | None = None      # the item as a whole is rejected (unknown-lemma, unclassified, ...)
    model: str | None = None       # inflected by analogy with this lemma (provenance)
    skipped: int = 0               # forms not built because they would be too long


@dataclass(frozen=True)
class Language:
    """One expansion pass: the expand function and the state its workers need."""

    expand: Callable[[Item], Expansion]
    init: Callable | None = None          # worker initialiser of the language's state
    initargs: tuple = ()
    before_fork: Callable[[], None] | None = None   # load shared state once in the parent
    chunk: int = 500
    # A guessed item's model goes to the models table (explain: "guessed from <model>"). Czech: its
    # readings keep their own rule ("guessed") once the profile admits them; Polish: the profile's
    # rule (pl.profile: guessed GUESSED)
    guessed_rule: bool = False
    # Word lists: readings with no tag are admitted under this rule without the profile's tag rules
    # (the list is the authority); spelling and length are still checked
    untagged_rule: str | None = None
    # Run in this process whatever the worker count (word lists: admitting a line costs less than
    # sending it to a worker, and a build from a word list then forks nothing)
    in_process: bool = False


class Pass(NamedTuple):
    """One run of the build's one loop: the items of a source, the pass that expands them, and
    where items rejected as unknown-lemma wait for a later pass (Polish)."""

    items: Iterable
    language: Language
    defer: list | None = None


@dataclass(slots=True)
class ChunkResult:
    """The admitted forms and the rejections of one chunk, in input order.

    The admitted tile keys travel as flat lists (cheap to pickle, merged by C-level maps in
    ``Compiler.add_admitted_flat``): ``heads[i]`` admitted the next ``sizes[i]`` keys of ``keys``,
    whose tag sets are the worker-local ids at the same places in ``tagsets``."""

    heads: list = field(default_factory=list)
    sizes: list = field(default_factory=list)
    keys: list = field(default_factory=list)
    tagsets: list = field(default_factory=list)
    dropped: list = field(default_factory=list)      # (item, reason): items rejected as a whole, in order
    models: dict = field(default_factory=dict)       # lemma -> model lemma of guessed items (provenance)
    counts: dict = field(default_factory=dict)       # rejection reason -> readings
    examples: dict = field(default_factory=dict)     # reason -> a few texts for the report
    rejected: set = field(default_factory=set)       # the forms rejected (only with a rejection log)
    log_lines: list = field(default_factory=list)
    refused: list = field(default_factory=list)      # (tile key, rule, headword) refused by a named rule
    n_in: int = 0
    n_ok: int = 0
    pid: int = 0
    defs: list = field(default_factory=list)         # new worker-local tag-set ids (parallel.py)


@dataclass(frozen=True)
class _Worker:
    """What a worker admits readings with (made by _init in each worker, or in this process with one worker)."""

    admission: object
    log: bool
    lang: Language


def _init(admission, log: bool, lang: Language) -> _Worker:
    reset_tagsets()
    if lang.init is not None:
        lang.init(*lang.initargs)
    return _Worker(admission, log, lang)


def _work(worker: _Worker, chunk: list[Item]) -> ChunkResult:
    enabled = gc.isenabled()
    gc.disable()        # millions of small objects: generational GC would rescan them for nothing
    try:
        return _admit_chunk(chunk, worker.admission, worker.lang, worker.log)
    finally:
        if enabled:
            gc.enable()


# The common case of admitting a reading is inlined once, here (every reading of a build passes
# through this loop).
def _admit_chunk(chunk: list[Item], admission, lang: Language, log: bool) -> ChunkResult:
    res = ChunkResult(pid=os.getpid())
    counts, dropped = res.counts, res.dropped
    profile = admission.profile
    tag_text = admission.tag_text
    admit_form = admission.admit
    fast_letters = admission.identity_letters
    lo, hi = profile.min_length, profile.max_length
    guessed_rule = lang.guessed_rule
    expand = lang.expand
    reject = _rejecter(res, log)
    refusing, refused = profile.refusal_rules, res.refused
    verdicts = _first_verdicts(lang, tag_text)
    n_in = n_ok = 0
    for item in chunk:
        exp = expand(item)
        if exp.skipped:
            counts["too-long"] = counts.get("too-long", 0) + exp.skipped
            n_in += exp.skipped
        if exp.reason:
            dropped.append((item, exp.reason))
            continue
        own_rule = guessed_rule and exp.model is not None
        groups: dict[str, dict[str, tuple | set]] = {}
        for r in exp.readings:
            cls = r.__class__
            if cls is tuple:
                form, head, tag, own = r
            elif cls is Reading:
                form, head, tag, own = r.form, r.lemma, r.tag, r.rule
            else:
                reject(r.item, r.reason, item, r.detail)
                continue
            n_in += 1
            v = verdicts.get(tag)
            if v is None:
                ftag = frozenset(tag)
                ok, rule = profile.admit_tag(ftag)
                text = tag_text(ftag)
                v = verdicts[tag] = (ok, rule, text, ftag, (text, rule))
            if not v[0]:
                if v[1] in refusing:
                    key, _rule = admit_form(form, v[3], v[1])
                    if key is not None:
                        refused.append((key, v[1], head))
                reject(form, v[1], item, None, head)
                continue
            if fast_letters is not None and form and fast_letters.issuperset(form):
                if not lo <= len(form) <= hi:
                    # its own tile key, so FormAdmission.admit would say this (Polish: millions)
                    reject(form, "too-short" if len(form) < lo else "too-long", item, None, head)
                    continue
                key = form                      # the common case: the form is its own tile key
                pair = (v[2], own) if own_rule else v[4]
            else:
                key, rule = admit_form(form, v[3], v[1])
                if key is None:
                    reject(form, rule, item, None, head)
                    continue
                pair = (v[2], own if own_rule else rule)
            n_ok += 1
            local = groups.get(head)
            if local is None:
                local = groups[head] = {}
            s = local.get(key)
            if s is None:
                local[key] = pair               # one pair as itself, a set from the second on
            elif s.__class__ is tuple:
                if s != pair:
                    local[key] = {s, pair}
            else:
                s.add(pair)
        _add_groups(res, groups)
        if exp.model:
            # the item's lemma and every headword it produced were guessed from the model
            res.models[item[0]] = exp.model
            for h in groups:
                res.models[h] = exp.model
    res.n_in, res.n_ok = n_in, n_ok
    return res


def _first_verdicts(lang: Language, tag_text) -> dict:
    """The admitting loop's verdicts by tag (ok, rule, tag text, tag set, (text, rule)) it starts
    with: a word list's untagged readings admitted under its rule."""
    verdicts: dict = {}
    if lang.untagged_rule is not None:
        text = tag_text(frozenset())
        verdicts[()] = (True, lang.untagged_rule, text, frozenset(), (text, lang.untagged_rule))
    return verdicts


def _rejecter(res: ChunkResult, log: bool) -> Callable[..., None]:
    """``reject(form, reason, item, detail, head="")``: count a rejected form in ``res``, keep a few
    examples of each reason and, with a rejection log, the form and its log line."""
    counts, examples, rejected, log_lines = res.counts, res.examples, res.rejected, res.log_lines

    def reject(form: str, reason: str, item: Item, detail: str | None, head: str = "") -> None:
        # detail None: "headword <head>" unless the form is the headword (built only when shown)
        counts[reason] = counts.get(reason, 0) + 1
        ex = examples.get(reason)
        if ex is None:
            ex = examples[reason] = []
        if log:
            rejected.add(form)
        elif len(ex) >= EXAMPLES:
            return
        where = f"{item[1]}:{item[2]}"
        if detail is None:
            detail = f"headword {head}" if head != form else ""
        if len(ex) < EXAMPLES and not any(e.startswith(form + " ") for e in ex):
            ex.append(f"{form} ({where}{': ' + detail if detail else ''})")
        if log:
            log_lines.append(f"{form}\t{reason}\t{where}\t{detail}\n")

    return reject


def _add_groups(res: ChunkResult, groups: dict[str, dict]) -> None:
    """Add one item's admitted keys, by headword, to the flat lists of ``res``."""
    for h, local in groups.items():
        res.heads.append(h)
        res.sizes.append(len(local))
        res.keys.extend(local)
        res.tagsets.extend([intern_tagset(ps, res.defs) for ps in local.values()])


def expand_and_admit(items: Iterable[Item], admission, lang: Language, *, workers: int = 1,
                     log: bool = False) -> Iterable[ChunkResult]:
    """``lang.expand`` over ``items`` and the admission of every reading, in worker processes;
    one ChunkResult per chunk, in input order."""
    workers = 1 if lang.in_process else max(1, workers)
    return ordered_map(_work, chunked(items, lang.chunk), workers=workers, initializer=_init,
                       initargs=(admission, log, lang), before_fork=lang.before_fork, with_state=True)


def merge(compiler, results: Iterable[ChunkResult], defer: list | None = None) -> None:
    """Add chunk results to the compiler. ``defer``: items rejected as unknown-lemma go there
    (as HeadwordEntry, for a later pass) instead of the report."""
    report = compiler.report
    tagsets: dict[int, list[int]] = {}   # worker pid -> the compiler's id of each of its tag-set ids
    for res in results:
        report.readings_in += res.n_in
        report.readings_admitted += res.n_ok
        compiler.add_rejection_counts(res.counts, res.examples, res.rejected, res.log_lines)
        compiler.add_refusals(res.refused)
        ids = tagsets.setdefault(res.pid, [])
        for local_id, pairs in res.defs:
            if local_id >= len(ids):
                ids.extend([-1] * (local_id + 1 - len(ids)))
            ids[local_id] = compiler.tagset_id(pairs)
        for item, reason in res.dropped:
            lemma, source, line, extra = item[:4]
            if defer is not None and reason == "unknown-lemma":
                defer.append(HeadwordEntry(lemma, source, line, extra))
            else:
                compiler.add_rejection(Rejection(lemma, reason, source, line))
        compiler.add_admitted_flat(res.heads, res.sizes, res.keys, map(ids.__getitem__, res.tagsets))
        if res.models:
            compiler.models.update(res.models)


def run(compiler, items: Iterable[Item], lang: Language, *, workers: int = 1,
        defer: list | None = None) -> None:
    """Expand, admit and merge ``items`` into ``compiler``."""
    merge(compiler, expand_and_admit(items, compiler.admission, lang, workers=workers,
                                     log=compiler.log is not None), defer)


# --- expansion without admitting, for tools and tests (the languages' expand_headwords) ------------
def _init_expand(lang: Language) -> Language:
    if lang.init is not None:
        lang.init(*lang.initargs)
    return lang


def _expand_chunk(lang: Language, chunk: list[Item]) -> list[tuple[Item, Expansion]]:
    expand = lang.expand
    out = []
    for item in chunk:
        exp = expand(item)
        exp.readings = list(exp.readings)
        out.append((item, exp))
    return out


def expand_only(items: Iterable[Item], lang: Language, *, workers: int = 1) -> Iterator[tuple[Item, Expansion]]:
    """``lang.expand`` over ``items`` in the same worker pool as a build, without the admitting:
    (item, its Expansion) in input order."""
    for res in ordered_map(_expand_chunk, chunked(items, lang.chunk), workers=max(1, workers),
                           initializer=_init_expand, initargs=(lang,), before_fork=lang.before_fork,
                           with_state=True):
        yield from res
