"""SGJP through Morfeusz 2: the one place the build sets Morfeusz up (a generator and an analyser
per process, made on first use) and calls it. Generation and analysis go through the raw SWIG
functions with the id -> text lookups cached (the wrapper's per-form calls are slow, and a build calls
Morfeusz for every headword: docs/measurements.md); the word classes of SGJP tags and of a headword list's parts of
speech; the words SGJP knows only as dotted abbreviations; the versions the manifest records."""

from __future__ import annotations

from functools import partial
from typing import Iterable, Iterator
from importlib.metadata import version

from build_tools.tags import sgjp_to_tag

# Imports inside functions: morfeusz2 is an optional dependency (the [polish] extra), loaded when a Polish
# build first asks SGJP.

_POS_CLASSES = {
    "subst": "N", "noun": "N", "n": "N", "rzeczownik": "N",
    "adj": "ADJ", "adjective": "ADJ", "przymiotnik": "ADJ",
    "verb": "V", "v": "V", "czasownik": "V",
    "adv": "ADV", "adverb": "ADV", "przysłówek": "ADV",
    "num": "NUM", "pron": "PRO", "pro": "PRO", "prep": "ADP", "adp": "ADP",
    "conj": "CONJ", "comp": "CONJ", "qub": "PART", "part": "PART", "interj": "INTJ", "intj": "INTJ",
    "pred": "PRED",
}
_VERBAL = frozenset({"fin", "bedzie", "praet", "impt", "imps", "inf", "pcon", "pant", "pact",
                     "pacta", "ppas", "ger", "winien"})
_CLASS_OF_POS = {"subst": "N", "depr": "N", "adj": "ADJ", "adja": "ADJ", "adjp": "ADJ",
                 "adjc": "ADJ", "adv": "ADV", "num": "NUM", "numcomp": "NUM", "ppron12": "PRO",
                 "ppron3": "PRO", "siebie": "PRO", "prep": "ADP", "conj": "CONJ", "comp": "CONJ",
                 "qub": "PART", "part": "PART", "interj": "INTJ", "pred": "PRED", "brev": "ABBR",
                 "burk": "FIXED", "frag": "FIXED"}

# hosts of the conditional -by with person endings (paradigms._by_forms)
_BY_HOSTS = frozenset({"conj", "comp", "qub", "part"})

_generator = None       # this process's Morfeusz instances, made on first use
_ANALYSER = None


def _new(generate: bool):
    """A Morfeusz 2 instance over SGJP; tags as ids, resolved by the callers' caches."""
    import morfeusz2

    return morfeusz2.Morfeusz(generate=True, expand_tags=False) if generate else morfeusz2.Morfeusz(expand_tags=False)


def generator():
    """This process's generating Morfeusz."""
    global _generator
    if _generator is None:
        _generator = _new(generate=True)
    return _generator


def analyser():
    """This process's analysing Morfeusz."""
    global _ANALYSER
    if _ANALYSER is None:
        _ANALYSER = _new(generate=False)
    return _ANALYSER


def versions() -> dict:
    """What the manifest records of the Polish expander: morfeusz2's version and SGJP's id.
    Raises (ImportError, ...) when morfeusz2 is missing or broken."""
    return {"morfeusz2": version("morfeusz2"), "sgjp": _new(generate=True).dict_id()}


def dotted_abbreviations(words: Iterable[str]) -> list[str]:
    """The words SGJP does not know bare but knows, with a full stop, only as abbreviations
    ("np" -> "np."): spelling dictionaries list such abbreviations without their dot, and the
    game admits no abbreviation. Words SGJP knows bare ("dom", "ul") are never returned."""
    found = []
    for word in words:
        if not all(seg[2][2] == "ign" for seg in analyse(word)):
            continue
        dotted = analyse(word + ".")
        if any(seg[0] == 0 and seg[1] == 1 and seg[2][2].startswith("brev") for seg in dotted):
            found.append(word)
    return found


def pos_class(pos: str | None) -> str | None:
    if pos is None:
        return None
    return _POS_CLASSES.get(pos.strip().lower()) or (pos if pos in _POS_CLASSES.values() else "?")



_INFO: dict = {}       # (tag id, name id, labels id) -> generate's (tag, names, qualifiers, details)
_RAW = None


