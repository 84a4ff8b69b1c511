"""Polish expansion: headwords -> every inflected form, through Morfeusz 2 (the SGJP dictionary).

``expand_headwords(entries, *, workers)`` (not judged: tools and tests) yields ``ExpandedForm`` and ``Rejection``:

- a lemma Morfeusz does not know (SGJP ``ign``) -> ``Rejection(lemma, "unknown-lemma")``;
- an entry's optional part of speech keeps only the homonyms of that class (``subst``/``N``,
  ``adj``/``ADJ``, ``verb``/``V``, ...; unknown pos -> ``Rejection("unknown-pos")``); a pos that
  matches no homonym -> ``Rejection("pos-not-found")``;
- every form is emitted with its tag in the common vocabulary (``tags.sgjp_to_tag``): proper
  names (SGJP name class, or capitalised) carry PROPN, abbreviations (``brev``) ABBR, clitic
  segments CLITIC, forms SGJP marks ``niepopr.`` NONSTD. The *profile* then excludes them, and
  its length/letter checks exclude hyphens, apostrophes, non-Polish letters and lengths outside
  2-15 (``pl.profile``): exclusions are data, and every one is reported with its reason.
- fused forms, which SGJP keeps as separate segments, are joined here and tagged FUSED:

  past tense + person ending (praet not marked ``nagl`` + aglt; a praet marked ``agl``, such as
  niosł-, is only a stem and is not emitted on its own)
      masculine singular ends in a consonant: + em / eś          (zrobiłem, zrobiłeś, niosłem)
      feminine and neuter singular (a vowel): + m / ś            (zrobiłam, zrobiłaś, zrobiłom, zrobiłoś)
      plural (both genders):                  + śmy / ście       (zrobiliśmy, zrobiłyście)
      (SGJP has no neuter 1st/2nd person and the sjp.pl game list of 2020 lacks them; PFS
      admits them for every verb, so they are built like the feminine ones)
  conditional (praet not marked ``agl`` + by + aglt)
      + by / bym / byś (singular, every gender), + by / byśmy / byście (plural)
                                                    (zrobiłby, zrobiłabyś, zrobiłobym, zrobilibyśmy, niósłbym)
  modal winien/powinien + person ending, like the past tense     (powinienem, powinnam, powinniśmy)
  emphatic -że/-ż on imperatives: -że after a consonant, -ż after a vowel
                                                    (zróbże, róbże, zróbcież, zróbmyż)
  person endings on conjunctions, complementisers and particles ending in the conditional -by
  (SGJP conj/comp/qub: aby, żeby, gdyby, jakby, oby, niechby)
                                                    (abym, żebyś, gdybyśmy, obyście, niechbym)
  preposition + -ń (SGJP: two segments), from the headword "on"
                                                    (nań, doń, zań, przezeń, weń)

Adverbs derived from adjectives (końcowy -> końcowo, farny -> farnie): for an adjective
headword, stem + -o/-e/-ie is expanded too when SGJP knows it as a common adverb lemma
(``_derived_adverbs``). Of these forms of 2-8 letters, 82% are on the sjp.pl game list (they
add 0.17% to its recall); prefixed verbs that SGJP derives in the same way (do-, na-, wy- + a
headword verb: 17%) and SGJP lemmas of lowercased proper-name stems of pl_PL.dic (12%) were
measured too and are not added.

The prefix nie- (PFS: once, with adjectives, adjectival adverbs, gerunds and participles):
SGJP already generates negated gerunds and participles; for adjectives (``adj`` forms of the
positive degree, and short forms ``adjc``: niezdrów) and gradable adverbs (``adv:pos``) the
expander adds ``nie`` + form, tagged NEG (niezielony, niezielonej, niebiało). Not for lemmas that are themselves nie- + an adjective or
adverb (no nienieładny; but nieniebieski, as niebieski is no nie- word), and not for pronominal
adjectives (``NO_NIE``: mój, ten, który, ...).

Checked against the sjp.pl game list, which holds nearly every game word of 2-8 letters: of
the forms of those lengths in the default lexicon, 93% of plain SGJP forms are on it, 90% of
the fused forms and 87% of the nie- forms (the rest are mostly rare or archaic SGJP words that
sjp.pl lacks); -by on other particles (jużby, kiedyby: 24-44%) and SGJP ad-adjectival forms
(lipcowo: 14%) were far below and are not admitted.

Hunspell as a second witness: when the build has a Hunspell dictionary, ``hunspell_words`` collects
every word it makes, and ``expand_lemma`` adds UNATTESTED to an SGJP form of a lemma whose citation
form the dictionary makes, when the dictionary does not make the form itself (a fused form: nor
its base form; a derived adverb is judged as a form of its adjective headword). ``pl.profile``
decides, per class and from measurement, which such forms are denied. The guessed paradigm of a
.dic entry SGJP lacks is judged by the same witness (``_witnessed_guess``).

A build runs the three Polish passes (``headword_pass``, ``hunspell_pass``, ``guess_pass``: an
expand function each) through ``build_tools/pipeline.py``, which spreads chunks of lemmas over
the worker processes (one Morfeusz per process), judges the forms there and merges them in input
order, so builds are deterministic.
"""

