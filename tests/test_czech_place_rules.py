"""The place-name derivations of build_tools/czech/place_rules.py (issue 38), each on a small dictionary
of the shipped dictionary's own lines, with the ordinary adjectives they must not take; the guard on
the shipped dictionary with a list of ordinary adjectives; explain naming the place and the rule."""

from __future__ import annotations

from pathlib import Path

from build_tools.cli import main as build_main
from build_tools.czech import CzechDictionary
from build_tools.czech.dictionary import shipped_paths
from build_tools.czech.place_rules import derivation_text, place_derivation, place_of
from lexicon_service.lexicon import load_lexicon
from tests.czech_shipped import shipped

ORDINARY = Path(__file__).parent / "data" / "czech_ordinary_adjectives.txt"


def _dic(path: Path, lines: list[str]) -> CzechDictionary:
    assert set(lines) <= set(shipped_paths()[0].read_text(encoding="utf-8").splitlines())
    path.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    path.with_suffix(".aff").write_bytes(shipped_paths()[1].read_bytes())
    return CzechDictionary.load(path)


def _derived(dic, adjectives) -> dict:
    return {a: place_derivation(a, dic) for a in adjectives}


def test_nik_names_and_names_that_are_adjective_forms(tmp_path):
    """Mělník -> mělnický (lesník, a person, keeps lesnický); Karviná -> karvinský, Polná -> polenský
    (the e inserted), Jílové -> jílovský; Blansko -> blanenský."""
    dic = _dic(tmp_path / "a.dic", ["Mělník/L", "mělnický/YR", "lesník/PI", "lesnický/YRN", "Karviná/Y",
                                     "karvinský/YR", "Polná/Y", "polenský/YKRN", "Jílové/Y", "jílovský/YR",
                                     "Blansko/C", "blanenský/YR"])
    assert _derived(dic, ["mělnický", "lesnický", "karvinský", "polenský", "jílovský", "blanenský"]) == {
        "mělnický": ("ník", "Mělník"), "lesnický": None, "karvinský": ("adjective-name", "Karviná"),
        "polenský": ("adjective-name", "Polná"), "jílovský": ("adjective-name", "Jílové"),
        "blanenský": ("sko-enský", "Blansko")}


def test_areas_named_after_a_place_and_the_lands_of_nations(tmp_path):
    """Žatecko beside Žatec/U (declined like chlapec), Litovelsko beside the flagless Litovel, and the
    areas of two-word names (Kutnohorsko: Kutná; Havlíčkobrodsko: Havlíček) tag their adjectives;
    Bavorsko (Bavor/PV, a person), Německo (Němec: němčina), Slezsko (Slezan) and Lotyšsko are lands
    of nations: their adjectives stay."""
    dic = _dic(tmp_path / "b.dic", [
        "Žatec/U", "Žatecko/C", "žatecký/YR", "Litovel", "Litovelsko/C", "litovelský/YR", "Kutná/Y",
        "Kutnohorsko/C", "kutnohorský/YR", "Havlíček/PV", "Havlíčkobrodsko/C", "havlíčkobrodský/YR",
        "Bavor/PV", "Bavorsko/C", "bavorský/YRN", "Němec/U", "Německo/MQ", "němčina/ZQ", "německý/YKRN",
        "Němka/ZQ", "Slezan/PDI", "Slezsko/C", "slezský/YR", "Lotyš/UV", "Lotyška/ZQ", "Lotyšsko/C",
        "lotyšský/YRN", "Prus/PVU", "Prusy/D", "Prusko/C", "pruština/ZQ", "pruský/YRN"])
    assert _derived(dic, ["žatecký", "litovelský", "kutnohorský", "havlíčkobrodský", "bavorský", "německý",
                          "slezský", "lotyšský", "pruský"]) == {
        "žatecký": ("area", "Žatec"), "litovelský": ("area", "Litovel"),
        "kutnohorský": ("area", "Kutnohorsko"), "havlíčkobrodský": ("area", "Havlíčkobrodsko"),
        "bavorský": None, "německý": None, "slezský": None, "lotyšský": None, "pruský": None}


