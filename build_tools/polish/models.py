"""Analogy models given to a Polish build (``lexicon-build --models FILE``).

A headword SGJP does not know is inflected like the SGJP lemma it resembles most (guess.py). The
models are the SGJP lemmas the build itself expanded, plus the SGJP lemmas of the ``--models``
files: a headword list (``lemma`` or ``lemma<TAB>pos``; the part of speech is not used). A
model's own forms are not admitted: a model only lends its paradigm. A line that is no SGJP
lemma (Morfeusz 2 generates no form of it as a lemma of its own), a capitalised one (a proper
name: no model) or a malformed line is counted and not used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, NamedTuple

from build_tools.model import Rejection
from build_tools.parallel import chunked, ordered_map
from build_tools.sources import read_headwords

from .sgjp import analyse, generate

EXAMPLES = 4
EXAMPLE_CHARS = 40      # an example line is cut to this (a hostile file may hold a line of megabytes)


class GivenModels(NamedTuple):
    lemmas: frozenset[str]      # the SGJP lemmas of the files
    entries: int                # lines read (blank lines and comments not counted)
    not_used: int               # lines that give no model
    examples: tuple[str, ...]   # some of them, as "word (file:line)"


def sgjp_lemma(word: str) -> bool:
    """Is the word an SGJP lemma of a common word, one the guesser can take as a model?"""
    if not word.isalpha() or not word.islower():
        return False
    try:
        # analysis is cheap and finds most lemmas; generation (what a model's paradigm is made
        # of, guess.paradigms) decides the rest (SGJP analyses nieusłyszenie as a form of usłyszeć)
        if any(a[2][2] != "ign" and a[2][1].split(":", 1)[0] == word for a in analyse(word)):
            return True
        return any(r[2] != "ign" and r[1].split(":", 1)[0] == word for r in generate(word))
    except Exception:       # Morfeusz raises on odd input (several words): no model
        return False


def _known(words: list[str]) -> list[bool]:
    return [sgjp_lemma(w) for w in words]


def _cut(text: str) -> str:
    return text if len(text) <= EXAMPLE_CHARS else text[:EXAMPLE_CHARS] + "…"


def read_models(paths: Iterable[str | Path], workers: int = 1) -> GivenModels:
    """The SGJP lemmas of the headword lists ``paths`` (checked as text by the caller), with
    what they hold besides, Morfeusz run over chunks of them in ``workers`` processes."""
    entries: list[tuple[str, str]] = []     # (lemma, where)
    bad: list[str] = []
    for path in paths:
        for e in read_headwords(path):
            if e.__class__ is Rejection:
                bad.append(f"{_cut(e.item)} ({e.source}:{e.line})")
            else:
                entries.append((e.lemma, f"{e.source}:{e.line}"))
    words = [w for w, _where in entries]
    known: list[bool] = []
    for part in ordered_map(_known, chunked(words, 5000), workers=max(1, workers)):
        known += part
    unknown = [f"{_cut(w)} ({where})" for (w, where), ok in zip(entries, known) if not ok]
    return GivenModels(frozenset(w for w, ok in zip(words, known) if ok), len(entries) + len(bad),
                       len(unknown) + len(bad), tuple((unknown + bad)[:EXAMPLES]))
