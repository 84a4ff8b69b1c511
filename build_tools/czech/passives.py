"""Passive participles the dictionary attests for verbs whose lines carry no passive flag.

cs_CZ.dic gives a verb its passive by the flags T or C (iczech: "trpný rod mají slovesa, která mají vazbu
se 4. pádem"), or lists it as a short-form line of its own (napsán/ON, chtěn/ON, vypit/ON), which the
engine then reads as an adjective headword with no tie to its verb. A verb line without a passive flag
gets the passive participle (-n/-t, -na, -no, -ni, -ny, -nu) when the dictionary attests it:
  * the short form is a line with flag O (napsat: napsán/ON; dbát: dbán/ON; pít: pit/ON), or
  * the verb's line has no conjugation flag (A, J, B: an irregular verb conjugated through separate
    finite lines, so its passive could not be flagged either) and the long passive adjective is a
    Y line (utnout/IN: utnutý/YKRN -> utnut).
The candidates come from the infinitive by data/passives.tsv. A candidate that another verb's passive
flags give (myšlen: myslit/T) or that is the candidate of two verbs (napaden: napadnout, napást) is
left out. Where the conjugation flags could have carried T and only the adjective is listed
(oscilovat/AN: oscilovaný, relaxovat/AN: relaxovaný), the missing flag is the dictionary's word that
the verb takes no accusative object: no passive (flirtován, relaxován would be phonies), and a
reflexive-tantum verb (podobat se) has no passive line to attest one.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from importlib import resources

from ..hunspell import expand_chains
from .tagger import PASS_ENDINGS, word_class

PASSIVE_FLAGS = "TC"
CONJUGATION_FLAGS = frozenset("AJB")


@lru_cache(maxsize=1)
def _rules() -> tuple[tuple[str, str], ...]:
    text = resources.files(__package__).joinpath("data", "passives.tsv").read_text(encoding="utf-8")
    return tuple(tuple(line.split("\t")) for line in text.splitlines()
                 if line.strip() and not line.startswith("#"))


def passive_candidates(infinitive: str) -> list[str]:
    """Short masculine passive forms the infinitive may have (data/passives.tsv), in table order."""
    out = []
    for inf_end, pass_end in _rules():
        if infinitive.endswith(inf_end) and len(infinitive) > len(inf_end):
            cand = infinitive[: len(infinitive) - len(inf_end)] + pass_end
            if cand not in out:
                out.append(cand)
    return out


def long_form(short: str) -> str:
    """The long passive adjective of a short form: dělán -> dělaný, nesen -> nesený, kryt -> krytý."""
    return short[:-2] + "aný" if short.endswith("án") else short + "ý"


def short_forms(short: str) -> list[str]:
    """The short forms of a passive (nesen: nesen, nesena, neseno, neseni, neseny, nesenu)."""
    return [short + e for e in PASS_ENDINGS]


def build_attested_passives(aff, entries: dict[str, list[str]], flagged: dict[str, tuple[str, ...]]
                            ) -> dict[str, tuple[str, ...]]:
    """infinitive -> the short masculine passive forms the dictionary attests for it (see above), for
    the verbs whose lines give no passive of their own."""
    own: set[str] = set()              # passives the dictionary's flags give (T, C; O on a -t verb)
    without: dict[str, bool] = {}      # verb without a passive flag -> conjugated by its own flags
    for word, fls in flagged.items():
        if not word.endswith("t") or not any(word_class(word, f) == "verb" for f in fls):
            continue
        flags = "".join(fls)
        pflags = "".join(dict.fromkeys(f for f in flags if f in PASSIVE_FLAGS))
        given = {form for form, chain in expand_chains(aff, word, pflags) if chain and form.endswith(("n", "t"))} \
            if pflags else set()
        if given or "O" in flags:
            own |= given
        else:
            without[word] = bool(set(flags) & CONJUGATION_FLAGS)
    cands = {w: passive_candidates(w) for w in without}
    verbs_of = defaultdict(set)
    for w, cs in cands.items():
        for c in cs:
            verbs_of[c].add(w)

    def has(word: str, flag: str) -> bool:
        return any(flag in f for f in entries.get(word, ()))

    out = {}
    for w in sorted(without):
        found = [c for c in cands[w]
                 if c not in own and len(verbs_of[c]) == 1
                 and (has(c, "O") or (not without[w] and has(long_form(c), "Y")))]
        if found:
            out[w] = tuple(found)
    return out
