"""The common tag vocabulary and its mappers (build_tools/tags.py)."""

import pytest

from build_tools.tags import (
    CATEGORY_OF, FEATURES, TagError, format_tag, parse_tag, readings_of, sgjp_to_tag, unimorph_to_tag,
)


def T(text):
    return parse_tag(text)


def test_format_parse_roundtrip():
    tag = frozenset({"N", "NOM", "SG", "FEM"})
    assert format_tag(tag) == "FEM;N;NOM;SG"
    assert parse_tag(format_tag(tag)) == tag


def test_parse_rejects_unknown_feature():
    with pytest.raises(TagError, match="BOGUS"):
        parse_tag("N;BOGUS")


def test_every_feature_has_one_category():
    assert set(CATEGORY_OF) == FEATURES


@pytest.mark.parametrize("sgjp, expected", [
    ("subst:sg:nom:f", "FEM;N;NOM;SG"),
    ("subst:sg:gen.acc:m1", "ACC;GEN;HUM;MASC;N;SG"),
    ("subst:pl:loc:n", "ESS;N;NEUT;PL"),
    ("adj:sg:nom.voc:m1.m2.m3:com", "ANIM;CMPR;HUM;INAN;MASC;NOM;SG;VOC;ADJ"),
    ("fin:sg:pri:perf", "1;FUT;IND;PFV;SG;V"),
    ("fin:pl:ter:imperf", "3;IND;IPFV;PL;PRS;V"),
    ("impt:sg:sec:perf", "2;IMP;PFV;SG;V"),
    ("inf:imperf", "IPFV;NFIN;V"),
    ("ger:sg:nom.acc:n:perf:neg", "ACC;N;NEG;NEUT;NOM;PFV;SG;V.MSDR"),
    ("pact:sg:nom:f:imperf:aff", "ACT;FEM;IPFV;NOM;PRS;SG;V.PTCP"),
    ("ppas:pl:nom:m1:perf:neg", "HUM;MASC;NEG;NOM;PASS;PFV;PL;V.PTCP"),
    ("pcon:imperf", "IPFV;PRS;V.CVB"),
    ("praet:sg:m1.m2.m3:perf:agl", "ANIM;HUM;IND;INAN;MASC;PFV;PST;SG;V"),
    ("brev:pun", "ABBR"),
    ("interj", "INTJ"),
    ("prep:gen", "ADP;GEN"),
    ("aglt:sg:pri:imperf:wok", "1;CLITIC;IPFV;SG;V"),
    ("ign", "UNKNOWN"),
])
def test_sgjp_mapping(sgjp, expected):
    assert sgjp_to_tag(sgjp) == T(expected)


def test_sgjp_name_class_and_capital_make_proper_names():
    assert "PROPN" in sgjp_to_tag("subst:sg:nom:f", ["nazwa_geograficzna"])
    assert "PROPN" not in sgjp_to_tag("subst:sg:nom:m1", ["nazwa_pospolita"])
    assert "PROPN" in sgjp_to_tag("subst:sg:nom:f", [], form="Ewa")


def test_sgjp_qualifiers():
    assert "NONSTD" in sgjp_to_tag("subst:sg:loc:m3", ["nazwa_pospolita"], ["niepopr."])
    assert "ARCH" in sgjp_to_tag("subst:sg:loc:m3", [], ["daw."])
    assert "VULG" in sgjp_to_tag("subst:sg:loc:m3", [], ["pot.,wulg."])


@pytest.mark.parametrize("um, expected", [
    ("N;LOC;SG", "ESS;N;SG"),
    ("V;IND;PRS;1;PL", "1;IND;PL;PRS;V"),
    ("V.MSDR;IPFV;GEN;NEUT;SG", "GEN;IPFV;N;NEUT;SG;V.MSDR"),
    ("V.PTCP;ACT;PRF;MASC;SG", "ACT;MASC;PRF;SG;V.PTCP"),
    ("V.CVB;PRS;MASC;SG", "MASC;PRS;SG;V.CVB"),
])
def test_unimorph_mapping(um, expected):
    assert unimorph_to_tag(um) == T(expected)


def test_unimorph_unknown_feature_is_an_error():
    with pytest.raises(TagError):
        unimorph_to_tag("N;NOM;XYZ")


def test_readings_of_spells_out_alternatives():
    readings = readings_of(T("N;NOM;ACC;SG;PL"))
    assert len(readings) == 4
    assert T("N;NOM;SG") in readings and T("N;ACC;PL") in readings
    assert readings_of(T("N;NOM;SG")) == [T("N;NOM;SG")]
    # POS features are never alternatives: a gerund stays N;V.MSDR
    assert readings_of(T("N;V.MSDR;NOM;SG")) == [T("N;V.MSDR;NOM;SG")]