from __future__ import annotations

import os
from functools import partial
from itertools import chain, filterfalse
from operator import itemgetter
from typing import Iterable, Iterator

from build_tools.model import ExpandedForm, HeadwordEntry, Rejection
from build_tools.pipeline import Expansion, Item, Language
from build_tools.tags import COMMON_NAME_CLASSES, format_tag, sgjp_to_tag

VOWELS = frozenset("aąeęioóuy")
CHUNK = 500

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

_generator = None

# Pronominal and quantifying adjectives that take no productive nie- prefix.
NO_NIE = frozenset("""
on ona ono mój twój swój nasz wasz ten tamten ów taki owaki jaki który czyj każdy wszystek wszelki sam
żaden jakiś któryś czyjś ktoś jakikolwiek którykolwiek czyjkolwiek niejaki niejeden tenże
takiż tamże ówże tyle ile kilka kilkanaście kilkadziesiąt paru parę
""".split())


def _morfeusz():
    global _generator
    if _generator is None:
        import morfeusz2

        _generator = morfeusz2.Morfeusz(generate=True, expand_tags=False)
    return _generator


def dotted_abbreviations(words: Iterable[str]) -> list[str]:
    """The words SGJP does not know bare but knows, with a full stop, only as abbreviations
    ("np" -> "np."): spelling dictionaries list such abbreviations without their dot, and the
    game admits no abbreviation. Words SGJP knows bare ("dom", "ul") are never returned."""
    found = []
    for word in words:
        if not all(seg[2][2] == "ign" for seg in _analyse(word)):
            continue
        dotted = _analyse(word + ".")
        if any(seg[0] == 0 and seg[1] == 1 and seg[2][2].startswith("brev") for seg in dotted):
            found.append(word)
    return found


def pos_class(pos: str | None) -> str | None:
    if pos is None:
        return None
    return _POS_CLASSES.get(pos.strip().lower()) or (pos if pos in _POS_CLASSES.values() else "?")


def _fused(form: str, tag: str) -> list[tuple[str, str]]:
    """Fused forms built on one generated SGJP form: [(form, sgjp-like tag with person)]."""
    parts = tag.split(":")
    pos = parts[0]
    out: list[tuple[str, str]] = []
    if pos in ("praet", "winien"):
        number, gender = parts[1], parts[2]
        aspect = parts[3] if len(parts) > 3 else ""
        marks = set(parts[4:])
        base = f"{number}:{gender}:{aspect}"
        if "nagl" not in marks:
            if number == "sg":
                if form[-1] in VOWELS:
                    out += [(form + "m", f"{pos}:{base}:pri"), (form + "ś", f"{pos}:{base}:sec")]
                else:
                    out += [(form + "em", f"{pos}:{base}:pri"), (form + "eś", f"{pos}:{base}:sec")]
            else:
                out += [(form + "śmy", f"{pos}:{base}:pri"), (form + "ście", f"{pos}:{base}:sec")]
        if pos == "praet" and "agl" not in marks:
            out.append((form + "by", f"cond:{base}:ter"))
            if number == "sg":
                out += [(form + "bym", f"cond:{base}:pri"), (form + "byś", f"cond:{base}:sec")]
            else:
                out += [(form + "byśmy", f"cond:{base}:pri"), (form + "byście", f"cond:{base}:sec")]
    elif pos == "impt":
        out.append((form + ("ż" if form[-1] in VOWELS else "że"), tag))
    return out


