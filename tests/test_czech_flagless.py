"""Flagless cs_CZ.dic lines (no paradigm flag): what each Czech profile admits and what stays rejected
(build_tools/czech/flagless/rules.py, data/closed_class.tsv, data/flagless.tsv)."""

from __future__ import annotations

import pytest

from build_tools.czech import expand_headwords
from build_tools.czech.flagless.rules import adverb_of_adjective, ordinal_adverb
from czech_shipped import shipped
from build_tools.model import ExpandedForm, HeadwordEntry, Rejection

profiles = pytest.importorskip("build_tools.profiles")

# flagless dictionary lines as cs_CZ.dic has them ("" = no flag, "N" = negation only)
HEADWORDS = [
    # adverbs (reviewed list, regular derivations)
    ("opravdu", ""), ("loni", ""), ("pryč", ""), ("dohromady", ""), ("poprvé", ""), ("podesáté", ""),
    ("desetkráte", ""), ("drobounce", ""), ("česky", ""),
    # adverbs that are also case forms of other words (domů: dům, trochu: trocha, tu: ten)
    ("například", ""), ("znovu", ""), ("domů", ""), ("trochu", ""), ("tu", ""), ("kdy", ""),
    # closed classes
    ("se", ""), ("vzhledem", ""), ("jednak", ""), ("jeho", ""), ("jejich", ""), ("devět", ""), ("půl", ""),
    ("alespoň", ""), ("kvůli", ""), ("nicméně", ""), ("nejen", ""), ("ahoj", ""), ("sakra", ""),
    ("nazdar", ""), ("tolik", ""), ("několika", ""), ("patero", ""), ("patery", ""), ("veškero", ""),
    # indeclinable and irregular nouns, indeclinable adjectives
    ("menu", ""), ("zombie", ""), ("ovoce", ""), ("ovocem", ""), ("křest", ""), ("křty", ""), ("křtem", ""),
    ("šneci", ""), ("bozi", ""), ("bedra", ""), ("beder", ""),
    ("fajn", ""),
    # imperatives listed as flagless triples
    ("hrej", "N"), ("hrejme", "N"), ("hrejte", "N"), ("brzdi", "N"), ("brzděte", "N"), ("husti", "N"),
    # forms of another headword (stav/H: stavu; druhý/Y: druzí)
    ("stavu", ""), ("druzí", ""),
    # stay rejected: transgressives, noun case forms without a headword, numeral look-alikes
    ("přibyvše", ""), ("plačíce", ""), ("hmyze", ""), ("dvoje", ""), ("zombii", ""),
]


@pytest.fixture(scope="module")
def expanded():
    entries = [HeadwordEntry(w, "cs_CZ.dic", i, flags=f) for i, (w, f) in enumerate(HEADWORDS)]
    forms, rejected = {}, {}
    for r in expand_headwords(entries, shipped()):
        if isinstance(r, ExpandedForm):
            forms.setdefault(r.form, []).append(r.tag)
        elif isinstance(r, Rejection):
            rejected.setdefault(r.item, set()).add(r.reason)
    return forms, rejected


def admitted(forms, profile_name, word):
    prof = profiles.load_profile(profile_name)
    return any(prof.admit_tag(t)[0] for t in forms.get(word, []))


