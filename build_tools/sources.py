"""Sources: read input files into build records (stage 1 of read -> expand and admit -> compile -> save).

Each reader yields ``HeadwordEntry`` (headword lists and Hunspell stems, expanded by the
language's passes), ``Reading`` (word and tagged lists: forms already inflected) and
``Rejection`` (a bad line, with file and line number: a build never drops input silently).
Word and tagged lists go through ``build_tools/pipeline.py`` like every other source: their
items (``list_items``) are runs of readings, and their passes (``LIST_PASSES``) only hand them on
to be admitted or refused.

Before a build reads a source, `check_text_source` makes sure it is text in its encoding: a NUL
byte or an undecodable line stops the build with an error naming the file and line (a binary or
wrongly encoded file would otherwise build an empty or silently partial lexicon).

Formats (UTF-8, an optional byte-order mark ignored; blank lines and lines starting with ``#`` are skipped; a trailing CR is ignored):

- word list (``--words``): one inflected form per line (an all-capitals word is lowercased; a
  capitalised one, Kot, is rejected as ``capitalised``). Plain words carry no grammatical tag;
  the profile's length/letter checks apply, its tag rules do not (the list itself is the
  authority); their rule in the lexicon is ``word-list``.
- headword list (``--headwords``): ``lemma`` or ``lemma<TAB>pos`` per line; pos is free text
  passed to the expander (an SGJP class such as ``subst``/``adj``/``verb``, or UniMorph N/ADJ/V).
- tagged form list (``--tagged``): ``form<TAB>lemma<TAB>tag``; the tag is UniMorph/our
  vocabulary (``N;NOM;SG``, LOC read as ESS) or an SGJP tag (``subst:sg:nom:f``, recognised by
  its ``:``).
- Hunspell (``--hunspell X.dic``, with ``X.aff`` beside it): the .aff's SET encoding decodes
  both. Entries are ``HeadwordEntry(lemma=stem, flags=...)``; see ``cli.py`` for how each
  language uses them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator

from lexicon_service.lexicon_format import source_entry

from build_tools.model import HeadwordEntry, Reading, Rejection
from build_tools.pipeline import Expansion, Item, Language
from build_tools.tags import TagError, sgjp_to_tag, unimorph_to_tag
from build_tools.czech.dictionary import shipped_paths
from build_tools.hunspell import read_aff, read_dic


class SourceError(ValueError):
    """A source file that is not text in its encoding (binary, NUL bytes, undecodable bytes)."""


def _unreadable(path: str | Path, exc: OSError) -> SourceError:
    # read() errors (EIO, EISDIR) carry no file name: the message must name it
    return SourceError(f"{path}: cannot read: {exc.strerror or exc}")


def check_text(path: str | Path, encoding: str = "utf-8") -> None:
    """Raise SourceError naming the first line of ``path`` that has a NUL byte or does not decode."""
    try:
        _check_text(path, encoding)
    except OSError as exc:
        raise _unreadable(path, exc) from None


def _check_text(path: str | Path, encoding: str) -> None:
    with open(path, "rb") as fh:
        data = fh.read()
    if b"\0" not in data:
        try:
            data.decode(encoding)       # the whole file at once; line by line only to name a bad line
            return
        except UnicodeDecodeError:
            pass
    del data
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            nul = raw.find(0)
            if nul >= 0:
                raise SourceError(f"{path}:{lineno}: NUL byte at column {nul + 1}: "
                                  f"a binary file, not a text source")
            try:
                raw.decode(encoding)
            except UnicodeDecodeError as exc:
                raise SourceError(f"{path}:{lineno}: not {encoding.upper()} text (byte {raw[exc.start]:#04x} at "
                                  f"column {exc.start + 1})") from None


def check_text_source(kind: str, path: str | Path, hunspell_encoding: str | None = None) -> None:
    """`check_text` for a source of the given kind; a Hunspell .dic is checked, and its .aff too,
    in ``hunspell_encoding`` (a reader that ignores SET: Czech) or else the encoding the .aff
    declares (SET)."""
    if kind != "hunspell":
        check_text(path)
        return
    aff_path = aff_path_for(path)
    encoding = hunspell_encoding
    if encoding is None:
        try:
            encoding = read_aff(aff_path).encoding
        except LookupError as exc:
            raise SourceError(f"{aff_path}: unknown encoding in its SET line ({exc})") from None
    check_text(aff_path, encoding)
    check_text(path, encoding)


def manifest_entry(kind: str, path: str | Path) -> dict:
    """The manifest's record of a source file (``lexicon_format.source_entry``); SourceError naming
    the file when it cannot be read."""
    try:
        return source_entry(kind, path)
    except OSError as exc:
        raise _unreadable(path, exc) from None


def _lines(path: str | Path) -> Iterator[tuple[int, str | None, bytes]]:
    """(line number, decoded text or None if not UTF-8, raw bytes); comments/blank skipped."""
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            raw = raw.rstrip(b"\n").rstrip(b"\r")
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield lineno, None, raw
                continue
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                continue
            yield lineno, text.rstrip(), raw


def _bad_text(text: str) -> str | None:
    if any(ord(c) < 32 for c in text):
        return "control-character"
    return None


def _word_lines(path: str | Path) -> Iterator[tuple[int, Reading | Rejection]]:
    name = Path(path).name
    for lineno, text, raw in _lines(path):
        if text is None:
            yield lineno, Rejection(raw.decode("utf-8", "replace"), "bad-encoding", name, lineno, "not UTF-8")
            continue
        text = text.strip()
        if "\t" in text or " " in text:
            yield lineno, Rejection(text, "not-one-word", name, lineno, "a word list has one word per line")
            continue
        if _bad_text(text):
            yield lineno, Rejection(text, "control-character", name, lineno)
            continue
        if text.isupper():          # an all-capitals list (KOT) is a list of words, not names
            text = text.lower()
        yield lineno, Reading(text, text, (), WORD_LIST_RULE)


def read_words(path: str | Path) -> Iterator[Reading | Rejection]:
    """A word list's forms (untagged readings, rule ``word-list``) and its bad lines."""
    return (r for _, r in _word_lines(path))