_FUSED_TAGS: dict = {}


def _fused_tag(sgjp_tag: str, names, quals, form: str) -> frozenset[str]:
    k = (sgjp_tag, names, quals, form[:1].isupper())
    t = _FUSED_TAGS.get(k)
    if t is None:
        t = _FUSED_TAGS[k] = _fused_tag_uncached(sgjp_tag, names, quals, form)
    return t


def _fused_tag_uncached(sgjp_tag: str, names, quals, form: str) -> frozenset[str]:
    parts = sgjp_tag.split(":")
    if parts[0] == "cond":
        base = sgjp_to_tag("praet:" + ":".join(parts[1:]), names, quals, form)
        return (base - {"IND", "PST"}) | {"COND", "FUSED"}
    return sgjp_to_tag(sgjp_tag, names, quals, form) | {"FUSED"}


_INFO: dict = {}


_RAW = None


def _raw_api():
    """The SWIG functions behind morfeusz2's wrapper objects (saves ~20% per generated form; the
    result list is made without its Python wrapper too: Morfeusz is called 360,000 times a build)."""
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


def _generate(lemma: str):
    """Morfeusz generation as [(form, lemma id, sgjp tag, names, qualifiers)], via the raw
    SWIG calls with the id -> text lookups cached (the wrapper's per-form calls are slow)."""
    m = _morfeusz()._morfeusz_obj
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


def _tag(sgjp: str, names, quals, form: str) -> frozenset:
    k = (sgjp, names, quals, form[:1].isupper())
    t = _TAGS.get(k)
    if t is None:
        t = _TAGS[k] = sgjp_to_tag(sgjp, names, quals, form)
    return t


SKIPPED = {"too-long": 0}   # nie- forms not built because they would be too long (see max_len)


def class_of_tag(tag: str) -> str:
    """The word class (N, V, ADJ, ...) of an SGJP tag."""
    p = tag.split(":", 1)[0]
    return "V" if p in _VERBAL else _CLASS_OF_POS.get(p, "?")


def expand_lemma(lemma: str, pos: str | None = None, max_len: int | None = None, *,
                 results: list | None = None
                 ) -> tuple[list[tuple[str, str, frozenset, str]], str | None]:
    """All forms of one lemma: ([(form, headword, tag, paradigm)], rejection reason or None).

    ``max_len``: nie- forms longer than this are not built, only counted in
    ``SKIPPED["too-long"]`` (a speed-up: a quarter of all nie- forms exceed 15 letters).
    ``results``: the paradigm in ``_generate``'s shape when it is not SGJP's (guess_pl)."""
    guessed = results is not None
    if results is None:
        try:
            results = _generate(lemma)
        except Exception as exc:  # morfeusz raises on odd input; report, never crash
            return [], "multi-word" if "more than one word" in str(exc) else "morfeusz-error"
        if not results or all(r[2] == "ign" for r in results):
            return [], "unknown-lemma"
    want = pos_class(pos)
    if want == "?":
        return [], "unknown-pos"
    if want is not None:
        classes: dict[str, str] = {}
        for form, lid, tag, names, quals, _d in results:
            cls = class_of_tag(tag)
            if classes.get(lid) != "V":
                classes[lid] = cls if lid not in classes or cls == "V" else classes[lid]
        results = [r for r in results if classes.get(r[1]) == want]
        if not results:
            return [], "pos-not-found"
    adverbs = [] if guessed else _derived_adverbs(lemma, results)
    derived = {r[1] for r in adverbs}
    if adverbs:
        results = results + adverbs
    out: list[tuple[str, str, frozenset, str]] = []
    append = out.append
    nie_ok: dict[str, bool] = {}
    heads: dict[str, str] = {}
    # indeclinable adjectives (blond, audio, fair): no nie- (on the sjp.pl game list of 2020
    # none of the 66 such nie- forms of 2-8 letters is)
    adj_forms: dict[str, set] = {}
    for r in results:
        if r[5][0] == "adj":
            adj_forms.setdefault(r[1], set()).add(r[0])
    indeclinable = {lid for lid, fs in adj_forms.items() if len(fs) == 1}
    # a second witness (see ``unattested``): None when the build has no Hunspell dictionary;
    # a guess is witnessed too when the pass has one (a .dic entry's guessed forms, ``_witnessed_guess``)
    attested = _HUNSPELL.get("attested") if not guessed or _witnessed_guess() else None
    known: dict[str, bool] = {}
    for form, lid, tag, names, quals, details in results:
        if tag == "ign":
            continue
        head = heads.get(lid)
        if head is None:
            head = heads[lid] = lid.split(":", 1)[0]
            # a derived adverb (końcowo) is witnessed as a form of its adjective headword
            known[head] = attested is not None and (lemma if lid in derived else head) in attested
        para, agl, kind, nie, tag_lower, tag_upper = details
        ftag = tag_upper if form[:1].isupper() else tag_lower
        witnessed = not known[head] or form in attested
        if not agl:      # an agl stem (niosł-) is no word on its own
            append((form, head, ftag if witnessed else _plus(ftag, _UNATTESTED), para))
        if kind == 1:
            for fform, fused_tag in _fused(form, tag):
                ft = _fused_tag(fused_tag, names, quals, fform)
                if not (witnessed or agl or fform in attested):
                    ft = _plus(ft, _UNATTESTED)
                append((fform, head, ft, "fused"))
        elif kind == 2 and form.isalpha() and form not in NO_BY:
            for fform, extra in _by_forms(form):
                append((fform, head, _plus(ftag, extra), "fused"))
        if nie:
            ok = nie_ok.get(head)
            if ok is None:
                ok = nie_ok[head] = _takes_nie(head)
            if ok and para == "adj" and lid in indeclinable:
                ok = False
            if ok:
                if max_len is not None and len(form) + 3 > max_len:
                    SKIPPED["too-long"] += 1
                else:
                    nform = "nie" + form
                    ntag = _plus(ftag, _NEG)
                    if known[head] and nform not in attested:
                        ntag = _plus(ntag, _UNATTESTED)
                    append((nform, head, ntag, "nie"))
    if results and any(r[1] == "on" for r in results):
        for fform in PREP_ON:
            out.append((fform, "on", _PREP_ON_TAG, "fused"))
    if guessed:
        out = [(f, h, _plus(t, _GUESSED), p) for f, h, t, p in out]
    return _shape_features(out, set(heads.values())), None


