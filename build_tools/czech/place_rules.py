"""Which place name a -ský/-cký adjective headword derives from, and by which rule (`place_derivation`):
the rules of places.py (the regular derivation and its irregular cases, compounds of two-word names and
of a man's possessive) and the derivations of this module, tried after them:

* adjective-name: a place whose name is itself an adjective form, feminine or neuter (Karviná ->
  karvinský, Polná -> polenský, Světlá -> světelský, Jílové -> jílovský, Hluboká -> hlubocký);
* sko-enský: a name in -sko whose adjective inserts -en- (Blansko -> blanenský);
* area: the dictionary names the area around a place after it (Žatecko, Litovelsko, Kutnohorsko,
  Havlíčkobrodsko): the area and a place name the adjective derives from, whatever its declension
  (Žatec/U: declined like chlapec), or a two-word name read off the area (Kutnohorsko: Kutn-á + hora);
* adjective-two-word: a two-word name of an adjective form and a noun (Kutná Hora -> kutnohorský,
  Bílá Hora -> bělohorský), its first word one the dictionary knows only as a name.

Each rule is measured on cs_CZ.dic in docs/build.md. The common-word guard of places.py holds for all:
an adjective that may derive from a person, an animal or a word that is no noun stays (lesnický,
rybářský, dvorský), and countries, nations and historical lands stay (polský, slezský).
"""

from __future__ import annotations

from .comparatives import comparative_rules
from .places import (COUNTRY_ENDINGS, VOWELS, _common_word_of_its_own, _feminine_of_a_person, _names_a_person,
                     compound_place_of, countries, irregular_name_candidates, name_candidates, national_land,
                     place_of_single_word, possessive_place_of)
from .tagger import noun_gender

# the rules, in the order they are tried, and what explain says of each
RULES = {
    "regular": "regular derivation",
    "flagless-ice": "name in -ice the dictionary lists without flags",
    "ník": "-ník -> -nický",
    "irregular": "irregular derivation",
    "compound": "two-word name, adjective + o + place",
    "possessive": "two-word name, possessive + o + place",
    "adjective-name": "name that is an adjective form",
    "sko-enský": "-sko -> -enský",
    "area": "area named after the place",
    "adjective-two-word": "two-word name, adjective form + noun",
    "common-noun": "name spelled like a common noun in -ice, with a surname of the adjective",
}
# the endings of names that are adjective forms but name persons (Nováková, Adamovský, Černá is a
# place too) or are the first word of a longer name
_PERSON_ADJECTIVE_ENDINGS = ("ová", "ská", "cká", "ské", "cké", "ský", "cký")


def cap(word: str) -> str:
    return word[:1].upper() + word[1:]


def place_of(adjective: str, dic) -> str | None:
    """The capitalised place name a -ský/-cký adjective headword derives from, or None."""
    found = place_derivation(adjective, dic)
    return found[1] if found else None


def place_derivation(adjective: str, dic) -> tuple[str, str] | None:
    """(rule, place name) of a place-name adjective headword (RULES names the rule), or None."""
    if not adjective.endswith(("ský", "cký")) or len(adjective) < 6:
        return None
    name = place_of_single_word(adjective, dic)
    if name:
        return _single_word_rule(adjective, name, dic), name
    for rule, find in (("compound", compound_place_of), ("possessive", possessive_place_of),
                       ("adjective-name", adjective_name_place_of), ("sko-enský", sko_ensky_place_of),
                       ("area", area_place_of), ("adjective-two-word", adjective_two_word_place_of),
                       ("common-noun", common_noun_place_of)):
        name = find(adjective, dic)
        if name:
            return rule, name
    return None


def _single_word_rule(adjective: str, name: str, dic) -> str:
    low = name.lower()
    if dic.place_names.get(name) == [""]:
        return "flagless-ice"
    if low.endswith("ník") and adjective.endswith("nický"):
        return "ník"
    if low not in name_candidates(adjective) and low in irregular_name_candidates(adjective):
        return "irregular"
    return "regular"


def _common_source(adjective: str, dic) -> bool:
    """The adjective may derive from a common word of its own (a person, an animal, no noun) by the
    regular derivation: the guard of places.py."""
    return any(c in dic.flagged and _common_word_of_its_own(c, dic) for c in name_candidates(adjective))


