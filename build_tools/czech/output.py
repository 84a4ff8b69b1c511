"""What the word-class expanders share: the items they produce, cached tags, the ne-/nej- prefix split.

Items: `Reading(form, lemma, tag, rule)` for an inflected form (tag: a sorted feature tuple; rule: the
paradigm step), `Rejection(item, reason, detail=...)` for something excluded (build_tools/model.py).
"""

from __future__ import annotations

from ..model import Reading, Rejection
from .tagger import PREFIX_TAGS

_TAGS: dict = {}
_NOUN_TAGS: dict = {}
_ADJ_TAGS: dict = {}


def _tag(*parts) -> tuple[str, ...]:
    """The sorted union of feature tuples (cached: tags repeat a lot)."""
    key = parts
    t = _TAGS.get(key)
    if t is None:
        s = set()
        for p in parts:
            s.update(p)
        t = _TAGS[key] = tuple(sorted(s))
    return t


def _future(tag: frozenset) -> frozenset:
    """A present-tense tag as the future (ponesu of nést)."""
    return tag - {"PRS"} | {"FUT"} if "PRS" in tag else tag


class Output:
    """The items of one dictionary line, in order; `paradigm` names the line's class and flags."""

    __slots__ = ("items", "paradigm", "seen")

    def __init__(self, paradigm: str) -> None:
        self.items: list[tuple] = []
        self.paradigm = paradigm
        self.seen: set = set()

    def emit(self, form, lem, tag, par=None) -> None:
        # duplicates are harmless: the driver merges the readings of a form (merge_readings)
        self.items.append(Reading(form, lem, tag, self.paradigm if par is None else par))

    def reject(self, form, reason, detail="") -> None:
        key = (form, reason)
        if key not in self.seen:
            self.seen.add(key)
            self.items.append(Rejection(form, reason, detail=detail))


def split_prefix(form, chain):
    """(prefix features, the form without the ne-/nej- prefix, the suffix rules) of an affix chain."""
    if chain and chain[0].kind == "PFX":
        p = chain[0]
        return PREFIX_TAGS.get(p.add, ()), form[len(p.add):], chain[1:]
    return (), form, chain


def emit_ost(emit, reject, form, base, r1, lemma, ptags):
    """-ost nouns derived from adjectives by flag K/C (mladý -> mladost, toxický -> toxičnost)."""
    i = base.rfind("ost")
    stem = base[: i + 3]
    noun = stem if not ptags else form[: len(form) - len(base)] + stem
    end = base[i + 3:]
    slots = {"": (("NOM", "SG"), ("ACC", "SG")), "i": (("GEN", "SG"), ("DAT", "SG"), ("ESS", "SG"), ("VOC", "SG"), ("NOM", "PL"), ("ACC", "PL"), ("VOC", "PL")),
             "í": (("INS", "SG"), ("GEN", "PL")), "em": (("DAT", "PL"),), "ech": (("ESS", "PL"),), "mi": (("INS", "PL"),)}.get(end)
    if not slots:
        reject(form, "untagged-form", f"{lemma} -ost")
        return
    for s in slots:
        emit(form, noun, _tag(("N", "FEM"), s, ptags), "noun/kost")


