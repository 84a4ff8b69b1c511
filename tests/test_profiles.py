"""Admissibility profiles as data (build_tools/profiles/*.profile)."""

import pytest

from build_tools.profiles import ProfileError, list_profiles, load_profile, parse_profile
from build_tools.tags import parse_tag

ALL = ["cs-box", "cs-klasik", "cs-kriskros", "cs-plus", "pl"]


def admit(profile, tag):
    return load_profile(profile).admit_tag(parse_tag(tag))


def test_all_five_profiles_ship_and_parse():
    assert set(ALL) <= set(list_profiles())
    for name in ALL:
        p = load_profile(name)
        assert p.name == name
        assert p.rules and p.min_length == 2 and p.max_length == 15
        assert "Features used:" in p.source_text
        assert p.language == ("pl" if name == "pl" else "cs")


@pytest.mark.parametrize("profile, tag, ok, rule", [
    ("pl", "N;NOM;SG;PROPN", False, "proper-name"),
    ("pl", "ABBR", False, "abbreviation"),
    ("pl", "UNKNOWN", False, "unknown-lemma"),
    ("pl", "1;V;PST;SG;MASC;FUSED", True, "fused-form"),
    ("pl", "N;ESS;SG", True, "noun"),
    ("pl", "V;CLITIC;1;SG", False, "clitic"),
    ("cs-box", "N;NOM;PL", True, "noun-nominative"),
    ("cs-box", "N;GEN;SG", False, "no-rule-admits"),
    ("cs-box", "ADJ;NOM;FEM;SG;CMPR", False, "no-rule-admits"),
    ("cs-box", "V;IND;PRS;1;PL", True, "present"),
    ("cs-box", "V;IMP;2;SG", True, "imperative"),
    ("cs-box", "V.PTCP;ACT;PRF;MASC;SG", False, "no-rule-admits"),
    ("cs-klasik", "N;GEN;SG", False, "no-rule-admits"),
    ("cs-klasik", "V.PTCP;ACT;PRF;MASC;SG", True, "participle"),
    ("cs-klasik", "V.CVB;PRS;MASC;SG", False, "transgressive"),
    ("cs-klasik", "INTJ", False, "interjection"),
    ("cs-plus", "N;GEN;SG", True, "noun"),
    ("cs-plus", "V.CVB;PRS;MASC;SG", True, "transgressive"),
    ("cs-kriskros", "N;NOM;SG", True, "noun-nominative"),
    ("cs-kriskros", "N;V.MSDR;NOM;SG", True, "noun-nominative"),
    ("cs-kriskros", "N;INS;SG", False, "no-rule-admits"),
    ("cs-kriskros", "ADJ;NOM;FEM;SG;SPRL", True, "adjective-nominative"),
    ("cs-kriskros", "ADJ;SHORT;MASC;SG", True, "adjective-short"),
    ("cs-kriskros", "V.PTCP;ACT;PRF;FEM;PL", True, "l-participle"),
    ("cs-kriskros", "V.PTCP;PASS;FEM;SG", True, "passive-participle"),
    ("cs-kriskros", "V;NFIN", True, "infinitive"),
    ("cs-kriskros", "V;COND;1;SG", False, "no-rule-admits"),
    ("cs-kriskros", "V;CLITIC;2;SG", False, "clitic"),
    ("cs-kriskros", "INTJ", False, "interjection"),
])
def test_profile_rules(profile, tag, ok, rule):
    assert admit(profile, tag) == (ok, rule)


def test_syncretic_tag_is_admitted_when_one_reading_is():
    # nom/acc syncretism: the nominative reading is admitted by the nominative-only profiles
    assert admit("cs-kriskros", "N;NOM;ACC;SG")[0]
    assert not admit("cs-kriskros", "N;GEN;ACC;SG")[0]


TOY = """
[profile]
name = toy
min-length = 3
max-length = 5
letters = abc
[rules]
deny  no-names   PROPN
allow nouns      N NOM|ACC !PL
deny  rest       *
"""


def test_parse_profile_conditions_and_first_match():
    p = parse_profile(TOY, "toy.profile")
    assert p.admit_tag(parse_tag("N;ACC;SG")) == (True, "nouns")
    assert p.admit_tag(parse_tag("N;ACC;PL")) == (False, "rest")
    assert p.admit_tag(parse_tag("N;NOM;SG;PROPN")) == (False, "no-names")
    assert p.check_form("ab") == "too-short"
    assert p.check_form("abcabc") == "too-long"
    assert p.check_form("abd") == "letter-not-in-profile"
    assert p.check_form("a-b") == "non-letter"
    assert p.check_form("abc") is None


@pytest.mark.parametrize("text, where", [
    ("[profile]\nname = x\n[rules]\nallow r N;BOGUS\n", "x.profile:4"),
    ("[profile]\nname = x\n[rules]\npermit r N\n", "x.profile:4"),
    ("[profile]\nname = x\n[rules]\nallow r N\nallow r V\n", "x.profile:5"),
    ("[profile]\nname = x\n[weird]\n", "x.profile:3"),
    ("[profile]\ncolour = red\n", "x.profile:2"),
])
def test_profile_errors_name_the_line(text, where):
    with pytest.raises(ProfileError, match=where):
        parse_profile(text, "x.profile")


def test_unknown_profile_name():
    with pytest.raises(ProfileError, match="unknown profile"):
        load_profile("klingon")


def test_a_shipped_profile_name_is_not_shadowed_by_a_file_or_directory_here(tmp_path, monkeypatch):
    """`--rules cs-kriskros` beside a directory named cs-kriskros failed ('profile file not found')."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cs-kriskros").mkdir()
    (tmp_path / "pl").write_text("not a profile\n", encoding="utf-8")
    assert load_profile("cs-kriskros").name == "cs-kriskros"
    assert load_profile("pl").name == "pl"
    with pytest.raises(ProfileError, match="is not a file"):
        load_profile("./cs-kriskros")  # a path is a path


def test_a_profile_file_is_read_each_time(tmp_path):
    """No cache keyed on a path: an edited profile file is read again."""
    path = tmp_path / "mine.profile"
    for name in ("first", "second"):
        path.write_text(f"[profile]\nname = {name}\n", encoding="utf-8")
        assert load_profile(str(path)).name == name