TABLE = [  # word, cs-box, cs-klasik, cs-kriskros, cs-plus
    ("opravdu", 1, 1, 1, 1), ("loni", 1, 1, 1, 1), ("pryč", 1, 1, 1, 1), ("dohromady", 1, 1, 1, 1),
    ("poprvé", 1, 1, 1, 1), ("podesáté", 1, 1, 1, 1), ("desetkráte", 1, 1, 1, 1), ("drobounce", 1, 1, 1, 1),
    ("česky", 1, 1, 1, 1),
    ("například", 1, 1, 1, 1), ("znovu", 1, 1, 1, 1), ("domů", 1, 1, 1, 1), ("trochu", 1, 1, 1, 1),
    ("tu", 1, 1, 1, 1), ("kdy", 1, 1, 1, 1), ("se", 1, 1, 1, 1), ("vzhledem", 1, 1, 1, 1),
    ("jednak", 1, 1, 1, 1), ("sebe", 0, 0, 0, 1), ("jeho", 1, 1, 1, 1), ("jejich", 1, 1, 1, 1),
    ("devět", 1, 1, 1, 1), ("půl", 1, 1, 1, 1),
    ("alespoň", 1, 1, 1, 1), ("kvůli", 1, 1, 1, 1), ("nicméně", 1, 1, 1, 1), ("nejen", 1, 1, 1, 1),
    ("ahoj", 0, 0, 0, 0), ("sakra", 0, 0, 0, 0), ("nazdar", 0, 0, 0, 0),
    ("tolik", 1, 1, 1, 1), ("několika", 0, 0, 0, 1), ("patero", 1, 1, 1, 1), ("patery", 1, 1, 1, 1),
    ("veškero", 0, 0, 0, 0),
    ("menu", 1, 1, 1, 1), ("zombie", 1, 1, 1, 1), ("ovoce", 1, 1, 1, 1), ("ovocem", 0, 0, 0, 1),
    ("křest", 1, 1, 1, 1), ("křty", 1, 1, 1, 1), ("křtem", 0, 0, 0, 1), ("fajn", 1, 1, 1, 1),
    ("šneci", 1, 1, 1, 1), ("bozi", 1, 1, 1, 1), ("bedra", 1, 1, 1, 1), ("beder", 0, 0, 0, 1),
    ("hrej", 1, 1, 1, 1), ("hrejme", 1, 1, 1, 1), ("hrejte", 1, 1, 1, 1), ("nehrejte", 1, 1, 1, 1),
    ("brzdi", 1, 1, 1, 1), ("brzděte", 1, 1, 1, 1), ("nebrzděte", 1, 1, 1, 1),
    ("stavu", 0, 0, 0, 1), ("druzí", 1, 1, 1, 1),
    ("přibyvše", 0, 0, 0, 0), ("plačíce", 0, 0, 0, 0), ("hmyze", 0, 0, 0, 1), ("dvoje", 0, 0, 0, 0),
    ("zombii", 0, 0, 0, 0),
]


@pytest.mark.parametrize("word,box,klasik,kriskros,plus", TABLE, ids=[t[0] for t in TABLE])
def test_flagless_profile_table(expanded, word, box, klasik, kriskros, plus):
    forms, _ = expanded
    got = tuple(int(admitted(forms, p, word)) for p in ("cs-box", "cs-klasik", "cs-kriskros", "cs-plus"))
    assert got == (box, klasik, kriskros, plus)


@pytest.mark.parametrize("word", ["ahoj", "sakra", "nazdar"])
def test_interjections_are_tagged_intj_not_adverbs(expanded, word):
    forms, _ = expanded
    assert forms[word] and all("INTJ" in t and "ADV" not in t for t in forms[word])


@pytest.mark.parametrize("word", ["přibyvše", "plačíce", "dvoje", "zombii", "veškero"])
def test_unclear_words_stay_unclassified(expanded, word):
    forms, rejected = expanded
    assert word not in forms
    assert "unclassified" in rejected.get(word, set())


@pytest.mark.parametrize("word", ["stavu", "druzí", "hrejte", "opravdu", "menu", "ahoj"])
def test_classified_words_are_not_reported_unclassified(expanded, word):
    _, rejected = expanded
    assert "unclassified" not in rejected.get(word, set())


def test_form_of_other_headword_keeps_its_tag(expanded):
    forms, _ = expanded
    assert all("N" in t and "NOM" not in t for t in forms["stavu"])       # stav: genitive/dative/locative
    assert any("ADJ" in t and "NOM" in t for t in forms["druzí"])


def test_adverb_of_adjective_rule():
    assert adverb_of_adjective("drobounce", shipped()) == "drobounký"
    for w in ("přibyvše", "plačíce", "hmyze", "dvoje", "statisíce"):
        assert adverb_of_adjective(w, shipped()) is None, w


def test_ordinal_adverbs():
    for w in ("poprvé", "podesáté", "potřetí", "zadruhé", "napopáté", "desetkráte"):
        assert ordinal_adverb(w, shipped()), w
    for w in ("pozdě", "potom", "zato", "pokradmo"):
        assert not ordinal_adverb(w, shipped()), w


def test_imperative_triples():
    idx = shipped().imperative_index
    assert idx["hrej"] == ("hrát", ("IMP", "SG", "2", "V"))
    assert idx["hrejte"][1] == ("2", "IMP", "PL", "V")
    assert idx["brzděme"] == ("brzdit", ("1", "IMP", "PL", "V"))
    assert idx["husti"][0] == "hustit"
    # short imperatives after another consonant name their infinitive too
    assert idx["nechte"] == ("nechat", ("2", "IMP", "PL", "V"))
    assert idx["uč"][0] == "učit" and idx["čum"][0] == "čumět" and idx["jisť"][0] == "jistit"
    assert "dobyde" not in idx and "přibyvše" not in idx