def _raw_api():
    """The SWIG functions behind morfeusz2's wrapper objects (cheaper per generated form than the wrapper's
    calls: docs/measurements.md): generate("kot") then gives its interpretations as raw tuples, the result
    list made without its Python wrapper too."""
    global _RAW
    if _RAW is None:
        import _morfeusz2 as M

        _RAW = (M._Morfeusz_generate, M.new_InterpsList, M.MorphInterpretation__orth_get,
                M.MorphInterpretation__lemma_get, M.MorphInterpretation_tagId_get,
                M.MorphInterpretation_nameId_get, M.MorphInterpretation_labelsId_get)
    return _RAW


def _interpretations(res) -> Iterator:
    """The C++ objects of an InterpsList, each as SWIG's own pointer object (its proxy's
    ``this``): a raw getter given the pointer skips looking ``this`` up on the proxy, which
    halves the cost of reading a form (half of what generating the headwords' forms costs)."""
    import _morfeusz2 as M

    for proxy in iter(partial(M.SwigPyIterator___next__, M.InterpsList_iterator(res)), None):
        yield proxy.this


def generate(lemma: str):
    """Morfeusz generation as [(form, lemma id, sgjp tag, names, qualifiers)], via the raw
    SWIG calls with the id -> text lookups cached (the wrapper's per-form calls are slow)."""
    m = generator()._morfeusz_obj
    generate, interps_list, orth, lem, tag_id, name_id, labels_id = _raw_api()
    res = interps_list()
    generate(m, lemma, res)
    out = []
    info = _INFO
    for i in _interpretations(res):
        ids = (tag_id(i), name_id(i), labels_id(i))
        meta = info.get(ids)
        if meta is None:
            r = m.getIdResolver()
            names = tuple(n for n in r.getName(ids[1]).split("|") if n)
            meta = info[ids] = _meta(r.getTag(ids[0]), names, tuple(r.getLabels(ids[2])))
        out.append((orth(i), lem(i)) + meta)
    return out


def _meta(tag: str, names: tuple, quals: tuple) -> tuple:
    """(tag, names, qualifiers, details) with details precomputed once per SGJP interpretation:
    (paradigm, is an agl stem, kind of fusion, nie- candidate, Tag lowercase, Tag capitalised)."""
    para = tag.split(":", 1)[0]
    kind = 1 if para in ("praet", "winien", "impt") else 2 if para in _BY_HOSTS else 0
    nie = ((para == "adj" or para == "adv") and tag.endswith(":pos")) or para == "adjc"
    details = (para, tag.endswith(":agl"), kind, nie,
               sgjp_to_tag(tag, names, quals, "x"), sgjp_to_tag(tag, names, quals, "X"))
    return (tag, names, quals, details)


_TAGS: dict = {}


def class_of_tag(tag: str) -> str:
    """The word class (N, V, ADJ, ...) of an SGJP tag."""
    p = tag.split(":", 1)[0]
    return "V" if p in _VERBAL else _CLASS_OF_POS.get(p, "?")


_ANALYSIS: dict = {}     # (tag id, name id, labels id) -> (tag, names, labels)


def analyse(word: str):
    """Morfeusz analysis as morfeusz2's ``analyse`` gives it, [(start, end, (orth, lemma, tag,
    names, labels))], via the raw SWIG calls with the id -> text lookups cached (as
    ``generate``; the wrapper costs more than the analysis)."""
    import _morfeusz2 as M

    m = analyser()._morfeusz_obj
    _generate_fn, interps_list, orth, lem, tag_id, name_id, labels_id = _raw_api()
    res = interps_list()
    M._Morfeusz_analyse(m, word, res)
    start, end = M.MorphInterpretation_startNode_get, M.MorphInterpretation_endNode_get
    info = _ANALYSIS
    out = []
    for i in _interpretations(res):
        ids = (tag_id(i), name_id(i), labels_id(i))
        meta = info.get(ids)
        if meta is None:
            r = m.getIdResolver()
            name = r.getName(ids[1])
            meta = info[ids] = (r.getTag(ids[0]), tuple(name.split("|")) if name else (),
                                tuple(r.getLabels(ids[2])))
        out.append((start(i), end(i), (orth(i), lem(i)) + meta))
    return out
