"""Run the expander over many headwords, in worker processes when asked."""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Iterator

from ..model import ExpandedForm, HeadwordEntry, Reading, Rejection
from ..pipeline import Expansion, Item, Language, expand_only
from ..tags import ALTERNATIVE_CATEGORIES, CATEGORIES
from .dictionary import CzechDictionary
from .expand import _tag, expand_entry
from .links import linked_headwords
from .guess import GUESSED, guess_flags, guessed_comparative, pos_fits
from .comparatives import comparative_candidates
from .tables import verb_links_of
from . import tables as irregular
from .tagger import split_mixed, tables, word_class

CHUNK = 4000


def _resolve(entry: HeadwordEntry, dic: CzechDictionary, headwords: bool = False, linked: dict | None = None
             ) -> list[tuple[str, str | None, str | None, frozenset | None]]:
    """[(line word, flags or None when unclassifiable, model word when the flags are guessed, the lemmas
    whose readings are kept or None for all)]: one per line of the lemma in `dic` (all homonymous
    lines), or flags guessed by analogy. `headwords` (a headword list, not a dictionary's own lines):
    also the lines the engine files under the lemma (`linked`: links.linked_headwords of `dic`) and the
    adjective's comparative; and a line gives only the forms of its own word (`kept`): the words its
    flags derive (zelený/K -> zelenost, zelený/N -> nezelený) are headwords of their own, admitted when
    the list holds them (seed 004: a negative adjective only when it is a headword itself)."""
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
        out = [(lemma, guessed[0], guessed[1], frozenset((lemma,)) if headwords else None)]
        if headwords and word_class(lemma, guessed[0]) == "adj":
            cmpr = guessed_comparative(lemma, dic)
            if cmpr is not None:
                out.append((cmpr[0], cmpr[1], cmpr[2], frozenset((cmpr[0],))))
        return out
    if entry.pos:
        parts = [p for f in flags for p in split_mixed(lemma, f)]
        fit = [f for f in parts if pos_fits(lemma, f, entry.pos)]
        flags = fit or flags
    out = [(lemma, f, None, frozenset((lemma,)) if headwords else None) for f in flags]
    if headwords:
        for word, f in linked.get(lemma, ()):
            keep = frozenset((lemma,) if verb_links_of(word, dic) else (lemma, word))
            out.append((word, f, None, keep))
        if lemma.endswith(("ý", "í")) and any(word_class(lemma, f) == "adj" for f in flags):
            for cand in comparative_candidates(lemma):
                for f in dic.flags_of(cand) or ():
                    if cand != lemma and word_class(cand, f) == "adj":
                        out.append((cand, f, None, frozenset((cand,))))
    return out


# The dictionary of the expansion running in this process: set by the pool initializer (_init), which
# receives it as an argument (inherited by forked workers, pickled as its paths elsewhere).
_DIC: CzechDictionary | None = None


def _init(dic: CzechDictionary) -> None:
    global _DIC
    _DIC = dic


def _expand_one(lemma: str, flags: str, model: str | None, keep: frozenset | None,
                dic: CzechDictionary) -> list[Reading | Rejection]:
    items = kept(expand_entry(lemma, flags, dic), keep)
    if model is not None:
        items = mark_guessed(items, model)
    return merge_readings(items)


VERBAL = frozenset(("V", "V.PTCP", "V.CVB"))


def kept(items: list, keep: frozenset | None) -> list:
    """A headword-list line's items (`keep`: the lemmas whose readings it gives; None: a dictionary's
    own line, every reading): readings of those lemmas, without the negatives of non-verbs (nezelený,
    nezeleně: a headword of its own; a verb's negative forms are its forms)."""
    if keep is None:
        return items
    return [it for it in items if not isinstance(it, Reading)
            or (it.lemma in keep and ("NEG" not in it.tag or not VERBAL.isdisjoint(it.tag)))]


def mark_guessed(items: list, model: str) -> list:
    """Readings of a headword inflected by analogy: GUESSED in the tag, the rule "guessed" (the build
    records the model word in the lexicon's models table)."""
    return [Reading(it.form, it.lemma, _tag(it.tag, (GUESSED,)), "guessed")
            if isinstance(it, Reading) else it for it in items]


