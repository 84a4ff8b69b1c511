"""Polish paradigms: a lemma -> every inflected form, from SGJP (Morfeusz 2, ``sgjp.py``).

``expand_lemma`` gives a lemma's forms (``passes.expand_headwords``, neither admitted nor refused, yields them as
``ExpandedForm`` and ``Rejection`` for tools and tests):

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
(``_derived_adverbs``): most of them are on the sjp.pl game list, unlike prefixed verbs derived
the same way or SGJP lemmas of lowercased proper-name stems, which are not added (the shares are in
docs/measurements.md).

The prefix nie- (PFS: once, with adjectives, adjectival adverbs, gerunds and participles):
SGJP already generates negated gerunds and participles; for adjectives (``adj`` forms of the
positive degree, and short forms ``adjc``: niezdrów) and gradable adverbs (``adv:pos``) the
expander adds ``nie`` + form, tagged NEG (niezielony, niezielonej, niebiało). Not for lemmas that are themselves nie- + an adjective or
adverb (no nienieładny; but nieniebieski, as niebieski is no nie- word), and not for pronominal
adjectives (``NO_NIE``: mój, ten, który, ...).

Each of these is admitted because most of its forms are on the sjp.pl game list; -by on other
particles (jużby, kiedyby) and SGJP ad-adjectival forms (lipcowo) were far below and are not
admitted (the shares are in docs/measurements.md).

Hunspell as a second witness: when the build has a Hunspell dictionary, ``witness.hunspell_words``
collects every word it makes, and ``expand_lemma`` (given that set as ``attested``) adds UNATTESTED to an SGJP form of a lemma whose citation
form the dictionary makes, when the dictionary does not make the form itself (a fused form: nor
its base form; a derived adverb is witnessed as a form of its adjective headword). ``pl.profile``
decides, per class and from measurement, which such forms are denied. The guessed paradigm of a
.dic entry SGJP lacks is tagged by the same witness (the Hunspell pass hands it in; a headword
list's guesses are not: their pass has no witness).

A build runs the three Polish passes (``passes.py``) through ``build_tools/pipeline.py``.
"""

from __future__ import annotations


from __future__ import annotations

from build_tools.tags import COMMON_NAME_CLASSES, format_tag, sgjp_to_tag

from .sgjp import class_of_tag, generate, pos_class

VOWELS = frozenset("aąeęioóuy")

# Pronominal and quantifying adjectives that take no productive nie- prefix.
NO_NIE = frozenset("""
on ona ono mój twój swój nasz wasz ten tamten ów taki owaki jaki który czyj każdy wszystek wszelki sam
żaden jakiś któryś czyjś ktoś jakikolwiek którykolwiek czyjkolwiek niejaki niejeden tenże
takiż tamże ówże tyle ile kilka kilkanaście kilkadziesiąt paru parę
""".split())


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





_TAGS: dict = {}


def _tag(sgjp: str, names, quals, form: str) -> frozenset:
    k = (sgjp, names, quals, form[:1].isupper())
    t = _TAGS.get(k)
    if t is None:
        t = _TAGS[k] = sgjp_to_tag(sgjp, names, quals, form)
    return t


SKIPPED = {"too-long": 0}   # nie- forms not built because they would be too long (see max_len)


# The loop over forms runs for every form of every SGJP lemma (millions a build): the per-form work
# (fused forms, nie-, the witness) is inlined there rather than called.
def expand_lemma(lemma: str, pos: str | None = None, max_len: int | None = None, *,
                 results: list | None = None, attested: set[str] | None = None
                 ) -> tuple[list[tuple[str, str, frozenset, str]], str | None]:
    """All forms of one lemma: ([(form, headword, tag, paradigm)], rejection reason or None).

    ``max_len``: nie- forms longer than this are not built, only counted in
    ``SKIPPED["too-long"]`` (a speed-up: many nie- forms exceed 15 letters, docs/measurements.md):
    nieprzewidywalnościami is counted there, never built.
    ``results``: the paradigm in ``sgjp.generate``'s shape when it is not SGJP's (guess.py).
    ``attested``: the build's Hunspell words (``witness.hunspell_words``), the second witness:
    an SGJP form of a lemma it knows that it does not make is marked UNATTESTED; None: no witness."""
    guessed = results is not None
    if results is None:
        results, reason = _sgjp_paradigm(lemma)
        if reason is not None:
            return [], reason
    results, reason = _of_class(results, pos)
    if reason is not None:
        return [], reason
    adverbs = [] if guessed else _derived_adverbs(lemma, results)
    derived = {r[1] for r in adverbs}
    if adverbs:
        results = results + adverbs
    out: list[tuple[str, str, frozenset, str]] = []
    append = out.append
    nie_ok: dict[str, bool] = {}
    heads: dict[str, str] = {}
    indeclinable = _indeclinable_adjectives(results)
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


def _sgjp_paradigm(lemma: str) -> tuple[list, str | None]:
    """SGJP's paradigm of a lemma (``sgjp.generate``), or the reason there is none."""
    try:
        results = generate(lemma)
    except Exception as exc:  # morfeusz raises on odd input; report, never crash
        return [], "multi-word" if "more than one word" in str(exc) else "morfeusz-error"
    if not results or all(r[2] == "ign" for r in results):
        return [], "unknown-lemma"
    return results, None


def _of_class(results: list, pos: str | None) -> tuple[list, str | None]:
    """The results of the lemma ids of word class ``pos`` (a lemma id with a verb form counts as a
    verb); all of them for no ``pos``; or the reason there are none."""
    want = pos_class(pos)
    if want == "?":
        return [], "unknown-pos"
    if want is None:
        return results, None
    classes: dict[str, str] = {}
    for form, lid, tag, names, quals, _d in results:
        cls = class_of_tag(tag)
        if classes.get(lid) != "V":
            classes[lid] = cls if lid not in classes or cls == "V" else classes[lid]
    results = [r for r in results if classes.get(r[1]) == want]
    return (results, None) if results else ([], "pos-not-found")


def _indeclinable_adjectives(results: list) -> set[str]:
    """The adjective lemma ids with one form (blond, audio, fair): they take no nie- (no nieblond;
    the game list's share of such forms is in docs/measurements.md)."""
    adj_forms: dict[str, set] = {}
    for r in results:
        if r[5][0] == "adj":
            adj_forms.setdefault(r[1], set()).add(r[0])
    return {lid for lid, fs in adj_forms.items() if len(fs) == 1}


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
            res = generate(cand)
        except Exception:
            continue
        lids = {r[1] for r in res if r[0] == cand and r[2].startswith("adv")
                and r[1].split(":", 1)[0] == cand and COMMON_NAME_CLASSES.issuperset(r[3])}
        out += [r for r in res if r[1] in lids]
    return out



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
            negated = _NEGATED[head] = any(r[2].startswith(("adj:", "adv")) for r in generate(head[3:]))
        if negated:
            return False
    return True


_NEGATED: dict = {}     # nie- + lemma -> is the lemma an adjective or adverb SGJP knows


_HUNSPELL: dict = {}   # worker state of the Polish passes: aff, models, lemmas already expanded
_MAX_LEN: list = [None]   # nie- forms longer than the profile's maximum are not built