# Adverbs derived from an adjective: SGJP keeps them as lemmas of their own (końcowy ->
# końcowo, farny -> farnie), which a headword list drawn from sjp.pl often lacks.
ADVERB_ENDINGS = ("o", "e", "ie")


def _derived_adverbs(lemma: str, results) -> list:
    """The SGJP adverb lemmas derived from an adjective headword: stem (the lemma less its
    -y/-i) + -o/-e/-ie, kept when SGJP knows that exact string as an adverb lemma of a common
    word; their Morfeusz results (all degrees; nie- is then added like for any adverb)."""
    if len(lemma) <= 3 or not lemma.endswith(("y", "i")) or not lemma[:1].islower():
        return []
    if not any(r[5][0] == "adj" and r[1].split(":", 1)[0] == lemma for r in results):
        return []
    out: list = []
    stem = lemma[:-1]
    for cand in dict.fromkeys(stem + e for e in ADVERB_ENDINGS):
        try:
            res = _generate(cand)
        except Exception:
            continue
        lids = {r[1] for r in res if r[0] == cand and r[2].startswith("adv")
                and r[1].split(":", 1)[0] == cand and COMMON_NAME_CLASSES.issuperset(r[3])}
        out += [r for r in res if r[1] in lids]
    return out


def _witnessed_guess() -> bool:
    """Are guessed paradigms judged by the Hunspell witness in this pass? Yes in the Hunspell
    pass (a .dic entry SGJP lacks: the guessed forms its own dictionary does not make become
    UNATTESTED, as an SGJP lemma's would); no for a headword list's guesses, whose pass has no
    witness (most such headwords are no .dic word at all)."""
    return "aff" in _HUNSPELL


# Features of the lemma's shape, for the profile (pl.profile says what each rule measured):
# NOVOWEL: a Polish word has a vowel; an SGJP lemma without one is an abbreviation that SGJP
# inflects as the word it stands for (mgr, płk, nr, pkt, bp), an interjection (hm, pst) or a
# one-letter preposition (w, z). LY: the lemma ends in -ły (an adjective of a verb's past stem,
# doschły, zmilkły, and others such as biały).
_NOVOWEL = frozenset({"NOVOWEL"})
_LY = frozenset({"LY"})


