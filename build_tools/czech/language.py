"""The Czech language of ``lexicon-build`` (build_tools/cli.py runs its passes): the paradigm engine
(build_tools.czech) over Hunspell stems and flags; headword lists are inflected with the paradigm
source (--paradigms)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from build_tools.errors import BuildError
from build_tools.pipeline import Pass
from build_tools.sources import check_text_source, hunspell_entries

from .build import CzechBuild, CzechSourceError
from .driver import czech_pass
from .place_rules import derivation_text

ENCODING = "utf-8"      # the Czech engine reads a .dic and its .aff as UTF-8, whatever SET says


class Czech:
    """Czech: the paradigm engine (build_tools.czech) over Hunspell stems and flags; headword
    lists are inflected with the paradigm source (--paradigms)."""

    hunspell_encoding = ENCODING

    def __init__(self, args, manifest_sources: list) -> None:
        if args.models:
            raise BuildError("--models is for Polish builds (Czech: --paradigms)")
        try:
            self.czech = CzechBuild(args.paradigms)
        except CzechSourceError as exc:
            raise BuildError(str(exc)) from None
        if args.paradigms:
            check_text_source("hunspell", args.paradigms, ENCODING)
        if args.headwords:
            manifest_sources.extend(self.czech.paradigm_manifest())

    def builder_info(self) -> dict:
        return {"czech_engine": self.czech.engine_manifest()}

    def release(self) -> None:
        pass

    def headwords(self, compiler, entries, builder: dict) -> Iterator[Pass]:
        self.czech.use_paradigms()
        yield self._pass(entries)

    def hunspell(self, compiler, dic: Path, stream) -> Iterator[Pass]:
        # the .dic's lines as the dictionary read them (each file is read once a build)
        lines = self.czech.use_dictionary(dic)
        yield self._pass(stream(hunspell_entries(dic.name, lines)))

    def _pass(self, entries) -> Pass:
        czech = self.czech
        return Pass(*czech_pass(entries, czech.dictionary, stats=czech.stats, headwords=czech.headwords))

    def finish(self, compiler) -> Iterator[Pass]:
        return iter(())

    def refusal_details(self, headwords) -> dict[str, str]:
        """What explain adds to a refusal of each headword: the place name and derivation of a
        place-name adjective (place_rules.derivation_text); headwords with nothing to add left out."""
        dic = self.czech.dictionary
        if dic is None:
            return {}
        texts = {head: derivation_text(head, dic) for head in headwords}
        return {head: text for head, text in texts.items() if text}

    def counts(self, compiler) -> dict:
        return {"guessed_headwords": self.czech.stats["guessed"]}

