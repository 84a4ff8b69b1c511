"""Compile stage: admitted tile keys with provenance -> the lexicon's tables and tries.

``FormJudge`` is the per-form check that ``build_tools/pipeline.py`` runs in the worker processes
for every reading of every source; ``Compiler`` accumulates what it admits (``add_judged_ids``)
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

from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, TextIO

from build_tools.model import Rejection
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
    forms_rejected_only: int = 0            # distinct forms rejected and never admitted

    def reject(self, item: str, reason: str, where: str = "", detail: str = "",
               log: TextIO | None = None) -> None:
        self.rejected_by_reason[reason] += 1
        ex = self.examples.setdefault(reason, [])
        if len(ex) < EXAMPLES_PER_REASON:
            ex.append(f"{item} ({where}{': ' + detail if detail else ''})" if where or detail else item)
        if log is not None:
            log.write(f"{item}\t{reason}\t{where}\t{detail}\n")


class FormJudge:
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

    def judge(self, form: str, tag: frozenset, fixed_rule: str | None = None) -> tuple[str | None, str]:
        """(tile key, rule name) when admitted, (None, rejection reason) otherwise."""
        profile = self.profile
        if fixed_rule is None:
            ok, rule = profile.judge_tag(tag)
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
        self.judge = FormJudge(profile, tile_set)
        self.report = BuildReport()
        self.log = rejected_log
        self.keys: dict[str, int | list[int]] = {}
        self.heads: dict[str, int] = {}
        self.tags: dict[str, int] = {}
        self.tag_list: list[str] = []
        self.rules: dict[str, int] = {}
        self.tagsets: dict[tuple, int] = {}
        self.tagset_list: list[tuple] = []
        self._pairs_cache: dict[tuple, int] = {}
        self._rejected_forms: set[str] = set()
        # headword -> the lemma whose paradigm it was inflected after (Polish guesses)
        self.models: dict[str, str] = {}
        self.unknown_headwords: list = []     # Polish headwords SGJP lacks, guessed last

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

    def _add_records(self, head: str, key_sids) -> None:
        """Record (headword, tag set) for each (tile key, tag-set id); a key keeps every distinct record."""
        hid = self.heads.get(head)
        if hid is None:
            hid = self.heads[head] = len(self.heads)
        hid <<= 32
        keys = self.keys
        for key, sid in key_sids:
            rec = hid | sid
            old = keys.get(key)
            if old is None:
                keys[key] = rec
            elif old.__class__ is int:
                if old != rec:
                    keys[key] = [old, rec]
            elif rec not in old:
                old.append(rec)

    def tagset_id(self, pairs: tuple) -> int:
        """The id of a sorted tuple of (tag text, rule name) pairs."""
        return self._tagset_id(pairs)

    def add_judged_ids(self, head: str, items, ids: dict) -> None:
        """Admitted forms of one headword, (tile key, a worker's tag-set id): ``ids`` maps a worker's
        tag-set ids to the compiler's (build_tools/pipeline.merge)."""
        self._add_records(head, ((key, ids[local]) for key, local in items))

    def add_rejection_counts(self, counts: dict, examples: dict, forms, log_lines) -> None:
        """Rejections aggregated by a worker: counts by reason, a few examples, the forms."""
        report = self.report
        report.rejected_by_reason.update(counts)
        for reason, exs in examples.items():
            have = report.examples.setdefault(reason, [])
            for e in exs:
                if len(have) < EXAMPLES_PER_REASON:
                    have.append(e)
        self._rejected_forms.update(forms)
        if self.log is not None:
            self.log.writelines(log_lines)

    # --- output -------------------------------------------------------------------------------
    def finish(self):
        """-> (forms trie, headwords trie, tables dict, readings bytes, number of records)."""
        import marisa_trie

        M = 0xFFFFFFFF
        keys = self.keys
        forms = marisa_trie.Trie(keys.keys())
        heads = marisa_trie.Trie(self.heads.keys())
        head_map = [0] * len(self.heads)
        for head, old in self.heads.items():
            head_map[old] = heads[head] << 32
        n = len(forms)
        by_kid: list = [None] * n
        for key, kid in forms.iteritems():
            by_kid[kid] = keys[key]
        # Canonical numbering (a function of the final tables only, never of the order in which
        # tag sets were met: that order follows set iteration in the expanders, which varies with
        # the hash seed of each process, and the worker count): rules in profile order (others
        # by name), tags by text, tag sets by their (tag id, rule id) pairs.
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
        best_count = [0] * len(order)
        offsets = array("I", [0])
        records = array("Q")
        total = 0
        for recs in by_kid:
            if recs.__class__ is int:
                sid = sid_new[recs & M]
                records.append(head_map[recs >> 32] | sid)
                total += 1
                best_count[ts_rank[sid]] += 1
            else:
                rs = sorted(head_map[r >> 32] | sid_new[r & M] for r in recs)
                records.extend(rs)
                total += len(rs)
                best_count[min(ts_rank[r & M] for r in rs)] += 1
            offsets.append(total)
        del by_kid
        tables = {"tags": tag_names, "rules": rule_names,
                  "tagsets": [[list(p) for p in ts] for ts in tagset_list]}
        if self.models:
            tables["models"] = dict(sorted(self.models.items()))
        report = self.report
        report.forms = n
        report.headwords_expanded = len(self.heads)
        by_rule = Counter()
        names_by_rank = sorted(order, key=order.get)
        for rank, count in enumerate(best_count):
            if count:
                by_rule[names_by_rank[rank]] += count
        report.admitted_by_rule = by_rule
        report.forms_rejected_only = sum(1 for f in self._rejected_forms
                                         if f not in keys and f.lower() not in keys)
        self.keys = {}
        return forms, heads, tables, offsets.tobytes() + records.tobytes(), total