def _shape_features(out: list, heads: set) -> list:
    """The readings of ``out`` with the shape features of their headwords."""
    marks = {}
    for h in heads:
        if VOWELS.isdisjoint(h):
            marks[h] = _NOVOWEL
        elif h.endswith("ły"):
            marks[h] = _LY
    if not marks:
        return out
    get = marks.get
    return [(f, h, _plus(t, get(h)), p) if h in marks else (f, h, t, p) for f, h, t, p in out]


_NEG = frozenset({"NEG"})
_UNATTESTED = frozenset({"UNATTESTED"})
_GUESSED = frozenset({"GUESSED"})
_UNION: dict = {}


def _plus(tag: frozenset, extra: frozenset) -> frozenset:
    """tag | extra, interned (the same frozenset object for the same result)."""
    k = (tag, extra)
    t = _UNION.get(k)
    if t is None:
        t = _UNION[k] = tag | extra
    return t
_BY_HOSTS = frozenset({"conj", "comp", "qub", "part"})
_BY_ENDINGS = {"": frozenset({"COND", "FUSED"}),
               "m": frozenset({"COND", "FUSED", "1", "SG"}), "ś": frozenset({"COND", "FUSED", "2", "SG"}),
               "śmy": frozenset({"COND", "FUSED", "1", "PL"}), "ście": frozenset({"COND", "FUSED", "2", "PL"})}
# Particles that never take the conditional -by in writing (nie by, się by).
NO_BY = frozenset({"nie", "się"})
# preposition + the post-prepositional pronoun -ń (SGJP: two segments, "na" + "ń")
PREP_ON = ("doń", "dlań", "nań", "nadeń", "oń", "odeń", "poń", "podeń", "przezeń", "przedeń",
           "weń", "zań", "zeń")
_PREP_ON_TAG = frozenset({"PRO", "3", "SG", "MASC", "NEUT", "ACC", "GEN", "FUSED"})


def _by_forms(form: str):
    """Person endings on a conjunction/particle that ends in the conditional -by (abym, obyś,
    gdybyśmy). Measured on the sjp.pl game list, -by on other particles (jużby, kiedyby) is
    mostly not admitted, so it is not generated."""
    if form.endswith("by"):
        for ending, extra in _BY_ENDINGS.items():
            if ending:
                yield form + ending, extra


def expand_one(lemma: str, pos: str | None = None) -> tuple[list[tuple[str, str, str, str]], str | None]:
    """Like expand_lemma, with tags written as text (sorted, ';'-joined)."""
    forms, reason = expand_lemma(lemma, pos)
    return [(f, h, format_tag(t), p) for f, h, t, p in forms], reason


def _takes_nie(head: str) -> bool:
    """May nie- be prefixed to this adjective/adverb lemma? (once only; not pronominal ones)"""
    if head in NO_NIE or not head[:1].islower():
        return False
    if head.startswith("nie") and len(head) > 3:
        negated = _NEGATED.get(head)
        if negated is None:     # a guessed word's paradigm is expanded more than once
            negated = _NEGATED[head] = any(r[2].startswith(("adj:", "adv")) for r in _generate(head[3:]))
        if negated:
            return False
    return True


_NEGATED: dict = {}     # nie- + lemma -> is the lemma an adjective or adverb SGJP knows


_HUNSPELL: dict = {}   # worker state of the Polish passes: aff, models, lemmas already expanded
_MAX_LEN: list = [None]   # nie- forms longer than the profile's maximum are not built


def _init_state(max_len: int | None, state: dict | None = None) -> None:
    _MAX_LEN[0] = max_len
    _HUNSPELL.clear()
    if state:
        _HUNSPELL.update(state)


_ANALYSER = None
_ANALYSIS: dict = {}     # (tag id, name id, labels id) -> (tag, names, labels)


def _analyse(word: str):
    """Morfeusz analysis as morfeusz2's ``analyse`` gives it, [(start, end, (orth, lemma, tag,
    names, labels))], via the raw SWIG calls with the id -> text lookups cached (as
    ``_generate``; the wrapper costs more than the analysis)."""
    global _ANALYSER
    if _ANALYSER is None:
        import morfeusz2

        _ANALYSER = morfeusz2.Morfeusz(expand_tags=False)
    import _morfeusz2 as M

    m = _ANALYSER._morfeusz_obj
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