def read_headwords(path: str | Path) -> Iterator[HeadwordEntry | Rejection]:
    name = Path(path).name
    for lineno, text, raw in _lines(path):
        if text is None:
            yield Rejection(raw.decode("utf-8", "replace"), "bad-encoding", name, lineno, "not UTF-8")
            continue
        fields = [f.strip() for f in text.split("\t")]
        if len(fields) > 2 or (len(fields) == 2 and not fields[1]):
            yield Rejection(text, "bad-headword-line", name, lineno,
                            "expected 'lemma' or 'lemma<TAB>pos'")
            continue
        if _bad_text(fields[0]) or not fields[0]:
            yield Rejection(text, "bad-headword-line", name, lineno, "empty or control character")
            continue
        yield HeadwordEntry(fields[0], name, lineno, pos=fields[1] if len(fields) == 2 else None)


def _tagged_lines(path: str | Path) -> Iterator[tuple[int, Reading | Rejection]]:
    name = Path(path).name
    for lineno, text, raw in _lines(path):
        if text is None:
            yield lineno, Rejection(raw.decode("utf-8", "replace"), "bad-encoding", name, lineno, "not UTF-8")
            continue
        fields = [f.strip() for f in text.split("\t")]
        if len(fields) != 3 or not all(fields):
            yield lineno, Rejection(text, "bad-tagged-line", name, lineno, "expected form<TAB>lemma<TAB>tag")
            continue
        form, lemma, tagtext = fields
        if _bad_text(form) or _bad_text(lemma):
            yield lineno, Rejection(text, "control-character", name, lineno)
            continue
        try:
            if ":" in tagtext and ";" not in tagtext:
                tag = sgjp_to_tag(tagtext, form=form)
            else:
                tag = unimorph_to_tag(tagtext)
        except TagError as exc:
            yield lineno, Rejection(text, "bad-tag", name, lineno, str(exc))
            continue
        yield lineno, Reading(form, lemma, tuple(sorted(tag)), TAGGED_RULE)


