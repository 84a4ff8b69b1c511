"""Polish inflection by analogy, for a headword SGJP does not know (Morfeusz 2 says ``ign``).

The word gets the paradigm of the SGJP lemma it resembles most, as pymorphy2's predictor does
for Russian: among the known lemmas (``Models``), those sharing the longest ending with the
word; a model applies only when that shared ending covers every letter its paradigm changes
(``strip`` below), so stem alternations are copied only onto the same letters (kot -> kocie
gives lot -> locie; nieść -> niosę needs a word ending in -eść).

A paradigm is the model's SGJP forms written relative to the model lemma: (prefix nie-/naj-
of negated and superlative forms, letters stripped from the lemma's end, letters added, SGJP
tag). Applied to the word, it gives forms with the
model's tags, which then go through the same fused-form joiner, nie- rule and profile as SGJP's
own forms, each reading marked GUESSED and the model named in the provenance.

Choosing the model:
- with a Hunspell entry (stem + flags): the flags are sjp.pl's own paradigm label, so the
  models are first the SGJP lemmas that carry the same flags in the .dic; among those at the
  longest shared ending, the one whose guessed forms agree most with Hunspell's forms of the
  word. If none applies, every model at the longest two shared-ending lengths, by the same
  agreement. The guess is corroborated when at least half of Hunspell's forms are guessed;
  then the parts of the paradigm Hunspell attests are admitted (``attested``: a part such as
  the present tense or the passive participle whose forms Hunspell never makes is dropped).
  An unflagged entry (one form) corroborates no paradigm and is not admitted
  (``unflagged-unknown``: mostly foreign words and phrases, culture, absentes).
- without one (a headword list entry): the paradigm most frequent among the nearest models
  at the longest shared ending (pymorphy2's vote); with the entry's part of speech, only
  models of that class. Derivation decides what the ending cannot: a verb is guessed from
  models that are, like it, a verbal prefix + a known verb, or like it are not (aspect
  follows: pozagłuszać like pozalepiać, perfective; łuskać like muskać, imperfective); a
  model that is a prefix + the word itself (nieobecny for obecny, arcyciekawie for
  ciekawie; not a compound noun such as półdyplom) lacks nie- or degree forms and serves
  only when no other is near. The winning paradigm also takes each part (ppas, pact, ...)
  that at least half of the voting models have (transitivity is not in the ending either).
  When no model shares SURE_SHARED letters of ending, the guess is uncertain and only the
  headword itself is admitted (``citation_only``: acajou, ajaj, air).
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import islice
from typing import Iterable

from build_tools.tags import COMMON_NAME_CLASSES

from .paradigms import expand_lemma
from .sgjp import class_of_tag, generate

_TOP = "\U0010ffff"
PER_LEVEL = 12         # models looked at per shared-ending length
MIN_SHARED = 2         # letters of ending a model must share at least
# a headword-only guess is uncertain when no model (of the wanted class) shares this many letters
# of ending with the word: the headword alone is admitted, under the winning paradigm's tags
# for its citation form (mostly foreign words and interjections, which resemble no lemma)
SURE_SHARED = 3
CORROBORATION = 0.5    # share of Hunspell's forms the guess must make
PREFIXES = ("nie", "naj")
# Polish verbal prefixes (a prefix added to a verb usually makes it perfective: grzęznąć ->
# ugrzęznąć, zagłuszać -> pozagłuszać), longest first
VERB_PREFIXES = tuple(sorted((
    "do", "na", "nad", "nade", "o", "ob", "obe", "od", "ode", "po", "pod", "pode", "prze",
    "przed", "przede", "przy", "roz", "roze", "s", "u", "w", "we", "wy", "wz", "wze", "z", "za",
    "ze", "ś", "współ", "wes", "wez", "zaś", "nie"), key=lambda p: (-len(p), p)))
MIN_VERB_STEM = 3      # letters of the known verb left after the prefix


class Models:
    """The SGJP lemmas a word may be inflected after, with their Hunspell flags where known."""

    def __init__(self, lemmas: Iterable[str], flags_of: dict[str, str] | None = None, *,
                 like: Models | None = None) -> None:
        """``like``: Models made before; its sorted lists serve again when its lemmas are these."""
        lemmas = frozenset(w for w in lemmas if w.isalpha() and w.islower())
        self.lemmas = lemmas
        if like is not None and like.lemmas == lemmas:
            self.all, self.verbs = like.all, like.verbs
        else:
            self.all = sorted(w[::-1] for w in lemmas)
            self.verbs = frozenset(w for w in lemmas if w.endswith(("ć", "c")))
        by: dict[str, list[str]] = {}
        if flags_of:
            for w in lemmas:
                f = flags_of.get(w)
                if f:
                    by.setdefault(f, []).append(w[::-1])
        self.by_flags = {f: sorted(v) for f, v in by.items()}

    def prefixed_verb(self, word: str) -> bool:
        """Is the word a verbal prefix + a known verb (zagłuszać -> pozagłuszać)?"""
        return any(word.startswith(p) and len(word) - len(p) >= MIN_VERB_STEM
                   and word[len(p):] in self.verbs for p in VERB_PREFIXES)

    def __len__(self) -> int:
        return len(self.all)


def _lcp(a: str, b: str) -> int:
    n = min(len(a), len(b))
    if a[:n] == b[:n]:      # the common case in paradigms: a form that extends its lemma
        return n
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def levels(rev_list: list[str], word: str, deepest: int = MIN_SHARED, per_level: int = PER_LEVEL):
    """(shared ending length, [model lemmas]) from the longest shared ending down to
    ``deepest``; at each length the models nearest in reversed order, at most ``per_level``."""
    r = word[::-1]
    i = bisect_left(rev_list, r)
    m = 0
    for j in (i - 1, i, i + 1):
        if 0 <= j < len(rev_list) and rev_list[j] != r:
            m = max(m, _lcp(r, rev_list[j]))
    seen_lo, seen_hi = i, i
    for length in range(min(m, len(word) - 1), deepest - 1, -1):
        lo = bisect_left(rev_list, r[:length])
        hi = bisect_left(rev_list, r[:length] + _TOP)
        picked: list[str] = []
        a, b = i - 1, i
        while len(picked) < per_level and (a >= lo or b < hi):
            for j in (b, a):
                if lo <= j < hi and not (seen_lo <= j < seen_hi) and rev_list[j] != r:
                    picked.append(rev_list[j][::-1])
            a -= 1
            b += 1
        seen_lo, seen_hi = lo, hi
        if picked:
            yield length, picked[:per_level]


_PARADIGMS: dict = {}
_QUALS: dict = {}       # a form's SGJP qualifiers -> those a guessed form keeps


def paradigms(model: str) -> list[tuple[str, int, tuple]]:
    """The model's paradigms (one per word class of its SGJP homonyms of common words):
    [(class, longest strip, ((prefix, strip, add, tag, names, qualifiers, details), ...))]."""
    got = _PARADIGMS.get(model)
    if got is not None:
        return got

    by_lid: dict[str, list] = {}
    try:
        results = generate(model)
    except Exception:
        results = []
    n_model = len(model)
    own_lid: dict[str, bool] = {}       # lemma id -> is it the model's
    for form, lid, tag, names, quals, details in results:
        if tag == "ign":
            continue
        own = own_lid.get(lid)
        if own is None:
            own = own_lid[lid] = lid.split(":", 1)[0] == model
        if not own or not COMMON_NAME_CLASSES.issuperset(names):
            continue
        if not form.isalpha() or not form.islower():
            continue
        pre = ""
        if form.startswith(PREFIXES):
            for p in PREFIXES:      # negated gerunds, participles (nie-), superlatives (naj-)
                if form.startswith(p) and not model.startswith(p) and _lcp(model, form) < len(p):
                    pre = p
                    break
        k = n_model if not pre and form.startswith(model) else _lcp(model, form[len(pre):])
        # a model's qualifiers (daw., rzad.) describe the model word, not the guessed one;
        # niepopr. marks a form variant and is kept
        q = _QUALS.get(quals) if quals else ()
        if q is None:
            q = _QUALS[quals] = tuple(x for x in quals if "niepopr." in x)
        by_lid.setdefault(lid, []).append((pre, n_model - k, form[len(pre) + k:], tag, names, q,
                                           details))

    # SGJP splits some lemmas into homonyms of one class (zsiekać:Vp, zsiekać:Vi for the two
    # aspects): the word is given their union; homonyms of different classes stay apart
    by_class: dict[str, list] = {}
    for lid, items in sorted(by_lid.items()):
        by_class.setdefault(class_of_tag(items[0][3]), []).extend(items)
    out = []
    for cls, items in sorted(by_class.items()):
        items = tuple(dict.fromkeys(items))
        out.append((cls, max(s for _p, s, *_ in items), items))
    _PARADIGMS[model] = out
    return out


def apply(word: str, items: tuple) -> list[tuple]:
    """The word's forms by a paradigm, in the shape of sgjp.generate's results."""
    n = len(word)
    return [(pre + word[:n - strip] + add, word, tag, names, quals, details)
            for pre, strip, add, tag, names, quals, details in items]


def _candidates(rev_list, word, deepest, want_class, per_level=PER_LEVEL):

    for shared, models in levels(rev_list, word, deepest, per_level):
        found = []
        for model in models:
            for lid, strip, items in paradigms(model):
                if strip > shared or len(word) - strip < 1:
                    continue
                if want_class is not None and class_of_tag(items[0][3]) != want_class:
                    continue
                found.append((model, items))
        if found:
            yield shared, found


def guess(word: str, models: Models, *, flags: str | None = None, hforms: set | None = None,
          want_class: str | None = None, listed=frozenset()):
    """-> (model lemma, results in sgjp.generate's shape) or (None, reason). ``listed``: the
    dictionary's other entries, which attest paradigm parts too (see ``attested``)."""
    if hforms:
        return _guess_corroborated(word, models, flags, hforms, want_class, listed)
    best = None
    fallback = None
    longest = 0
    for shared, found in _candidates(models.all, word, MIN_SHARED, want_class):
        longest = max(longest, shared)
        # a model derived from the word itself by a prefix (zabłękitnieć for błękitnieć,
        # nieobecny for obecny, arcyciekawie for ciekawie) usually differs in aspect, negation
        # or degree, and with it in whole paradigm parts: it is a model only when no other is
        # near; compound nouns (trójbok for bok) inflect like the word
        derived = {m for m, it in found if len(m) > len(word) and m.endswith(word)
                   and not it[0][3].startswith(("subst", "depr"))}
        own = [(m, it) for m, it in found if m not in derived]
        if not own:
            fallback = fallback or found
            continue
        found = own
        if word.endswith(("ć", "c")):
            # aspect follows derivation, not the ending: a prefixed verb takes the paradigm of
            # prefixed models, an unprefixed one that of unprefixed models
            mine = models.prefixed_verb(word)
            same = [(m, it) for m, it in found if models.prefixed_verb(m) == mine]
            if not same:
                fallback = fallback or found
                continue
            found = same
        votes: dict[tuple, list] = {}
        for model, items in found:
            sig = tuple(sorted((p, s, a, t) for p, s, a, t, *_ in items))
            votes.setdefault(sig, []).append((model, items))
        sig = max(votes, key=lambda s: (len(votes[s]), -len(s), s))
        best = votes[sig][0]
        best = (best[0], _with_majority_parts(best[1], [it for _m, it in found]))
        if longest < SURE_SHARED:
            best = (best[0], citation_only(best[1]))
            if not best[1]:
                return None, "no-model"
        break
    if best is None and fallback:
        best = fallback[0]
    if best is None:
        return None, "no-model"
    return best[0], apply(word, best[1])


def citation_only(items: tuple) -> tuple:
    """The paradigm's items that give the lemma itself (no prefix, nothing stripped or added):
    the headword alone, under the paradigm's tags for it, with no nie- or fused form built on
    it (paradigms.expand_lemma reads those from the details' kind and nie fields)."""
    return tuple(i[:6] + (i[6][:2] + (0, False) + i[6][4:],)
                 for i in items if not i[0] and not i[1] and not i[2])


def _part(item) -> str:
    return item[3].split(":", 1)[0]


def _with_majority_parts(items: tuple, voters: list) -> tuple:
    """The winning paradigm plus each part (ppas, pact, ...) it lacks that most voters have,
    taken from the nearest voter that has it."""
    have = {_part(i) for i in items}
    extra: list = []
    for part in sorted({_part(i) for it in voters for i in it} - have):
        with_part = [it for it in voters if any(_part(i) == part for i in it)]
        if 2 * len(with_part) >= len(voters):
            extra += [i for i in with_part[0] if _part(i) == part]
    return items + tuple(extra)


def _expanded(word: str, results: list) -> set[str]:
    """Every form the build makes of a paradigm (fused forms, nie- included)."""

    forms, _reason = expand_lemma(word, results=results)
    return {f for f, *_ in forms}


def agreement(word: str, results: list, hforms: set) -> int:
    """How many of Hunspell's forms of the word the paradigm's expansion makes."""
    return len(_expanded(word, results) & hforms)


def _guess_corroborated(word, models, flags, hforms, want_class, listed=frozenset()):
    if len(hforms) == 1:
        # one form attests no paradigm; sjp.pl leaves uninflected mostly foreign words and
        # phrases (culture, absentes), only about half of them on the game list (docs/measurements.md)
        return None, "unflagged-unknown"
    pools = []
    same = models.by_flags.get(flags) if flags else None
    if same:
        pools.append((same, 1, 1, 3))
    pools.append((models.all, MIN_SHARED, 2, 4))
    best = None
    for rev_list, deepest, depth, per_level in pools:
        # islice: the level after the last one looked at is never made (its models' paradigms)
        for shared, found in islice(_candidates(rev_list, word, deepest, want_class,
                                                per_level=per_level), depth):
            n_word = len(word)
            for model, items in found:
                # ranked by the paradigm's own forms (cheap); the fused forms and nie- forms
                # Hunspell also lists count once a model is chosen
                forms = {pre + word[:n_word - strip] + add for pre, strip, add, *_ in items}
                key = (len(forms & hforms), shared, -len(forms - hforms), model)
                if best is None or key > best[0]:
                    best = (key, model, items)
        if best is not None:
            results = apply(word, best[2])
            agree = len(_expanded(word, results) & hforms)
            if agree >= CORROBORATION * len(hforms):
                break
    if best is None:
        return None, "no-model"
    _key, model, _items = best
    if agree < CORROBORATION * len(hforms):
        return None, "uncorroborated"
    return model, attested(results, hforms, listed)


def attested(results: list, hforms: set, listed=frozenset()) -> list:
    """The parts of a guessed paradigm that Hunspell attests: the forms of each SGJP
    paradigm part (fin, praet, ppas, ger, subst, adj, ...; a negated form counting as its
    positive one) of which Hunspell makes at least one form, or which is an entry of the
    dictionary itself (``listed``: sjp.pl lists nie- words, and a verb's transgressives and
    participles such as acylując, as entries of their own)."""
    parts: dict[str, bool] = {}
    for form, _lid, tag, *_ in results:
        part = tag.split(":", 1)[0]
        positive = form[3:] if tag.endswith(":neg") and form.startswith("nie") else form
        if form in hforms or positive in hforms or form in listed:
            parts[part] = True
    return [r for r in results if parts.get(r[2].split(":", 1)[0])]