_HUNSPELL_TAG = frozenset({"HUNSPELL"})
# SGJP readings that make a form no word by themselves: abbreviations, combining forms
_NOT_A_WORD = ("brev", "adja")


ENDING = 3      # letters of a word's ending that an affix-only form must share with a real form


def _endings(made) -> tuple[set, set]:
    """The ENDING-letter endings of the forms admitted so far (the whole lexicon's, computed
    once per process when the pass has the lexicon's keys), and those of ``made`` (kept
    apart: no copy of the lexicon's per entry)."""
    keys = _HUNSPELL.get("keys")
    if keys and "endings" not in _HUNSPELL:
        _add_endings(_HUNSPELL)
    own = {f[-ENDING:] for f in made} if made is not keys else set()
    return _HUNSPELL.get("endings", set()), own


def _add_endings(state: dict) -> None:
    """The endings of the lexicon's forms (``_endings``) into the pass's state: in the parent
    before the workers fork (computed once, not in every worker), or in the worker itself."""
    keys = state.get("keys")
    if keys and "endings" not in state:
        state["endings"] = set(map(itemgetter(slice(-ENDING, None)), keys))


def affix_only_forms(stem: str, hforms: set, made) -> list:
    """The Hunspell affix forms of a stem SGJP knows that its SGJP paradigm does not make (a
    genitive plural abisalów, a passive participle beczany, an imperative bluźń), tagged
    HUNSPELL: ``made`` holds the forms already made. A form SGJP analyses as an
    abbreviation, a combining form or an incorrect form stays out (SGJP's verdict on it stands),
    so does a nie- form (negation is the build's rule) and a form whose last ENDING letters
    end no form made so far (kotm).
    On the sjp.pl game list of 2020, 95% of such forms of 2-8 letters are listed (README)."""
    out = []
    endings = None
    for f in sorted(hforms):
        if f == stem or f in made:
            continue
        if endings is None:
            endings, own = _endings(made)
        end = f[-ENDING:]
        if end not in endings and end not in own:
            continue        # no word the lexicon has ends so (kot/B + m: kotm)
        if f.startswith("nie") and not stem.startswith("nie"):
            continue        # negation is SGJP's and the build's rule (nie- forms: 13% listed)
        try:
            ana = [a[2] for a in _analyse(f) if a[2][2] != "ign"]
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
    admitted as a fused form: 63 of the 67 such entries of 2-8 letters are on the game list."""
    head, sep, ending = stem.rpartition("by")
    if not sep or not head or ending not in _BY_ENDINGS:
        return []
    try:
        ana = _analyse(stem)
    except Exception:
        return []
    first = [a for a in ana if a[0] == 0]
    later = [a for a in ana if a[0] > 0]
    if not later or any(a[2][2].split(":", 1)[0] not in _BY_HOST_POS for a in first):
        return []
    if not any(a[2][0] == "by" for a in later):
        return []
    return [(stem, stem, _BY_ENDINGS[ending], "fused-by")]


def hunspell_entry_forms(stem: str, flags: str | None, max_len: int | None = None,
                         affix_forms: tuple | None = None):
    """The forms of one Polish Hunspell entry, SGJP's paradigm being the authority:
    ([(form, headword, tag, paradigm)], rejection reason or None, model lemma or None).

    - a stem SGJP knows as a lemma: its SGJP forms (none when a --headwords list already
      expanded it: reason ``known-to-sgjp``); Hunspell's own affix forms are never admitted;
    - a stem SGJP knows only as an abbreviation (np, itd, mbar is not one: see below):
      ``abbreviation``; an unflagged stem SGJP knows as a form of another lemma:
      ``known-to-sgjp`` (that lemma's paradigm decides);
    - otherwise (SGJP: ``ign``, or a flagged stem that is only another lemma's form) the
      paradigm is guessed by analogy (guess_pl), corroborated by the entry's affix forms
      (``affix_forms``: the entry's ``entry_affix_forms`` when the caller has them)."""
    from build_tools import guess_pl

    st = _HUNSPELL
    if not stem[:1].islower():
        return [], "capitalised", None
    if not flags:
        fused = listed_by_form(stem)
        if fused:
            return fused, None, None
    done = stem in st.get("done", ())
    if done and not flags:
        return [], "known-to-sgjp", None
    hforms = set(affix_forms if affix_forms is not None else entry_affix_forms(stem, flags, st["aff"]))
    keys = st.get("keys")
    if done:
        # expanded from a headword list; a homograph of another class (SGJP's noun acani,
        # sjp.pl's adjective acani) shows as few of the entry's forms in the lexicon
        if keys is None or len(hforms) < 2:
            extra = affix_only_forms(stem, hforms, keys or ())
            return (extra, None, None) if extra else ([], "known-to-sgjp", None)
        # each form looked up in the lexicon once (a dict of millions: the lookups cost)
        missing = set(filterfalse(keys.__contains__, hforms))
        if guess_pl.CORROBORATION * len(hforms) <= len(hforms) - len(missing):
            extra = affix_only_forms(stem, missing, keys)    # the forms in the lexicon it skips
            return (extra, None, None) if extra else ([], "known-to-sgjp", None)

    try:
        ana = [a for a in _analyse(stem) if a[0] == 0 and a[1] == 1 and a[2][2] != "ign"]
    except Exception:
        ana = []
    sgjp = None
    if done:
        sgjp = [], "known-to-sgjp", None
    elif any(a[2][1].split(":", 1)[0] == stem for a in ana):      # SGJP has this lemma
        forms, reason = expand_lemma(stem, None, max_len)
        # SGJP's lemma is this entry's lemma unless it is a homograph of another class
        # (SGJP's noun acani beside sjp.pl's adjective acani): then its paradigm makes
        # few of the entry's forms, and the entry is guessed like an unknown word (SGJP's
        # paradigm still, if no model is corroborated)
        sgjp = forms, reason, None
        made = {f for f, *_ in forms}
        if reason or len(hforms) < 2 or guess_pl.CORROBORATION * len(hforms) <= len(made & hforms):
            if reason:
                return sgjp
            return forms + affix_only_forms(stem, hforms, made), None, None
    if ana and all(a[2][2].startswith("brev") for a in ana):
        return [], "abbreviation", None
    if not ana and not flags and dotted_abbreviations([stem]):    # np, itd: SGJP knows "np."
        return [], "abbreviation", None
    if not flags and any(COMMON_NAME_CLASSES.issuperset(a[2][3]) for a in ana):
        return [], "known-to-sgjp", None
    if not hforms:
        return [], "no-forms", None
    model, results = guess_pl.guess(stem, st["models"], flags=flags, hforms=hforms,
                                    listed=st.get("stems") or frozenset())
    if model is None:
        return sgjp or ([], results, None)
    forms, reason = expand_lemma(stem, None, max_len, results=results)
    return forms, reason, model


def guess_headword(lemma: str, pos: str | None, max_len: int | None = None):
    """A headword-list entry SGJP does not know, inflected by analogy (guess_pl, the models'
    vote): (forms, rejection reason or None, model lemma or None)."""
    from build_tools import guess_pl

    if not lemma.isalpha() or not lemma.islower():
        return [], "unknown-lemma", None         # capitalised: a proper name SGJP lacks
    want = pos_class(pos)
    if want == "?":
        return [], "unknown-pos", None
    model, results = guess_pl.guess(lemma, _HUNSPELL["models"], want_class=want)
    if model is None:
        return [], "unknown-lemma", None
    forms, reason = expand_lemma(lemma, None, max_len, results=results)
    return forms, reason, model


# --- Hunspell as a second witness --------------------------------------------------------------
def hunspell_words(dics: Iterable, *, reads: list | None = None, workers: int = 1,
                   entry_forms: list | None = None) -> set[str]:
    """Every lowercase word the Hunspell dictionaries DICS make (stems and affix forms): the
    witness against which ``expand_lemma`` marks SGJP forms UNATTESTED. ``reads``: per dic, its
    (.aff, entries), if the caller reads them (the entries may be an iterator: it is read while
    the workers expand what was read before); ``workers``: processes that expand the entries in
    chunks (call it with no thread but the caller's running, as for any fork); ``entry_forms``:
    a list that gets, per dic, the affix forms of each of its entries in order
    (``entry_affix_forms``: the Hunspell pass takes them instead of expanding every entry again)."""
    from build_tools.hunspell import read_aff
    from build_tools.parallel import chunked, ordered_map
    from build_tools.sources import aff_path_for, read_hunspell

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


_WORDS_AFF: list = [None]


def _set_words_aff(aff) -> None:
    _WORDS_AFF[0] = aff


def entry_affix_forms(stem: str, flags: str | None, aff) -> tuple[str, ...]:
    """The lowercase words Hunspell makes of one .dic entry (its stem only where the flags allow
    it bare), each once, in the order made."""
    from build_tools.hunspell import expand_word

    return tuple(dict.fromkeys(f for f in expand_word(stem, aff.split_flags(flags or ""), aff)
                               if f.isalpha() and f.islower()))


def _forms_of_stems(stems: list) -> list[tuple[str, ...]]:
    """``entry_affix_forms`` of each of a chunk of (stem, flags) (``hunspell_words``)."""
    aff = _WORDS_AFF[0]
    return [entry_affix_forms(stem, flags, aff) for stem, flags in stems]


# --- the Polish passes for build_tools.pipeline: worker-side expand functions ------------------
def _expansion(forms, reason, model=None) -> Expansion:
    skipped, SKIPPED["too-long"] = SKIPPED["too-long"], 0
    return Expansion(forms, reason, model, skipped)


def _expand_headword(item: Item) -> Expansion:
    SKIPPED["too-long"] = 0
    forms, reason = expand_lemma(item[0], item[3], _MAX_LEN[0])
    return _expansion(forms, reason)


def _guess_headword(item: Item) -> Expansion:
    SKIPPED["too-long"] = 0
    return _expansion(*guess_headword(item[0], item[3], _MAX_LEN[0]))


def _hunspell_entry(item: Item) -> Expansion:
    SKIPPED["too-long"] = 0
    # item[4], when there: where the entry's affix forms are in the pass's list (made once, for
    # the witness: hunspell_words; forked workers share the list)
    return _expansion(*hunspell_entry_forms(item[0], item[3], _MAX_LEN[0],
                                            _HUNSPELL["affix_forms"][item[4]] if len(item) > 4 else None))


def _max_len(judge) -> int | None:
    return judge.profile.max_length if not judge.tile_set.multi_letter_tiles else None


def headword_pass(judge, attested: set[str] | None = None) -> Language:
    """SGJP's paradigm of each headword (item: lemma, source, line, part of speech or None).
    ``attested``: the words of the build's Hunspell dictionaries (``hunspell_words``), if any."""
    return Language(_expand_headword, _init_state, (_max_len(judge), {"attested": attested}), chunk=CHUNK)


def guess_pass(judge, models) -> Language:
    """Headwords SGJP does not know, inflected by analogy (``guess_headword``)."""
    return Language(_guess_headword, _init_state, (_max_len(judge), {"models": models}), chunk=CHUNK)


def hunspell_pass(judge, aff, models, done, *, keys=None, stems=frozenset(), attested=None,
                  affix_forms: list | None = None) -> Language:
    """Polish Hunspell entries (``hunspell_entry_forms``; item: stem, source, line, flags, and
    with ``affix_forms`` (the entries' ``entry_affix_forms``) the entry's index in it). ``done``: lemmas
    already expanded; ``keys``: the forms admitted so far (forked workers share it); ``stems``:
    every stem of the .dic (they attest parts of guessed paradigms); ``attested``: as for
    ``headword_pass``."""
    state = {"aff": aff, "models": models, "done": done, "keys": keys, "stems": stems,
             "attested": attested, "affix_forms": affix_forms}
    return Language(_hunspell_entry, _init_state, (_max_len(judge), state), chunk=CHUNK,
                    before_fork=partial(_add_endings, state))


def expand_headwords(entries: Iterable[HeadwordEntry], *, workers: int | None = None
                     ) -> Iterator[ExpandedForm | Rejection]:
    """SGJP's paradigms of the headwords, not judged (for tools and tests; docs/CONTRACTS.md): the
    headword pass run by ``pipeline.expand_only``, in input order."""
    from build_tools.pipeline import expand_only

    workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
    items = ((e.lemma, e.source, e.line, e.pos) for e in entries)
    lang = Language(_expand_headword, _init_state, (None,), chunk=CHUNK)
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