# Internal register markers of the engine -> the common vocabulary: colloquial variants (nesem,
# kupujou) carry the same tag as the standard form; bookish long infinitives (nésti) are ARCH.
_PUBLIC: dict = {}


def _public_tag(tag: tuple) -> tuple:
    t = _PUBLIC.get(tag)
    if t is None:
        t = _PUBLIC[tag] = tuple(sorted({"ARCH" if f == "LIT" else f for f in tag if f != "COL"}))
    return t


# One record per form and non-alternative features: the readings of a syncretic form (ženy: GEN SG,
# NOM/ACC/VOC PL) go into one tag whose case/number/gender/... features are alternatives, as
# build_tools/tags.py defines (readings_of spells them out). Halves the records the compiler admits or refuses.
_ALTERNATIVE = frozenset(f for c in ALTERNATIVE_CATEGORIES for f in CATEGORIES[c])
_SPLIT: dict = {}


def merge_readings(items: list) -> list:
    """Merge the readings (public tags, see _public_tag) of each form into one record per form, lemma,
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


def _to_records(results) -> Iterator[ExpandedForm | Rejection]:
    """(item, Expansion) of the Czech pass -> ExpandedForm and Rejection records."""
    frozen = _FROZEN
    for (lemma, source, line, _data), exp in results:
        if exp.reason:
            detail = ("not in the paradigm source and no paradigm by analogy" if exp.reason == "unclassified"
                      else "")
            yield Rejection(lemma, exp.reason, source, line, detail)
            continue
        for it in exp.readings:
            if isinstance(it, Reading):
                tag = frozen.get(it.tag)
                if tag is None:
                    tag = frozen[it.tag] = frozenset(it.tag)
                yield ExpandedForm(it.form, it.lemma, tag, it.rule)
            else:
                yield Rejection(it.item, it.reason, source, line, it.detail)


def _warm(dic: CzechDictionary, headwords: bool):
    """Load the paradigm tables and the dictionary's indexes once in the parent, so that forked worker
    processes share them instead of each building its own copy."""
    def warm() -> None:
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
    items, lang = czech_pass(entries, dic, headwords=headwords)
    yield from _to_records(expand_only(items, lang, workers=workers))


def expand_lemma(lemma: str, dic: CzechDictionary, flags: str | None = None) -> list[ExpandedForm | Rejection]:
    """Convenience for tests and tools: forms of one headword (flags looked up in `dic` if omitted)."""
    e = HeadwordEntry(lemma=lemma, source="dictionary" if flags is not None else "headwords", line=0, flags=flags)
    return list(expand_headwords([e], dic, headwords=flags is None))


# ------------------------------------------------------------------ the Czech pass of build_tools.pipeline
def _expand_line(item: Item) -> Expansion:
    """Worker: the readings of one resolved line (item: line word, source, line, (flags, model word,
    kept lemmas))."""
    lemma, _source, _line, (flags, model, keep) = item
    if flags is None:
        return Expansion(reason="unclassified")
    items = _expand_one(lemma, flags, model, keep, _DIC)
    if len(items) == 1 and isinstance(items[0], Rejection) and items[0].item == lemma:
        return Expansion(reason=items[0].reason)
    return Expansion(items, model=model)


def _items(entries: Iterable[HeadwordEntry], dic: CzechDictionary, headwords: bool,
           stats: Counter | None = None) -> Iterator[Item]:
    """The resolved lines of the entries (see _resolve); `stats["guessed"]` counts the headwords
    inflected by analogy."""
    linked = linked_headwords(dic) if headwords else None
    for e in entries:
        resolved = _resolve(e, dic, headwords, linked)
        if stats is not None and resolved[0][2] is not None:
            stats["guessed"] += 1
        for lemma, flags, model, keep in resolved:
            yield (lemma, e.source, e.line, (flags, model, keep))


def czech_pass(entries: Iterable[HeadwordEntry], dic: CzechDictionary, *, stats: Counter | None = None,
               headwords: bool = False) -> tuple[Iterator[Item], Language]:
    """The items and the pass for build_tools.pipeline: `dic` as for expand_headwords; a guessed
    line's readings keep their rule (guessed) in the lexicon, and its model word goes to the models table."""
    return (_items(entries, dic, headwords, stats),
            Language(_expand_line, _init, (dic,), before_fork=_warm(dic, headwords), chunk=CHUNK,
                     guessed_rule=True))