def test_two_word_names_and_the_new_regular_endings(tmp_path):
    """Bílá Hora -> bělohorský (no common adjective bělý; vysokohorský stays: vysoký is one); Český
    Těšín -> českotěšínský (otěšínský is a word, but no joint stands before it); Roztoky, Vrchlabí,
    Plasy, Rtyně, Sobotka, Dobruška, Jirny, Davle; not Němka (a woman of a nation: německý)."""
    dic = _dic(tmp_path / "c.dic", [
        "Bělá/Y", "hora/ZQ", "horský/YRN", "bělohorský/Y", "vysoký/YKRON", "vysokohorský/YRN", "Těšín/LR",
        "těšínský/YR", "otěšínský/YR", "český/YKRN", "českotěšínský/Y", "Roztoky/ZQ", "roztocký/YR",
        "Vrchlabí/C", "vrchlabský/Y", "Plasy/HD", "plaský/YR", "Rtyně/Z", "rtyňský/YR", "Sobotka/PVZQ",
        "sobotecký/YR", "Dobruška/ZQ", "dobrušský/YR", "Jirny/HQ", "jirenský/YR", "Davle/Z", "davelský/YR",
        "Němec/U", "Němka/ZQ", "německý/YKRN"])
    assert {a: place_of(a, dic) for a in ["bělohorský", "vysokohorský", "českotěšínský", "roztocký",
                                          "vrchlabský", "plaský", "rtyňský", "sobotecký", "dobrušský",
                                          "jirenský", "davelský", "německý", "horský"]} == {
        "bělohorský": "Bělá Hora", "vysokohorský": None, "českotěšínský": "Těšín", "roztocký": "Roztoky",
        "vrchlabský": "Vrchlabí", "plaský": "Plasy", "rtyňský": "Rtyně", "sobotecký": "Sobotka",
        "dobrušský": "Dobruška", "jirenský": "Jirny", "davelský": "Davle", "německý": None, "horský": None}


def test_no_ordinary_adjective_of_the_list_is_taken_for_a_place_name_adjective():
    dic = shipped()
    words = [w for w in ORDINARY.read_text(encoding="utf-8").split() if not w.startswith("#")]
    words = [w for w in ORDINARY.read_text(encoding="utf-8").splitlines() if w and not w.startswith("#")]
    assert len(words) >= 100
    assert {w: place_of(w, dic) for w in words if place_of(w, dic)} == {}
    assert sum(w in dic.entries for w in words) >= 100      # the list is of the dictionary's words


def test_explain_names_the_place_and_the_rule_that_derived_a_refused_adjective(tmp_path):
    lines = ["Mělník/L", "mělnický/YR", "Žatec/U", "Žatecko/C", "žatecký/YR", "lesník/PI", "lesnický/YRN"]
    dic = tmp_path / "e.dic"
    _dic(dic, lines)
    out = tmp_path / "e.lex"
    assert build_main(["--rules", "cs-kriskros", "--quiet", "--workers", "1", "--hunspell", str(dic),
                       "-o", str(out)]) == 0
    with load_lexicon(out) as lex:
        key = lex.rule_set.tile_set.key_of_text
        assert not lex.is_admissible(key("mělnická")) and lex.is_admissible(key("lesnická"))
        assert lex.refusals(key("mělnická")) == [
            ("place-name-adjective", "mělnický", "place name Mělník, rule ník: -ník -> -nický")]
        assert lex.refusals(key("žatečtí")) == [
            ("place-name-adjective", "žatecký", "place name Žatec, rule area: area named after the place")]


def test_villages_in_ice_listed_without_flags_and_towns_named_like_common_nouns(tmp_path):
    """Alšovice, a line without flags, tags alšovický (Chile, also without flags, is a country: chilský
    stays); Mělník keeps its own rule beside the flagless Mělnice. Hranice (hranice/ZQ, a border, and
    the surname Hranický/Y) tags hranický; vesnice has no such surname (vesnický stays), uprchlík and
    kameník are persons (uprchlický, kamenický stay, though Kamenice is a place)."""
    dic = _dic(tmp_path / "f.dic", [
        "Alšovice", "alšovický/YR", "Chile", "chilský/YRN", "Mělník/L", "Mělnice", "mělnický/YR",
        "hranice/ZQ", "hranický/Y", "Hranický/Y", "vesnice/ZQ", "vesnický/YRN", "uprchlík/PI",
        "uprchlický/YR", "Kamenice/S", "kameník/PI", "kamenický/YR"])
    assert _derived(dic, ["alšovický", "chilský", "mělnický", "hranický", "vesnický", "uprchlický",
                          "kamenický"]) == {
        "alšovický": ("flagless-ice", "Alšovice"), "chilský": None, "mělnický": ("ník", "Mělník"),
        "hranický": ("common-noun", "Hranice"), "vesnický": None, "uprchlický": None, "kamenický": None}
    assert derivation_text("hranický", dic) == ("place name Hranice, rule common-noun: name spelled like a "
                                                "common noun in -ice, with a surname of the adjective")


def test_vowel_length_verb_forms_and_things_without_the_inserted_vowel(tmp_path):
    """Slaná -> slánský (the adjective lengthens the vowel); Zliv -> zlivský though zliv/XN is an
    imperative of zlít (a verb form gives no -ský adjective); Hamry -> hamerský though hamr/H, a
    thing, is the stem without the inserted e (negr/PI, a person, keeps negerský)."""
    dic = _dic(tmp_path / "g.dic", [
        "Slaná/Y", "slánský/YKRN", "Zliv/K", "zliv/XN", "zlivský/YR", "hamr/H", "Hamr/PV", "Hamry/HQ",
        "hamerský/YR", "negr/PIw", "negerský/YRN"])
    assert _derived(dic, ["slánský", "zlivský", "hamerský", "negerský"]) == {
        "slánský": ("adjective-name", "Slaná"), "zlivský": ("regular", "Zliv"),
        "hamerský": ("regular", "Hamry"), "negerský": None}
