"""Adjectives derived from place names (seed 004: "přídavná jména odvozená od místních názvů",
ostravská). An adjective headword in -ský/-cký is a place-name adjective when the dictionary holds the
capitalised name it derives from by the regular derivation (Ostrava -> ostravský, Praha -> pražský,
Brno -> brněnský, Kladno -> kladenský, Olomouc -> olomoucký, Písek -> písecký, Aarhus -> aarhuský) and
that name declines as a place (it has an inanimate, feminine or neuter declension flag: Byron/PV, a
person, gives byronský, which stays).

Not place-name adjectives, as a linguist would have it: adjectives of countries, continents, nations
and languages (český, polský, německý, americký, evropský, kanadský). Their names are recognised by
the endings of country names (Česko, Polsko, Německo: -sko/-cko; Anglie, Itálie: -ie; Amerika,
Afrika: -ika) and, for the rest, by the reviewed list data/countries.tsv.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

# declension flags of inanimate masculines, feminines and neuters (genders.tsv): a place declines so
PLACE_FLAGS = frozenset("HLZCMSQK")
COUNTRY_ENDINGS = ("sko", "cko", "ie", "ika")
VOWELS = "aoeyiěu"
# the stem's last consonant before -ský, undone (Praha -> praž-ský, Ostrava -> ostrav-ský)
UNDO = (("ž", "h"), ("š", "ch"), ("ž", "z"), ("č", "k"))


@lru_cache(maxsize=1)
def countries() -> frozenset[str]:
    """data/countries.tsv: names of countries and continents whose adjective the regular derivation
    reaches (Kanada -> kanadský, Evropa -> evropský)."""
    text = resources.files(__package__).joinpath("data", "countries.tsv").read_text(encoding="utf-8")
    return frozenset(l.split("\t")[0].strip() for l in text.splitlines() if l.strip() and not l.startswith("#"))


def name_candidates(adjective: str) -> list[str]:
    """Lowercase place names an adjective in -ský/-cký may derive from, by the regular derivation."""
    out = []
    if adjective.endswith("cký"):
        b = adjective[:-2]                           # olomouc-, hradec-, písec-, americ-
        out += [b, b[:-1] + "k"]                     # Olomouc, Hradec; Písek
        out += [b[:-1] + "k" + v for v in "ao"]      # Amerika, Německo (country endings)
    elif adjective.endswith("ský"):
        b = adjective[:-3]                           # ostrav-, praž-, brněn-, aarhu-, zlín-
        stems = [b] + [b[: -len(a)] + h for a, h in UNDO if b.endswith(a)]
        for s in stems:
            out += [s] + [s + v for v in VOWELS] + [s + "ie"]
        out.append(b + "s")                          # Aarhus
        for suffix in ("en", "ěn"):                  # Brno -> brněnský, Kladno -> kladenský
            if b.endswith(suffix) and len(b) > 4:
                out += [b[:-2] + v for v in "oa"] + [b[:-2] + "n" + v for v in "oa"]
        out += [b + "ko"]                            # Polsko, Česko
    return out


def _lengthened(word: str) -> str | None:
    """The last o as ů (dvor- -> dvůr: dvorský is the adjective of the common noun)."""
    i = word.rfind("o")
    return word[:i] + "ů" + word[i + 1:] if i >= 0 else None


def place_of(adjective: str, dic) -> str | None:
    """The capitalised place name a -ský/-cký adjective headword derives from, when it is a place-name
    adjective (not a country, continent, nation or language adjective); None otherwise. An adjective
    that may as well derive from a common word of the dictionary (táborský: tábor; ostrovský: ostrov)
    is not taken (precision first)."""
    if not adjective.endswith(("ský", "cký")) or len(adjective) < 6:
        return None
    cands = name_candidates(adjective)
    found = [(c, c[:1].upper() + c[1:]) for c in cands]
    found = [(c, name) for c, name in found if name in dic.place_names]
    if not found:
        return None
    if any(c.endswith(COUNTRY_ENDINGS) or name in countries() for c, name in found):
        return None                                  # český, polský, norský, americký, kanadský
    if any(c in dic.flagged for c, _name in found) or any(_lengthened(c) in dic.entries for c in cands if c[-1] not in VOWELS):
        return None                                  # táborský, ostrovský, dvorský: tábor, ostrov, dvůr
    for _c, name in found:
        if any(set(f) & PLACE_FLAGS for f in dic.place_names[name]):
            return name
    return None
