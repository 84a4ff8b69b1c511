"""The Polish passes of a build (``build_tools/pipeline.py`` runs each: an expand function per item
in worker processes, one Morfeusz per process): SGJP's paradigm of each headword
(``headword_pass``), each Hunspell entry with SGJP as the authority (``hunspell_pass``,
``hunspell_entry_forms``), and the headwords SGJP does not know, inflected by analogy
(``guess_pass``). What a pass's workers read is one value, its ``PassState``, handed to the
expand function (forked workers share it); no pass leaves state behind for another."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import partial
from itertools import filterfalse
from operator import itemgetter
from typing import Iterable, Iterator

from build_tools.model import ExpandedForm, HeadwordEntry, Rejection
from build_tools.pipeline import Expansion, Item, Language, expand_only
from build_tools.tags import COMMON_NAME_CLASSES

from . import guess as guessing
from .paradigms import _BY_ENDINGS, SKIPPED, expand_lemma
from .sgjp import analyse, dotted_abbreviations, pos_class
from .witness import entry_affix_forms

CHUNK = 500


@dataclass
class PassState:
    """What the workers of one Polish pass read. ``max_len``: nie- forms longer than the
    profile's maximum are not built; ``attested``: the witness (``witness.hunspell_words``), or
    None; ``models``: the guessing models (guess.Models); the Hunspell pass's: ``aff`` (its
    .dic's affix file), ``done`` (the lemmas already expanded), ``keys`` (the forms admitted so
    far), ``stems`` (every stem of the .dic), ``affix_forms`` (the witness's affix forms of each
    entry) and ``endings``, the ENDING-letter endings of ``keys`` (made once: before the workers
    fork, or on first use)."""

    max_len: int | None = None
    attested: set | None = None
    models: object = None
    aff: object = None
    done: frozenset = frozenset()
    keys: object = None
    stems: frozenset = frozenset()
    affix_forms: list | None = None
    endings: set | None = None


_HUNSPELL_TAG = frozenset({"HUNSPELL"})
# SGJP readings that make a form no word by themselves: abbreviations, combining forms
_NOT_A_WORD = ("brev", "adja")


ENDING = 3      # letters of a word's ending that an affix-only form must share with a real form


def _endings(state: PassState, made) -> tuple[set, set]:
    """The ENDING-letter endings of the forms admitted so far (the whole lexicon's, computed
    once per process when the pass has the lexicon's keys), and those of ``made`` (kept
    apart: no copy of the lexicon's per entry)."""
    keys = state.keys
    if keys and state.endings is None:
        _add_endings(state)
    own = {f[-ENDING:] for f in made} if made is not keys else set()
    return state.endings if state.endings is not None else set(), own


def _add_endings(state: PassState) -> None:
    """The endings of the lexicon's forms (``_endings``) into the pass's state: in the parent
    before the workers fork (computed once, not in every worker), or in the worker itself."""
    keys = state.keys
    if keys and state.endings is None:
        state.endings = set(map(itemgetter(slice(-ENDING, None)), keys))


def affix_only_forms(state: PassState, stem: str, hforms: set, made) -> list:
    """The Hunspell affix forms of a stem SGJP knows that its SGJP paradigm does not make (a
    genitive plural abisalów, a passive participle beczany, an imperative bluźń), tagged
    HUNSPELL: ``made`` holds the forms already made. A form SGJP analyses as an
    abbreviation, a combining form or an incorrect form stays out (SGJP's verdict on it stands),
    so does a nie- form (negation is the build's rule) and a form whose last ENDING letters
    end no form made so far (kotm).
    How many of them the game list holds: docs/measurements.md."""
    out = []
    endings = None
    for f in sorted(hforms):
        if f == stem or f in made:
            continue
        if endings is None:
            endings, own = _endings(state, made)
        end = f[-ENDING:]
        if end not in endings and end not in own:
            continue        # no word the lexicon has ends so (kot/B + m: kotm)
        if f.startswith("nie") and not stem.startswith("nie"):
            continue        # negation is SGJP's and the build's rule (nie- forms: 13% listed)
        try:
            ana = [a[2] for a in analyse(f) if a[2][2] != "ign"]
        except Exception:
            ana = []
        if any(a[2].startswith(_NOT_A_WORD) or any("niepopr" in q for q in a[4]) for a in ana):
            continue
        out.append((f, stem, _HUNSPELL_TAG, "hunspell"))
    return out


_BY_HOST_POS = frozenset({"conj", "comp", "qub", "part", "adv"})


def listed_by_form(stem: str) -> list:
    """An unflagged .dic entry that SGJP reads only as a particle, conjunction or adverb + the
    conditional -by (+ a person ending): alboby, cobym, ależbyś. The build does not make -by
    forms on such hosts itself (see ``_by_forms``), but an entry sjp.pl lists one by one is
    admitted as a fused form (ależbyś: ależ + by + ś), most of them on the game list
    (docs/measurements.md)."""
    head, sep, ending = stem.rpartition("by")
    if not sep or not head or ending not in _BY_ENDINGS:
        return []
    try:
        ana = analyse(stem)
    except Exception:
        return []
    first = [a for a in ana if a[0] == 0]
    later = [a for a in ana if a[0] > 0]
    if not later or any(a[2][2].split(":", 1)[0] not in _BY_HOST_POS for a in first):
        return []
    if not any(a[2][0] == "by" for a in later):
        return []
    return [(stem, stem, _BY_ENDINGS[ending], "fused-by")]


def hunspell_entry_forms(stem: str, flags: str | None, state: PassState,
                         affix_forms: tuple | None = None):
    """The forms of one Polish Hunspell entry, SGJP's paradigm being the authority:
    ([(form, headword, tag, paradigm)], rejection reason or None, model lemma or None).

    - a stem SGJP knows as a lemma: its SGJP forms (none when a --headwords list already
      expanded it: reason ``known-to-sgjp``); Hunspell's own affix forms are never admitted;
    - a stem SGJP knows only as an abbreviation (np, itd, mbar is not one: see below):
      ``abbreviation``; an unflagged stem SGJP knows as a form of another lemma:
      ``known-to-sgjp`` (that lemma's paradigm decides);
    - otherwise (SGJP: ``ign``, or a flagged stem that is only another lemma's form) the
      paradigm is guessed by analogy (guess.py), corroborated by the entry's affix forms
      (``affix_forms``: the entry's ``entry_affix_forms`` when the caller has them)."""
    max_len = state.max_len
    if not stem[:1].islower():
        return [], "capitalised", None
    if not flags:
        fused = listed_by_form(stem)
        if fused:
            return fused, None, None
    done = stem in state.done
    if done and not flags:
        return [], "known-to-sgjp", None
    hforms = set(affix_forms if affix_forms is not None else entry_affix_forms(stem, flags, state.aff))
    keys = state.keys
    if done:
        # expanded from a headword list; a homograph of another class (SGJP's noun acani,
        # sjp.pl's adjective acani) shows as few of the entry's forms in the lexicon
        if keys is None or len(hforms) < 2:
            extra = affix_only_forms(state, stem, hforms, keys or ())
            return (extra, None, None) if extra else ([], "known-to-sgjp", None)
        # each form looked up in the lexicon once (a dict of millions: the lookups cost)
        missing = set(filterfalse(keys.__contains__, hforms))
        if guessing.CORROBORATION * len(hforms) <= len(hforms) - len(missing):
            extra = affix_only_forms(state, stem, missing, keys)    # the forms in the lexicon it skips
            return (extra, None, None) if extra else ([], "known-to-sgjp", None)

    try:
        ana = [a for a in analyse(stem) if a[0] == 0 and a[1] == 1 and a[2][2] != "ign"]
    except Exception:
        ana = []
    sgjp = None
    if done:
        sgjp = [], "known-to-sgjp", None
    elif any(a[2][1].split(":", 1)[0] == stem for a in ana):      # SGJP has this lemma
        forms, reason = expand_lemma(stem, None, max_len, attested=state.attested)
        # SGJP's lemma is this entry's lemma unless it is a homograph of another class
        # (SGJP's noun acani beside sjp.pl's adjective acani): then its paradigm makes
        # few of the entry's forms, and the entry is guessed like an unknown word (SGJP's
        # paradigm still, if no model is corroborated)
        sgjp = forms, reason, None
        made = {f for f, *_ in forms}
        if reason or len(hforms) < 2 or guessing.CORROBORATION * len(hforms) <= len(made & hforms):
            if reason:
                return sgjp
            return forms + affix_only_forms(state, stem, hforms, made), None, None
    if ana and all(a[2][2].startswith("brev") for a in ana):
        return [], "abbreviation", None
    if not ana and not flags and dotted_abbreviations([stem]):    # np, itd: SGJP knows "np."
        return [], "abbreviation", None
    if not flags and any(COMMON_NAME_CLASSES.issuperset(a[2][3]) for a in ana):
        return [], "known-to-sgjp", None
    if not hforms:
        return [], "no-forms", None
    model, results = guessing.guess(stem, state.models, flags=flags, hforms=hforms,
                                    listed=state.stems or frozenset())
    if model is None:
        return sgjp or ([], results, None)
    # the guessed paradigm is tagged by the witness too (as an SGJP lemma's would be)
    forms, reason = expand_lemma(stem, None, max_len, results=results, attested=state.attested)
    return forms, reason, model


def guess_headword(lemma: str, pos: str | None, models, max_len: int | None = None):
    """A headword-list entry SGJP does not know, inflected by analogy with ``models`` (guess.py,
    the models' vote): (forms, rejection reason or None, model lemma or None). No witness: most
    such headwords are no .dic word at all."""
    if not lemma.isalpha() or not lemma.islower():
        return [], "unknown-lemma", None         # capitalised: a proper name SGJP lacks
    want = pos_class(pos)
    if want == "?":
        return [], "unknown-pos", None
    model, results = guessing.guess(lemma, models, want_class=want)
    if model is None:
        return [], "unknown-lemma", None
    forms, reason = expand_lemma(lemma, None, max_len, results=results)
    return forms, reason, model



# --- the worker-side expand functions (each given its pass's state) ----------------------------
def _expansion(forms, reason, model=None) -> Expansion:
    skipped, SKIPPED["too-long"] = SKIPPED["too-long"], 0
    return Expansion(forms, reason, model, skipped)


def _expand_headword(state: PassState, item: Item) -> Expansion:
    SKIPPED["too-long"] = 0
    forms, reason = expand_lemma(item[0], item[3], state.max_len, attested=state.attested)
    return _expansion(forms, reason)


def _guess_headword(state: PassState, item: Item) -> Expansion:
    SKIPPED["too-long"] = 0
    return _expansion(*guess_headword(item[0], item[3], state.models, state.max_len))


def _hunspell_entry(state: PassState, item: Item) -> Expansion:
    SKIPPED["too-long"] = 0
    # item[4], when there: where the entry's affix forms are in the pass's list (made once, for
    # the witness: hunspell_words; forked workers share the list)
    return _expansion(*hunspell_entry_forms(item[0], item[3], state,
                                            state.affix_forms[item[4]] if len(item) > 4 else None))


def _max_len(admission) -> int | None:
    return admission.profile.max_length if not admission.tile_set.multi_letter_tiles else None


def headword_pass(admission, attested: set[str] | None = None) -> Language:
    """SGJP's paradigm of each headword (item: lemma, source, line, part of speech or None).
    ``attested``: the words of the build's Hunspell dictionaries (``hunspell_words``), if any."""
    state = PassState(_max_len(admission), attested=attested)
    return Language(partial(_expand_headword, state), chunk=CHUNK)


def guess_pass(admission, models) -> Language:
    """Headwords SGJP does not know, inflected by analogy (``guess_headword``)."""
    return Language(partial(_guess_headword, PassState(_max_len(admission), models=models)), chunk=CHUNK)


def hunspell_pass(admission, aff, models, done, *, keys=None, stems=frozenset(), attested=None,
                  affix_forms: list | None = None) -> Language:
    """Polish Hunspell entries (``hunspell_entry_forms``; item: stem, source, line, flags, and
    with ``affix_forms`` (the entries' ``entry_affix_forms``) the entry's index in it). ``done``: lemmas
    already expanded; ``keys``: the forms admitted so far (forked workers share it); ``stems``:
    every stem of the .dic (they attest parts of guessed paradigms); ``attested``: as for
    ``headword_pass``."""
    state = PassState(_max_len(admission), attested=attested, models=models, aff=aff, done=done, keys=keys,
                      stems=stems, affix_forms=affix_forms)
    return Language(partial(_hunspell_entry, state), chunk=CHUNK, before_fork=partial(_add_endings, state))


def expand_headwords(entries: Iterable[HeadwordEntry], *, workers: int | None = None
                     ) -> Iterator[ExpandedForm | Rejection]:
    """SGJP's paradigms of the headwords, neither admitted nor refused (for tools and tests; docs/architecture.md): the
    headword pass run by ``pipeline.expand_only``, in input order."""
    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    items = ((e.lemma, e.source, e.line, e.pos) for e in entries)
    lang = Language(partial(_expand_headword, PassState()), chunk=CHUNK)
    for (lemma, source, line, _pos), exp in expand_only(items, lang, workers=workers):
        if exp.reason:
            yield Rejection(lemma, exp.reason, source, line)
            continue
        for r in exp.readings:
            if r.__class__ is tuple:
                form, head, tag, para = r
                yield ExpandedForm(form, head, frozenset(tag), para)
            else:
                yield Rejection(r.item, r.reason, source, line, r.detail)
