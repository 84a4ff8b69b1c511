"""Words of adjectival declension the dictionary files outside the -ý adjectives: nouns filed under their
neuter or feminine nominative (jízdné/Y, roštěná/Y) and present participles flagged as -í nouns
(pálící/S). Each a rule over cs_CZ.dic lines (build_tools/czech/adjectives.py, expand.py)."""

from __future__ import annotations

import pytest

from build_tools.czech.expand import expand_entry
from build_tools.model import Reading, Rejection
from czech_shipped import shipped


def tags_of(word, flags):
    out = {}
    for it in expand_entry(word, flags, shipped()):
        if isinstance(it, Reading):
            out.setdefault(it.form, set()).add(frozenset(it.tag))
    return out


@pytest.mark.parametrize("form, feats", [
    ("jízdné", {"N", "NEUT", "NOM", "SG"}), ("jízdná", {"N", "NEUT", "NOM", "PL"}),
    ("jízdného", {"N", "NEUT", "GEN", "SG"}), ("jízdnými", {"N", "INS", "PL"})])
def test_neuter_noun_of_adjectival_declension(form, feats):
    assert any(feats <= t for t in tags_of("jízdné", "Y")[form])


def test_adjectival_noun_is_not_an_adjective():
    assert not any("ADJ" in t for ts in tags_of("výkupné", "Y").values() for t in ts)
    assert {r.rule for r in expand_entry("výkupné", "Y", shipped()) if isinstance(r, Reading)} \
        == {"noun-adjectival/Y"}


@pytest.mark.parametrize("form, feats", [
    ("roštěná", {"N", "FEM", "NOM", "SG"}), ("roštěné", {"N", "FEM", "NOM", "PL"}),
    ("roštěnou", {"N", "FEM", "INS", "SG"})])
def test_feminine_noun_of_adjectival_declension(form, feats):
    assert any(feats <= t for t in tags_of("roštěná", "Y")[form])


def test_lowercase_ova_lines_stay_out():
    # ťienová/Y, radová/Y: lowercase copies of surnames, not admitted (precision first)
    items = expand_entry("ťienová", "Y", shipped())
    assert not any(isinstance(it, Reading) for it in items)
    assert any(isinstance(it, Rejection) and it.reason == "untagged-form" for it in items)


def test_masculine_adjective_unchanged():
    assert any({"ADJ", "MASC", "NOM", "SG"} <= t for t in tags_of("jízdný", "Y")["jízdný"])


@pytest.mark.parametrize("word", ["pálící", "mírnící"])
def test_present_participle_flagged_s_declines_in_other_class(word):
    tags = tags_of(word, "S")
    stem = word[:-1]
    assert any({"ADJ", "NOM", "SG"} <= t for t in tags[word])
    assert any({"ADJ", "GEN", "MASC", "SG"} <= t for t in tags[stem + "ího"])
    assert not any("N" in t for ts in tags.values() for t in ts)


def test_neuter_noun_in_i_keeps_s():
    # náměstí/S is a noun of the stavení type, not a participle
    assert any({"N", "NEUT", "NOM", "SG"} <= t for t in tags_of("náměstí", "S")["náměstí"])


def test_heldout_counts_adjectival_nouns_and_writes_misses(tmp_path):
    from tools import czech_heldout as heldout
    ref = {"jízdné": {"noun-nom-pl": {"jízdná"}, heldout.ALL: {"jízdná"}},
           "hovězí": {"noun-nom-sg": {"hovězí"}, heldout.ALL: {"hovězí"}}}
    m = heldout.measure(["hovězí", "jízdné"], ref, shipped())
    assert (m["slots"], m["hits"], m["in_other_class"]) == (2, 1, 1)
    out = tmp_path / "misses.tsv"
    heldout.write_misses(out, {"full": m})
    assert out.read_text(encoding="utf-8").splitlines()[0].startswith("full\thovězí/noun-nom-sg: hovězí\t")