def read_tagged(path: str | Path) -> Iterator[Reading | Rejection]:
    """A tagged list's readings (admitted or refused by the profile's tag rules) and its bad lines."""
    return (r for _, r in _tagged_lines(path))


# --- word lists as a source of build_tools.pipeline ---------------------------------------------
WORD_LIST_RULE = "word-list"
TAGGED_RULE = "tagged"


def list_items(kind: str, path: str | Path) -> Iterator[Item | Rejection]:
    """The pipeline items of a word list (``kind`` "words") or a tagged list ("tagged"), and its bad
    lines as Rejection: one item per run of consecutive lines of one lemma, (lemma, source, first
    line, its readings), so that a form's readings under one lemma share one record, as a
    headword's paradigm does."""
    name = Path(path).name
    lines = _word_lines(path) if kind == "words" else _tagged_lines(path)
    lemma, first, run = None, 0, []
    for lineno, r in lines:
        if r.__class__ is Rejection:
            yield r
            continue
        if r.lemma != lemma and run:
            yield (lemma, name, first, run)
            run = []
        if not run:
            lemma, first = r.lemma, lineno
        run.append(r)
    if run:
        yield (lemma, name, first, run)


def _expand_list_item(item: Item) -> Expansion:
    return Expansion(item[3])


# A word list's forms skip the profile's tag rules (the list is the authority); a tagged list's are
# admitted or refused by them. Both are admitted in the build's process: there is nothing to expand, and sending
# the lines to workers cost more CPU than it saved (docs/measurements.md)
WORD_LIST = Language(_expand_list_item, chunk=2000, untagged_rule=WORD_LIST_RULE, in_process=True)
TAGGED_LIST = Language(_expand_list_item, chunk=2000, in_process=True)
LIST_PASSES = {"words": WORD_LIST, "tagged": TAGGED_LIST}


def read_hunspell(dic_path: str | Path, aff=None) -> Iterator[HeadwordEntry | Rejection]:
    """Stems of a Hunspell .dic as HeadwordEntry(lemma=stem, flags=flags)."""
    dic_path = Path(dic_path)
    if aff is None:
        aff = read_aff(aff_path_for(dic_path))
    yield from hunspell_entries(dic_path.name, read_dic(dic_path, aff))


def hunspell_entries(name: str, lines: Iterable[tuple[int, str, str, str | None]]
                     ) -> Iterator[HeadwordEntry | Rejection]:
    """The lines of the .dic ``name`` (``read_dic``'s) as HeadwordEntry(lemma=stem, flags=flags), a
    line with a problem as its Rejection."""
    for lineno, stem, flags, problem in lines:
        if problem:
            yield Rejection(stem, problem, name, lineno)
            continue
        yield HeadwordEntry(stem, name, lineno, flags=flags or None)


def aff_path_for(dic_path: str | Path) -> Path:
    return Path(dic_path).with_suffix(".aff")


def hunspell_files(dic: str | Path, what: str) -> Path:
    """The .aff beside a .dic given as `what` (hunspell source, paradigm source); SourceError, one
    line, when either is missing. For a missing cs_CZ.dic it says where the installed package keeps
    the shipped one (the path in docs/build.md is the checkout's)."""
    dic = Path(dic)
    if not dic.is_file():
        shipped = shipped_paths()[0]
        hint = f" (the shipped {shipped.name} is {shipped})" if dic.name == shipped.name else ""
        raise SourceError(f"{what} {dic}: " + ("not a file" if dic.exists() else "no such file") + hint)
    aff = aff_path_for(dic)
    if not aff.is_file():
        raise SourceError(f"{what} {dic}: no affix file {aff} beside it")
    return aff