def _adjective_names(stem: str, dic) -> list[str]:
    """Names of the dictionary that are a feminine or neuter adjective form of the stem (Karviná,
    Jílové) or of the stem without an inserted e (polen- -> Polná, světel- -> Světlá)."""
    stems = [stem]
    if len(stem) > 3 and stem[-2] == "e" and stem[-1] in "nl" and stem[-3] not in VOWELS + "áéíóúůý":
        stems.append(stem[:-2] + stem[-1])
    short = _shortened(stem)
    if short:
        stems.append(short)                 # slán- -> Slaná (Slaný -> slánský)
    out = []
    for s in stems:
        for end in ("á", "é"):
            name = cap(s + end)
            if name.endswith(_PERSON_ADJECTIVE_ENDINGS) or "Y" not in "".join(dic.place_names.get(name, ())):
                continue
            out.append(name)
    return out


# the long vowel of an adjective's last syllable and the short one of its name (Slaný -> slánský)
_SHORT_OF_LONG = {"á": "a", "é": "e", "í": "i", "ú": "u", "ů": "o", "ý": "y"}


def _shortened(stem: str) -> str | None:
    """The stem with the long vowel before its last consonant shortened (slán- -> slan-), or None."""
    if len(stem) > 3 and stem[-2] in _SHORT_OF_LONG and stem[-1] not in VOWELS + "áéíóúůý":
        return stem[:-2] + _SHORT_OF_LONG[stem[-2]] + stem[-1]
    return None


def adjective_name_place_of(adjective: str, dic) -> str | None:
    """A place whose name is a feminine or neuter adjective form of the dictionary's (flag Y):
    Karviná -> karvinský, Polná -> polenský, Jílové -> jílovský, Hluboká -> hlubocký. Not a name in
    -ová or -ská (surnames), and not when a common word of its own may give the adjective."""
    if _common_source(adjective, dic):
        return None
    stem = adjective[:-4] + "k" if adjective.endswith("cký") else adjective[:-3]
    names = _adjective_names(stem, dic)
    return names[0] if names else None


def sko_ensky_place_of(adjective: str, dic) -> str | None:
    """A name in -sko whose adjective inserts -en- before -ský (Blansko -> blanenský); no country
    forms its adjective so (Slovensko -> slovenský keeps the -en- of its name)."""
    if not adjective.endswith("enský") or _common_source(adjective, dic):
        return None
    name = cap(adjective[:-5] + "sko")
    if name in dic.place_names and name not in countries() and not national_land(adjective, dic):
        return name
    return None


def common_noun_place_of(adjective: str, dic) -> str | None:
    """A place named like a common noun in -ice (Hranice: hranice/ZQ, a border; Police: police, a
    shelf) that the dictionary holds only as the common noun: the -ický adjective counts as the
    place's when the dictionary also lists it as a surname (Hranický/Y: surnames in -ský name where a
    family came from) and no person, animal or other common source gives it (vesnický: vesnice has no
    surname Vesnický; uprchlický: uprchlík)."""
    if not adjective.endswith("ický") or cap(adjective) not in dic.entries or _common_source(adjective, dic):
        return None
    noun = adjective[:-2] + "e"
    genders = [g for fl in dic.flags_of(noun) or () for f in fl if (g := noun_gender(noun, f))]
    if not genders or any("ANIM" in g for g in genders) or _lengthened_person(adjective[:-2], dic):
        return None
    return cap(noun)


def _lengthened_person(stem: str, dic) -> bool:
    """A person or animal of the -ík or ů form of the stem (hranic-: hraník; kořenic-: kořeník)."""
    words = [stem[:-2] + "ík"] if stem.endswith("ic") else []
    return any(_common_word_of_its_own(w, dic) for w in words)


def _area(adjective: str, dic) -> str | None:
    """The dictionary's name of the area around a place, made of the adjective (Žatecko: žatecký,
    Kutnohorsko: kutnohorský), when the area is no country or nation's land."""
    stem = adjective[:-2] if adjective.endswith("cký") else adjective[:-3]     # žatec-, kutnohor-
    area = cap(stem + "ko") if adjective.endswith("cký") else cap(stem + "sko")
    if area not in dic.place_names or national_land(adjective, dic):
        return None
    return area


