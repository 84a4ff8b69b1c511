"""The admissibility tables of the Czech profiles (issue: cs-box, cs-klasik, cs-plus, cs-kriskros),
admitted or refused through the compiler's real profile files and tile sets on the expander's records."""

from __future__ import annotations

import pytest

from build_tools.czech import expand_headwords
from czech_shipped import shipped
from build_tools.model import ExpandedForm, HeadwordEntry

profiles = pytest.importorskip("build_tools.profiles")

HEADWORDS = [("žena", "ZQ"), ("nést", "ATN"), ("mladý", "YKRN"), ("dělat", "JTN"), ("hrad", "HR"),
             ("mladší", "YE"), ("šťasten", "ON"), ("otec", "U"), ("dělání", "SN"), ("boje", "XN"),
             ("chata", "ZQ"), ("velký", "YKN"), ("Praha", "ZQ"), ("být", "IN"), ("ten", "Y"), ("ahoj", "")]


@pytest.fixture(scope="module")
def records():
    entries = [HeadwordEntry(w, "cs_CZ.dic", i, flags=f) for i, (w, f) in enumerate(HEADWORDS)]
    out = {}
    for r in expand_headwords(entries, shipped()):
        if isinstance(r, ExpandedForm):
            out.setdefault(r.form, []).append(r.tag)
    return out


def admitted(records, profile_name, word):
    prof = profiles.load_profile(profile_name)
    tags = records.get(word.lower(), [])
    return any(prof.admit_tag(t)[0] for t in tags)


TABLE = [  # word, cs-box, cs-klasik, cs-kriskros, cs-plus
    ("ŽENA", 1, 1, 1, 1), ("ŽENY", 1, 1, 1, 1), ("ŽENĚ", 0, 0, 0, 1), ("ŽENOU", 0, 0, 0, 1),
    ("NESU", 1, 1, 1, 1), ("NESEME", 1, 1, 1, 1), ("NESEM", 1, 1, 1, 1), ("NESOU", 1, 1, 1, 1),
    ("NES", 1, 1, 1, 1), ("NESTE", 1, 1, 1, 1), ("NÉST", 1, 1, 1, 1), ("NÉSTI", 1, 1, 1, 1),
    ("NESL", 0, 1, 1, 1), ("NESLY", 0, 1, 1, 1), ("NESEN", 0, 1, 1, 1), ("NESLS", 0, 0, 0, 0),
    ("ČERNÝ", None, None, None, None),
    ("MLADÝ", 1, 1, 1, 1), ("MLADÁ", 1, 1, 1, 1), ("MLADÉ", 1, 1, 1, 1), ("MLADÍ", 1, 1, 1, 1),
    ("MLADÉHO", 0, 0, 0, 1), ("MLADŠÍ", 0, 1, 1, 1), ("NEJMLADŠÍ", 0, 1, 1, 1),
    ("DĚLÁM", 1, 1, 1, 1), ("DĚLEJ", 1, 1, 1, 1), ("DĚLAL", 0, 1, 1, 1), ("DĚLÁNÍ", 1, 1, 1, 1),
    ("HRADY", 1, 1, 1, 1), ("HRADĚ", 0, 0, 0, 1), ("OTCŮV", 1, 1, 1, 1), ("OTCOVA", 1, 1, 1, 1),
    ("ŠŤASTEN", 0, 1, 1, 1), ("BOJÍCE", 0, 0, 0, 1), ("PRAHA", 0, 0, 0, 0), ("AHOJ", 0, 0, 0, 0),
    ("JSEM", 1, 1, 1, 1), ("BYL", 0, 1, 1, 1), ("TEN", 1, 1, 1, 1), ("TOHO", 0, 0, 0, 1),
]


@pytest.mark.parametrize("word,box,klasik,kriskros,plus", [t for t in TABLE if t[1] is not None],
                         ids=[t[0] for t in TABLE if t[1] is not None])
def test_profile_table(records, word, box, klasik, kriskros, plus):
    got = tuple(int(admitted(records, p, word)) for p in ("cs-box", "cs-klasik", "cs-kriskros", "cs-plus"))
    assert got == (box, klasik, kriskros, plus)


def test_box_admits_no_non_nominative_noun_form(records):
    """No oblique noun form in cs-box unless it is spelled like an admitted form."""
    prof = profiles.load_profile("cs-box")
    for form, tags in records.items():
        if any("N" in t for t in tags) and prof and any(prof.admit_tag(t)[0] for t in tags):
            assert any("NOM" in t or "N" not in t for t in tags), form


def test_kriskros_counts_ch_as_one_tile():
    from lexicon_service.rules import load_rule_set
    kk = load_rule_set("cs-kriskros").tile_set
    cs = load_rule_set("cs-scrabble").tile_set
    assert len(kk.key_of_text("chata")) == 4 and len(cs.key_of_text("chata")) == 5


def test_admitting_fast_path_matches_the_generic_path():
    """The Czech pass of build_tools.pipeline (admitting in workers) admits the keys the profile's
    FormAdmission admits of the expansion."""
    compile_ = pytest.importorskip("build_tools.compile")
    from lexicon_service.rules import load_rule_set
    from build_tools import pipeline
    from build_tools.czech import czech_pass
    ts = load_rule_set("cs-kriskros").tile_set
    prof = profiles.load_profile("cs-kriskros")
    entries = [HeadwordEntry(w, "cs_CZ.dic", i, flags=f) for i, (w, f) in enumerate(HEADWORDS)]
    admission = compile_.FormAdmission(prof, ts)
    want = {admission.admit(r.form, r.tag)[0] for r in expand_headwords(entries, shipped())
            if isinstance(r, ExpandedForm)} - {None}
    b = compile_.Compiler(prof, ts)
    items, lang = czech_pass(entries, shipped())
    pipeline.run(b, items, lang, workers=2)
    assert want == set(b.keys) and len(want) > 50
    assert ts.key_of_text("nesem") in b.keys and ts.key_of_text("ženě") not in b.keys


@pytest.mark.parametrize("word,expected", [
    ("ŠŤASTEN", 1), ("ŠŤASTNA", 1), ("ŠŤASTNU", 0),   # short forms: nominative only
    ("NESEN", 1), ("NESENA", 1), ("NESENU", 0),       # passive participle: not the accusative
    ("NEVELKÝ", 1), ("NEVELKÁ", 1),                   # seed 004's example: ne- by the dictionary's N flag
    ("NEHRAD", 0),                                    # no ne- for nouns
    ("NENESU", 1), ("NENESL", 1),                     # negated verbs are admitted
])
def test_kriskros_short_forms_and_negation(records, word, expected):
    assert int(admitted(records, "cs-kriskros", word)) == expected
