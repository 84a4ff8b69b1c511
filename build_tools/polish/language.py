"""The Polish language of ``lexicon-build`` (build_tools/cli.py runs its passes): SGJP (Morfeusz 2)
expands the headwords; a Hunspell entry gets SGJP's paradigm, or a paradigm guessed by analogy and
corroborated by its affix forms; headwords SGJP lacks are inflected by analogy once every list's
SGJP lemmas are in (they are the models). What the passes share (the witness, the .dic entries,
the models) lives on the ``Polish`` value for one build."""

from __future__ import annotations

import gc
from itertools import chain
from pathlib import Path
from typing import Iterator

from build_tools.errors import BuildError
from build_tools.hunspell import read_aff
from build_tools.model import HeadwordEntry
from build_tools.pipeline import Pass
from build_tools.sources import aff_path_for, check_text_source, hunspell_files, read_hunspell, manifest_entry

from . import sgjp
from .guess import Models
from .models import read_models
from .passes import guess_pass, headword_pass, hunspell_pass
from .witness import hunspell_words


class Polish:
    """Polish: the passes over headword lists and Hunspell dictionaries, and what they share."""

    hunspell_encoding = None        # a .dic and its .aff are read in the encoding the .aff declares

    def __init__(self, args, manifest_sources: list) -> None:
        self.dics = [Path(d) for d in args.hunspell]
        self.paradigms = _polish_paradigms(args, manifest_sources)   # (.aff, stem -> entries) or None
        self._workers = args.workers
        self._attested = None
        self._reads: dict[Path, tuple] = {}     # .dic -> (its .aff, its entries): read once a build
        self._affix_forms: dict[Path, list] = {}   # .dic -> its entries' affix forms (the witness's)
        self._models = None                     # the guessing models made last (guess.Models)
        self.given = _given_models(args, manifest_sources)     # --models (models.GivenModels)
        self._hinted = False
        self.notes: list[str] = []  # printed after a build that writes its lexicon

    def _dic(self, dic: Path) -> tuple:
        """(.aff, entries) of a .dic for the witness: the entries as an iterator that reads the
        file while the witness's workers expand what it has read, and keeps them for the
        Hunspell pass."""
        read = self._reads.get(dic)
        if read is not None:
            return read[0], iter(read[1])
        aff = read_aff(aff_path_for(dic))
        entries: list = []
        self._reads[dic] = (aff, entries)

        def kept():
            for e in read_hunspell(dic, aff):
                entries.append(e)
                yield e
        return aff, kept()

    def attested(self):
        """The words of the build's Hunspell dictionaries, the second witness of SGJP's forms
        (witness.hunspell_words); None without one."""
        if self.dics and self._attested is None:
            per_dic: list = []
            self._attested = hunspell_words(self.dics, reads=[self._dic(d) for d in self.dics],
                                            workers=self._workers, entry_forms=per_dic)
            self._affix_forms = dict(zip(self.dics, per_dic))
            # millions of strings that live until the build ends: out of the collector's sight,
            # here and in the forked workers (each full collection would walk them)
            gc.freeze()
        return self._attested

    def builder_info(self) -> dict:
        return {}

    def release(self) -> None:
        """Let go of what the passes shared (the witness, the .dic entries, the models)."""
        self._attested = None
        self._reads.clear()
        self._affix_forms.clear()
        self._models = None

    def headwords(self, compiler, entries, builder: dict) -> Iterator[Pass]:
        builder.update(builder_info())
        items = ((e.lemma, e.source, e.line, e.pos) for e in entries)
        yield Pass(items, headword_pass(compiler.admission, self.attested()), compiler.unknown_headwords)

    def _entry_models(self, compiler, flags_of: dict):
        """(the lemmas expanded so far, the models for guessing a Hunspell entry's paradigm): those
        lemmas, and the --models lemmas, with the entry dictionary's flags."""
        done = frozenset(h for h in compiler.heads if h not in compiler.models)
        lemmas = done | self.given.lemmas if self.given is not None else done
        return done, Models(lemmas, flags_of, like=self._models)

    def hunspell(self, compiler, dic: Path, stream) -> Iterator[Pass]:
        yield from self.finish(compiler)
        attested = self.attested()             # before the entries are let go: it reads them too
        aff, read = self._reads.pop(Path(dic), None) or _read_polish_dic(Path(dic))
        flags_of, stems = _dic_index(read)
        done, models = self._entry_models(compiler, flags_of)
        self._hint(len(models))
        affix_forms = self._affix_forms.pop(Path(dic), None)     # the witness's, one per entry
        # The entries go to the workers in the order of their endings, each entry of a stem in
        # file order: a word is guessed after models that share its ending, so a worker then
        # meets the same models chunk after chunk and makes each model's paradigm about once,
        # not once per worker (the lexicon does not depend on the order; the report's examples
        # and the --rejected log list these entries in this order)
        entries = [e for e in read if isinstance(e, HeadwordEntry)]
        order = sorted(range(len(entries)), key=[e.lemma[::-1] for e in entries].__getitem__)
        read = [e for e in read if not isinstance(e, HeadwordEntry)] + [entries[i] for i in order]
        del entries
        if affix_forms is not None:     # the item's last field: where its affix forms are
            index = iter(order)
            items = ((e.lemma, e.source, e.line, e.flags, next(index)) for e in stream(read))
        else:
            items = ((e.lemma, e.source, e.line, e.flags) for e in stream(read))
        yield Pass(items, hunspell_pass(compiler.admission, aff, models, done, keys=compiler.keys,
                                        stems=frozenset(stems), attested=attested,
                                        affix_forms=affix_forms))

    def finish(self, compiler) -> Iterator[Pass]:
        """Headwords SGJP does not know, inflected by analogy (passes.guess_headword)."""
        unknown, compiler.unknown_headwords = compiler.unknown_headwords, []
        if unknown:
            models = self._models = Models(chain((h for h in compiler.heads if h not in compiler.models),
                                                 self.given.lemmas if self.given is not None else ()))
            self._hint(len(models))
            if self.paradigms is not None:
                unknown = yield from self._with_paradigms(compiler, unknown)
            items = ((e.lemma, e.source, e.line, e.pos) for e in unknown)
            yield Pass(items, guess_pass(compiler.admission, models))

    def _with_paradigms(self, compiler, unknown: list):
        """Headwords SGJP does not know that the --paradigms dictionary holds with flags: inflected as
        its entry would be (a paradigm guessed by analogy and corroborated by the entry's affix
        forms), with the headword list's line as the source; the dictionary's other entries give
        nothing. Returns the headwords it does not hold (guessed from the headword alone)."""
        aff, by_stem = self.paradigms
        held, rest = [], []
        for e in unknown:
            entries = by_stem.get(e.lemma)
            (held if entries else rest).append((e, entries))
        if held:
            done, models = self._entry_models(compiler, {stem: es[0].flags for stem, es in by_stem.items()})
            items = ((e.lemma, e.source, e.line, entry.flags) for e, entries in held for entry in entries)
            yield Pass(items, hunspell_pass(compiler.admission, aff, models, done, keys=compiler.keys,
                                            stems=frozenset(by_stem)))
        return [e for e, _ in rest]

    def counts(self, compiler) -> dict:
        counts = {"guessed_headwords": len(compiler.models)} if compiler.models else {}
        if self.given is not None:
            counts.update(models=len(self.given.lemmas), models_not_used=self.given.not_used)
        return counts

    def _hint(self, n_models: int) -> None:
        """Few models and no --models: say how to guess from more (not an error)."""
        if self.given is None and n_models < FEW_MODELS and not self._hinted:
            self._hinted = True  # said once the lexicon is written (a refused build says only why: cli.py)
            self.notes.append(f"lexicon-build: note: words SGJP does not know are inflected by analogy with only "
                              f"{n_models} model{'' if n_models == 1 else 's'} (the build's own SGJP lemmas); pass "
                              f"--models default (the shipped headwords.txt, wherever the package is installed; the "
                              f"same as --models data/pl/headwords.txt in a checkout) to take models from a larger "
                              f"list")