def area_place_of(adjective: str, dic) -> str | None:
    """The place an area of the dictionary is named after (Žatecko, Litovelsko, Kutnohorsko): a
    capitalised name the adjective derives from by the regular derivation, whatever its flags
    (Žatec/U is declined like chlapec, Litovel has none) but those of persons (P, V: Bavor, Prus), or a two-word name whose first word is an
    adjective's or a person's (Kutnohorsko: kutno- + hor-, Havlíčkobrodsko: havlíčko- + brod-)."""
    area = _area(adjective, dic)
    if area is None or _common_source(adjective, dic):
        return None
    for c in name_candidates(adjective):
        name = cap(c)
        if not c.endswith(COUNTRY_ENDINGS) and name in dic.place_names and name not in countries() \
                and not any(set(f) & set("PV") for f in dic.place_names[name]) \
                and not _feminine_of_a_person(name, dic):
            return name                            # Žatec/U, Litovel; not Bavor/PV (Bavorsko)
    return area if _two_word_stem(adjective[:-3], dic) else None


def _two_word_stem(stem: str, dic) -> bool:
    """Whether the stem is a first word + o + a second word (kutno-hor, havlíčko-brod, uhersko-brod):
    the first an adjective of the dictionary (uherský), a name that is an adjective form (Kutná) or a
    person's name (Havlíček); the second a stem that names no land of its own (Slovensko:
    československý stays)."""
    for i in range(3, len(stem) - 2):
        if stem[i] != "o":
            continue
        first, second = stem[:i], stem[i + 1:]
        if cap(second + "sko") in dic.place_names or cap(second + "ko") in dic.place_names:
            continue
        if any(first + e in dic.entries or cap(first + e) in dic.place_names for e in ("ý", "á", "é", "ský", "cký")):
            return True
        if len(first) >= 4 and first[-2] not in VOWELS + "áéíóúůý" and _names_a_person(cap(first[:-1] + "e" + first[-1]), dic):
            return True
    return False


def adjective_two_word_place_of(adjective: str, dic) -> str | None:
    """A two-word name of an adjective form and a noun (Kutná Hora -> kutnohorský, Bílá Hora ->
    bělohorský): the first word a name of the dictionary that is a feminine or neuter adjective form
    (Kutná/Y; not a surname in -ová or -ská) with no common adjective beside it (kutný, bělý are no words), not a
    person's; the second part a -ský adjective of the dictionary made from an inanimate noun or a
    place (horský: hora; mlýnský: mlýn)."""
    if not adjective.endswith("ský") or any(c in dic.flagged for c in name_candidates(adjective)):
        return None
    for i in range(3, len(adjective) - 5):
        if adjective[i - 1] != "o":
            continue
        first, tail = adjective[:i - 1], adjective[i:]
        if first + "ý" in dic.entries or tail not in dic.entries:
            continue
        names = [cap(first) + e for e in ("á", "é")]
        names = [n for n in names if "Y" in "".join(dic.place_names.get(n, ()))
                 and not n.endswith(_PERSON_ADJECTIVE_ENDINGS) and not _names_a_person(n, dic)]
        if names and _noun_source(tail, dic):
            return f"{names[0]} {cap(_noun_source(tail, dic))}"
    return None


def _noun_source(adjective: str, dic) -> str | None:
    """The inanimate noun or place a -ský adjective derives from by the regular derivation (horský:
    hora, mlýnský: mlýn), not a -ika or -ice word (those give -ický adjectives of their own)."""
    for c in name_candidates(adjective):
        if c.endswith(("ika", "ice")):
            continue
        for word in (c, cap(c)):
            for flags in dic.entries.get(word, ()):
                if any((g := noun_gender(word, f)) and "ANIM" not in g for f in flags):
                    return word
    return None


def place_of_comparative(comparative: str, dic) -> str | None:
    """The place name behind a comparative headword of a place-name adjective (pražštější: Praha)."""
    found = comparative_derivation(comparative, dic)
    return found[1] if found else None


def comparative_derivation(comparative: str, dic) -> tuple[str, str] | None:
    """(rule, place name) behind a comparative headword of a place-name adjective (pražštější: Praha),
    by the comparative rules (data/comparatives.tsv) read backwards."""
    rules, _supp = comparative_rules()
    for positive_end, comparative_end in rules:
        if positive_end.endswith(("ský", "cký")) and comparative.endswith(comparative_end):
            found = place_derivation(comparative[: len(comparative) - len(comparative_end)] + positive_end, dic)
            if found:
                return found
    return None


def derivation_text(headword: str, dic) -> str:
    """What `explain` says of a place-name adjective headword (or its comparative) the build refused:
    the place name and the rule that derived it ("place name Mělník, rule ník: -ník -> -nický"); ""
    for any other headword."""
    found = place_derivation(headword, dic) or (comparative_derivation(headword, dic)
                                                 if headword.endswith("í") else None)
    if not found:
        return ""
    rule, place = found
    return f"place name {place}, rule {rule}: {RULES[rule]}"
