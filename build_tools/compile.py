"""Compile stage: admitted tile keys with provenance -> the lexicon's tables and tries.

``FormAdmission`` is the per-form check that ``build_tools/pipeline.py`` runs in the worker processes
for every reading of every source; ``Compiler`` accumulates what it admits (``add_admitted_flat``)
and the rejections, and ``finish`` numbers everything canonically. The checks, in this order
(the first failing check is the rejection reason):

1. the profile's tag rules (``profiles.py``): a form with no admitted reading is rejected with the
   name of the deny rule (``proper-name``, ``abbreviation``, ``unknown-lemma``, ...). Plain word
   list forms skip this step (rule ``word-list``: ``pipeline.Language.untagged_rule``);
2. ``capitalised``: a form with an uppercase letter (a proper name even if no tag says so);
3. ``non-letter`` (hyphen, apostrophe, digit, space...), ``letter-not-in-profile``;
4. the tile key (``rule_set.tile_set.key_of_text``): ``letter-not-in-alphabet``;
5. the length in tiles: ``too-short``, ``too-long``.

Every rejection is counted by reason; examples are kept for the report and, with
``rejected_log``, every rejection is written out (form, reason, headword, source:line).
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import signal
import tempfile
from array import array
from collections import Counter
from itertools import chain, compress, islice, repeat
from operator import and_, lshift, ne, or_, rshift
from dataclasses import dataclass, field
from typing import Callable, TextIO

import marisa_trie


from lexicon_service.lexicon_format import HEADWORD_SHIFT, TAGSET_MASK, pack_readings

from build_tools.model import Rejection
from build_tools.parallel import may_fork
from build_tools.profiles import Profile
from build_tools.tags import format_tag

EXAMPLES_PER_REASON = 8


@dataclass
class BuildReport:
    headwords: int = 0                      # headword entries read
    headwords_expanded: int = 0             # ... that produced forms
    readings_in: int = 0                    # expanded forms considered
    readings_admitted: int = 0
    admitted_by_rule: Counter = field(default_factory=Counter)   # distinct forms by first rule
    rejected_by_reason: Counter = field(default_factory=Counter)  # readings / input lines
    examples: dict = field(default_factory=dict)                  # reason -> [text]
    forms: int = 0
    forms_rejected_only: int | None = None  # distinct forms rejected and never admitted (counted
                                            # only with a rejection log)

    def reject(self, item: str, reason: str, where: str = "", detail: str = "",
               log: TextIO | None = None) -> None:
        self.rejected_by_reason[reason] += 1
        ex = self.examples.setdefault(reason, [])
        if len(ex) < EXAMPLES_PER_REASON:
            ex.append(f"{item} ({where}{': ' + detail if detail else ''})" if where or detail else item)
        if log is not None:
            log.write(f"{item}\t{reason}\t{where}\t{detail}\n")


class FormAdmission:
    """The per-form checks of the compile stage (see the module doc), usable in worker processes."""

    def __init__(self, profile: Profile, tile_set) -> None:
        self.profile = profile
        self.tile_set = tile_set
        self.keyfn = self._make_key_fn()
        self._tag_text: dict[frozenset, str] = {}

    def __getstate__(self):
        return {"profile": self.profile, "tile_set": self.tile_set}

    def __setstate__(self, state):
        self.__init__(state["profile"], state["tile_set"])

    def _make_key_fn(self) -> Callable[[str], str]:
        ts = self.tile_set
        self.identity_letters = None
        if not ts.multi_letter_tiles:
            try:
                letters = frozenset(ch.lower() for ch in ts.letters if len(ch) == 1)
                probe = "".join(sorted(letters))
                if ts.key_of_text(probe) == probe:
                    # forms made only of these letters are their own tile keys
                    # lowercase letters only, so that the fast path needs no islower/isalpha
                    fast = frozenset(ch for ch in letters if ch.isalpha() and ch.islower())
                    pl = self.profile.letters
                    self.identity_letters = fast if pl is None else fast & pl
                    def fast(form: str, _letters=letters, _slow=ts.key_of_text) -> str:
                        return form if _letters.issuperset(form) else _slow(form)
                    return fast
            except Exception:
                pass
        return ts.key_of_text

    def tag_text(self, tag: frozenset) -> str:
        t = self._tag_text.get(tag)
        if t is None:
            t = self._tag_text[tag] = format_tag(tag)
        return t

    def admit(self, form: str, tag: frozenset, fixed_rule: str | None = None) -> tuple[str | None, str]:
        """(tile key, rule name) when admitted, (None, rejection reason) otherwise."""
        profile = self.profile
        if fixed_rule is None:
            ok, rule = profile.admit_tag(tag)
            if not ok:
                return None, rule
        else:
            rule = fixed_rule
        if not form.islower():
            return None, "capitalised"
        if not form.isalpha():
            return None, "non-letter"
        letters = profile.letters
        if letters is not None and not letters.issuperset(form):
            return None, "letter-not-in-profile"
        try:
            key = self.keyfn(form)
        except ValueError:
            return None, "letter-not-in-alphabet"
        n = len(key)
        if n < profile.min_length:
            return None, "too-short"
        if n > profile.max_length:
            return None, "too-long"
        return key, rule


class Compiler:
    """Accumulates admitted forms (as tile keys) and their readings."""

    def __init__(self, profile: Profile, tile_set, *, rejected_log: TextIO | None = None) -> None:
        self.profile = profile
        self.tile_set = tile_set
        self.admission = FormAdmission(profile, tile_set)
        self.report = BuildReport()
        self.log = rejected_log
        # tile key -> its first record (headword id << 32 | tag-set id); every other record of a
        # key is at the same place in extra_keys and extra_recs
        self.keys: dict[str, int] = {}
        self.extra_keys: list[str] = []
        self.extra_recs: list[int] = []
        self.heads: dict[str, int] = {}
        self.tags: dict[str, int] = {}
        self.tag_list: list[str] = []
        self.rules: dict[str, int] = {}
        self.tagsets: dict[tuple, int] = {}
        self.tagset_list: list[tuple] = []
        self._pairs_cache: dict[tuple, int] = {}
        # the distinct rejected forms are kept (and counted in the summary) only with a rejection log
        self.count_rejected = rejected_log is not None
        self._rejected_forms: set[str] = set()
        # headword -> the lemma whose paradigm it was inflected after (Polish guesses)
        self.models: dict[str, str] = {}
        self.unknown_headwords: list = []     # Polish headwords SGJP lacks, guessed last
        # tile key -> {(rule, headword)} refused by a named profile rule (kept for refused.tsv: the
        # ones no reading admits)
        self.refused: dict[str, set] = {}

    # --- helpers ------------------------------------------------------------------------------
    def _tag_id(self, tagtext: str) -> int:
        tid = self.tags.get(tagtext)
        if tid is None:
            tid = self.tags[tagtext] = len(self.tag_list)
            self.tag_list.append(tagtext)
        return tid

    def _rule_id(self, name: str) -> int:
        rid = self.rules.get(name)
        if rid is None:
            rid = self.rules[name] = len(self.rules)
        return rid

    def _tagset_id(self, pairs: tuple) -> int:
        """pairs: sorted tuple of (tag text, rule name)."""
        sid = self._pairs_cache.get(pairs)
        if sid is None:
            ids = tuple(sorted((self._tag_id(t), self._rule_id(r)) for t, r in pairs))
            sid = self.tagsets.get(ids)
            if sid is None:
                sid = self.tagsets[ids] = len(self.tagset_list)
                self.tagset_list.append(ids)
            self._pairs_cache[pairs] = sid
        return sid

    # --- input --------------------------------------------------------------------------------
    def add_rejection(self, rej: Rejection) -> None:
        where = f"{rej.source}:{rej.line}" if rej.source else ""
        self.report.reject(rej.item, rej.reason, where, rej.detail, self.log)

    def _add_keyed(self, keys: list, recs: list) -> None:
        """keys[i] gets the record recs[i]: the first record of a key in ``self.keys``, any other in
        ``self.extra_*`` (duplicates there are dropped by finish). C-level maps: millions of keys."""
        first = list(map(self.keys.setdefault, keys, recs))
        if first != recs:
            other = list(map(ne, first, recs))
            self.extra_keys.extend(compress(keys, other))
            self.extra_recs.extend(compress(recs, other))

    def add_admitted_flat(self, heads: list, sizes: list, keys: list, sids) -> None:
        """heads[i] admitted the next sizes[i] of ``keys``, each with the tag-set id at the same place
        of ``sids`` (the flat form of a pipeline.ChunkResult)."""
        hmap = self.heads
        hids = []
        for head in heads:
            hid = hmap.get(head)
            if hid is None:
                hid = hmap[head] = len(hmap)
            hids.append(hid << HEADWORD_SHIFT)
        self._add_keyed(keys, list(map(or_, chain.from_iterable(map(repeat, hids, sizes)), sids)))

    def tagset_id(self, pairs: tuple) -> int:
        """The id of a sorted tuple of (tag text, rule name) pairs."""
        return self._tagset_id(pairs)

    def add_rejection_counts(self, counts: dict, examples: dict, forms, log_lines) -> None:
        """Rejections aggregated by a worker: counts by reason, a few examples, the forms."""
        report = self.report
        report.rejected_by_reason.update(counts)
        for reason, exs in examples.items():
            have = report.examples.setdefault(reason, [])
            for e in exs:
                if len(have) < EXAMPLES_PER_REASON:
                    have.append(e)
        if self.count_rejected:
            self._rejected_forms.update(forms)
        if self.log is not None:
            self.log.writelines(log_lines)

    def add_refusals(self, refused) -> None:
        """(tile key, rule, headword) of readings refused by a named rule of the profile."""
        add = self.refused.setdefault
        for key, rule, head in refused:
            add(key, set()).add((rule, head))

    # --- output -------------------------------------------------------------------------------
    def finish(self, meanwhile: Callable[[dict], None] | None = None):
        """-> (forms trie, headwords trie, tables dict, readings bytes, number of records).
        ``meanwhile(tables)``: the caller's work while the forms trie is built (a child process's)."""
        M = TAGSET_MASK
        keys = self.keys
        # the forms trie and the id of each key are built in a forked process meanwhile (C++ work
        # that holds the GIL: a thread would not overlap with the renumbering below)
        job = _FormsTrie(keys, self.extra_keys)
        try:
            heads = marisa_trie.Trie(self.heads)
            # the compiler's ids are insertion order: old id -> trie id, shifted into place
            head_map = [h << HEADWORD_SHIFT for h in map(heads.key_id, self.heads)]
            order, rule_names, tag_names, tagset_list, sid_new, ts_rank = self._canonical_numbering()
            # every key's first record renumbered (in the dict's order), by C-level maps; the keys
            # with several records (self.extra_*) are patched in below
            first = list(keys.values())
            sids = list(map(sid_new.__getitem__, map(and_, first, repeat(M))))
            first = list(map(or_, map(head_map.__getitem__, map(rshift, first, repeat(HEADWORD_SHIFT))), sids))
            best = Counter(map(ts_rank.__getitem__, sids))
            del sids
            # the other records renumbered too, while the child still builds the trie
            erecs = self.extra_recs
            new = list(map(or_, map(head_map.__getitem__, map(rshift, erecs, repeat(HEADWORD_SHIFT))),
                           map(sid_new.__getitem__, map(and_, erecs, repeat(M)))))
            tables = {"tags": tag_names, "rules": rule_names,
                      "tagsets": [[list(p) for p in ts] for ts in tagset_list]}
            if self.models:
                tables["models"] = dict(sorted(self.models.items()))
            if meanwhile is not None:
                meanwhile(tables)
            forms, kids, ekids = job.result()
        finally:
            job.close()
        n = len(forms)
        records: list = [0] * n
        for kid, rec in zip(kids, first):
            records[kid] = rec
        del first, kids
        lengths = None
        if self.extra_keys:
            records, lengths = _with_extra_records(records, ekids, new, ts_rank, best)
        total = len(records)
        readings = pack_readings(lengths, records)
        del records
        self._report_forms(n, order, best, keys)
        self.refused = {k: v for k, v in self.refused.items() if k not in keys}
        self.keys, self.extra_keys, self.extra_recs = {}, [], []
        return forms, heads, tables, readings, total

    def _canonical_numbering(self) -> tuple[dict, list, list, list, list, list]:
        """(rank of each rule name, rule names, tag names, tag sets, new id of each tag-set id, rank of
        each new tag set's best rule). Canonical numbering (a function of the final tables only, never
        of the order in which tag sets were met: that order follows set iteration in the expanders,
        which varies with the hash seed of each process, and the worker count): rules in profile
        order (others by name), tags by text, tag sets by their (tag id, rule id) pairs."""
        order = {r.name: i for i, r in enumerate(self.profile.rules)}
        for name in sorted(n for n in self.rules if n not in order):
            order[name] = len(order)
        rule_names = sorted(self.rules, key=order.get)
        rule_new = [0] * len(rule_names)
        for new, name in enumerate(rule_names):
            rule_new[self.rules[name]] = new
        tag_names = sorted(self.tag_list)
        tag_index = {t: i for i, t in enumerate(tag_names)}
        tag_new = [tag_index[t] for t in self.tag_list]
        canon = [tuple(sorted((tag_new[t], rule_new[r]) for t, r in ts)) for ts in self.tagset_list]
        ts_order = sorted(range(len(canon)), key=canon.__getitem__)
        sid_new = [0] * len(canon)
        for new, old in enumerate(ts_order):
            sid_new[old] = new
        tagset_list = [canon[old] for old in ts_order]
        rule_rank = [order[name] for name in rule_names]
        ts_rank = [min(rule_rank[rid] for _t, rid in ts) for ts in tagset_list]
        return order, rule_names, tag_names, tagset_list, sid_new, ts_rank

    def _report_forms(self, n: int, order: dict, best: Counter, keys: dict) -> None:
        """The report's counts of a finished lexicon: forms, headwords, forms by best rule, and (with
        rejected forms counted) the rejected forms not in the lexicon."""
        report = self.report
        report.forms = n
        report.headwords_expanded = len(self.heads)
        names_by_rank = sorted(order, key=order.get)
        report.admitted_by_rule = Counter({names_by_rank[rank]: count for rank, count in best.items() if count})
        if self.count_rejected:
            rest = self._rejected_forms
            rest.difference_update(keys)
            report.forms_rejected_only = len(rest) - sum(map(keys.__contains__, map(str.lower, rest)))


def _with_extra_records(records: list, ekids: list, new: list, ts_rank: list, best: Counter
                        ) -> tuple[list, list]:
    """The records of every form in form order with the extra records (``new``, of the forms
    ``ekids``) merged in, and the number of records of each form; ``best`` (forms by the rank of
    their best rule) corrected for the forms with several."""
    M = TAGSET_MASK
    n = len(records)
    # (form id << 64 | new record) of every record of the forms with several, sorted: by
    # form, then by record; C-level maps again (a Polish lexicon has ~450,000 such forms)
    multi = set(ekids)
    both = set(map(or_, map(lshift, ekids, repeat(64)), new))
    both.update(map(or_, map(lshift, multi, repeat(64)), map(records.__getitem__, multi)))
    both = sorted(both)
    mkids = list(map(rshift, both, repeat(64)))
    mrecs = list(map(and_, both, repeat((1 << 64) - 1)))
    per_kid = Counter(mkids)          # in form order
    # a form counts for its best rule: the lowest rank of its records (the last value a
    # dict keeps from a descending sort of form << 16 | rank)
    ranked = sorted(map(or_, map(lshift, mkids, repeat(16)),
                        map(ts_rank.__getitem__, map(and_, mrecs, repeat(M)))), reverse=True)
    best.subtract(map(ts_rank.__getitem__, map(and_, map(records.__getitem__, multi), repeat(M))))
    best.update(dict(zip(map(rshift, ranked, repeat(16)), map(and_, ranked, repeat(0xFFFF)))).values())
    lengths = [1] * n
    flat: list = []
    start = pos = 0
    for kid, count in per_kid.items():
        lengths[kid] = count
        flat += records[start:kid]
        flat += mrecs[pos:pos + count]
        pos += count
        start = kid + 1
    flat += records[start:]
    return flat, lengths


class _FormsTrie:
    """The forms trie and the trie id of every key (then of every extra key), built in a forked
    process when there is fork and no other thread runs, here otherwise (or when that process fails).
    Once the trie is saved the child looks up the first part of the keys and this process
    (``result``) the rest."""

    def __init__(self, keys: dict, extra_keys: list) -> None:
        self.keys, self.extra_keys = keys, extra_keys
        self.pid = None
        self.dir = None
        self.ready = None           # read end of the pipe on which the child says "trie saved"
        # the child's share of the lookups: about half of them all
        self.split = (len(keys) + len(extra_keys)) // 2 if len(keys) > len(extra_keys) else len(keys)
        if not hasattr(os, "fork") or not may_fork("the forms trie's process"):
            return
        try:
            self.dir = tempfile.mkdtemp(prefix="lexicon-build-trie-")
            ready, told = os.pipe()
            pid = os.fork()
        except OSError:
            return                      # no temporary directory or no process: built here
        if pid == 0:                    # the child: only C-level work, then _exit
            code = 1
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle
                gc.disable()
                os.close(ready)
                forms = _trie(keys)
                forms.save(os.path.join(self.dir, "forms.marisa"))
                os.write(told, b"1")
                os.close(told)
                ids = array("I", map(forms.key_id, islice(keys, self.split)))
                with open(os.path.join(self.dir, "ids"), "wb") as fh:
                    ids.tofile(fh)
                code = 0
            finally:
                os._exit(code)
        os.close(told)
        self.pid, self.ready = pid, ready

    def result(self):
        """(forms trie, trie id of each key in dict order, trie id of each extra key)."""
        if self.pid is not None:
            pid, self.pid = self.pid, None
            saved = False
            with contextlib.suppress(OSError):
                saved = os.read(self.ready, 1) == b"1"
            forms = None
            if saved:
                forms = marisa_trie.Trie().load(os.path.join(self.dir, "forms.marisa"))
                rest = array("I", map(forms.key_id, islice(self.keys, self.split, None)))
                eids = array("I", map(forms.key_id, self.extra_keys))
            _, status = os.waitpid(pid, 0)
            if forms is not None and len(forms) == len(self.keys):
                ids = array("I")
                if status == 0:
                    with open(os.path.join(self.dir, "ids"), "rb") as fh:
                        ids.frombytes(fh.read())
                if len(ids) != self.split:
                    ids = array("I", map(forms.key_id, islice(self.keys, self.split)))
                ids.extend(rest)
                return forms, ids, eids
        forms = _trie(self.keys)
        return forms, list(map(forms.key_id, self.keys)), list(map(forms.key_id, self.extra_keys))

    def close(self) -> None:
        """Stop the child if it still runs (the build was interrupted) and remove its files."""
        if self.pid is not None:
            pid, self.pid = self.pid, None
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
        if self.ready is not None:
            with contextlib.suppress(OSError):
                os.close(self.ready)
            self.ready = None
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)


def _trie(keys):
    return marisa_trie.Trie(keys)
