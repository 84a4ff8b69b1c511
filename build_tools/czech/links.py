"""Dictionary lines that belong to another headword's paradigm.

The build of a headword list expands each headword's own lines in the paradigm source and also the
lines the engine files under that headword (finite headwords of irregular verbs: napíšu -> napsat;
flagless case forms: domy -> dům; flagless present lines: musím -> muset; imperatives, plural variants),
and the adjective's comparative headword (zelený -> zelenější).
"""

from __future__ import annotations

from collections import defaultdict
from ..model import Reading
from .expand import expand_entry
from .tables import verb_links_of


def linked_headwords(dic) -> dict[str, list[tuple[str, str]]]:
    """lemma -> [(other headword, flags)] whose forms the build files under that lemma: finite headwords
    of irregular verbs (chce -> chtít) and flagless case forms of nouns (domy -> dům)."""
    entries = dic.entries
    links = defaultdict(list)
    for word, fls in entries.items():
        for f in fls:
            if "B" in f and not word.endswith(("t", "ti", "ct", "ci")):
                for inf, _future in verb_links_of(word, entries):
                    links[inf].append((word, f))
    # verbs the dictionary splits into an infinitive line (vést/IN) and a finite line (vedu/BN): pair an
    # infinitive without present-tense flags with the finite headword sharing its longest beginning
    # (at least all but three letters of the infinitive), when that pairing is unique
    finite = [(w, f) for w, fls in entries.items() for f in fls
              if "B" in f and w == w.lower() and not w.endswith(("t", "ti", "ct", "ci"))]
    lptcp = [(w, f) for w, fls in entries.items() for f in fls
             if "O" in f and w == w.lower() and w.endswith("l")]
    # an infinitive already linked to its finite headword (chtít <- chce) still needs its l-participle
    # headword (chtěl/O): each group is skipped only for the infinitives it already covers
    linked_finite = set(links)
    for group, linked_inf in ((finite, linked_finite), (lptcp, set())):
        by1 = defaultdict(list)
        for w, f in group:
            by1[w[:1]].append((w, f))
        for word, fls in entries.items():
            if word in linked_inf or word != word.lower() or not word.endswith(("t", "ti", "ct", "ci")):
                continue
            if not any(("I" in f or f == "") and not set(f) & set("AJB") for f in fls):
                continue
            best, best_n, tie = None, 0, False
            for w, f in by1.get(word[:1], ()):
                n = 0
                while n < min(len(w), len(word)) and w[n] == word[n]:
                    n += 1
                if n < max(1, len(word) - 3):
                    continue
                if n > best_n:
                    best, best_n, tie = (w, f), n, False
                elif n == best_n:
                    tie = True
            if best and not tie:
                links[word].append(best)
    # every flagless line the build files under another lemma (present lines musím -> muset, -nul
    # participles, case forms domy -> dům, imperatives nechte -> nechat, plural variants dinosauři ->
    # dinosaurus, 3rd plural bydlejí -> bydlet): as expand_entry does it in the build
    for form in sorted(dic.plain):
        for flags in entries.get(form, ()):
            if set(flags) - {"N"}:
                continue
            for lem in sorted({it.lemma for it in expand_entry(form, flags, dic)
                               if isinstance(it, Reading) and it.lemma != form}):
                links[lem].append((form, flags))
    return {lem: list(dict.fromkeys(srcs)) for lem, srcs in links.items()}