FEW_MODELS = 50_000     # fewer analogy models than this: --models is suggested (docs/measurements.md)


def _polish_paradigms(args, manifest_sources: list):
    """The --paradigms dictionary of a Polish build, recorded in the manifest: (its .aff, stem ->
    its flagged entries); None without --paradigms."""
    if not args.paradigms:
        return None
    dic = Path(args.paradigms)
    aff_path = hunspell_files(dic, "paradigm source")
    check_text_source("hunspell", dic)
    for kind, p in (("paradigms", dic), ("paradigms-aff", aff_path)):
        manifest_sources.append(manifest_entry(kind, p))
    aff, read = _read_polish_dic(dic)
    by_stem: dict[str, list] = {}
    for e in read:
        if isinstance(e, HeadwordEntry) and e.flags:
            by_stem.setdefault(e.lemma, []).append(e)
    return aff, by_stem


def _given_models(args, manifest_sources: list):
    """The --models files (checked as text, recorded in the manifest) read into their SGJP
    lemmas (models.read_models); None without --models."""
    if not args.models:
        return None
    for f in args.models:
        p = Path(f)
        if not p.is_file():
            raise BuildError(f"--models {f}: " + ("not a file" if p.exists() else "no such file"))
        check_text_source("models", p)
        manifest_sources.append(manifest_entry("models", p))
    builder_info()          # morfeusz2 is there (or a one-line error)
    return read_models(args.models, workers=args.workers)


def _read_polish_dic(dic: Path):
    """A Polish .dic: (its .aff, its entries)."""
    aff = read_aff(aff_path_for(dic))
    return aff, list(read_hunspell(dic, aff))


def _dic_index(read: list) -> tuple[dict, set]:
    """stem -> flags, and the stems, of a .dic's entries."""
    flags_of: dict[str, str] = {}
    stems = set()
    for e in read:
        if isinstance(e, HeadwordEntry):
            stems.add(e.lemma)
            if e.flags:
                flags_of[e.lemma] = e.flags
    return flags_of, stems


def builder_info() -> dict:
    """The manifest's record of the expander (sgjp.versions), or a one-line error without morfeusz2."""
    try:
        return sgjp.versions()
    except Exception as exc:  # reported by the expander itself
        raise BuildError(f"Polish expansion needs morfeusz2 (pip install morfeusz2): {exc}") from None
