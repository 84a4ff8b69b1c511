"""Adjectives derived from place names (seed 004: "přídavná jména odvozená od místních názvů",
ostravská). An adjective headword in -ský/-cký is a place-name adjective when the dictionary holds the
capitalised name it derives from by the regular derivation (Ostrava -> ostravský, Praha -> pražský,
Brno -> brněnský, Kladno -> kladenský, Znojmo -> znojemský, Moskva -> moskevský, Olomouc -> olomoucký,
Písek -> písecký, Pardubice -> pardubický, Hamburk -> hamburský, Aarhus -> aarhuský) and that name
declines as a place (a declension flag whose gender, by genders.tsv, is inanimate, feminine or neuter:
Drážďany/D is a feminine plural; Byron/PV, a person, gives byronský, which stays). The comparatives
and adverbs of such an adjective are tagged with it (pražštější, pražsky).

Not place-name adjectives, as a linguist would have it: adjectives of countries, continents, nations
and languages (český, polský, německý, americký, evropský, kanadský). Their names are recognised by
the endings of country names (Česko, Polsko, Německo: -sko/-cko; Anglie, Itálie: -ie; Amerika,
Afrika: -ika) and, for the rest, by the reviewed list data/countries.tsv.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from .tagger import GENDER_FLAGS, noun_gender, word_class

COUNTRY_ENDINGS = ("sko", "cko", "ie", "ika")
# the ending of the names the dictionary lists without flags that are Czech villages and towns
# (Alšovice, Batouchovice): the feminine plural -ice; other flagless names are as often countries
# (Chile, Burundi), foreign cities or forms of persons' names (Hegelovi)
FLAGLESS_PLACE_ENDINGS = ("ice",)
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
        out += [b, b[:-1] + "k", b + "e"]            # Olomouc, Hradec; Písek; Pardubice, Teplice
        if b.endswith("nic"):
            out.append(b[:-2] + "ík")                # Mělník, Rakovník, Javorník
        out += [b[:-1] + "k" + v for v in "ao"]      # Amerika, Německo (country endings)
        out.append(b[:-1] + "ky")                    # Roztoky, Klobouky
        if b.endswith("ec"):
            out += [b[:-2] + e for e in ("ce", "ka", "ky")]  # Dvorce; Sobotka, Studénka; Počátky
    elif adjective.endswith("ský"):
        b = adjective[:-3]                           # ostrav-, praž-, brněn-, aarhu-, zlín-
        stems = [b] + [b[: -len(a)] + h for a, h in UNDO if b.endswith(a)]
        for s in stems:
            out += [s] + [s + v for v in VOWELS] + [s + "ie", s + "í"]   # Vrchlabí, Štětí
        out += [b + "s", b + "sy"]                   # Aarhus; Plasy, Veltrusy
        if b.endswith("ň"):
            out.append(b[:-1] + "ně")                # Rtyně
        if b.endswith("š"):
            out.append(b + "ka")                     # Dobruška
        if b[-1:] in "rnl":
            out.append(b + "k")                      # Hamburk, Norimberk
        bare = _without_inserted_vowel(b)
        if bare is not None:
            # a vowel inserted before the last consonant: Brno -> brněnský, Kladno -> kladenský,
            # Znojmo -> znojemský, Moskva -> moskevský, Sumatra -> sumaterský
            out += [bare + v for v in "oaye"]        # ... Jirny, Davle
            if b[-1] == "n":
                out += [b[:-2] + v for v in "oa"]
        out += [b + "ko"]                            # Polsko, Česko
    return out


def irregular_name_candidates(adjective: str) -> list[str]:
    """Lowercase place names of the irregular derivations, tried when the regular ones find no place:
    -ecký added to the bare stem (Most -> mostecký, Ústí -> ústecký) and -sk + -ský (Novosibirsk ->
    novosibirský)."""
    if adjective.endswith("ecký"):
        b = adjective[:-4]
        return [b, b + "í"]
    if adjective.endswith("ský"):
        return [adjective[:-3] + "sk"]
    return []


def _without_inserted_vowel(stem: str) -> str | None:
    """The stem without the e/ě before its last consonant (brněn- -> brn-, neger- -> negr-), or None."""
    if len(stem) > 4 and stem[-2:-1] in ("e", "ě") and stem[-1] not in VOWELS:
        return stem[:-2] + stem[-1]
    return None


def _lengthened(word: str) -> list[str]:
    """The common noun whose vowel the adjective shortens: the last o as ů (dvor- -> dvůr: dvorský),
    and the agent nouns in -ník (lesnik- -> lesník: lesnický, beside the village Lesnice)."""
    out = []
    i = word.rfind("o")
    if i >= 0:
        out.append(word[:i] + "ů" + word[i + 1:])
    if word.endswith("nik"):
        out.append(word[:-2] + "ík")
    return out


def _common_word_stems(adjective: str) -> list[str]:
    """Common nouns an adjective may derive from by other derivations: the vowel before the last
    consonant inserted (negr -> negerský, beside Rio Negro), -ika -> -ický (kubika -> kubický, beside
    the village Kubice)."""
    b = adjective[:-3]
    bare = _without_inserted_vowel(b)
    out = [bare] if bare is not None else []
    if adjective.endswith("ický"):
        out.append(b + "ka")
    return out


def _common_stem_of_its_own(word: str, adjective: str, dic) -> bool:
    """Whether a common word of _common_word_stems stands in the way: any line of an -ika word (kubika:
    kubický), but a stem without its inserted vowel only when it is a common word of its own (negr:
    negerský; not hamr/H, a thing: hamerský is the adjective of Hamry)."""
    if word not in dic.flagged:
        return False
    return word.endswith("ka") and adjective.endswith("ický") or _common_word_of_its_own(word, dic)


def place_of_single_word(adjective: str, dic) -> str | None:
    """The capitalised place name a -ský/-cký adjective headword derives from, when it is a place-name
    adjective (not a country, continent, nation or language adjective); None otherwise. An adjective
    that may as well derive from a common word of the dictionary that is a person, an animal or no
    noun (rybářský: rybář; dvorský: dvůr) is not taken (precision first); an inanimate common noun
    spelled like the place does not stand in the way (táborský: Tábor, beside tábor and táborový).
    The irregular derivations are tried only when the regular ones reach no place name."""
    if not adjective.endswith(("ský", "cký")) or len(adjective) < 6:
        return None
    regular = name_candidates(adjective)
    if any(c[:1].upper() + c[1:] in dic.place_names for c in regular):
        return _place_among(adjective, regular, dic)
    if any(c in dic.flagged and _common_word_of_its_own(c, dic) for c in regular):
        return None                                  # milenecký: milenec, not Milena
    return _place_among(adjective, irregular_name_candidates(adjective), dic)


def _place_among(adjective: str, cands: list[str], dic) -> str | None:
    found = [(c, c[:1].upper() + c[1:]) for c in cands]
    found = [(c, name) for c, name in found if name in dic.place_names]
    if not found:
        return None
    if any(c.endswith(COUNTRY_ENDINGS) or name in countries() for c, name in found) \
            or national_land(adjective, dic):
        return None                                  # český, polský, norský, americký, kanadský
    if any(c in dic.flagged and _common_word_of_its_own(c, dic) for c, _name in found) \
            or any(c in dic.flagged and _names_a_person(c, dic) for c in cands) \
            or any(_common_word_of_its_own(w, dic) for c in cands if c[-1] not in VOWELS for w in _lengthened(c)) \
            or any(_common_stem_of_its_own(w, adjective, dic) for w in _common_word_stems(adjective)):
        return None                                  # rybářský, dvorský, lesnický, negerský, kubický
    for _c, name in sorted(found, key=lambda cn: dic.place_names[cn[1]] == [""]):   # Mělník before Mělnice
        if any(_declines_as_place(name, f) for f in dic.place_names[name]) and not _womans_name(name, dic) \
                and not _feminine_of_a_person(name, dic):
            return name
    return None


def national_land(adjective: str, dic) -> str | None:
    """The land of a nation or a country whose name in -sko/-cko the dictionary holds beside the
    place the adjective may derive from (Prusko beside Prusy, Nizozemsko beside Nizozemí), when the
    land is in countries.tsv or the dictionary has its language (pruština, nizozemština, němčina).
    None for the area of a town (Ostravsko, Žatecko: an Ostravák is no nation)."""
    stem = adjective[:-2] if adjective.endswith("cký") else adjective[:-3]     # žatec-, kutnohor-
    land = (stem + "ko" if adjective.endswith("cký") else stem + "sko")
    land = land[:1].upper() + land[1:]
    if land in dic.place_names and (land in countries() or language(stem, dic)):
        return land
    return None


def language(stem: str, dic) -> str | None:
    """The language the dictionary names on the stem of a land's name: polština (Polsko), pruština,
    nizozemština, němčina (Německo), turečtina (Turecko)."""
    words = [stem + "ština"] + ([stem + "tina"] if stem.endswith("š") else [])     # lotyština
    if stem.endswith("c"):
        words.append(stem[:-1] + "čtina")
        if _names_a_person(stem[:1].upper() + stem[1:], dic):
            words.append(stem[:-2] + "čina")          # Němec: němčina (písčina is sand, Písek a town)
    return next((w for w in words if w in dic.entries), None)


def _womans_name(name: str, dic) -> bool:
    """A feminine -a name that the dictionary also declines as a person (P, V: Jana/PVZQ, Martina,
    Petra) beside a man's name without the -a (Jan/PV, Martin, Petr): it declines like a feminine
    place name (Ostrava/ZQ), but names a person. Praha/ZQ, Lima/ZQ have no person flag."""
    if not name.endswith("a"):
        return False
    def person(word: str) -> bool:
        return any((g := noun_gender(word, f)) and "ANIM" in g for fl in dic.place_names.get(word, ()) for f in fl)
    return person(name) and person(name[:-1])


def _feminine_of_a_person(name: str, dic) -> bool:
    """A feminine -ka name whose masculine the dictionary declines as a person: a woman of a nation
    (Němka: Němec; Lotyška: Lotyš; Kazaška: Kazach), not a place in -ka (Sobotka, Studénka)."""
    if not name.endswith("ka"):
        return False
    stem = name[:-2]
    men = [stem + "ec"] + ([stem[:-1] + "ch"] if stem.endswith("š") else [])
    if stem + "sko" in dic.place_names:
        men.append(stem)                             # Lotyš (Lotyšsko), not Dobruš (Dobruška)
    return any(_names_a_person(m, dic) for m in men)


def _common_word_of_its_own(word: str, dic) -> bool:
    """Whether the lowercase word a -ský/-cký adjective derives from may be the adjective's own source,
    not the place name spelled alike: a person or animal (rybář/U -> rybářský: persons form -ský
    adjectives), a word that is no noun or a line without flags (dvůr -> dvorský). An inanimate common noun is not (most/HR, tábor/LR,
    plzeň/Z, ústí/S: things form -ní/-ový adjectives, mostní, táborový; their -ský/-cký adjective is
    the town's: mostecký, táborský, plzeňský, ústecký)."""
    lines = dic.flags_of(word)
    if lines is None or (lines and all(word_class(word, f) in ("verb", "cvb") for f in lines)):
        return False                    # zliv/XN, an imperative of zlít, gives no zlivský (Zliv)
    genders = [noun_gender(word, f) for fl in lines for f in fl]
    genders = [g for g in genders if g]
    return not genders or any("ANIM" in g for g in genders)


def _names_a_person(word: str, dic) -> bool:
    """A declension flag of the word gives an animate noun (rybář/U: rybářský, beside a village Rybáře)."""
    return any((g := noun_gender(word, f)) and "ANIM" in g for fl in dic.flags_of(word) or () for f in fl)


def compound_place_of(adjective: str, dic) -> str | None:
    """The place name behind a compound adjective of a two-word name or a part of a place: a first part
    that is an adjective's stem + -o (staro-: starý, česko-: český, horno-: horní) and a second part
    that is itself an adjective of the dictionary and a place-name adjective (staropražský,
    českobudějovický, velkomeziříčský). The longest second part in the dictionary after an -o- or -é-
    joint decides (kvazipolitický: politický, not a place's, though litický is), and
    an adjective whose whole stem is a common word is not a compound (pivovarský: pivovar)."""
    if any(c in dic.flagged for c in name_candidates(adjective)):
        return None
    for i in range(4, len(adjective) - 5):
        tail = adjective[i:]
        if tail not in dic.entries:
            continue
        if adjective[i - 1] not in "oé":
            continue                    # českotěšínský: otěšínský is a word, but no joint before it
        first = adjective[: i - 1]
        if any(first + e in dic.entries for e in ("ý", "í", "ský", "cký")):
            return place_of_single_word(tail, dic)
        return None
    return None


def possessive_place_of(adjective: str, dic) -> str | None:
    """The place name behind the adjective of a two-word name whose first word is a man's possessive
    (Karlovy Vary -> karlovarský, Jindřichův Hradec -> jindřichohradecký): a first part that is a
    capitalised name of the dictionary declined as a person, with its mobile e dropped (Karel ->
    karlo-), + -o, and a second part that is a place-name adjective of a place of the dictionary
    (varský: Vary), though the dictionary need not list that adjective itself. A first part of fewer
    than 4 letters is a learned prefix more often than a name (filopatrický: Fil, Patric). Measured on
    cs_CZ.dic: 9 more adjectives tagged, all of places (karlovarský, jindřichohradecký, svatohelenský,
    středolabský, severodvinský, ...); not when the whole stem is a common word."""
    if any(c in dic.flagged for c in name_candidates(adjective)):
        return None
    for i in range(4, len(adjective) - 5):
        if adjective[i - 1] != "o":
            continue
        first = adjective[:i - 1]
        if len(first) < 4:          # filo-, geo-, neo-: learned prefixes, not names (filopatrický)
            continue
        name = first[:1].upper() + first[1:]
        names = [name] + ([name[:-1] + "e" + name[-1]] if name[-2] not in VOWELS + "áéíóúůý" else [])
        if any(_names_a_person(n, dic) for n in names):
            place = place_of_single_word(adjective[i:], dic)
            if place:
                return place
    return None


def _declines_as_place(name: str, flags: str) -> bool:
    """A declension flag of the name gives an inanimate, feminine or neuter noun (genders.tsv), or the
    name has flags and none of them gives a gender (Příbram/I, Cetoraz/I: a place declined by its
    plural ending alone; on cs_CZ.dic this tags 4 more adjectives: příbramský, cetorazský,
    alžbětinský, karlinecký)."""
    if flags and not set(flags) & GENDER_FLAGS and "Y" not in flags:     # Jiří/Y: a man's name
        return True
    if not flags and name.endswith(FLAGLESS_PLACE_ENDINGS):
        return True                     # Alšovice, listed without flags: a village (flagless-ice)
    return any((g := noun_gender(name, flag)) and "ANIM" not in g for flag in flags)
