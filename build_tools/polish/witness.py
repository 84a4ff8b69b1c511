"""Hunspell as the second witness of SGJP's forms in a Polish build: every word a Hunspell
dictionary makes (``hunspell_words``; ``paradigms.expand_lemma`` marks an SGJP form it lacks
UNATTESTED), and each entry's affix forms, which the Hunspell pass reuses instead of expanding
every entry again."""

from __future__ import annotations

from itertools import chain
from typing import Iterable

from build_tools.hunspell import expand_word, read_aff
from build_tools.model import HeadwordEntry
from build_tools.parallel import chunked, ordered_map
from build_tools.sources import aff_path_for, read_hunspell

def hunspell_words(dics: Iterable, *, reads: list | None = None, workers: int = 1,
                   entry_forms: list | None = None) -> set[str]:
    """Every lowercase word the Hunspell dictionaries DICS make (stems and affix forms): the
    witness against which ``expand_lemma`` marks SGJP forms UNATTESTED. ``reads``: per dic, its
    (.aff, entries), if the caller reads them (the entries may be an iterator: it is read while
    the workers expand what was read before); ``workers``: processes that expand the entries in
    chunks (call it with no thread but the caller's running, as for any fork); ``entry_forms``:
    a list that gets, per dic, the affix forms of each of its entries in order
    (``entry_affix_forms``: the Hunspell pass takes them instead of expanding every entry again)."""
    words: set[str] = set()
    update = words.update
    for i, dic in enumerate(dics):
        if reads is not None:
            aff, entries = reads[i]
        else:
            aff = read_aff(aff_path_for(dic))
            entries = read_hunspell(dic, aff)
        stems: list[str] = []

        def entry_stems(entries=entries, stems=stems):
            for e in entries:
                if isinstance(e, HeadwordEntry):
                    stems.append(e.lemma)
                    yield e.lemma, e.flags

        per_entry: list = []
        for part in ordered_map(_forms_of_stems, chunked(entry_stems(), 5000), workers=workers,
                                initializer=_set_words_aff, initargs=(aff,)):
            per_entry += part
            update(chain.from_iterable(part))
        update(filter(str.islower, filter(str.isalpha, stems)))
        if entry_forms is not None:
            entry_forms.append(per_entry)
    return words        # not copied into a frozenset: millions of words, read-only from here on


# The .aff of the dictionary ``hunspell_words`` is expanding, in each of its workers (set by the
# map's initialiser: the chunks are sent to the workers, the .aff is not sent with each)
_WORDS_AFF: list = [None]


def _set_words_aff(aff) -> None:
    _WORDS_AFF[0] = aff


def entry_affix_forms(stem: str, flags: str | None, aff) -> tuple[str, ...]:
    """The lowercase words Hunspell makes of one .dic entry (its stem only where the flags allow
    it bare), each once, in the order made."""
    return tuple(dict.fromkeys(f for f in expand_word(stem, aff.split_flags(flags or ""), aff)
                               if f.isalpha() and f.islower()))


def _forms_of_stems(stems: list) -> list[tuple[str, ...]]:
    """``entry_affix_forms`` of each of a chunk of (stem, flags) (``hunspell_words``)."""
    aff = _WORDS_AFF[0]
    return [entry_affix_forms(stem, flags, aff) for stem, flags in stems]

